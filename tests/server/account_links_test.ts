// Invitation acceptance and password resets: SPEC.md's state-table rows about
// links (first use, second use, expiry), retry after a refused password,
// reset neutrality and revocation, on both stores.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { addUser, hasher, memoryLogger, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { cookiePair, mount, routesFor } from "../fixtures/app.ts";
import { createAuth, firstRunInvitation, type Store } from "../../mod.ts";
import { developmentMailer, type MailMessage } from "../../server/mail.ts";
import { createAccountLinks } from "../../server/features/account_links.ts";

const DAY = 24 * 60 * 60 * 1000;
const NEW_PASSWORD = "a brand new passphrase";

function setup(
  store: Store,
  options: { mail?: MailMessage[]; publicUrl?: string } = {},
) {
  let now = Date.now();
  const clock = () => now;
  const logger = memoryLogger();
  const auth = createAuth({ store, logger, now: clock, hasher });
  const links = createAccountLinks({
    auth,
    store,
    logger,
    now: clock,
    hasher,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.mail
      ? {
        mailer: {
          send: (m: MailMessage) => Promise.resolve(void options.mail!.push(m)),
        },
      }
      : {}),
  });
  const app = mount(routesFor({
    login: auth.login,
    fetchSession: auth.fetchSession,
    acceptInvite: links.acceptInvite,
    requestPasswordReset: links.requestPasswordReset,
    resetPassword: links.resetPassword,
  }));
  const post = (path: string, body: unknown, headers: HeadersInit = {}) =>
    Promise.resolve(app(
      new Request(`http://localhost${path}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers,
      }),
    ));
  const get = (path: string, cookie: string) =>
    Promise.resolve(
      app(new Request(`http://localhost${path}`, { headers: { cookie } })),
    );
  return {
    auth,
    logger,
    post,
    get,
    clock,
    advance: (ms: number) => void (now += ms),
  };
}

function tokenOf(link: string): string {
  const match = /#token=([A-Za-z0-9_-]{43})$/.exec(link);
  assert(match, `no token in ${link}`);
  return match[1]!;
}

async function invitationFor(
  store: Store,
  clock: () => number,
  email = "ada@example.com",
) {
  const link = await firstRunInvitation({
    store,
    email,
    name: "Ada Lovelace",
    role: "admin",
    publicUrl: "https://app.example",
    now: clock,
  });
  assert(link !== null);
  return tokenOf(link);
}

async function codeOf(res: Response): Promise<[number, string]> {
  return [res.status, (await res.json()).code];
}

testEachStore(
  "accepting an invitation sets the password and signs the person in",
  async (store) => {
    const t = setup(store);
    const token = await invitationFor(store, t.clock);
    const res = await t.post("/api/auth/invite/accept", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(res.status, 200);
    const identity = await res.json();
    assertEquals(
      [identity.email, identity.name, identity.role],
      ["ada@example.com", "Ada Lovelace", "admin"],
    );
    assertMatch(
      res.headers.get("set-cookie")!,
      new RegExp(
        `^__Host-session=${identity.id}\\.[A-Za-z0-9_-]{43}; Max-Age=604800;`,
      ),
    );
    const session = await t.get(
      "/api/auth/session",
      cookiePair(res.headers.get("set-cookie")),
    );
    assertEquals((await session.json()).id, identity.id);
    const login = await t.post("/api/auth/login", {
      email: "ada@example.com",
      password: NEW_PASSWORD,
    });
    assertEquals(login.status, 200);
    await login.body?.cancel();
  },
);

testEachStore(
  "an invitation works once: the second use answers 410 token_invalid",
  async (store) => {
    const t = setup(store);
    const token = await invitationFor(store, t.clock);
    const first = await t.post("/api/auth/invite/accept", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(first.status, 200);
    await first.body?.cancel();
    const second = await t.post("/api/auth/invite/accept", {
      token,
      password: "another passphrase",
    });
    assertEquals(await codeOf(second), [410, "token_invalid"]);
    // The second attempt changed nothing: the first password still signs in.
    assertEquals(
      (await t.post("/api/auth/login", {
        email: "ada@example.com",
        password: NEW_PASSWORD,
      })).status,
      200,
    );
  },
);

testEachStore(
  "an expired invitation answers 410 and creates nothing",
  async (store) => {
    const t = setup(store);
    const token = await invitationFor(store, t.clock);
    t.advance(7 * DAY);
    const res = await t.post("/api/auth/invite/accept", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(await codeOf(res), [410, "token_invalid"]);
    assertEquals(await store.hasUsers(), false);
  },
);

testEachStore(
  "unknown and malformed tokens answer 410 token_invalid",
  async (store) => {
    const t = setup(store);
    for (const token of ["A".repeat(43), "short", "", "../../etc"]) {
      for (
        const path of [
          "/api/auth/invite/accept",
          "/api/auth/password-reset/confirm",
        ]
      ) {
        const res = await t.post(path, { token, password: NEW_PASSWORD });
        assertEquals(
          await codeOf(res),
          [410, "token_invalid"],
          `${path} ${token}`,
        );
      }
    }
  },
);

testEachStore(
  "a refused password does not spend the invitation: the retry works",
  async (store) => {
    const t = setup(store);
    const token = await invitationFor(store, t.clock);
    const short = await t.post("/api/auth/invite/accept", {
      token,
      password: "short",
    });
    assertEquals(await short.json(), {
      error: "Password is too short: use at least 12 characters",
      code: "password_too_short",
      meta: { field: "password" },
    });
    const long = await t.post("/api/auth/invite/accept", {
      token,
      password: "x".repeat(257),
    });
    assertEquals(await codeOf(long), [400, "password_too_long"]);
    const missing = await t.post("/api/auth/invite/accept", { token });
    assertEquals(await codeOf(missing), [400, "body_field_required"]);
    const retry = await t.post("/api/auth/invite/accept", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(retry.status, 200);
    await retry.body?.cancel();
  },
);

testEachStore(
  "an invitation for an address that has an account is a dead link",
  async (store) => {
    const t = setup(store);
    await addUser(store, { email: "bob@example.com", role: "member" });
    const owner = await addUser(store, { email: "o@example.com", role: "" });
    // Issue the invitation the way the invite handler does for any address.
    const { newLink } = await import("../../server/core/_links.ts");
    const { token, record } = newLink({
      id: crypto.randomUUID(),
      kind: "invitation",
      email: "BOB@example.com",
      emailKey: "bob@example.com",
      name: "Mallory",
      role: "",
      userId: "",
      invitedBy: owner.id,
      generation: 0,
      createdAt: t.clock(),
      expiresAt: t.clock() + DAY,
    });
    await store.createLink(record);
    const res = await t.post("/api/auth/invite/accept", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(await codeOf(res), [410, "token_invalid"]);
    // Bob's account is untouched: old password works, the new one does not.
    const old = await t.post("/api/auth/login", {
      email: "bob@example.com",
      password: PASSWORD,
    });
    assertEquals((await old.json()).role, "member");
    const stolen = await t.post("/api/auth/login", {
      email: "bob@example.com",
      password: NEW_PASSWORD,
    });
    assertEquals(await codeOf(stolen), [401, "credentials_invalid"]);
  },
);

testEachStore(
  "reset requests answer identically for known, unknown and disabled addresses",
  async (store) => {
    const mail: MailMessage[] = [];
    const t = setup(store, { mail, publicUrl: "https://app.example" });
    await addUser(store, { email: "ada@example.com" });
    const bob = await addUser(store, { email: "bob@example.com" });
    await store.updateUser(bob.id, { disabled: true });
    const answers = [];
    for (
      const email of [
        "ada@example.com",
        "nobody@example.com",
        "bob@example.com",
      ]
    ) {
      const res = await t.post("/api/auth/password-reset", { email });
      answers.push([
        res.status,
        [...res.headers].filter(([name]) => name !== "date"),
        await res.text(),
      ]);
    }
    assertEquals(answers[0], [202, [["cache-control", "no-store"]], ""]);
    assertEquals(answers[1], answers[0]);
    assertEquals(answers[2], answers[0]);
    await waitFor(() => mail.length >= 1);
    assertEquals(mail.map((m) => [m.to, m.kind]), [[
      "ada@example.com",
      "password_reset",
    ]]);
    assertMatch(
      mail[0]!.link!,
      /^https:\/\/app\.example\/reset#token=[A-Za-z0-9_-]{43}$/,
    );
    assert(mail[0]!.text.includes(mail[0]!.link!));
    const malformed = await t.post("/api/auth/password-reset", {
      email: "not an address",
    });
    assertEquals(await codeOf(malformed), [400, "email_invalid"]);
  },
);

testEachStore(
  "without a mailer no reset link is sent, nor logged: a warning says so once",
  async (store) => {
    const t = setup(store, { publicUrl: "https://app.example" });
    await addUser(store, { email: "ada@example.com" });
    for (const email of ["ada@example.com", "nobody@example.com"]) {
      const res = await t.post("/api/auth/password-reset", { email });
      assertEquals([res.status, await res.text()], [202, ""]);
    }
    assertEquals(t.logger.lines.map((line) => [line.level, line.message]), [[
      "warn",
      "password reset requested but no mailer is configured: reset links are not sent",
    ]]);
    assert(!JSON.stringify(t.logger.lines).includes("#token="));
  },
);

testEachStore(
  "developmentMailer() prints reset links, labelled as development only",
  async (store) => {
    const logger = memoryLogger();
    const auth = createAuth({ store, logger, hasher });
    const links = createAccountLinks({
      auth,
      store,
      logger,
      hasher,
      publicUrl: "https://app.example",
      mailer: developmentMailer({ logger }),
    });
    await addUser(store, { email: "ada@example.com" });
    const res = await links.requestPasswordReset(
      new Request("http://localhost/api/auth/password-reset", {
        method: "POST",
        body: JSON.stringify({ email: "ada@example.com" }),
      }),
    );
    assertEquals(res.status, 202);
    await waitFor(() => logger.lines.length > 0);
    assertEquals(logger.lines.length, 1);
    const [line] = logger.lines;
    assertEquals(line!.level, "info");
    assertMatch(line!.message, /^development mailer \(not for production\)/);
    assertEquals(line!.fields?.to, "ada@example.com");
    assertEquals(line!.fields?.kind, "password_reset");
    assertMatch(
      String(line!.fields?.link),
      /^https:\/\/app\.example\/reset#token=[A-Za-z0-9_-]{43}$/,
    );
  },
);

testEachStore(
  "confirming a reset sets the password, ends every session and spends the link",
  async (store) => {
    const mail: MailMessage[] = [];
    const t = setup(store, { mail, publicUrl: "https://app.example" });
    await addUser(store, { email: "ada@example.com" });
    const sessions = [];
    for (let i = 0; i < 2; i++) {
      const login = await t.post("/api/auth/login", {
        email: "ada@example.com",
        password: PASSWORD,
      });
      sessions.push(cookiePair(login.headers.get("set-cookie")));
      await login.body?.cancel();
    }
    await (await t.post("/api/auth/password-reset", {
      email: "ada@example.com",
    })).body?.cancel();
    await waitFor(() => mail.length === 1);
    const token = tokenOf(mail[0]!.link!);
    const short = await t.post("/api/auth/password-reset/confirm", {
      token,
      password: "tiny",
    });
    assertEquals(await codeOf(short), [400, "password_too_short"]);
    const done = await t.post("/api/auth/password-reset/confirm", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals([done.status, await done.text()], [204, ""]);
    for (const cookie of sessions) {
      assertEquals(await codeOf(await t.get("/api/auth/session", cookie)), [
        401,
        "session_absent",
      ]);
    }
    const old = await t.post("/api/auth/login", {
      email: "ada@example.com",
      password: PASSWORD,
    });
    assertEquals(await codeOf(old), [401, "credentials_invalid"]);
    const fresh = await t.post("/api/auth/login", {
      email: "ada@example.com",
      password: NEW_PASSWORD,
    });
    assertEquals(fresh.status, 200);
    await fresh.body?.cancel();
    const again = await t.post("/api/auth/password-reset/confirm", {
      token,
      password: "yet another passphrase",
    });
    assertEquals(await codeOf(again), [410, "token_invalid"]);
  },
);

testEachStore("a reset link expires after an hour", async (store) => {
  const mail: MailMessage[] = [];
  const t = setup(store, { mail, publicUrl: "https://app.example" });
  await addUser(store, { email: "ada@example.com" });
  await (await t.post("/api/auth/password-reset", { email: "ada@example.com" }))
    .body?.cancel();
  await waitFor(() => mail.length === 1);
  t.advance(60 * 60 * 1000);
  const res = await t.post("/api/auth/password-reset/confirm", {
    token: tokenOf(mail[0]!.link!),
    password: NEW_PASSWORD,
  });
  assertEquals(await codeOf(res), [410, "token_invalid"]);
  const login = await t.post("/api/auth/login", {
    email: "ada@example.com",
    password: PASSWORD,
  });
  assertEquals(login.status, 200, "the old password still works");
  await login.body?.cancel();
});

testEachStore(
  "firstRunInvitation() issues a link only while the store is empty",
  async (store) => {
    const t = setup(store);
    const token = await invitationFor(store, t.clock);
    assertEquals(token.length, 43);
    await addUser(store, { email: "someone@example.com" });
    assertEquals(
      await firstRunInvitation({
        store,
        email: "admin@example.com",
        name: "Admin",
        role: "admin",
        publicUrl: "http://localhost:8000",
      }),
      null,
    );
  },
);

Deno.test("createAccountLinks() refuses a mailer without publicUrl and a bad publicUrl", () => {
  const store = {} as Store;
  const auth = {} as ReturnType<typeof createAuth>;
  const mailer = { send: () => Promise.resolve() };
  for (
    const config of [
      { auth, store, mailer },
      { auth, store, publicUrl: "not a url" },
      { auth, store, publicUrl: "ftp://app.example" },
      { auth, store, publicUrl: "https://app.example/?q=1" },
    ]
  ) {
    let threw = false;
    try {
      createAccountLinks(config);
    } catch (err) {
      threw = err instanceof TypeError;
    }
    assert(threw, JSON.stringify(config.publicUrl));
  }
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert(condition(), "condition not met in time");
}
