// Invitations as an administrator and an invited person meet them (issue
// 26, items 2, 11 and 21): a revocation's event says whom it invited; one
// address has at most one pending invitation (a new one kills the old
// link, if its inviter could have revoked it: DESIGN.md §8); an address that has an account is no longer pending; an
// administrator lists only what it could have sent; and the page a link
// opens learns at once whether the link still works
// (`POST /api/auth/links/check`), or that the address has an account. On
// both stores, through createGatehouse's routes.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { HOSTILE } from "../fixtures/hostile.ts";
import { apiOn, refusal } from "../fixtures/api.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { Identity, Store } from "../../mod.ts";
import type { InvitationJson } from "@gatehouse/contract";

const NEW_PASSWORD = "the invited person's passphrase";

async function actors(store: Store) {
  const identity = async (email: string, role: string): Promise<Identity> => {
    const user = await addUser(store, { email, name: role, role });
    return { id: user.id, email: user.email, name: user.name, role };
  };
  return {
    owner: await identity("owner@example.com", "admin"),
    support: await identity("support@example.com", "support"),
  };
}

type Api = ReturnType<typeof apiOn>;

async function list(t: Api, actor: Identity): Promise<InvitationJson[]> {
  const res = await t.asActor(actor, "GET", "/api/users/invitations");
  assertEquals(res.status, 200);
  return (await res.json()).invitations;
}

async function accept(t: Api, token: string): Promise<number> {
  const res = await t.call("POST", "/api/auth/invite/accept", {
    token,
    password: NEW_PASSWORD,
  });
  await res.body?.cancel();
  return res.status;
}

// The check's answer: its status, then its `status` field or error code.
async function check(
  t: Api,
  token: string,
  kind = "invitation",
): Promise<[number, string]> {
  const res = await t.call("POST", "/api/auth/links/check", { token, kind });
  const body = await res.json();
  if (res.status === 200) {
    assertEquals(res.headers.get("cache-control"), "no-store");
  }
  return [res.status, res.status === 200 ? body.status : body.code];
}

testEachStore(
  "invitation.revoked names the invited address and role, not only the id",
  async (store) => {
    const t = apiOn(store);
    const { owner } = await actors(store);
    await t.invite(owner, "Ada@Example.com", "member");
    const [pending] = await list(t, owner);
    const res = await t.asActor(
      owner,
      "DELETE",
      `/api/users/invitations/${pending!.id}`,
    );
    assertEquals(res.status, 204);
    const { events } = await store.listAuditEvents({
      limit: 10,
      type: "invitation.revoked",
    });
    assertEquals(events.map((e) => [e.actorEmail, e.detail]), [
      ["owner@example.com", {
        invitation_id: pending!.id,
        email: "Ada@Example.com",
        role: "member",
      }],
    ]);
  },
);

testEachStore(
  "a second invitation to one address replaces the first: one row, the first link dead",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const { owner } = await actors(store);
    const first = await t.invite(owner, "ada@example.com", "support");
    t.advance(1000);
    const second = await t.invite(owner, "ADA@example.com", "member");
    const invitations = await list(t, owner);
    assertEquals(
      invitations.map((i) => [i.email, i.role]),
      [["ADA@example.com", "member"]],
    );
    assertEquals(await check(t, first), [410, "token_invalid"]);
    assertEquals(await accept(t, first), 410);
    assertEquals(await check(t, second), [200, "ready"]);
    assertEquals(await accept(t, second), 200);
    assertEquals(await list(t, owner), []);
  },
);

// The owner's invitation of an administrator, which support (who may grant
// member only) cannot reach; `untouched` asserts that it is still the one
// pending and that its link still makes an administrator.
async function adminInvitationBeyondSupport(store: Store) {
  const t = apiOn(store, { maxFailures: 1000 });
  const { owner, support } = await actors(store);
  const link = await t.invite(owner, "newadmin@example.com", "admin");
  const [pending] = await list(t, owner);
  const untouched = async () => {
    assertEquals(
      (await list(t, owner)).map((i) => [i.id, i.role]),
      [[pending!.id, "admin"]],
    );
    const res = await t.call("POST", "/api/auth/invite/accept", {
      token: link,
      password: NEW_PASSWORD,
    });
    assertEquals(res.status, 200);
    assertEquals((await res.json()).role, "admin");
  };
  return { t, owner, support, pending: pending!, untouched };
}

