// The role rules under concurrency, through the real handlers and real KV:
// two administrators demoting or disabling each other at the same moment
// always leave one, within one app instance and across two instances on one
// KV file; and a disable racing a login never leaves a live session.

import { assert, assertEquals } from "../fixtures/assert.ts";
import {
  addUser,
  hasher,
  memoryStore,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { cookiePair } from "../fixtures/app.ts";
import {
  actAs,
  adminApp,
  bareAdminApp,
  jsonRequest,
  services,
} from "../fixtures/admin.ts";
import {
  createAuth,
  type Handler,
  type PasswordHasher,
  type Store,
} from "../../mod.ts";
import type { UserRecord } from "../../server/core/store.ts";
import type { StoredTally, Versioned } from "../../server/core/records.ts";
import { KvRecords, KvStore } from "../../server/stores/kv/mod.ts";

const ROUNDS = 50;
const PRIVILEGED = ["admin"];

type Move = "demote" | "disable";

// What an administrator does to the other: demote to "member", or disable.
function move(
  app: Handler,
  actor: UserRecord,
  target: UserRecord,
  kind: Move,
): Promise<Response> {
  return kind === "demote"
    ? actAs(app, actor, "PUT", `/api/users/${target.id}/role`, {
      role: "member",
    })
    : actAs(app, actor, "PATCH", `/api/users/${target.id}`, {
      disabled: true,
      role: "admin",
    });
}

// At least one enabled administrator, and the rules' tallies agree with the
// accounts (they are what the last-privileged decision reads).
async function assertAdministered(
  kv: Deno.Kv,
  store: Store,
  prefix: Deno.KvKey = ["gatehouse"],
): Promise<void> {
  const users = (await store.listUsers({ limit: 100 })).users;
  const enabled = users.filter((u) => !u.disabled);
  const admins = enabled.filter((u) => u.role === "admin");
  assert(admins.length >= 1, "no enabled administrator is left");
  const [adminCount, enabledCount] = await new KvRecords(kv, { prefix }).read(
    [{ kind: "tally", key: "role:admin" }, { kind: "tally", key: "enabled" }],
  ) as (Versioned<StoredTally> | null)[];
  assertEquals(adminCount?.value.count ?? 0, admins.length);
  assertEquals(enabledCount?.value.count ?? 0, enabled.length);
}

async function assertOneWinner(
  responses: Response[],
  loserCodes: string[],
): Promise<void> {
  const bodies = await Promise.all(responses.map((res) => res.json()));
  const won = responses.filter((res) => res.status === 200).length;
  assertEquals(won, 1, `answers: ${JSON.stringify(bodies)}`);
  const loser = bodies[responses.findIndex((res) => res.status !== 200)];
  assert(
    loserCodes.includes(loser.code),
    `the loser got ${JSON.stringify(loser)}`,
  );
}

const PAIRS: Array<[Move, Move]> = [
  ["demote", "demote"],
  ["disable", "disable"],
  ["demote", "disable"],
];

for (const [first, second] of PAIRS) {
  Deno.test(`two administrators (${first} vs ${second}) racing each other ${ROUNDS} times always leave one`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { store, kv, close } = await memoryStore();
      try {
        const { admin } = services(store, { privileged: PRIVILEGED });
        const app = bareAdminApp(admin);
        const a = await addUser(store, {
          email: "a@example.com",
          role: "admin",
        });
        const b = await addUser(store, {
          email: "b@example.com",
          role: "admin",
        });
        // Both requests passed the guards as administrators; the store
        // decides which write lands.
        const responses = await Promise.all([
          move(app, a, b, first),
          move(app, b, a, second),
        ]);
        await assertOneWinner(responses, ["last_privileged_refused"]);
        assertEquals(
          responses.find((res) => res.status !== 200)!.status,
          409,
        );
        await assertAdministered(kv, store);
      } finally {
        await close();
      }
    }
  });
}

Deno.test(`two app instances on one KV file racing ${ROUNDS} times always leave one administrator`, async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in its own key prefix of the shared database.
      const prefix = ["round", round];
      const storeA = new KvStore(kvA, { prefix });
      const storeB = new KvStore(kvB, { prefix });
      await Promise.all([storeA.migrate(), storeB.migrate()]);
      const appA = bareAdminApp(
        services(storeA, { privileged: PRIVILEGED }).admin,
      );
      const appB = bareAdminApp(
        services(storeB, { privileged: PRIVILEGED }).admin,
      );
      const a = await addUser(storeA, {
        email: "a@example.com",
        role: "admin",
      });
      const b = await addUser(storeB, {
        email: "b@example.com",
        role: "admin",
      });
      const [first, second] = PAIRS[round % PAIRS.length]!;
      const responses = await Promise.all([
        move(appA, a, b, first),
        move(appB, b, a, second),
      ]);
      await assertOneWinner(responses, ["last_privileged_refused"]);
      await assertAdministered(kvA, storeA, prefix);
      await assertAdministered(kvB, storeB, prefix);
    }
  } finally {
    kvA.close();
    kvB.close();
    await Deno.remove(path);
  }
});

