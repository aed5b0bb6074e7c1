// Lazy loading (issue 31): what a session check does not need is imported
// by the first request that needs it, never at start-up. Each test runs
// Gatehouse in a fresh Deno process (this file, run with `deno run`: see
// the end) over a KV file and real HTTP on 127.0.0.1; the process lists the
// modules it loaded through the inspector protocol (`node:inspector`:
// `Debugger.scriptParsed` names every script V8 compiled, npm packages by
// their path under node_modules), so nothing in Gatehouse records its own
// loads for the test.
//
// 1. A session check, a login (real argon2id) and a sign-out succeed while
//    WebAuthn, TOTP (otpauth, uqr), the password dictionary, OpenID Connect
//    (openid-client, jose), nodemailer and node:crypto were never imported,
//    nor the modules of the features besides sign-in (administration, one's
//    account, the link routes, the second factor, passkeys, single sign-on:
//    server/features/_deferred.ts).
// 2. Each lazily loaded library's and feature's routes work the first time
//    they are called, several at once (the calls share one import): passkey
//    options, TOTP enrolment and confirmation, a password change the
//    dictionary refuses, a link check, an SSO start against a real provider
//    (npm:oidc-provider, run by the test process) and invitations mailed
//    through the real SMTP mailer to a real SMTP server (npm:smtp-server,
//    also the test's).

import assert from "node:assert/strict";
import { Session } from "node:inspector";
import { argon2Hasher, createGatehouse, type Handler } from "../../mod.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { hashToken, sessionToken } from "../../server/core/_crypto.ts";
import { httpCaller } from "../fixtures/http_caller.ts";

const ROOT = new URL("../../", import.meta.url).href;
const PASSWORD = "correct horse battery staple";
const ROLES = {
  admin: { capabilities: ["users.manage"], grants: ["admin", "member"] },
  member: {},
};
/** Libraries a session check, a login and a sign-out never need. */
const NOT_ON_THE_SIGN_IN_PATH = [
  "@simplewebauthn/server",
  "otpauth",
  "uqr",
  "@zxcvbn-ts/language-common",
  "openid-client",
  "jose",
  "nodemailer",
];
/**
 * The feature modules imported by the first call of one of their
 * operations (server/features/_deferred.ts), never by a session check, a
 * login or a sign-out.
 */
const FEATURE_MODULES = [
  "server/features/_admin_operations.ts",
  "server/features/account.ts",
  "server/features/account_links.ts",
  "server/features/second_factor.ts",
  "server/features/passkeys.ts",
  "server/features/sso.ts",
];
/** The login limiter's threshold in the refusal test. */
const REFUSE_AFTER = 3;
const FIREFOX =
  "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
/** Concurrent first calls of each library. */
const AT_ONCE = 4;

// ---------------------------------------------------------------------------
// The tests (the parent process).

interface Loaded {
  /** npm packages, by name. */
  packages: string[];
  /** Node's built-in modules, by specifier (`node:crypto`). */
  builtins: string[];
  /** The repository's own modules, by path. */
  modules: string[];
}

