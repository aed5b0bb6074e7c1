// POST /api/users/invite: the answer is the same for a new and an existing
// address, the existing account's link is a decoy, and the role rules of
// account creation apply. On both stores.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { addUser, hasher, memoryLogger, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { actAs, PRIVILEGED, ROLES } from "../fixtures/admin.ts";
import { mount, routesFor } from "../fixtures/app.ts";
import {
  createAdmin,
  createAuth,
  type Identity,
  type Store,
} from "../../mod.ts";
import type { MailMessage } from "../../server/mail.ts";
import { createAccountLinks } from "../../server/features/account_links.ts";

const NEW_PASSWORD = "the invited person's passphrase";

async function setup(
  store: Store,
  options: { mail?: MailMessage[]; publicUrl?: string; failMail?: boolean } =
    {},
) {
  const logger = memoryLogger();
  const auth = createAuth({
    store,
    privileged: PRIVILEGED,
    roles: ROLES,
    logger,
    hasher,
  });
  const admin = createAdmin({
    store,
    privileged: PRIVILEGED,
    roles: ROLES,
    logger,
    hasher,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.mail
      ? {
        mailer: {
          send: (m: MailMessage) =>
            options.failMail
              ? Promise.reject(new Error("smtp: 554 relay denied"))
              : Promise.resolve(void options.mail!.push(m)),
        },
      }
      : {}),
  });
  const links = createAccountLinks({ auth, store, logger, hasher });
  const app = mount(routesFor({
    invite: admin.invite,
    acceptInvite: links.acceptInvite,
    login: auth.login,
  }));
  const owner = await addUser(store, {
    email: "owner@example.com",
    name: "Owner",
    role: "admin",
  });
  const support = await addUser(store, {
    email: "support@example.com",
    name: "Support",
    role: "support",
  });
  const identity = (user: typeof owner): Identity => ({
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
  });
  return {
    logger,
    app,
    as: {
      owner: (body: unknown) =>
        actAs(app, identity(owner), "POST", "/api/users/invite", body),
      support: (body: unknown) =>
        actAs(app, identity(support), "POST", "/api/users/invite", body),
    },
    post: (path: string, body: unknown) =>
      Promise.resolve(
        app(
          new Request(`http://localhost${path}`, {
            method: "POST",
            body: JSON.stringify(body),
          }),
        ),
      ),
  };
}

function tokenOf(link: string): string {
  return /#token=([A-Za-z0-9_-]{43})$/.exec(link)![1]!;
}

testEachStore(
  "invite without a mailer hands back a link that signs the person in",
  async (store) => {
    const t = await setup(store, { publicUrl: "https://app.example/" });
    const res = await t.as.owner({
      email: " Grace@Example.com ",
      name: " Grace ",
      role: "member",
    });
    assertEquals(res.status, 200);
    const answer = await res.json();
    assertEquals(Object.keys(answer).sort(), ["activation_link", "delivered"]);
    assertEquals(answer.delivered, false);
    assertMatch(
      answer.activation_link,
      /^https:\/\/app\.example\/invite#token=[A-Za-z0-9_-]{43}$/,
    );
    const accepted = await t.post("/api/auth/invite/accept", {
      token: tokenOf(answer.activation_link),
      password: NEW_PASSWORD,
    });
    assertEquals(accepted.status, 200);
    const identity = await accepted.json();
    assertEquals([identity.email, identity.name, identity.role], [
      "Grace@Example.com",
      "Grace",
      "member",
    ]);
    assertEquals([identity.capabilities, identity.grantable], [[], []]);
    assert(accepted.headers.get("set-cookie")?.startsWith("__Host-session="));
  },
);

testEachStore(
  "invite answers a new and an existing address alike, and the existing one's link is dead",
  async (store) => {
    const t = await setup(store, { publicUrl: "https://app.example" });
    await addUser(store, { email: "taken@example.com", role: "member" });
    const fresh = await t.as.owner({
      email: "fresh@example.com",
      name: "Fresh",
      role: "member",
    });
    const taken = await t.as.owner({
      email: "TAKEN@example.com",
      name: "Mallory",
      role: "admin",
    });
    const [a, b] = [await fresh.json(), await taken.json()];
    assertEquals([fresh.status, taken.status], [200, 200]);
    assertEquals([...fresh.headers.keys()], [...taken.headers.keys()]);
    assertEquals(Object.keys(a), Object.keys(b));
    assertEquals(
      a.activation_link.replace(/token=.*/, ""),
      b.activation_link.replace(/token=.*/, ""),
    );
    assertEquals(a.activation_link.length, b.activation_link.length);
    // The decoy never lets the inviter set the existing account's password.
    const decoy = await t.post("/api/auth/invite/accept", {
      token: tokenOf(b.activation_link),
      password: NEW_PASSWORD,
    });
    assertEquals([decoy.status, (await decoy.json()).code], [
      410,
      "token_invalid",
    ]);
    const login = await t.post("/api/auth/login", {
      email: "taken@example.com",
      password: NEW_PASSWORD,
    });
    assertEquals(login.status, 401);
    await login.body?.cancel();
    const owner = await t.post("/api/auth/login", {
      email: "taken@example.com",
      password: PASSWORD,
    });
    assertEquals((await owner.json()).role, "member", "role untouched");
  },
);

