// Gatehouse as an application mounts it: the routes of createGatehouse over
// the real store with the demo's roles (identities carry capabilities and
// grantable roles), on a URLPattern table, like the README.
//
// Options beyond the store (all absent: Gatehouse as configured by default):
// - `sweep: true` also answers `POST /bench/sweep` by running one Reaper
//   sweep in this process, so session checks and the sweep share the event
//   loop as they would in production; a KV store then reads through a
//   second handle of its file, as the demo's does (`KvRecordsOptions.readKv`).
// - `reset: true` gives the password-reset request a public URL and a
//   mailer that drops the mail.
// - `idleTimeout: ms` sets Gatehouse's idle timeout (last_seen is then
//   written at most once per min(60 s, idleTimeout / 10) per session).
// - `without: [...]` leaves store writes out (./_store_wrappers.ts):
//   `"idle-writes"` (and the idle timeout becomes the session TTL, so no
//   check is refused for idleness), `"audit-trail"`, `"limiter-counts"`
//   (every counter), `"account-lock-counts"` (the account lock's alone).
//
// `POST /bench/settled` answers once the writes Gatehouse made after its
// answers so far (last_seen, refusal events) have landed, so a scenario can
// end a variant's turn with its own background work done.

import { createGatehouse, type Handler } from "../../mod.ts";
import { DEFAULT_SESSION_TTL } from "../../server/http/limits.ts";
import { COOKIE_NAME, ROLES } from "../_fixtures.ts";
import { config, listen } from "./_listen.ts";
import { openStore, type StoreConfig } from "./_open_store.ts";
import { storeWithout, type StoreWrite } from "./_store_wrappers.ts";

// What the harness passes to this server.
type OursConfig = StoreConfig & {
  sweep?: boolean;
  reset?: boolean;
  idleTimeout?: number;
  without?: StoreWrite[];
};

const options = config<OursConfig>();
const opened = await openStore(options, { readHandle: options.sweep });
const without = options.without ?? [];
const idleTimeout = without.includes("idle-writes")
  ? DEFAULT_SESSION_TTL
  : options.idleTimeout;
const store = storeWithout(opened.store, without);
const { routes, settled } = createGatehouse({
  store,
  cookieName: COOKIE_NAME,
  roles: {
    admin: {
      capabilities: [...ROLES.admin.capabilities],
      grants: [...ROLES.admin.grants],
    },
    member: {},
  },
  ...(idleTimeout === undefined ? {} : { idleTimeout }),
  ...(options.reset
    ? {
      publicUrl: "http://127.0.0.1",
      mailer: { send: () => Promise.resolve() },
    }
    : {}),
});

// Gatehouse's routes as they come, then the bench's own.
const table: Array<{ method: string; pattern: URLPattern; handler: Handler }> =
  [...routes, {
    method: "POST",
    pattern: new URLPattern({ pathname: "/bench/settled" }),
    handler: async () => {
      await settled();
      return new Response(null, { status: 204 });
    },
  }];

if (options.sweep) {
  const { sweepHandler } = await import("./_sweep.ts");
  table.push({
    method: "POST",
    pattern: new URLPattern({ pathname: "/bench/sweep" }),
    handler: sweepHandler(store),
  });
}

// The README's mount, word for word.
const handler = (req: Request, info?: Deno.ServeHandlerInfo) => {
  const route = table.find((r) =>
    r.method === req.method && r.pattern.test(req.url)
  );
  return route?.handler(req, undefined, info) ??
    new Response("Not found", { status: 404 });
};

listen(handler);
