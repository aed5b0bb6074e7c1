// The single sign-on rules of the store (server/core/rules/sso.ts and its
// private modules), written once over the narrow store and held here on
// Deno KV, Postgres and SQLite alike: a flow is spent once under 200
// racing spends, racing first sign-ins of one identity make one account and
// one link, two racing unlinks cannot both leave the other as the last way
// in, a back-channel logout ends exactly the sessions it names and is acted
// on once, a session remembers its provider and `sid` (and a session of no
// single sign-on has neither, on every store), and the reaper sweeps flows.

import { assert, assertEquals, assertRejects } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type {
  SsoAccountRequest,
  Store,
  StoredSsoFlow,
} from "../../server/core/store.ts";
import { Reaper } from "../../mod.ts";
import { AuthError } from "../../server/http/errors.ts";
import { uuidv7 } from "../../server/core/_crypto.ts";

const ISSUER = "https://login.acme.example";
const HOUR = 3_600_000;

function flow(now: number, over: Partial<StoredSsoFlow> = {}): StoredSsoFlow {
  return {
    tokenHash: crypto.randomUUID(),
    providerId: "acme",
    state: "state",
    nonce: "nonce",
    codeVerifier: "verifier",
    returnTo: "/",
    purpose: "sign_in",
    userId: null,
    sessionId: null,
    createdAt: now,
    expiresAt: now + 600_000,
    ...over,
  };
}

function request(
  subject: string,
  email: string,
  over: Partial<SsoAccountRequest> = {},
): SsoAccountRequest {
  const now = Date.now();
  return {
    providerId: "acme",
    issuer: ISSUER,
    subject,
    email,
    emailKey: email.toLowerCase(),
    name: "Someone",
    firstLinkRefusal: null,
    identityId: uuidv7(now),
    userId: uuidv7(now),
    now,
    granters: () => Promise.resolve(undefined),
    ...over,
  };
}

async function session(
  store: Store,
  userId: string,
  sso?: { provider: string; sid: string | null },
): Promise<string> {
  const now = Date.now();
  const tokenHash = crypto.randomUUID();
  assert(
    await store.createSession({
      tokenHash,
      userId,
      createdAt: now,
      expiresAt: now + HOUR,
      ...(sso === undefined ? {} : { sso }),
    }),
  );
  return tokenHash;
}

testEachStore("a flow is spent once under 200 racing spends", async (store) => {
  const now = Date.now();
  const ada = await addUser(store, { email: "ada@example.org" });
  const saved = flow(now, {
    purpose: "reauthenticate",
    userId: ada.id,
    sessionId: uuidv7(now),
  });
  await store.saveSsoFlow(saved);
  const spent = await Promise.all(
    Array.from({ length: 200 }, () => store.spendSsoFlow(saved.tokenHash)),
  );
  const got = spent.filter((f) => f !== null);
  assertEquals(got.length, 1);
  assertEquals(got[0], saved);
  assertEquals(await store.spendSsoFlow(saved.tokenHash), null);
});

testEachStore(
  "racing first sign-ins of one identity make one account and one link",
  async (store) => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        store.resolveSsoAccount(
          request("sub-1", "new@acme.example", {
            create: { name: "New", role: "member" },
          }),
        )),
    );
    assert(outcomes.every((o) => o.ok));
    const ids = new Set(outcomes.map((o) => o.ok ? o.account.id : ""));
    assertEquals(ids.size, 1);
    assertEquals(outcomes.filter((o) => o.ok && o.how === "created").length, 1);
    const [id] = ids;
    assertEquals((await store.listIdentities(id!)).length, 1);
    const found = await store.identityBySubject(ISSUER, "sub-1");
    assertEquals(found?.userId, id);
    assertEquals(
      (await store.credentialsByEmail("new@acme.example"))?.passwordHash,
      "",
    );
    // The same subject at another issuer is another identity.
    assertEquals(await store.identityBySubject(`${ISSUER}/`, "sub-1"), null);
  },
);

testEachStore(
  "a first link refused or to a disabled account links nothing; a linked identity ignores the address",
  async (store) => {
    const ada = await addUser(store, { email: "ada@acme.example" });
    const refused = await store.resolveSsoAccount(
      request("ada-sub", "ada@acme.example", {
        firstLinkRefusal: "sso_email_unverified",
      }),
    );
    assertEquals(refused, {
      ok: false,
      code: "sso_email_unverified",
      account: null,
    });
    await store.updateUser(ada.id, { disabled: true });
    const disabled = await store.resolveSsoAccount(
      request("ada-sub", "ada@acme.example"),
    );
    assert(!disabled.ok && disabled.code === "sso_account_disabled");
    assertEquals(await store.listIdentities(ada.id), []);
    await store.updateUser(ada.id, { disabled: false });
    const linked = await store.resolveSsoAccount(
      request("ada-sub", "ada@acme.example"),
    );
    assert(linked.ok && linked.how === "linked");
    // Now the key alone decides: another address, a refusal of first links.
    const again = await store.resolveSsoAccount(
      request("ada-sub", "someone-else@acme.example", {
        firstLinkRefusal: "sso_domain_refused",
      }),
    );
    assert(again.ok && again.how === "found" && again.account.id === ada.id);
    assertEquals(again.identity.email, "someone-else@acme.example");
    assertEquals(
      (await store.listIdentities(ada.id))[0]!.email,
      "someone-else@acme.example",
    );
  },
);

