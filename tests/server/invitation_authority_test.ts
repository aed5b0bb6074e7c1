// An invitation carries its inviter's authority only while the inviter has
// it (DESIGN.md §5): accepting needs the inviter still enabled and still able
// to grant the invited role, and the first-run link works only while the
// store has no account. On both stores.

import { assertEquals } from "../fixtures/assert.ts";
import { apiOn, refusal, tokenOf } from "../fixtures/api.ts";
import { addUser, hasher } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { firstRunInvitation, type Identity, type Store } from "../../mod.ts";
import { runCreateAdmin } from "../../server/features/create_admin.ts";
import { ROLES } from "../fixtures/admin.ts";
import { withServedApi } from "../fixtures/security.ts";

const NEW_PASSWORD = "the invited person's passphrase";

async function inviter(store: Store, role = "admin"): Promise<Identity> {
  const user = await addUser(store, { email: `${role}@example.com`, role });
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

async function accept(
  t: Pick<ReturnType<typeof apiOn>, "call">,
  token: string,
) {
  return await t.call("POST", "/api/auth/invite/accept", {
    token,
    password: NEW_PASSWORD,
  });
}

testEachStore(
  "a disabled administrator's invitation mints nobody",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const owner = await inviter(store);
    await addUser(store, { email: "other@example.com", role: "admin" });
    const token = await t.invite(owner, "mallory@example.com", "admin");
    await store.updateUser(owner.id, { disabled: true });
    assertEquals(await refusal(await accept(t, token)), [410, "token_invalid"]);
    assertEquals(
      (await t.login("mallory@example.com", NEW_PASSWORD)).status,
      401,
    );
    // Re-enabling the inviter does not revive the link.
    await store.updateUser(owner.id, { disabled: false });
    assertEquals(await refusal(await accept(t, token)), [410, "token_invalid"]);
  },
);

testEachStore(
  "an inviter demoted since cannot hand out the role through an old link",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const owner = await inviter(store);
    await addUser(store, { email: "other@example.com", role: "admin" });
    const adminLink = await t.invite(owner, "a@example.com", "admin");
    const memberLink = await t.invite(owner, "m@example.com", "member");
    // support may grant member only: the admin link loses its power, the
    // member link keeps it.
    await store.updateUser(owner.id, { role: "support" });
    assertEquals(
      await refusal(await accept(t, adminLink)),
      [410, "token_invalid"],
    );
    const member = await accept(t, memberLink);
    assertEquals(member.status, 200);
    assertEquals((await member.json()).role, "member");
    // Demoted to a role that administers nothing: no link of theirs works.
    const late = await t.invite(
      { ...owner, role: "support" },
      "late@example.com",
      "member",
    );
    await store.updateUser(owner.id, { role: "member" });
    assertEquals(await refusal(await accept(t, late)), [410, "token_invalid"]);
  },
);

testEachStore(
  "the first-run link dies once create-admin made the first administrator",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const link = await firstRunInvitation({
      store,
      email: "first@example.com",
      name: "First",
      role: "admin",
      publicUrl: "https://app.example",
    });
    const code = await runCreateAdmin(
      [
        "--email",
        "admin@example.com",
        "--name",
        "Admin",
        "--role",
        "admin",
        "--password-stdin",
      ],
      {
        store,
        roles: ROLES,
        hasher,
        io: {
          input: ReadableStream.from([
            new TextEncoder().encode("a fine admin passphrase\n"),
          ]),
          write: () => {},
          writeError: () => {},
        },
      },
    );
    assertEquals(code, 0);
    assertEquals(
      await refusal(await accept(t, tokenOf(link!))),
      [410, "token_invalid"],
    );
    const admins = (await store.listUsers({ limit: 10 })).users;
    assertEquals(admins.map((u) => u.email), ["admin@example.com"]);
  },
);

testEachStore(
  "of two first-run links accepted at once, one makes the administrator",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const links = [];
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
      links.push(
        await firstRunInvitation({
          store,
          email,
          name: "First",
          role: "admin",
          publicUrl: "https://app.example",
        }),
      );
    }
    const answers = await Promise.all(
      links.map((link) => accept(t, tokenOf(link!))),
    );
    const statuses = answers.map((res) => res.status).sort();
    await Promise.all(answers.map((res) => res.body?.cancel()));
    assertEquals(statuses, [200, 410, 410]);
    assertEquals((await store.listUsers({ limit: 10 })).users.length, 1);
  },
);

