// `deno task demo`: the Gatehouse demo site (DESIGN.md §7).
//
// Environment: PORT (8000), GATEHOUSE_HOSTNAME (localhost: the address to
// listen on), GATEHOUSE_KV_PATH (./data/gatehouse.kv), DATABASE_URL
// (postgres://… selects Postgres), PUBLIC_URL (the site's origin in links;
// http://localhost:PORT by default), GATEHOUSE_ADMIN_EMAIL
// (admin@example.com: who the first-run link is for), GATEHOUSE_ADMIN_NAME
// (their name; the email's local part by default), GATEHOUSE_IDLE_TIMEOUT
// (24h) and GATEHOUSE_REAUTH_WINDOW (30m): seconds, or with s, m, h or d;
// GATEHOUSE_DEVICE_KEYS (the keys of the trusted-device cookie; a key of
// this process, with a warning, when unset) and GATEHOUSE_TRUSTED_PROXY
// (x-forwarded-for, or x-forwarded-for@<proxy addresses>).
// GATEHOUSE_OIDC_ISSUER, GATEHOUSE_OIDC_CLIENT_ID and
// GATEHOUSE_OIDC_CLIENT_SECRET add a single sign-on provider, with
// GATEHOUSE_OIDC_NAME, _ID, _DOMAINS, _CREATE, _ROLE_MAP, _DEFAULT_ROLE,
// _SYNC_ROLE and _ENFORCE (demo_config.ts, README "Single sign-on").
// GATEHOUSE_SMTP_URL (smtp://user:pass@host:587 or smtps://…:465) and
// GATEHOUSE_MAIL_FROM ("Name <address>") send mail over SMTP; without them
// the development mailer prints reset links and notices, and on a loopback
// address keeps them at /dev/mail (demo/mail.ts).
//
// On Deno Deploy (DENO_DEPLOY or DENO_DEPLOYMENT_ID is set) the store is the
// app's Deno KV database unless DATABASE_URL is set, and the island bundle is
// the one `deno task build` made in Deploy's build step.

import {
  firstRunInvitation,
  type Handler,
  type Reaper,
  type Store,
} from "@gatehouse/server";
import { DEFAULT_LIMITS } from "./server/http/limits.ts";
import { KvStore } from "@gatehouse/server/kv";
import { type OpenedStore, openStoreFromEnv } from "@gatehouse/server/open";
import { createDemoApp } from "./demo/app.ts";
import { demoMailFromEnv } from "./demo/mail.ts";
import { defaultLogger } from "./server/http/logger.ts";
import {
  firstAdminFromEnv,
  portFromEnv,
  processDeviceKeys,
  sessionSettingsFromEnv,
  ssoFromEnv,
} from "./demo_config.ts";
import { buildIslands, loadIslands } from "./demo/bundle.ts";

// The reaper's hourly sweep of expired sessions, links and limiter counts,
// run on the gatehouse's own reaper (createDemoApp hands it out), so the
// demo's settings apply to it.
// Deno Deploy discovers crons by evaluating the main module's top level, and
// ignores those registered later or inside conditionals, so this one is
// registered here, unconditionally, before any await or Deno.serve. The
// reaper is therefore never start()ed: without an interval it would register
// a second "gatehouse-reaper" cron of its own, too late for Deploy. Locally
// the same cron runs in process (deno.json enables "cron").
const reaper = Promise.withResolvers<Reaper>();
Deno.cron("gatehouse-reaper", "0 * * * *", async () => {
  // Waits for the store should the first run come before startup ends.
  await (await reaper.promise).sweep().catch(() => {}); // failures are logged
});
console.log('Reaper: hourly sweep registered as Deno.cron "gatehouse-reaper"');

const env = Deno.env.toObject();
const onDeploy = env.DENO_DEPLOY === "true" ||
  env.DENO_DEPLOYMENT_ID !== undefined;
// Every setting is read before the store opens and the demo listens, so a
// bad one stops it at start with one error, never after it has announced
// itself.
const port = portFromEnv(env.PORT);
const settings = sessionSettingsFromEnv(env);
const sso = ssoFromEnv(env);
const firstAdmin = firstAdminFromEnv(env);

const opened = await openStore();
const islands = onDeploy ? await loadIslands() : await buildIslands();

// Requests wait for the app, which needs the port for its links.
const app = Promise.withResolvers<Handler>();
// On Deploy the platform decides where to listen: keep Deno.serve's defaults.
const listen = onDeploy
  ? {}
  : { port, hostname: env.GATEHOUSE_HOSTNAME || "localhost" };
const server = Deno.serve(
  { ...listen, onListen() {} },
  async (req, info) => (await app.promise)(req, undefined, info),
);
let publicUrl = env.PUBLIC_URL?.trim() || undefined;
if (!onDeploy) publicUrl ??= `http://localhost:${server.addr.port}`;
const mail = demoMailFromEnv(env, {
  // On Deploy the demo faces the network: never the development mailbox.
  listening: onDeploy ? "" : server.addr.hostname,
  logger: defaultLogger,
  ...(publicUrl === undefined ? {} : { publicUrl }),
});
const demo = await createDemoApp({
  store: opened.store,
  islands,
  mail,
  ...settings,
  deviceKeys: settings.deviceKeys ?? processDeviceKeys(defaultLogger),
  ...(publicUrl === undefined ? {} : { publicUrl }),
  ...(sso === undefined ? {} : { sso }),
});
app.resolve(demo.handler);
reaper.resolve(demo.reaper);

console.log(
  `Gatehouse demo on ${
    publicUrl ?? "your deployment's URL"
  } (store: ${opened.kind} at ${opened.location})\n${mail.summary}`,
);
await announceFirstRun(opened.store);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  try {
    Deno.addSignalListener(signal, stop);
  } catch {
    // Not every platform delivers every signal.
  }
}

async function stop(): Promise<void> {
  await server.shutdown();
  (mail.mailer as { close?: () => void } | undefined)?.close?.();
  await (await reaper.promise).stop();
  await opened.close();
  Deno.exit(0);
}

// On an empty store: a one-time link to set the first administrator's
// password (an invitation), so no other command is needed to get in.
async function announceFirstRun(store: Store): Promise<void> {
  const { email, name } = firstAdmin;
  const link = await firstRunInvitation({
    store,
    email,
    name,
    role: "admin",
    // Deploy without PUBLIC_URL: the origin is unknown here; print the path.
    publicUrl: publicUrl ?? "http://localhost",
  });
  if (link === null) return;
  const shown = publicUrl === undefined
    ? `<your deployment's URL>${new URL(link).pathname}${new URL(link).hash}`
    : link;
  const days = DEFAULT_LIMITS.invitationTtl / 86_400_000;
  console.log(
    `\nNo accounts yet. Set the password of the first administrator (${email}) here:\n\n  ${shown}\n\n` +
      `It works once and expires in ${days} days; while no account exists, each start prints a new one.`,
  );
}

async function openStore(): Promise<OpenedStore> {
  if (!onDeploy || env.DATABASE_URL?.trim()) return await openStoreFromEnv(env);
  // Deno Deploy: the app's own KV database, opened without a path.
  const kv = await Deno.openKv();
  const store = new KvStore(kv);
  await store.migrate();
  return {
    store,
    kind: "kv",
    location: "Deno Deploy",
    close: () => Promise.resolve(kv.close()),
  };
}