Deno.test("two administrators signed in over HTTP demoting each other leave one", async () => {
  for (let round = 0; round < 20; round++) {
    const { store, kv, close } = await memoryStore();
    const { auth, admin } = services(store, { privileged: PRIVILEGED });
    const server = serveHandler(adminApp(auth, admin));
    try {
      const a = await addUser(store, { email: "a@example.com", role: "admin" });
      const b = await addUser(store, { email: "b@example.com", role: "admin" });
      const cookieA = cookiePair(await auth.startSession(a.id));
      const cookieB = cookiePair(await auth.startSession(b.id));
      const [first, second] = PAIRS[round % PAIRS.length]!;
      const send = (cookie: string, target: UserRecord, kind: Move) =>
        fetch(
          server.url + `/api/users/${target.id}` +
            (kind === "demote" ? "/role" : ""),
          {
            method: kind === "demote" ? "PUT" : "PATCH",
            headers: { cookie },
            body: JSON.stringify(
              kind === "demote"
                ? { role: "member" }
                : { disabled: true, role: "admin" },
            ),
          },
        );
      const responses = await Promise.all([
        send(cookieA, b, first),
        send(cookieB, a, second),
      ]);
      // A loser whose own demotion landed before its session was read is
      // refused at the door instead: also one administrator left.
      await assertOneWinner(responses, [
        "last_privileged_refused",
        "role_insufficient",
        "session_absent",
      ]);
      await assertAdministered(kv, store);
    } finally {
      await server.close();
      await close();
    }
  }
});

// The account's session records, dead or alive, as the store lists them.
async function sessionRecords(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  userId: string,
): Promise<number> {
  const records = new KvRecords(kv, { prefix });
  return (await records.list("session", "userId", userId)).length;
}

const login = (email: string) =>
  jsonRequest("POST", "/api/auth/login", { email, password: PASSWORD });

Deno.test("a disable racing a login on another instance leaves no live session of the account", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  try {
    for (let round = 0; round < 30; round++) {
      const prefix = ["login_race", round];
      const storeA = new KvStore(kvA, { prefix });
      const storeB = new KvStore(kvB, { prefix });
      await storeA.migrate();
      const authA = services(storeA, { privileged: PRIVILEGED }).auth;
      const { auth: authB, admin: adminB } = services(storeB, {
        privileged: PRIVILEGED,
      });
      const root = await addUser(storeA, {
        email: "root@example.com",
        role: "admin",
      });
      const member = await addUser(storeA, {
        email: "m@example.com",
        role: "member",
      });
      const disableMember = () =>
        actAs(bareAdminApp(adminB), root, "PATCH", `/api/users/${member.id}`, {
          disabled: true,
        });
      // Spread the disable over the login's password check, which is when
      // the account is read and the session written.
      const delay = (round % 10) * 4;
      const [signIn, disable] = await Promise.all([
        authA.login(login("m@example.com")),
        new Promise((resolve) => setTimeout(resolve, delay)).then(
          disableMember,
        ),
      ]);
      assertEquals(disable.status, 200);
      await disable.body?.cancel();
      if (signIn.status === 200) {
        await signIn.body?.cancel();
        const cookie = cookiePair(signIn.headers.get("set-cookie"));
        const token = cookie.slice(cookie.indexOf("=") + 1);
        assertEquals(await authA.sessionIdentity(token), null);
        assertEquals(await authB.sessionIdentity(token), null);
      } else {
        assertEquals(signIn.status, 401);
        assertEquals((await signIn.json()).code, "credentials_invalid");
      }
      assertEquals(await sessionRecords(kvA, prefix, member.id), 0);
      const after = await authA.login(login("m@example.com"));
      assertEquals(after.status, 401);
      await after.body?.cancel();
    }
  } finally {
    kvA.close();
    kvB.close();
    await Deno.remove(path);
  }
});

Deno.test("a disable landing while the password is being verified refuses the login", async () => {
  const { store, kv, close } = await memoryStore();
  try {
    const root = await addUser(store, {
      email: "root@example.com",
      role: "admin",
    });
    const member = await addUser(store, {
      email: "m@example.com",
      role: "member",
    });
    const { admin } = services(store, { privileged: PRIVILEGED });
    let disabled: Response | undefined;
    // The real hasher, with the disable slipped in after the password has
    // been found correct and before the session is written.
    const racing: PasswordHasher = {
      hash: (password) => hasher.hash(password),
      needsRehash: (hash) => hasher.needsRehash(hash),
      async verify(hash, password) {
        const ok = await hasher.verify(hash, password);
        disabled = await actAs(
          bareAdminApp(admin),
          root,
          "PATCH",
          `/api/users/${member.id}`,
          { disabled: true },
        );
        return ok;
      },
    };
    const auth = createAuth({ store, privileged: PRIVILEGED, hasher: racing });
    const res = await auth.login(login("m@example.com"));
    assertEquals(disabled?.status, 200);
    await disabled?.body?.cancel();
    assertEquals(res.status, 401);
    assertEquals((await res.json()).code, "credentials_invalid");
    assertEquals(res.headers.get("set-cookie"), null);
    assertEquals(await sessionRecords(kv, ["gatehouse"], member.id), 0);
  } finally {
    await close();
  }
});
