// GET /api/users/invitations and DELETE /api/users/invitations/{id}
// (DESIGN.md §8): the pending invitations in the wire format, newest first;
// revoking one within reach kills its link; every refusal with its code; a
// race of revocations; hostile ids. On both stores.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { apiOn, refusal } from "../fixtures/api.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { firstRunInvitation, type Identity, type Store } from "../../mod.ts";
import type { InvitationJson } from "@gatehouse/contract";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";

const NEW_PASSWORD = "the invited person's passphrase";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

async function list(
  t: ReturnType<typeof apiOn>,
  actor: Identity,
): Promise<InvitationJson[]> {
  const res = await t.asActor(actor, "GET", "/api/users/invitations");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "no-store");
  return (await res.json()).invitations;
}

testEachStore(
  "GET /api/users/invitations lists the pending ones, newest first, in the wire format",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const { owner, support } = await actors(store);
    await t.invite(owner, "a@example.com", "admin");
    t.advance(1000);
    await t.invite(support, "b@example.com", "member");
    t.advance(1000);
    const spent = await t.invite(owner, "c@example.com", "");
    const accepted = await t.call("POST", "/api/auth/invite/accept", {
      token: spent,
      password: NEW_PASSWORD,
    });
    assertEquals(accepted.status, 200);
    await accepted.body?.cancel();
    const invitations = await list(t, owner);
    assertEquals(
      invitations.map((i) => [i.email, i.role, i.invited_by?.email]),
      [
        ["b@example.com", "member", "support@example.com"],
        ["a@example.com", "admin", "owner@example.com"],
      ],
    );
    const [first] = invitations;
    assertEquals(Object.keys(first!).sort(), [
      "created_at",
      "email",
      "expires_at",
      "id",
      "invited_by",
      "name",
      "role",
    ]);
    assertMatch(first!.id, UUID);
    assertMatch(first!.created_at, ISO);
    assertEquals(
      Date.parse(first!.expires_at) - Date.parse(first!.created_at),
      7 * 24 * 60 * 60 * 1000,
    );
    assertEquals(first!.invited_by, {
      id: support.id,
      email: support.email,
      name: support.name,
    });
    // An invitation's id is not its token.
    assert(!JSON.stringify(invitations).includes(spent));
    // Expired invitations are not pending.
    t.advance(7 * 24 * 60 * 60 * 1000);
    assertEquals(await list(t, owner), []);
  },
);

testEachStore(
  "the first-run invitation is listed without an inviter",
  async (store) => {
    const t = apiOn(store);
    await firstRunInvitation({
      store,
      email: "first@example.com",
      name: "First",
      role: "admin",
      publicUrl: "https://app.example",
      now: t.clock,
    });
    const { owner } = await actors(store);
    const [invitation] = await list(t, owner);
    assertEquals(invitation?.invited_by, null);
    assertEquals(invitation?.email, "first@example.com");
  },
);

testEachStore(
  "DELETE /api/users/invitations/{id} revokes one within reach; its link is then dead",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const { owner, support } = await actors(store);
    const adminLink = await t.invite(owner, "a@example.com", "admin");
    const memberLink = await t.invite(owner, "m@example.com", "member");
    const [member, admin] = await list(t, owner);
    const revoke = (actor: Identity, id: string) =>
      t.asActor(actor, "DELETE", `/api/users/invitations/${id}`);
    // support may grant member only: the admin invitation is beyond reach.
    assertEquals(await refusal(await revoke(support, admin!.id)), [
      403,
      "role_beyond_reach",
    ]);
    const done = await revoke(support, member!.id);
    assertEquals([done.status, await done.text()], [204, ""]);
    assertEquals(done.headers.get("cache-control"), "no-store");
    assertEquals(await refusal(await revoke(owner, member!.id)), [
      404,
      "invitation_not_found",
    ]);
    const dead = await t.call("POST", "/api/auth/invite/accept", {
      token: memberLink,
      password: NEW_PASSWORD,
    });
    assertEquals(await refusal(dead), [410, "token_invalid"]);
    assertEquals((await list(t, owner)).map((i) => i.email), ["a@example.com"]);
    // The one left still works.
    const ok = await t.call("POST", "/api/auth/invite/accept", {
      token: adminLink,
      password: NEW_PASSWORD,
    });
    assertEquals(ok.status, 200);
    await ok.body?.cancel();
  },
);

testEachStore(
  "200 simultaneous revocations of one invitation: one 204, the rest 404",
  async (store) => {
    const t = apiOn(store);
    const { owner } = await actors(store);
    await t.invite(owner, "a@example.com", "member");
    const [pending] = await list(t, owner);
    const answers = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          t.asActor(owner, "DELETE", `/api/users/invitations/${pending!.id}`)
            .then(async (res) => {
              await res.body?.cancel();
              return res.status;
            }),
      ),
    );
    assertEquals(answers.filter((s) => s === 204).length, 1);
    assertEquals(answers.filter((s) => s === 404).length, 199);
  },
);

testEachStore(
  "the invitation routes refuse without a session, without privilege, and malformed ids",
  async (store) => {
    const t = apiOn(store);
    const member = await addUser(store, {
      email: "m@example.com",
      role: "member",
    });
    const { owner } = await actors(store);
    assertEquals(
      await refusal(await t.call("GET", "/api/users/invitations")),
      [401, "session_absent"],
    );
    assertEquals(
      await refusal(
        await t.asActor(member, "GET", "/api/users/invitations"),
      ),
      [403, "role_insufficient"],
    );
    assertEquals(
      await refusal(
        await t.asActor(member, "DELETE", `/api/users/invitations/${owner.id}`),
      ),
      [403, "role_insufficient"],
    );
    for (const id of HOSTILE) {
      const res = await t.asActor(
        owner,
        "DELETE",
        `/api/users/invitations/${urlComponent(id)}`,
      );
      await res.body?.cancel();
      assert(res.status === 400 || res.status === 404, `${id}: ${res.status}`);
    }
    const res = await t.asActor(owner, "DELETE", "/api/users/invitations/x");
    assertEquals(await res.json(), {
      error: "Invitation id is not a UUID",
      code: "invitation_id_malformed",
      meta: { field: "id" },
    });
  },
);