testEachStore(
  "an invitation whose inviter was disabled stays dead once the inviter is enabled again, though nobody tried it meanwhile",
  async (store) => {
    await withServedApi(store, async (api, { root, support }) => {
      const admin = await api.login(root.email);
      const sent = await api.call("POST", "/api/users/invite", {
        email: "mallory@example.com",
        name: "Mallory",
        role: "member",
      }, { cookie: await api.login(support.email) });
      assertEquals(sent.status, 200);
      const token = tokenOf((await sent.json()).activation_link);
      for (const disabled of [true, false]) {
        const res = await api.call("PATCH", `/api/users/${support.id}`, {
          disabled,
        }, { cookie: admin });
        assertEquals(res.status, 200);
        await res.body?.cancel();
      }
      const check = await api.call("POST", "/api/auth/links/check", {
        token,
        kind: "invitation",
      });
      assertEquals(await refusal(check), [410, "token_invalid"]);
      const pending = await api.call(
        "GET",
        "/api/users/invitations",
        undefined,
        { cookie: admin },
      );
      assertEquals((await pending.json()).invitations, []);
      const accepted = await api.call("POST", "/api/auth/invite/accept", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals(await refusal(accepted), [410, "token_invalid"]);
      assertEquals(
        (await store.listUsers({ limit: 10, q: "mallory" })).users,
        [],
      );
    });
  },
);

testEachStore(
  "an invitation its inviter's demotion took beyond its grant stays dead once the inviter is promoted again, though nobody tried it meanwhile",
  async (store) => {
    await withServedApi(store, async (api, { root, support }) => {
      const admin = await api.login(root.email);
      const sent = await api.call("POST", "/api/users/invite", {
        email: "mallory@example.com",
        name: "Mallory",
        role: "member",
      }, { cookie: await api.login(support.email) });
      assertEquals(sent.status, 200);
      const token = tokenOf((await sent.json()).activation_link);
      // A member grants nothing; support grants member again.
      for (const role of ["member", "support"]) {
        const res = await api.call("PUT", `/api/users/${support.id}/role`, {
          role,
        }, { cookie: admin });
        assertEquals(res.status, 200);
        await res.body?.cancel();
      }
      const check = await api.call("POST", "/api/auth/links/check", {
        token,
        kind: "invitation",
      });
      assertEquals(await refusal(check), [410, "token_invalid"]);
      const pending = await api.call(
        "GET",
        "/api/users/invitations",
        undefined,
        { cookie: admin },
      );
      assertEquals((await pending.json()).invitations, []);
      const accepted = await api.call("POST", "/api/auth/invite/accept", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals(await refusal(accepted), [410, "token_invalid"]);
      assertEquals(
        (await store.listUsers({ limit: 10, q: "mallory" })).users,
        [],
      );
    });
  },
);

testEachStore(
  "a demotion ends only the invitations the inviter's new role may not grant; the others keep working",
  async (store) => {
    await withServedApi(store, async (api, { root }) => {
      const admin = await api.login(root.email);
      const deputy = await addUser(store, {
        email: "deputy@example.com",
        role: "admin",
      });
      const cookie = await api.login(deputy.email);
      const invite = async (email: string, role: string) => {
        const sent = await api.call("POST", "/api/users/invite", {
          email,
          name: "Invited",
          role,
        }, { cookie });
        assertEquals(sent.status, 200);
        return tokenOf((await sent.json()).activation_link);
      };
      const memberLink = await invite("m@example.com", "member");
      const adminLink = await invite("a@example.com", "admin");
      // support grants member, not admin.
      const res = await api.call("PUT", `/api/users/${deputy.id}/role`, {
        role: "support",
      }, { cookie: admin });
      assertEquals(res.status, 200);
      await res.body?.cancel();
      const pending = await api.call(
        "GET",
        "/api/users/invitations",
        undefined,
        { cookie: admin },
      );
      assertEquals(
        (await pending.json()).invitations.map((i: { email: string }) =>
          i.email
        ),
        ["m@example.com"],
      );
      const check = await api.call("POST", "/api/auth/links/check", {
        token: memberLink,
        kind: "invitation",
      });
      assertEquals(check.status, 200);
      assertEquals((await check.json()).status, "ready");
      assertEquals(
        await refusal(await accept(api, adminLink)),
        [410, "token_invalid"],
      );
      const accepted = await accept(api, memberLink);
      assertEquals(accepted.status, 200);
      assertEquals((await accepted.json()).role, "member");
    });
  },
);

testEachStore(
  "a hundred acceptances racing the inviter's disable: no 5xx, one account at most per link, and none left pending or usable after",
  async (store) => {
    await withServedApi(store, async (api, { root, support }) => {
      const admin = await api.login(root.email);
      const supportCookie = await api.login(support.email);
      const tokens: string[] = [];
      for (let i = 0; i < 10; i++) {
        const sent = await api.call("POST", "/api/users/invite", {
          email: `guest${i}@example.com`,
          name: `Guest ${i}`,
          role: "member",
        }, { cookie: supportCookie });
        assertEquals(sent.status, 200);
        tokens.push(tokenOf((await sent.json()).activation_link));
      }
      // Ten acceptances of each link, and the disable, all at once.
      const accepts = tokens.flatMap((token) =>
        Array.from(
          { length: 10 },
          () =>
            api.call("POST", "/api/auth/invite/accept", {
              token,
              password: NEW_PASSWORD,
            }).then(async (res) => {
              await res.body?.cancel();
              return { token, status: res.status };
            }),
        )
      );
      const disable = api.call("PATCH", `/api/users/${support.id}`, {
        disabled: true,
      }, { cookie: admin });
      const answers = await Promise.all(accepts);
      const disabled = await disable;
      assertEquals(disabled.status, 200);
      await disabled.body?.cancel();
      assertEquals(answers.filter((a) => a.status >= 500), []);
      const won = answers.filter((a) => a.status === 200);
      assertEquals(
        new Set(won.map((a) => a.token)).size,
        won.length,
        "one account at most per link",
      );
      assertEquals(
        answers.every((a) => a.status === 200 || a.status === 410),
        true,
      );
      // Every account made is one acceptance that won.
      const guests = (await store.listUsers({ limit: 100, q: "guest" })).users;
      assertEquals(guests.length, won.length);
      // The disable's clean-up has run: nothing pending, and enabling the
      // inviter again revives no link.
      const enabled = await api.call("PATCH", `/api/users/${support.id}`, {
        disabled: false,
      }, { cookie: admin });
      assertEquals(enabled.status, 200);
      await enabled.body?.cancel();
      const pending = await api.call(
        "GET",
        "/api/users/invitations",
        undefined,
        { cookie: admin },
      );
      assertEquals((await pending.json()).invitations, []);
      for (const token of tokens) {
        const accepted = await api.call("POST", "/api/auth/invite/accept", {
          token,
          password: NEW_PASSWORD,
        });
        assertEquals(await refusal(accepted), [410, "token_invalid"]);
      }
    });
  },
);