testEachStore(
  "two racing unlinks cannot both pass: the last way in stays",
  async (store) => {
    const first = await store.resolveSsoAccount(
      request("one", "solo@acme.example", {
        create: { name: "Solo", role: "" },
      }),
    );
    assert(first.ok);
    const userId = first.account.id;
    const second = await store.resolveSsoAccount(
      request("two", "solo@acme.example", { providerId: "other" }),
    );
    assert(second.ok && second.account.id === userId);
    const [a, b] = await store.listIdentities(userId);
    const results = await Promise.allSettled([
      store.unlinkIdentity(userId, a!.id),
      store.unlinkIdentity(userId, b!.id),
    ]);
    assertEquals(results.filter((r) => r.status === "fulfilled").length, 1);
    const rejected = results.find((r) => r.status === "rejected") as
      | PromiseRejectedResult
      | undefined;
    assert(rejected?.reason instanceof AuthError);
    assertEquals(rejected.reason.code, "last_sign_in_method");
    assertEquals((await store.listIdentities(userId)).length, 1);
    // Another account's identity is not found, whoever asks.
    const other = await addUser(store, { email: "other@example.org" });
    const [left] = await store.listIdentities(userId);
    const error = await assertRejects(
      () => store.unlinkIdentity(other.id, left!.id),
      AuthError,
    ) as AuthError;
    assertEquals(error.code, "identity_not_found");
  },
);

testEachStore(
  "a session remembers its single sign-on; a back-channel logout ends exactly what it names, once",
  async (store) => {
    const resolved = await store.resolveSsoAccount(
      request("ada", "ada@acme.example", { create: { name: "Ada", role: "" } }),
    );
    assert(resolved.ok);
    const ada = resolved.account.id;
    const other = await addUser(store, { email: "other@example.org" });
    const sidA = await session(store, ada, { provider: "acme", sid: "sid-a" });
    const sidB = await session(store, ada, { provider: "acme", sid: "sid-b" });
    const noSid = await session(store, ada, { provider: "acme", sid: null });
    const plain = await session(store, ada);
    // The same sid at another provider, and for another account.
    const elsewhere = await session(store, ada, {
      provider: "other",
      sid: "sid-a",
    });
    const theirs = await session(store, other.id, {
      provider: "acme",
      sid: "sid-a",
    });
    const now = Date.now();
    const lookup = await store.findSession(sidA, now, ada);
    assertEquals(lookup?.ssoProvider, "acme");
    const bare = await store.findSession(plain, now, ada);
    assert(bare !== null && !("ssoProvider" in bare));
    const listed = await store.listSessions(ada, now);
    assertEquals(listed.filter((s) => s.ssoProvider === "acme").length, 3);
    assertEquals(listed.filter((s) => !("ssoProvider" in s)).length, 1);

    const live = async () =>
      (await Promise.all(
        [sidA, sidB, noSid, plain, elsewhere, theirs].map((t) =>
          store.findSession(t, Date.now())
        ),
      )).map((s) => s !== null);
    const logout = (over: { subject: string | null; sid: string | null }) => ({
      providerId: "acme",
      issuer: ISSUER,
      jti: crypto.randomUUID(),
      replayUntil: Date.now() + 600_000,
      ...over,
    });
    // sid and sub: that sign-in of that person.
    assertEquals(
      (await store.endSsoSessions(logout({ subject: "ada", sid: "sid-a" })))
        ?.sessions,
      1,
    );
    assertEquals(await live(), [false, true, true, true, true, true]);
    // sid alone: every session with it at this provider, whoever's.
    const bySid = logout({ subject: null, sid: "sid-b" });
    assertEquals((await store.endSsoSessions(bySid))?.sessions, 1);
    assertEquals(await store.endSsoSessions(bySid), null);
    assertEquals(await live(), [false, false, true, true, true, true]);
    // sub alone: every session the person's sign-ins with it made.
    assertEquals(
      (await store.endSsoSessions(logout({ subject: "ada", sid: null })))
        ?.sessions,
      1,
    );
    assertEquals(await live(), [false, false, false, true, true, true]);
    // An unknown person ends nothing.
    assertEquals(
      (await store.endSsoSessions(logout({ subject: "nobody", sid: "sid-a" })))
        ?.sessions,
      0,
    );
    assertEquals(await live(), [false, false, false, true, true, true]);
  },
);

testEachStore("the reaper sweeps expired flows", async (store) => {
  const now = Date.now();
  const old = flow(now - HOUR);
  const fresh = flow(now);
  await store.saveSsoFlow(old);
  await store.saveSsoFlow(fresh);
  const swept = await new Reaper(store, { now: () => now }).sweep();
  assertEquals(swept.ssoRecords, 1);
  assertEquals(await store.spendSsoFlow(old.tokenHash), null);
  assertEquals(
    (await store.spendSsoFlow(fresh.tokenHash))?.tokenHash,
    fresh.tokenHash,
  );
});
