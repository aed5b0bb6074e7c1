// Files under static/, read once at start and served from memory (so a
// path can never leave the folder). static/build/ is not among them: the
// island bundle is served under its content hash instead.

/** A file ready to serve. */
export interface StaticFile {
  /** Its bytes. */
  body: Uint8Array<ArrayBuffer>;
  /** Its media type. */
  type: string;
}

const TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  txt: "text/plain; charset=utf-8",
};

const STATIC = new URL("../static/", import.meta.url);

/**
 * Reads static/ (without build/) into a map from URL path to file.
 *
 * @param dir The folder; static/ by default.
 * @returns URL path (`/demo.css`) → file.
 */
export async function readStatic(
  dir: URL = STATIC,
): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  async function walk(folder: URL, prefix: string): Promise<void> {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory) {
        if (prefix === "/" && entry.name === "build") continue;
        await walk(
          new URL(`${entry.name}/`, folder),
          `${prefix}${entry.name}/`,
        );
      } else if (entry.isFile) {
        const extension = entry.name.slice(entry.name.lastIndexOf(".") + 1);
        files.set(`${prefix}${entry.name}`, {
          body: await Deno.readFile(new URL(entry.name, folder)),
          type: TYPES[extension] ?? "application/octet-stream",
        });
      }
    }
  }
  await walk(dir, "/");
  return files;
}