Deno.test("a session check, a login and a sign-out import no WebAuthn, TOTP, password dictionary, OpenID Connect or mail library, nor any other feature's module", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_lazy_" });
  try {
    const out = await child("sign-in", { kvPath: `${dir}/store.kv` });
    assert.deepEqual(out.statuses, {
      noSession: 401,
      login: 200,
      session: 200,
      logout: 204,
      afterLogout: 401,
    });
    const loaded = out.loaded as Loaded;
    // The listing sees npm packages: the login's argon2id is among them.
    assert.ok(
      loaded.packages.includes("@node-rs/argon2") ||
        loaded.packages.includes("hash-wasm"),
      `no argon2 package among ${loaded.packages.join(", ")}`,
    );
    assert.ok(loaded.modules.includes("server/gatehouse.ts"));
    for (const library of NOT_ON_THE_SIGN_IN_PATH) {
      assert.ok(
        !loaded.packages.includes(library),
        `${library} was imported: ${loaded.packages.join(", ")}`,
      );
    }
    assert.ok(!loaded.modules.includes("server/core/totp.ts"));
    for (const feature of FEATURE_MODULES) {
      assert.ok(!loaded.modules.includes(feature), `${feature} was imported`);
    }
    // node:crypto alone costs about 20 ms of a cold start: tokens are
    // hashed by server/core/_sha256.ts instead.
    assert.ok(
      !loaded.builtins.includes("node:crypto"),
      `node:crypto was imported: ${loaded.builtins.join(", ")}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process that has only answered session checks has imported no npm package, no node:crypto and no feature module", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_lazy_" });
  try {
    const out = await child("session-check", { kvPath: `${dir}/store.kv` });
    assert.deepEqual(out.statuses, { live: 200, unknown: 401 });
    const loaded = out.loaded as Loaded;
    assert.ok(loaded.modules.includes("server/gatehouse.ts"));
    // Not even the browser-label parser (bowser): a session check records
    // no client, and one npm package in the graph costs a cold start the
    // whole npm resolution.
    assert.deepEqual(loaded.packages, []);
    assert.ok(
      !loaded.builtins.includes("node:crypto"),
      `node:crypto was imported: ${loaded.builtins.join(", ")}`,
    );
    // Nor the modules of the features, administration included, though
    // the package's main entry exports `createAdmin`.
    const features = loaded.modules.filter((m) =>
      m.startsWith("server/features/")
    );
    for (const feature of FEATURE_MODULES) {
      assert.ok(!features.includes(feature), `${feature} was imported`);
    }
    for (
      const dependency of [
        "server/features/invitations.ts",
        "server/features/invitation_admin.ts",
        "server/features/audit_log.ts",
        "server/features/_link_handlers.ts",
        "server/features/password_reset.ts",
        "server/core/webauthn.ts",
        "server/core/_factor_proofs.ts",
      ]
    ) {
      assert.ok(
        !loaded.modules.includes(dependency),
        `${dependency} was imported`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a fresh process whose first request a limiter refuses still records the browser in the refusal event", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_lazy_" });
  const kvPath = `${dir}/store.kv`;
  try {
    // Another instance (this process) fills the address's window.
    const kv = await Deno.openKv(kvPath);
    const store = new KvStore(kv);
    await store.migrate();
    const other = createGatehouse({
      store,
      roles: ROLES,
      rateLimit: { maxFailures: REFUSE_AFTER },
    });
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      mount(other.routes),
    );
    const call = httpCaller(`http://127.0.0.1:${server.addr.port}`);
    for (let i = 0; i < REFUSE_AFTER; i++) {
      const wrong = await call("POST", "/api/auth/login", {
        body: { email: "nobody@example.com", password: `guess ${i}` },
      });
      assert.equal(wrong.status, 401);
    }
    await other.settled();
    await server.shutdown();
    kv.close();

    const out = await child("refused-first", { kvPath });
    assert.equal(out.status, 429);
    assert.deepEqual(out.refusals, [{
      ip: "127.0.0.1",
      userAgent: "Firefox on Linux",
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every lazily loaded library's routes work the first time, called several at once", async () => {
  const { startTestProvider } = await import("../fixtures/oidc_provider.ts");
  const { startSmtpServer } = await import("../fixtures/smtp.ts");
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_lazy_" });
  const idp = await startTestProvider({
    clients: [{
      client_id: "gatehouse",
      client_secret: "lazy-loading-secret",
      redirect_uris: ["http://localhost/api/auth/sso/acme/callback"],
    }],
    accounts: {},
  });
  const smtp = await startSmtpServer();
  try {
    const out = await child("first-calls", {
      kvPath: `${dir}/store.kv`,
      issuer: idp.issuer,
      smtpPort: smtp.port,
    });
    const first = out.first as Record<string, string[]>;
    const statuses = out.statuses as Record<string, number[]>;
    const times = <T>(value: T): T[] => Array(AT_ONCE).fill(value);
    // Before its first call each library and feature module was not
    // loaded, after it was.
    assert.deepEqual(first, {
      ssoStart: ["server/features/sso.ts"],
      invite: ["nodemailer", "server/features/_admin_operations.ts"],
      passkeyLoginOptions: [
        "@simplewebauthn/server",
        "server/features/passkeys.ts",
      ],
      dictionary: ["@zxcvbn-ts/language-common", "server/features/account.ts"],
      checkLink: ["server/features/account_links.ts"],
      totpSetup: ["otpauth", "uqr", "server/features/second_factor.ts"],
    });
    assert.deepEqual(statuses, {
      passkeyLoginOptions: times(200),
      passkeyRegistrationOptions: times(200),
      totpSetup: times(200),
      totpConfirm: times(200),
      commonPassword: times(400),
      strongPassword: times(204),
      checkLink: times(410),
      ssoStart: times(302),
      invite: times(200),
    });
    assert.deepEqual(out.codes, times("password_too_common"));
    assert.deepEqual(out.linkCodes, times("token_invalid"));
    assert.equal(out.totpSvg, true);
    for (const location of out.ssoLocations as string[]) {
      const url = new URL(location);
      assert.equal(url.origin, idp.issuer);
      assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    }
    // The invitations, and the notices of the changes made after them.
    const mails = await smtp.waitFor(AT_ONCE);
    assert.deepEqual(
      mails.flatMap((m) => m.to).filter((to) => to.startsWith("invitee-"))
        .sort(),
      Array.from({ length: AT_ONCE }, (_, i) => `invitee-${i}@example.com`),
    );
  } finally {
    await smtp.close();
    await idp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs this file as a fresh process in `mode`; its report. */
async function child(
  mode: string,
  config: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--lock=dev.lock",
      "--allow-all",
      new URL(import.meta.url).pathname,
      mode,
      JSON.stringify(config),
    ],
    cwd: new URL(ROOT).pathname,
    stdin: "null",
  }).output();
  const printed = new TextDecoder().decode(stdout).trim();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(printed.slice(printed.lastIndexOf("\n") + 1));
}

// ---------------------------------------------------------------------------
// The fresh process: Gatehouse on a KV file, called over HTTP.

/** What the process has loaded so far, from the inspector's events. */
function loadedScripts(): () => Loaded {
  const session = new Session();
  session.connect();
  const urls = new Set<string>();
  session.on(
    "Debugger.scriptParsed",
    (message: { params: { url: string } }) => urls.add(message.params.url),
  );
  // Enabling reports every script parsed so far, then each new one.
  session.post("Debugger.enable");
  return () => {
    const packages = new Set<string>();
    const builtins = new Set<string>();
    const modules = new Set<string>();
    for (const url of urls) {
      const npm = NPM_PATH.exec(url);
      if (npm !== null) packages.add((npm[1] ?? npm[2])!);
      else if (url.startsWith("node:")) builtins.add(url);
      else if (url.startsWith(ROOT)) modules.add(url.slice(ROOT.length));
    }
    return {
      packages: [...packages].sort(),
      builtins: [...builtins].sort(),
      modules: [...modules].sort(),
    };
  };
}

// An npm package's file: in the local node_modules (`.deno/<name>@<version>/
// node_modules/<name>/…`) or in Deno's global npm cache.
const NPM_PATH =
  /\/node_modules\/\.deno\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/|\/npm\/[^/]+\/((?:@[^/]+\/)?[^/]+)\/\d/;

/** Gatehouse's routes mounted as the README mounts them. */
function mount(
  routes: readonly { method: string; pattern: URLPattern; handler: Handler }[],
): Deno.ServeHandler {
  return (req, info) => {
    const route = routes.find((r) =>
      r.method === req.method && r.pattern.test(req.url)
    );
    return route?.handler(req, undefined, info) ??
      new Response("Not found", { status: 404 });
  };
}

async function accounts(
  store: KvStore,
  emails: readonly string[],
  role: string,
): Promise<void> {
  const passwordHash = await argon2Hasher().hash(PASSWORD);
  for (const email of emails) {
    await store.createUser({
      id: crypto.randomUUID(),
      email,
      emailKey: email,
      name: email.split("@")[0]!,
      role,
      passwordHash,
      createdAt: Date.now(),
    });
  }
}

/**
 * Session checks alone: a live session (written to the store directly, so
 * nothing else is imported on the way) and an unknown one.
 */
async function sessionCheck(config: { kvPath: string }): Promise<unknown> {
  const loaded = loadedScripts();
  const kv = await Deno.openKv(config.kvPath);
  const store = new KvStore(kv);
  await store.migrate();
  const userId = crypto.randomUUID();
  await store.createUser({
    id: userId,
    email: "ada@example.com",
    emailKey: "ada@example.com",
    name: "ada",
    role: "member",
    passwordHash: "not-a-hash",
    createdAt: Date.now(),
  });
  const token = sessionToken(userId);
  await store.createSession({
    tokenHash: hashToken(token),
    userId,
    createdAt: Date.now(),
    expiresAt: Date.now() + 60_000,
  });
  const gatehouse = createGatehouse({ store, roles: ROLES });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    mount(gatehouse.routes),
  );
  const call = httpCaller(`http://127.0.0.1:${server.addr.port}`);
  const live = await call("GET", "/api/auth/session", { cookie: token });
  const unknown = await call("GET", "/api/auth/session", {
    cookie: sessionToken(userId),
  });
  await gatehouse.settled();
  await server.shutdown();
  kv.close();
  return {
    statuses: { live: live.status, unknown: unknown.status },
    loaded: loaded(),
  };
}

/**
 * One login, refused by the limiter (the store's window for the address is
 * full already), as the process's first request; then the refusal events.
 */
async function refusedFirst(config: { kvPath: string }): Promise<unknown> {
  const kv = await Deno.openKv(config.kvPath);
  const store = new KvStore(kv);
  const gatehouse = createGatehouse({
    store,
    roles: ROLES,
    rateLimit: { maxFailures: REFUSE_AFTER },
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    mount(gatehouse.routes),
  );
  const res = await fetch(
    `http://127.0.0.1:${server.addr.port}/api/auth/login`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": FIREFOX },
      body: JSON.stringify({ email: "nobody@example.com", password: "x" }),
    },
  );
  await res.body?.cancel();
  await gatehouse.settled();
  const { events } = await store.listAuditEvents({ limit: 100 });
  await server.shutdown();
  kv.close();
  return {
    status: res.status,
    refusals: events.filter((e) => e.type === "login.rate_limited")
      .map((e) => ({ ip: e.ip, userAgent: e.userAgent })),
  };
}

/** Session check, login, session check, sign-out, session check. */
async function signIn(config: { kvPath: string }): Promise<unknown> {
  const loaded = loadedScripts();
  const kv = await Deno.openKv(config.kvPath);
  const store = new KvStore(kv);
  await store.migrate();
  await accounts(store, ["ada@example.com"], "member");
  const gatehouse = createGatehouse({ store, roles: ROLES });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    mount(gatehouse.routes),
  );
  const call = httpCaller(`http://127.0.0.1:${server.addr.port}`);
  const noSession = await call("GET", "/api/auth/session", {
    cookie: "not-a-session",
  });
  const login = await call("POST", "/api/auth/login", {
    body: { email: "ada@example.com", password: PASSWORD },
  });
  const session = await call("GET", "/api/auth/session", {
    cookie: login.token!,
  });
  const logout = await call("POST", "/api/auth/logout", {
    cookie: login.token!,
  });
  const afterLogout = await call("GET", "/api/auth/session", {
    cookie: login.token!,
  });
  await gatehouse.settled();
  await server.shutdown();
  kv.close();
  return {
    statuses: {
      noSession: noSession.status,
      login: login.status,
      session: session.status,
      logout: logout.status,
      afterLogout: afterLogout.status,
    },
    loaded: loaded(),
  };
}

/** The first calls of each lazily loaded library, AT_ONCE at a time. */
async function firstCalls(
  config: { kvPath: string; issuer: string; smtpPort: number },
): Promise<unknown> {
  const loaded = loadedScripts();
  const { smtpMailer } = await import("../../server/mail.ts");
  const kv = await Deno.openKv(config.kvPath);
  const store = new KvStore(kv);
  await store.migrate();
  const members = Array.from(
    { length: AT_ONCE },
    (_, i) => `member-${i}@example.com`,
  );
  await accounts(store, ["admin@example.com"], "admin");
  await accounts(store, members, "member");
  let handler: Deno.ServeHandler = () => new Response(null, { status: 503 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req, info) => handler(req, info),
  );
  const { port } = server.addr;
  const gatehouse = createGatehouse({
    store,
    roles: ROLES,
    // localhost: the only http origin passkeys accept.
    publicUrl: `http://localhost:${port}`,
    rateLimit: { maxChallenges: 1000 },
    mailer: smtpMailer({
      url: `smtp://127.0.0.1:${config.smtpPort}`,
      from: "no-reply@example.com",
      requireTls: false,
    }),
    sso: {
      timeoutSeconds: 5,
      retryAfter: 0,
      providers: [{
        id: "acme",
        name: "Acme",
        issuer: config.issuer,
        clientId: "gatehouse",
        clientSecret: "lazy-loading-secret",
      }],
    },
  });
  handler = mount(gatehouse.routes);
  const call = httpCaller(`http://127.0.0.1:${port}`);
  const all = <T>(work: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: AT_ONCE }, (_, i) => work(i)));
  const statuses: Record<string, number[]> = {};
  const first: Record<string, string[]> = {};
  // Runs a batch, and records which of the lazily loaded libraries and
  // feature modules it was the first to load.
  const batch = async <T extends { status: number }>(
    name: string,
    work: (i: number) => Promise<T>,
    libraries = NOT_ON_THE_SIGN_IN_PATH,
  ): Promise<T[]> => {
    const before = loaded();
    const answers = await all(work);
    statuses[name] = answers.map((a) => a.status);
    await gatehouse.settled(); // the mail goes after the answer
    const after = loaded();
    const loadedNow = [
      ...after.packages.filter((p) =>
        !before.packages.includes(p) && libraries.includes(p)
      ),
      ...after.modules.filter((m) =>
        !before.modules.includes(m) && FEATURE_MODULES.includes(m)
      ),
    ];
    if (loadedNow.length > 0) first[name] = loadedNow;
    return answers;
  };

  // Single sign-on: the starts race the discovery createGatehouse began
  // (which imports openid-client and jose: when they load is its timing,
  // so only the feature's module is recorded here).
  const ssoStarts = await batch(
    "ssoStart",
    () => call("GET", "/api/auth/sso/acme/start"),
    [],
  );
  const logins = await all((i) =>
    call("POST", "/api/auth/login", {
      body: { email: members[i], password: PASSWORD },
    })
  );
  const tokens = logins.map((login) => login.token!);
  const admin = await call("POST", "/api/auth/login", {
    body: { email: "admin@example.com", password: PASSWORD },
  });

  // The first mail of the process (password and second-factor changes
  // below send notices).
  await batch("invite", (i) =>
    call("POST", "/api/users/invite", {
      cookie: admin.token!,
      body: { email: `invitee-${i}@example.com`, name: `Invitee ${i}` },
    }));

  await batch(
    "passkeyLoginOptions",
    () => call("POST", "/api/auth/passkeys/login/options", { body: {} }),
  );
  await batch(
    "passkeyRegistrationOptions",
    (i) =>
      call("POST", "/api/auth/passkeys/register/options", {
        cookie: tokens[i],
        body: {},
      }),
  );

  const refused = await batch(
    "dictionary",
    (i) =>
      call("POST", "/api/auth/password", {
        cookie: tokens[i],
        body: { current_password: PASSWORD, new_password: "password1234" },
      }),
  );
  statuses.commonPassword = statuses.dictionary!;
  delete statuses.dictionary;
  const changed = await all((i) =>
    call("POST", "/api/auth/password", {
      cookie: tokens[i],
      body: {
        current_password: PASSWORD,
        new_password: `a much longer passphrase ${i}`,
      },
    })
  );
  statuses.strongPassword = changed.map((c) => c.status);
  const fresh = changed.map((c) => c.token ?? "");

  // The link routes: a link no store holds is dead, answered by the
  // operation itself (410 `token_invalid`), not by a guard or limiter.
  const checks = await batch(
    "checkLink",
    (i) =>
      call("POST", "/api/auth/links/check", {
        body: { token: `no-such-link-${i}`, kind: "invitation" },
      }),
  );

  const setups = await batch(
    "totpSetup",
    (i) => call("POST", "/api/auth/totp/setup", { cookie: fresh[i], body: {} }),
  );
  // The codes an authenticator app would show (the module is loaded now).
  const { totpCode } = await import("../../server/core/totp.ts");
  const confirms = await all((i) =>
    call("POST", "/api/auth/totp/confirm", {
      cookie: fresh[i],
      body: { code: totpCode(setups[i]!.body.secret, Date.now()) },
    })
  );
  statuses.totpConfirm = confirms.map((c) => c.status);

  await gatehouse.settled();
  await server.shutdown();
  kv.close();
  return {
    first,
    statuses,
    codes: refused.map((r) => r.body?.code),
    linkCodes: checks.map((c) => c.body?.code),
    ssoLocations: ssoStarts.map((s) => s.location),
    totpSvg: setups.every((s) => String(s.body?.qr_svg).startsWith("<svg")),
  };
}

if (import.meta.main) {
  const [mode, config] = [Deno.args[0], JSON.parse(Deno.args[1] ?? "{}")];
  const report = mode === "session-check"
    ? await sessionCheck(config)
    : mode === "refused-first"
    ? await refusedFirst(config)
    : mode === "sign-in"
    ? await signIn(config)
    : mode === "first-calls"
    ? await firstCalls(config)
    : null;
  if (report === null) throw new Error(`Unknown mode ${mode}`);
  console.log(JSON.stringify(report));
  // The mailer's pool and the SSO client keep no process alive past this.
  Deno.exit(0);
}
