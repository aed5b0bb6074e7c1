// A program for the login-files scenario: Gatehouse on an in-memory KV
// store behind a real server, one account, one session check (so start-up
// code has run), then LOGINS password logins one after another, their work
// after the answer settled, and exit. Run twice under `--coverage`, with 0
// and with 3 logins, the files whose functions ran more often in the second
// are the files a login runs code in.

import { createGatehouse } from "../../mod.ts";
import { argon2Hasher } from "../../server/core/password.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { COOKIE_NAME, PASSWORD, USER } from "../_fixtures.ts";

const logins = Number(Deno.env.get("LOGINS") ?? "0");
const kv = await Deno.openKv(":memory:");
const store = new KvStore(kv);
await store.migrate();
await store.createUser({
  ...USER,
  emailKey: USER.email,
  passwordHash: await argon2Hasher().hash(PASSWORD),
  createdAt: Date.now(),
});
const { routes, settled } = createGatehouse({ store, cookieName: COOKIE_NAME });
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  (request, info) => {
    for (const route of routes) {
      const params = route.method === request.method &&
        route.pattern.exec(request.url);
      if (params) return route.handler(request, params, info);
    }
    return new Response(null, { status: 404 });
  },
);
const origin = `http://127.0.0.1:${server.addr.port}`;
await (await fetch(`${origin}/api/auth/session`)).body?.cancel();
for (let i = 0; i < logins; i++) {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: USER.email, password: PASSWORD }),
  });
  await response.body?.cancel();
  if (response.status !== 200) throw new Error(`login: ${response.status}`);
}
await settled();
await server.shutdown();
kv.close();
