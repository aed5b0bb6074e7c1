// Gatehouse as an application mounts it: the routes of createGatehouse over
// the real store with the demo's roles (identities carry capabilities and
// grantable roles), on a URLPattern table, like the README.
//
// With `sweep: true` it also answers `POST /bench/sweep` by running one
// Reaper sweep in this process, so session checks and the sweep share the
// event loop as they would in production. With `reset: true` it mounts the
// password-reset request handler without its limiter, and a mailer that
// drops the mail.

import { createGatehouse, type Handler } from "../../mod.ts";
import { COOKIE_NAME, ROLES } from "../_fixtures.ts";
import { config, listen } from "./_listen.ts";
import { openStore, type StoreConfig } from "./_open_store.ts";

const options = config<StoreConfig & { sweep?: boolean; reset?: boolean }>();
const opened = await openStore(options);
const { routes, links } = createGatehouse({
  store: opened.store,
  cookieName: COOKIE_NAME,
  roles: {
    admin: {
      capabilities: [...ROLES.admin.capabilities],
      grants: [...ROLES.admin.grants],
    },
    member: {},
  },
  ...(options.reset
    ? {
      publicUrl: "http://127.0.0.1",
      mailer: { send: () => Promise.resolve() },
    }
    : {}),
});

// Gatehouse's routes as they come, plus the bench's own sweep trigger.
const table: Array<{ method: string; pattern: URLPattern; handler: Handler }> =
  [...routes];

if (options.reset) {
  // First in the table: the handler alone, so the limiter's count does not
  // stop the run (the scenario measures the handler's equal work).
  table.unshift({
    method: "POST",
    pattern: new URLPattern({ pathname: "/api/auth/password-reset" }),
    handler: links.requestPasswordReset,
  });
}

if (options.sweep) {
  const { sweepHandler } = await import("./_sweep.ts");
  table.push({
    method: "POST",
    pattern: new URLPattern({ pathname: "/bench/sweep" }),
    handler: sweepHandler(opened.store),
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
