// Who reads what of the audit trail (issue 26, items 3, 20, 21, 22) through
// the HTTP API on KV and Postgres: a lower-tier administrator reads only the
// events within its reach, page after page; the audit log filters by
// address; one's own activity does not show an administrator's address,
// address or browser; a failed sign-in keeps the typed "email" only when it
// is an address.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { AuditEvent } from "../../server/core/store.ts";
import { people, securityApi } from "../fixtures/security.ts";

type Api = ReturnType<typeof securityApi>;

interface WireAccount {
  id: string | null;
  email: string | null;
}

interface WireEvent {
  id: string;
  type: string;
  actor: WireAccount | null;
  target: WireAccount | null;
  ip: string;
  user_agent: string;
  detail: Record<string, string>;
}

// Where the top administrator signs in from: no one below may read it.
const ROOT_ADDRESS = "198.51.100.77";
const FIREFOX =
  "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

async function getJson(api: Api, path: string, cookie: string) {
  const res = await api.call("GET", path, undefined, { cookie });
  assertEquals(res.status, 200, path);
  return await res.json();
}

// Every page of `GET /api/audit` with `query`, `limit` at a time.
async function pages(
  api: Api,
  cookie: string,
  query: string,
  limit: number,
): Promise<WireEvent[][]> {
  const got: WireEvent[][] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor === null ? "" : `&cursor=${cursor}`;
    const page = await getJson(
      api,
      `/api/audit?limit=${limit}${query}${after}`,
      cookie,
    );
    got.push(page.events);
    cursor = page.next_cursor;
  } while (cursor !== null && got.length < 100);
  return got;
}

testEachStore(
  "a lower-tier administrator reads only the events within its reach, page after page",
  async (store) => {
    const { root, support, member, other } = await people(store);
    const api = securityApi(store);
    const asRoot = { address: ROOT_ADDRESS, userAgent: FIREFOX };
    const rootCookie = await api.login(root.email, undefined, asRoot);
    const supportCookie = await api.login(support.email);
    const patch = async (cookie: string, id: string, disabled: boolean) => {
      const res = await api.call("PATCH", `/api/users/${id}`, { disabled }, {
        cookie,
        ...(cookie === rootCookie ? asRoot : {}),
      });
      assertEquals(res.status, 200);
      await res.body?.cancel();
    };
    // The top administrator's events between each one the support may
    // read, so that filtering must read on to fill a page.
    for (let i = 0; i < 4; i++) {
      await api.login(root.email, undefined, asRoot);
      await api.login(member.email);
      await api.login(root.email, undefined, asRoot);
      await patch(supportCookie, other.id, i % 2 === 0);
      await patch(rootCookie, member.id, true);
      await patch(rootCookie, member.id, false);
    }
    await patch(rootCookie, support.id, true);
    await patch(rootCookie, support.id, false);
    const unknown = await api.call("POST", "/api/auth/login", {
      email: "nobody@example.com",
      password: "wrong guess",
    });
    await unknown.body?.cancel();
    const failed = await api.call("POST", "/api/auth/login", {
      email: root.email,
      password: "wrong guess",
    }, asRoot);
    await failed.body?.cancel();
    const supportAgain = await api.login(support.email);

    const stored = await api.events();
    const reachable = new Set([support.id, member.id, other.id]);
    const within = (e: AuditEvent) =>
      [e.actorId, e.targetId].every((id) => id === null || reachable.has(id));
    const expected = stored.filter(within).reverse().map((e) => e.id);
    assertEquals([expected.length, stored.length], [11, 31]);

    const read = await pages(api, supportAgain, "", 3);
    assertEquals(read.flat().map((e) => e.id), expected);
    // Every page but the last is full, though most events are skipped.
    assert(read.slice(0, -1).every((page) => page.length === 3));
    const text = JSON.stringify(read);
    assert(!text.includes(root.email), "the top administrator is named");
    assert(!text.includes(ROOT_ADDRESS), "its address is shown");
    assert(!text.includes(root.id));
    // What the support does to those below it, its own sign-ins, and the
    // failure for an address no account has are all there.
    const types = read.flat().map((e) => e.type);
    assert(types.includes("user.disabled") && types.includes("login.failed"));
    assert(
      read.flat().some((e) =>
        e.type === "login.succeeded" && e.actor?.id === support.id
      ),
    );
    // Filters and reach together: the top administrator's account has
    // nothing to show, by id or by address; a member's is its own.
    assertEquals(
      (await pages(api, supportAgain, `&user_id=${root.id}`, 5)).flat(),
      [],
    );
    assertEquals(
      (await pages(api, supportAgain, `&email=${root.email}`, 5)).flat(),
      [],
    );
    const ofMember =
      (await pages(api, supportAgain, `&user_id=${member.id}`, 2))
        .flat();
    assertEquals(
      ofMember.map((e) => e.type),
      Array(4).fill("login.succeeded"),
    );
    const disabledByType = (await pages(
      api,
      supportAgain,
      "&type=user.disabled",
      1,
    )).flat();
    assertEquals(
      disabledByType.map((e) => [e.actor?.id, e.target?.id]),
      [[support.id, other.id], [support.id, other.id]],
    );
    // The top administrator reaches every role: it reads everything.
    const everything = await pages(api, rootCookie, "", 7);
    assertEquals(everything.flat().length, stored.length);
  },
);