testEachStore(
  "invite does the same store work for new and existing addresses",
  async (store) => {
    const calls: string[] = [];
    const counting = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return value.apply(target, args);
        };
      },
    });
    const t = await setup(counting, { publicUrl: "https://app.example" });
    await addUser(store, { email: "taken@example.com" });
    const work = async (email: string) => {
      calls.length = 0;
      await (await t.as.owner({ email, name: "X", role: "member" })).body
        ?.cancel();
      return [...calls].sort();
    };
    const forNew = await work("fresh@example.com");
    assertEquals(forNew, ["createLink", "credentialsByEmail"]);
    assertEquals(await work("taken@example.com"), forNew);
  },
);

testEachStore(
  "invite with a mailer answers delivered and never mails a link for an existing account",
  async (store) => {
    const mail: MailMessage[] = [];
    const t = await setup(store, { mail, publicUrl: "https://app.example" });
    await addUser(store, { email: "taken@example.com" });
    const fresh = await t.as.owner({
      email: "fresh@example.com",
      name: "Fresh",
    });
    const taken = await t.as.owner({
      email: "taken@example.com",
      name: "Again",
    });
    assertEquals(await fresh.json(), { delivered: true });
    assertEquals(await taken.json(), { delivered: true });
    assertEquals(mail.map((m) => [m.to, m.kind]), [
      ["fresh@example.com", "invitation"],
      ["taken@example.com", "account_exists"],
    ]);
    assertMatch(
      mail[0]!.link!,
      /^https:\/\/app\.example\/invite#token=[A-Za-z0-9_-]{43}$/,
    );
    assert(mail[0]!.text.includes(mail[0]!.link!));
    assertEquals(mail[1]!.link, undefined);
    assertEquals(/token=/.test(mail[1]!.text), false);
    const accepted = await t.post("/api/auth/invite/accept", {
      token: tokenOf(mail[0]!.link!),
      password: NEW_PASSWORD,
    });
    assertEquals((await accepted.json()).role, "");
  },
);

testEachStore(
  "invite without publicUrl uses the request's origin and warns once",
  async (store) => {
    const t = await setup(store);
    for (const email of ["a@example.com", "b@example.com"]) {
      const answer = await (await t.as.owner({ email, name: "A" })).json();
      assertMatch(answer.activation_link, /^http:\/\/localhost\/invite#token=/);
    }
    assertEquals(
      t.logger.lines.filter((line) => line.level === "warn").length,
      1,
    );
  },
);

testEachStore(
  "invite applies the role and input rules of account creation",
  async (store) => {
    const t = await setup(store, { publicUrl: "https://app.example" });
    const rows: Array<
      [unknown, "owner" | "support", number, string, string | undefined]
    > = [
      [
        { email: "x@example.com", name: "X", role: "wizard" },
        "owner",
        400,
        "role_unknown",
        "role",
      ],
      [
        { email: "x@example.com", name: "X", role: "admin" },
        "support",
        403,
        "role_beyond_reach",
        undefined,
      ],
      [
        { email: "not-an-email", name: "X" },
        "owner",
        400,
        "email_invalid",
        "email",
      ],
      [
        { email: "x@example.com", name: "  " },
        "owner",
        400,
        "name_required",
        "name",
      ],
      [
        { email: "x@example.com", name: "n".repeat(101) },
        "owner",
        400,
        "name_too_long",
        "name",
      ],
      [{ name: "X" }, "owner", 400, "body_field_required", "email"],
      [{ email: "x@example.com" }, "owner", 400, "body_field_required", "name"],
      [
        { email: "x@example.com", name: "X", role: 7 },
        "owner",
        400,
        "body_malformed",
        "role",
      ],
    ];
    for (const [body, actor, status, code, field] of rows) {
      const res = await t.as[actor](body);
      const json = await res.json();
      assertEquals([res.status, json.code, json.meta?.field], [
        status,
        code,
        field,
      ], JSON.stringify(body));
    }
    const allowed = await t.as.support({
      email: "m@example.com",
      name: "M",
      role: "member",
    });
    assertEquals(allowed.status, 200);
    await allowed.body?.cancel();
  },
);

testEachStore(
  "invite refuses anonymous and unprivileged callers",
  async (store) => {
    const t = await setup(store, { publicUrl: "https://app.example" });
    const anonymous = await t.post("/api/users/invite", {
      email: "x@example.com",
      name: "X",
    });
    assertEquals([anonymous.status, (await anonymous.json()).code], [
      401,
      "session_absent",
    ]);
    const member = await addUser(store, {
      email: "member@example.com",
      role: "member",
    });
    const res = await actAs(t.app, { ...member }, "POST", "/api/users/invite", {
      email: "x@example.com",
      name: "X",
    });
    assertEquals([res.status, (await res.json()).code], [
      403,
      "role_insufficient",
    ]);
  },
);

testEachStore(
  "a failing mailer answers 502 mail_failed, logs the cause and leaves no invitation",
  async (store) => {
    const t = await setup(store, {
      mail: [],
      publicUrl: "https://app.example",
      failMail: true,
    });
    const res = await t.as.owner({ email: "x@example.com", name: "X" });
    const text = await res.text();
    assertEquals([res.status, JSON.parse(text).code], [502, "mail_failed"]);
    assertEquals(text.includes("smtp"), false);
    assert(t.logger.lines.some((line) => line.level === "error"));
    assertEquals(await store.listInvitations(Date.now()), []);
  },
);

Deno.test("createAdmin() refuses a mailer without publicUrl", () => {
  let threw = false;
  try {
    createAdmin({
      store: {} as Store,
      mailer: { send: () => Promise.resolve() },
    });
  } catch (err) {
    threw = err instanceof TypeError;
  }
  assert(threw);
});