testEachStore(
  "an administrator of limited reach cannot replace an invitation beyond its reach by inviting the same address",
  async (store) => {
    const { t, owner, support, pending, untouched } =
      await adminInvitationBeyondSupport(store);
    // support may grant member only: revoking the admin invitation is
    // refused, and so is killing it by inviting its address again.
    const revoked = await t.asActor(
      support,
      "DELETE",
      `/api/users/invitations/${pending.id}`,
    );
    assertEquals(await refusal(revoked), [403, "role_beyond_reach"]);
    const replaced = await t.asActor(support, "POST", "/api/users/invite", {
      email: "NewAdmin@example.com",
      name: "Invited",
      role: "member",
    });
    assertEquals(await refusal(replaced), [403, "role_beyond_reach"]);
    // Nothing was written: no invitation.created for the refused one, the
    // owner's invitation is the one pending, and its link works.
    const { events } = await store.listAuditEvents({
      limit: 10,
      type: "invitation.created",
    });
    assertEquals(events.map((e) => e.actorId), [owner.id]);
    await untouched();
  },
);

testEachStore(
  "a hundred invitations at once from an administrator of limited reach replace none beyond its reach",
  async (store) => {
    const { t, support, untouched } = await adminInvitationBeyondSupport(
      store,
    );
    const answers = await Promise.all(
      Array.from(
        { length: 100 },
        (_, i) =>
          t.asActor(support, "POST", "/api/users/invite", {
            email: "newadmin@example.com",
            name: `Invited ${i}`,
            role: "member",
          }).then(refusal),
      ),
    );
    assertEquals(
      answers.filter(([status, code]) =>
        status !== 403 || code !== "role_beyond_reach"
      ),
      [],
      "every one refused",
    );
    await untouched();
  },
);

testEachStore(
  "an inviter with reach replaces the earlier invitation, and anyone an expired one; the old links die",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const { owner, support } = await actors(store);
    // The owner may revoke an admin invitation: it may replace it.
    const admin = await t.invite(owner, "a@example.com", "admin");
    const member = await t.invite(owner, "a@example.com", "member");
    // support may revoke a member invitation, whoever sent it.
    const bySupport = await t.invite(support, "a@example.com", "member");
    assertEquals(await check(t, admin), [410, "token_invalid"]);
    assertEquals(await check(t, member), [410, "token_invalid"]);
    assertEquals(
      (await list(t, owner)).map((i) => [i.role, i.invited_by?.email]),
      [["member", support.email]],
    );
    assertEquals(await accept(t, bySupport), 200);
    // An expired admin invitation is dead already: support replaces it.
    const expired = await t.invite(owner, "b@example.com", "admin");
    t.advance(7 * 24 * 60 * 60 * 1000);
    const fresh = await t.invite(support, "b@example.com", "member");
    assertEquals(await check(t, expired), [410, "token_invalid"]);
    assertEquals(await accept(t, fresh), 200);
  },
);

testEachStore(
  "20 simultaneous invitations to one address leave one pending, whose link works",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const { owner } = await actors(store);
    const tokens = await Promise.all(
      Array.from(
        { length: 20 },
        () => t.invite(owner, "crowd@example.com", "member"),
      ),
    );
    assertEquals((await list(t, owner)).length, 1);
    const ready = [];
    for (const token of tokens) {
      if ((await check(t, token))[0] === 200) ready.push(token);
    }
    assertEquals(ready.length, 1);
    assertEquals(await accept(t, ready[0]!), 200);
  },
);

testEachStore(
  "an invitation whose address has an account is not listed as pending",
  async (store) => {
    const t = apiOn(store);
    const { owner } = await actors(store);
    await t.invite(owner, "ada@example.com", "member");
    await t.invite(owner, "bob@example.com", "member");
    // Bob's account is made by hand before he opens his link.
    const made = await t.asActor(owner, "POST", "/api/users", {
      email: "Bob@example.com",
      name: "Bob",
      password: NEW_PASSWORD,
      role: "member",
    });
    assertEquals(made.status, 201);
    await made.body?.cancel();
    assertEquals(
      (await list(t, owner)).map((i) => i.email),
      ["ada@example.com"],
    );
  },
);

testEachStore(
  "an administrator lists only the invitations whose role it could grant",
  async (store) => {
    const t = apiOn(store);
    const { owner, support } = await actors(store);
    await t.invite(owner, "a@example.com", "admin");
    t.advance(1000);
    await t.invite(owner, "s@example.com", "support");
    t.advance(1000);
    await t.invite(owner, "m@example.com", "member");
    t.advance(1000);
    await t.invite(owner, "n@example.com", "");
    const emails = async (actor: Identity) =>
      (await list(t, actor)).map((i) => i.email);
    assertEquals(await emails(owner), [
      "n@example.com",
      "m@example.com",
      "s@example.com",
      "a@example.com",
    ]);
    // support may grant member only; no role is within everyone's reach.
    assertEquals(await emails(support), ["n@example.com", "m@example.com"]);
  },
);

