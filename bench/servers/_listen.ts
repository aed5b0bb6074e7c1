// Every server under test starts the same way: listen on 127.0.0.1 with a
// free port, then print one JSON line `{"port": N, ...}` that the harness
// waits for (bench/_servers.ts). Nothing else may go to stdout.

/** The JSON configuration the harness passes as the first argument. */
export function config<T>(): T {
  return JSON.parse(Deno.args[0] ?? "{}") as T;
}

/** Serves `handler` on 127.0.0.1 and announces the port and `extra`. */
export function listen(
  handler: Deno.ServeHandler,
  extra: Record<string, unknown> = {},
): Deno.HttpServer {
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen({ port }) {
      console.log(JSON.stringify({ port, ...extra }));
    },
  }, handler);
  Deno.addSignalListener("SIGTERM", () => {
    server.shutdown().finally(() => Deno.exit(0));
  });
  return server;
}

/** The value of cookie `name` in a Cookie header, the simplest correct way. */
export function cookieValue(
  header: string | null,
  name: string,
): string | null {
  if (header === null) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      return part.slice(eq + 1).trim();
    }
  }
  return null;
}