testEachStore(
  "the audit log filters by address: the account's events as actor or target",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApi(store);
    const admin = await api.login(root.email);
    await api.login(member.email);
    const res = await api.call("PATCH", `/api/users/${member.id}`, {
      disabled: true,
    }, { cookie: admin });
    await res.body?.cancel();
    const byId = await pages(api, admin, `&user_id=${member.id}`, 100);
    assertEquals(byId.flat().map((e) => e.type), [
      "user.disabled",
      "login.succeeded",
    ]);
    // Case and spaces aside, the address finds the same account.
    const byEmail = await pages(
      api,
      admin,
      `&email=${encodeURIComponent("  Member@EXAMPLE.com ")}`,
      1,
    );
    assertEquals(byEmail.flat(), byId.flat());
    assertEquals(
      (await pages(
        api,
        admin,
        `&email=member@example.com&type=user.disabled`,
        5,
      ))
        .flat().map((e) => e.actor?.email),
      [root.email],
    );
    assertEquals(
      (await pages(api, admin, "&email=nobody@example.com", 5)).flat(),
      [],
    );
    for (
      const query of [
        "email=not-an-address",
        "email=a%00@example.com",
        `email=member@example.com&user_id=${member.id}`,
        `email=${"x".repeat(300)}@example.com`,
      ]
    ) {
      const refused = await api.call("GET", `/api/audit?${query}`, undefined, {
        cookie: admin,
      });
      const body = await refused.json();
      assertEquals(
        [refused.status, body.code, body.meta?.field],
        [400, "body_malformed", "email"],
        query,
      );
    }
  },
);

testEachStore(
  "one's own activity shows that an administrator acted, not who, from where or with what",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApi(store);
    const asRoot = { address: ROOT_ADDRESS, userAgent: FIREFOX };
    const admin = await api.login(root.email, undefined, asRoot);
    const mine = await api.login(member.email, undefined, {
      address: "192.0.2.44",
    });
    const res = await api.call(
      "PUT",
      `/api/users/${member.id}/role`,
      { role: "support" },
      { cookie: admin, ...asRoot },
    );
    assertEquals(res.status, 200);
    await res.body?.cancel();
    const revoked = await api.call(
      "DELETE",
      `/api/users/${member.id}/sessions`,
      undefined,
      { cookie: admin, ...asRoot },
    );
    await revoked.body?.cancel();
    const again = await api.login(member.email, undefined, {
      address: "192.0.2.44",
    });
    assert(!(await api.live(mine)));

    const activity = await getJson(api, "/api/auth/activity?limit=100", again);
    const events: WireEvent[] = activity.events;
    const text = JSON.stringify(events);
    assert(!text.includes(root.email), "the administrator's address shows");
    assert(!text.includes(ROOT_ADDRESS), "the administrator's IP shows");
    assert(!text.includes("Firefox"), "the administrator's browser shows");
    assert(!text.includes(root.id), "the administrator's id shows");
    const byAdmin = events.filter((e) => e.actor?.id !== member.id);
    assertEquals(
      byAdmin.map((
        e,
      ) => [e.type, e.actor, e.target?.email, e.ip, e.user_agent]),
      [
        [
          "user.sessions_revoked",
          { id: null, email: null },
          member.email,
          "",
          "",
        ],
        ["user.role_changed", { id: null, email: null }, member.email, "", ""],
      ],
    );
    assertEquals(byAdmin[1]!.detail, {
      old_role: "member",
      new_role: "support",
    });
    // One's own sign-ins keep where they came from.
    const signIns = events.filter((e) => e.type === "login.succeeded");
    assertEquals(signIns.length, 2);
    assert(
      signIns.every((e) =>
        e.ip === "192.0.2.44" && e.user_agent === "Chrome on Linux" &&
        e.actor?.email === member.email
      ),
    );
    // The administrator's own activity names the account it acted on.
    const theirs: WireEvent[] =
      (await getJson(api, "/api/auth/activity?limit=100", admin)).events;
    const change = theirs.find((e) => e.type === "user.role_changed")!;
    assertEquals(
      [change.actor?.email, change.target?.email, change.ip],
      [root.email, member.email, ROOT_ADDRESS],
    );
  },
);

testEachStore(
  "a failed sign-in keeps the typed email only when it is an address",
  async (store) => {
    const { root } = await people(store);
    const api = securityApi(store);
    const admin = await api.login(root.email);
    const typed = [
      "hunter2@@x",
      "p@ss word",
      `${"s3cret".repeat(25)}@${"x".repeat(149)}`,
      "correct\0horse@example.com",
      // Passwords with one "@": addresses by the sign-in rule, but no
      // deliverable domain.
      "Tr0ub@dor",
      "P@ssw0rd.2024",
    ];
    assertEquals(typed[2]!.length, 300);
    for (const email of [...typed, "  Ada@Example.COM "]) {
      const res = await api.call("POST", "/api/auth/login", {
        email,
        password: "wrong guess",
      });
      assertEquals(res.status, 401);
      await res.body?.cancel();
    }
    const failures = (await api.events())
      .filter((e) => e.type === "login.failed");
    assertEquals(
      failures.map((e) => e.detail),
      [...typed.map(() => ({ email_invalid: true })), {
        email: "ada@example.com",
      }],
    );
    const stored = JSON.stringify(failures);
    for (
      const secret of ["hunter2", "p@ss", "s3cret", "horse", "Tr0ub", "ssw0rd"]
    ) {
      assert(!stored.includes(secret), secret);
    }
    const wire: WireEvent[] =
      (await pages(api, admin, "&type=login.failed", 100)).flat();
    assertEquals(
      wire.map((e) => e.detail).reverse(),
      [...typed.map(() => ({ email_invalid: "true" })), {
        email: "ada@example.com",
      }],
    );
    assert(wire.every((e) => e.actor === null && e.target === null));
  },
);