testEachStore(
  "POST /api/auth/links/check: ready, account_exists, or 410 for every dead link, spending nothing",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000, mail: true });
    const { owner } = await actors(store);
    const fresh = await t.invite(owner, "new@example.com", "member");
    assertEquals(await check(t, fresh), [200, "ready"]);
    assertEquals(await check(t, fresh), [200, "ready"]);
    // The invite answer is the same for a taken address; its link says so
    // to whoever opens it, who is better sent to sign in.
    const taken = await t.invite(owner, "Support@example.com", "member");
    assertEquals(await check(t, taken), [200, "account_exists"]);
    // The wrong kind, a revoked one, garbage: dead.
    assertEquals(await check(t, fresh, "reset"), [410, "token_invalid"]);
    const revoked = await t.invite(owner, "gone@example.com", "member");
    const gone = (await list(t, owner)).find((i) =>
      i.email === "gone@example.com"
    );
    const res = await t.asActor(
      owner,
      "DELETE",
      `/api/users/invitations/${gone!.id}`,
    );
    assertEquals(res.status, 204);
    assertEquals(await check(t, revoked), [410, "token_invalid"]);
    assertEquals(await check(t, "x".repeat(43)), [410, "token_invalid"]);
    assertEquals(await check(t, "short"), [410, "token_invalid"]);
    // A reset link: ready until spent.
    const reset = await t.resetToken("owner@example.com");
    assertEquals(await check(t, reset, "reset"), [200, "ready"]);
    const confirmed = await t.call("POST", "/api/auth/password-reset/confirm", {
      token: reset,
      password: NEW_PASSWORD,
    });
    assertEquals(confirmed.status, 204);
    assertEquals(await check(t, reset, "reset"), [410, "token_invalid"]);
    // The checks spent nothing: the fresh invitation still accepts.
    assertEquals(await accept(t, fresh), 200);
    assertEquals(await check(t, fresh), [410, "token_invalid"]);
    // Expired: dead.
    const late = await t.invite(owner, "late@example.com", "member");
    t.advance(7 * 24 * 60 * 60 * 1000);
    assertEquals(await check(t, late), [410, "token_invalid"]);
  },
);

testEachStore(
  "the link check refuses a malformed body and sits behind the dead-link limiter",
  async (store) => {
    const t = apiOn(store, { maxFailures: 3 });
    const { owner } = await actors(store);
    const live = await t.invite(owner, "new@example.com", "member");
    assertEquals(
      await refusal(
        await t.call("POST", "/api/auth/links/check", {
          token: live,
          kind: "session",
        }),
      ),
      [400, "body_malformed"],
    );
    assertEquals(
      await refusal(
        await t.call("POST", "/api/auth/links/check", { token: live }),
      ),
      [400, "body_field_required"],
    );
    for (let i = 0; i < 3; i++) {
      assertEquals(await check(t, "x".repeat(43)), [410, "token_invalid"]);
    }
    // Three dead links from this address: even a live one waits now.
    assertEquals(await check(t, live), [429, "login_rate_limited"]);
    const other = await t.call("POST", "/api/auth/links/check", {
      token: live,
      kind: "invitation",
    }, { address: "198.51.100.7" });
    assertEquals(await other.json(), { status: "ready" });
  },
);

testEachStore(
  "the link check under a burst and hostile input: 300 checks of a live link spend nothing; dead ones stop at the limiter; no string gets a 5xx",
  async (store) => {
    const t = apiOn(store, { maxFailures: 10 });
    const { owner } = await actors(store);
    const live = await t.invite(owner, "new@example.com", "member");
    // 300 at once, from as many addresses: each says ready, none spends it.
    const ready = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const res = await t.call("POST", "/api/auth/links/check", {
          token: live,
          kind: "invitation",
        }, { address: `198.51.100.${i % 250}` });
        return res.status === 200 ? (await res.json()).status : res.status;
      }),
    );
    assertEquals(new Set(ready), new Set(["ready"]));
    // 300 dead tokens at once from one address: at most the threshold are
    // answered 410, the rest wait (429); nothing else.
    const dead = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const res = await t.call("POST", "/api/auth/links/check", {
          token: String(i).padStart(43, "x"),
          kind: "reset",
        }, { address: "203.0.113.9" });
        return (await refusal(res)).join(" ");
      }),
    );
    const counts: Record<string, number> = {};
    for (const answer of dead) counts[answer] = (counts[answer] ?? 0) + 1;
    assertEquals(counts, {
      "410 token_invalid": 10,
      "429 login_rate_limited": 290,
    });
    // Hostile tokens and kinds: a JSON 4xx with its code, never a 5xx.
    for (const [i, hostile] of HOSTILE.entries()) {
      for (
        const body of [
          { token: hostile, kind: "invitation" },
          { token: live, kind: hostile },
        ]
      ) {
        const res = await t.call("POST", "/api/auth/links/check", body, {
          address: `192.0.2.${i + 1}`,
        });
        const [status, code] = await refusal(res);
        assert(status >= 400 && status < 500, `${status} for ${hostile}`);
        assert(typeof code === "string" && code !== "", `a code: ${code}`);
      }
    }
    // Still ready, and accepted once.
    assertEquals(await accept(t, live), 200);
    assertEquals(await check(t, live), [410, "token_invalid"]);
  },
);
