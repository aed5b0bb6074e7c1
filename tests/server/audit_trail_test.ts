// The audit trail (DESIGN.md §10) through the HTTP API on KV and Postgres:
// each action writes exactly one event with the right actor, target and
// detail; the events page and filter (GET /api/audit, GET /api/auth/activity);
// onEvent hears each after its commit; nothing secret is ever stored; a
// change whose commit fails leaves no event; concurrent actions each get
// theirs; the reaper removes what is past the retention.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal, tokenOf } from "../fixtures/api.ts";
import { cheapHasher } from "../fixtures/cheap_hasher.ts";
import { memoryStore } from "../fixtures/kv.ts";
import { ignorePostgres, schemaStore } from "../fixtures/postgres.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { Store } from "../../mod.ts";
import type { AuditEvent } from "../../server/core/store.ts";
import { totpCode } from "../../server/core/totp.ts";
import { PASSWORD, people, securityApi } from "../fixtures/security.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  sessionCookieOf,
} from "../fixtures/second_factor.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";

const NEW = "an entirely new passphrase";
const DAY = 24 * 60 * 60 * 1000;

type Api = ReturnType<typeof securityApi>;

// Runs `action` and answers the events it wrote (exactly those).
async function during(api: Api, action: () => Promise<unknown>) {
  const before = new Set((await api.events()).map((e) => e.id));
  await action();
  return (await api.events()).filter((e) => !before.has(e.id));
}

function who(event: AuditEvent) {
  return {
    type: event.type,
    actor: event.actorEmail,
    target: event.targetEmail,
  };
}

testEachStore(
  "every action writes exactly one event with its actor, target and detail",
  async (store) => {
    const { root, member } = await people(store);
    const heard: AuditEvent[] = [];
    const api = securityApi(store, {
      mail: true,
      onEvent: (e) => void heard.push(e),
    });
    const one = async (action: () => Promise<unknown>) => {
      const events = await during(api, action);
      assertEquals(events.length, 1, events.map((e) => e.type).join(", "));
      const [event] = events;
      assertEquals(event!.ip, "203.0.113.5");
      assertEquals(event!.userAgent, "Chrome on Linux");
      return event!;
    };
    const ok = (res: Response, status = 200) => {
      assertEquals(res.status, status);
      return res.body?.cancel();
    };

    let admin = "";
    const signedIn = await one(async () => admin = await api.login(root.email));
    assertEquals(who(signedIn), {
      type: "login.succeeded",
      actor: root.email,
      target: root.email,
    });
    assertEquals(signedIn.detail.method, "password");

    const failed = await one(() =>
      api.call("POST", "/api/auth/login", {
        email: member.email,
        password: "wrong guess",
      })
    );
    assertEquals(who(failed), {
      type: "login.failed",
      actor: member.email,
      target: member.email,
    });
    assertEquals(failed.detail, { email: member.email });
    const unknown = await one(() =>
      api.call("POST", "/api/auth/login", {
        email: "Nobody@Example.com",
        password: "wrong guess",
      })
    );
    assertEquals(who(unknown), {
      type: "login.failed",
      actor: null,
      target: null,
    });
    assertEquals(unknown.detail, { email: "nobody@example.com" });

    let created = "";
    const made = await one(async () => {
      const res = await api.call("POST", "/api/users", {
        email: "new@example.com",
        name: "New",
        password: "the first password",
        role: "member",
      }, { cookie: admin });
      assertEquals(res.status, 201);
      created = (await res.json()).id;
    });
    assertEquals(who(made), {
      type: "user.created",
      actor: root.email,
      target: "new@example.com",
    });
    assertEquals([made.targetId, made.detail], [created, { role: "member" }]);

    const disabled = await one(async () =>
      ok(
        await api.call("PATCH", `/api/users/${created}`, { disabled: true }, {
          cookie: admin,
        }),
      )
    );
    assertEquals(who(disabled), {
      type: "user.disabled",
      actor: root.email,
      target: "new@example.com",
    });
    const enabled = await one(async () =>
      ok(
        await api.call("PATCH", `/api/users/${created}`, { disabled: false }, {
          cookie: admin,
        }),
      )
    );
    assertEquals(enabled.type, "user.enabled");
    const role = await one(async () =>
      ok(
        await api.call(
          "PUT",
          `/api/users/${created}/role`,
          { role: "support" },
          { cookie: admin },
        ),
      )
    );
    assertEquals(who(role), {
      type: "user.role_changed",
      actor: root.email,
      target: "new@example.com",
    });
    assertEquals(role.detail, { old_role: "member", new_role: "support" });
    // A change to what is already so records nothing.
    assertEquals(
      (await during(
        api,
        async () =>
          ok(
            await api.call("PATCH", `/api/users/${created}`, {
              disabled: false,
            }, { cookie: admin }),
          ),
      )).length,
      0,
    );

    const ended = await one(async () =>
      ok(
        await api.call(
          "DELETE",
          `/api/users/${member.id}/sessions`,
          undefined,
          { cookie: admin },
        ),
        204,
      )
    );
    assertEquals(who(ended), {
      type: "user.sessions_revoked",
      actor: root.email,
      target: member.email,
    });

    let link = "";
    const invited = await one(async () => {
      const res = await api.call("POST", "/api/users/invite", {
        email: "guest@example.com",
        name: "Guest",
        role: "member",
      }, { cookie: admin });
      link = (await res.json()).activation_link;
    });
    assertEquals(who(invited), {
      type: "invitation.created",
      actor: root.email,
      target: null,
    });
    assertEquals(invited.detail.email, "guest@example.com");
    assertEquals(invited.detail.role, "member");
    const accepted = await one(async () =>
      ok(
        await api.call("POST", "/api/auth/invite/accept", {
          token: tokenOf(link),
          password: "a guest password",
        }),
      )
    );
    assertEquals(who(accepted), {
      type: "invitation.accepted",
      actor: "guest@example.com",
      target: "guest@example.com",
    });
    assertEquals(accepted.detail.invited_by, root.id);
    const second = await (await api.call("POST", "/api/users/invite", {
      email: "later@example.com",
      name: "Later",
    }, { cookie: admin })).json();
    const pending =
      (await (await api.call("GET", "/api/users/invitations", undefined, {
        cookie: admin,
      })).json())
        .invitations.find((i: { email: string }) =>
          i.email === "later@example.com"
        );
    assert(second.activation_link);
    const revoked = await one(async () =>
      ok(
        await api.call(
          "DELETE",
          `/api/users/invitations/${pending.id}`,
          undefined,
          { cookie: admin },
        ),
        204,
      )
    );
    assertEquals(who(revoked), {
      type: "invitation.revoked",
      actor: root.email,
      target: null,
    });
    // Whom it invited, since no list shows a revoked invitation's id.
    assertEquals(revoked.detail, {
      invitation_id: pending.id,
      email: "later@example.com",
      role: pending.role,
    });

    const requested = await one(async () =>
      ok(
        await api.call("POST", "/api/auth/password-reset", {
          email: member.email,
        }),
        202,
      )
    );
    assertEquals(who(requested), {
      type: "password.reset_requested",
      actor: member.email,
      target: member.email,
    });
    const nobody = await one(async () =>
      ok(
        await api.call("POST", "/api/auth/password-reset", {
          email: "ghost@example.com",
        }),
        202,
      )
    );
    assertEquals(who(nobody), {
      type: "password.reset_requested",
      actor: null,
      target: null,
    });
    await api.gatehouse.settled(); // the mail is sent after the answer
    const mailed = api.mail.findLast((m) => m.to === member.email)!.link!;
    const reset = await one(async () =>
      ok(
        await api.call("POST", "/api/auth/password-reset/confirm", {
          token: tokenOf(mailed),
          password: NEW,
        }),
        204,
      )
    );
    assertEquals(who(reset), {
      type: "password.reset",
      actor: member.email,
      target: member.email,
    });

    const mine = await api.login(member.email, NEW);
    const reauth = await one(async () =>
      ok(
        await api.call("POST", "/api/auth/reauthenticate", { password: NEW }, {
          cookie: mine,
        }),
        204,
      )
    );
    assertEquals(who(reauth), {
      type: "reauthenticated",
      actor: member.email,
      target: member.email,
    });
    assertEquals(reauth.detail.method, "password");
    let fresh = "";
    const changed = await one(async () => {
      const res = await api.call("POST", "/api/auth/password", {
        current_password: NEW,
        new_password: PASSWORD,
      }, { cookie: mine });
      assertEquals(res.status, 204);
      fresh = res.headers.get("set-cookie")!.split(";")[0]!;
    });
    assertEquals(who(changed), {
      type: "password.changed",
      actor: member.email,
      target: member.email,
    });
    const other = await api.login(member.email);
    const { sessions } =
      await (await api.call("GET", "/api/auth/sessions", undefined, {
        cookie: fresh,
      })).json();
    const otherId = sessions.find((s: { current: boolean }) => !s.current).id;
    const one_ended = await one(async () =>
      ok(
        await api.call("DELETE", `/api/auth/sessions/${otherId}`, undefined, {
          cookie: fresh,
        }),
        204,
      )
    );
    assertEquals(who(one_ended), {
      type: "session.revoked",
      actor: member.email,
      target: member.email,
    });
    assertEquals(one_ended.detail.session_id, otherId);
    await api.login(member.email);
    const others = await one(async () =>
      ok(
        await api.call("DELETE", "/api/auth/sessions", undefined, {
          cookie: fresh,
        }),
        204,
      )
    );
    assertEquals(others.type, "session.revoked");
    assertEquals(await api.live(other), false);
    const out = await one(async () =>
      ok(
        await api.call("POST", "/api/auth/logout", undefined, {
          cookie: fresh,
        }),
        204,
      )
    );
    assertEquals(who(out), {
      type: "logout",
      actor: member.email,
      target: member.email,
    });
    // Logging out without a live session records nothing.
    assertEquals(
      (await during(
        api,
        () =>
          api.call("POST", "/api/auth/logout", undefined, { cookie: fresh }),
      ))
        .length,
      0,
    );

    // onEvent heard every event once, after its commit.
    const stored = await api.events();
    assertEquals(heard.map((e) => e.id).sort(), stored.map((e) => e.id).sort());
    assertNothingSecret(stored, [
      PASSWORD,
      NEW,
      "a guest password",
      "the first password",
      admin,
      mine,
      fresh,
      link,
      mailed,
    ]);
  },
);

testEachStore(
  "GET /api/audit pages newest first and filters by account and type; activity is one's own",
  async (store) => {
    const { root, support, member } = await people(store);
    const api = securityApi(store);
    const admin = await api.login(root.email);
    for (let i = 0; i < 5; i++) {
      api.advance(1000);
      await api.login(member.email);
    }
    await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: "wrong guess",
    });
    const all = await api.events();
    const page = async (query: string, cookie = admin) => {
      const res = await api.call("GET", `/api/audit${query}`, undefined, {
        cookie,
      });
      assertEquals(res.status, 200, query);
      assertEquals(res.headers.get("cache-control"), "no-store");
      return await res.json();
    };
    const first = await page("?limit=4");
    assertEquals(first.events.length, 4);
    assertEquals(
      first.events.map((e: { id: string }) => e.id),
      all.slice(-4).reverse().map((e) => e.id),
    );
    const rest = await page(`?limit=100&cursor=${first.next_cursor}`);
    assertEquals(rest.next_cursor, null);
    assertEquals(first.events.length + rest.events.length, all.length);
    assertEquals(first.events[0].at, new Date(all.at(-1)!.at).toISOString());

    const ofMember = await page(`?user_id=${member.id}`);
    assertEquals(ofMember.events.length, 6);
    assert(
      ofMember.events.every((e: { actor: { id: string } }) =>
        e.actor.id === member.id
      ),
    );
    const failures = await page(`?user_id=${member.id}&type=login.failed`);
    assertEquals(failures.events.map((e: { type: string }) => e.type), [
      "login.failed",
    ]);
    assertEquals(
      (await page(`?type=login.succeeded&limit=100`)).events.length,
      6,
    );
    assertEquals((await page(`?user_id=${support.id}`)).events, []);

    for (
      const query of [
        "?limit=0",
        "?limit=101",
        "?cursor=nope",
        "?user_id=x",
        "?type=nope",
        "?type=%00",
      ]
    ) {
      const res = await api.call("GET", `/api/audit${query}`, undefined, {
        cookie: admin,
      });
      assertEquals(await refusal(res), [400, "body_malformed"], query);
    }
    const own = await api.login(member.email);
    const forbidden = await api.call("GET", "/api/audit", undefined, {
      cookie: own,
    });
    assertEquals(await refusal(forbidden), [403, "role_insufficient"]);
    const activity =
      await (await api.call("GET", "/api/auth/activity?limit=3", undefined, {
        cookie: own,
      })).json();
    assertEquals(activity.events.length, 3);
    assert(activity.next_cursor !== null);
    // user_id is not a filter of one's own activity: it is always oneself.
    const mine = await (await api.call(
      "GET",
      `/api/auth/activity?limit=100&user_id=${root.id}`,
      undefined,
      { cookie: own },
    )).json();
    assert(
      mine.events.every((
        e: { actor: { id: string } | null; target: { id: string } | null },
      ) => e.actor?.id === member.id || e.target?.id === member.id),
    );
    assertEquals(mine.events.length, 7); // six sign-ins and a failure
  },
);

testEachStore("concurrent actions each get their event", async (store) => {
  const { root } = await people(store);
  // A hundred accounts created at once, each password hashed: argon2's cost
  // is not what this test is about (the cheap argon2id of the mail tests).
  const api = securityApi(store, { hasher: cheapHasher });
  const admin = await api.login(root.email);
  const created = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      api.call("POST", "/api/users", {
        email: `person${i}@example.com`,
        name: `Person ${i}`,
        password: "a first password",
      }, { cookie: admin }).then((res) => res.json())),
  );
  const events = (await api.events()).filter((e) => e.type === "user.created");
  assertEquals(events.length, 100);
  assertEquals(
    new Set(events.map((e) => e.targetId)),
    new Set(created.map((u) => u.id)),
  );
  const toggles = await Promise.all(
    created.map((u) =>
      api.call("PATCH", `/api/users/${u.id}`, { disabled: true }, {
        cookie: admin,
      })
    ),
  );
  assert(toggles.every((res) => res.status === 200));
  assertEquals(
    (await api.events()).filter((e) => e.type === "user.disabled").length,
    100,
  );
});

testEachStore(
  "the reaper removes events past the retention, and only those",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    await api.login(member.email);
    api.advance(10 * DAY);
    await api.login(member.email);
    const { Reaper } = await import("../../mod.ts");
    const reaper = new Reaper(store, {
      now: () => api.clock() + 85 * DAY,
      auditRetention: 90 * DAY,
    });
    assertEquals((await reaper.sweep()).events, 1);
    const left = await api.events();
    assertEquals(left.length, 1);
    assertEquals(left[0]!.at, api.clock());
    assertEquals((await reaper.sweep()).events, 0);
  },
);

testEachStore(
  "a throwing onEvent is logged and never changes the answer",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store, {
      onEvent: (e) => {
        if (e.type === "login.succeeded") throw new Error("SIEM down");
        return Promise.reject(new Error("SIEM down"));
      },
    });
    await api.login(member.email);
    const res = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: "wrong guess",
    });
    assertEquals(await refusal(res), [401, "credentials_invalid"]);
    await api.gatehouse.settled();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assertEquals(
      api.logger.lines.filter((l) => l.message === "onEvent failed").length,
      2,
    );
  },
);

// A change whose commit fails leaves no event, and no event lands without
// its change: on KV every commit of the action fails; on Postgres the
// event's insert fails inside the change's own statement or transaction.
async function assertAtomic(
  store: Store,
  breakNext: (on: boolean) => Promise<void>,
) {
  const { root, member } = await people(store);
  const api = securityApi(store);
  const admin = await api.login(root.email);
  const cookie = await api.login(member.email);
  const before = (await api.events()).length;
  await breakNext(true);
  const attempts = [
    await api.call("PATCH", `/api/users/${member.id}`, { disabled: true }, {
      cookie: admin,
    }),
    await api.call("PUT", `/api/users/${member.id}/role`, { role: "support" }, {
      cookie: admin,
    }),
    await api.call("DELETE", `/api/users/${member.id}/sessions`, undefined, {
      cookie: admin,
    }),
    await api.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW,
    }, { cookie }),
    await api.call("POST", "/api/users", {
      email: "n@example.com",
      name: "N",
      password: "a first password",
    }, { cookie: admin }),
  ];
  await breakNext(false);
  for (const res of attempts) {
    assertEquals(await refusal(res), [500, "internal"]);
  }
  assertEquals((await api.events()).length, before);
  const after = await store.userById(member.id);
  assertEquals([after?.disabled, after?.role], [false, "member"]);
  assert(await api.live(cookie), "sessions untouched");
  assert(await api.live(await api.login(member.email)), "password unchanged");
  assertEquals((await store.listUsers({ limit: 100 })).users.length, 4);
}

Deno.test("atomicity: a failing commit leaves neither change nor event (kv)", async () => {
  const { store, kv, close } = await memoryStore();
  const atomic = kv.atomic.bind(kv);
  let broken = false;
  kv.atomic = () => {
    const op = atomic();
    if (broken) {
      op.commit = () => Promise.reject(new Error("injected commit failure"));
    }
    return op;
  };
  try {
    await assertAtomic(store, (on) => Promise.resolve(void (broken = on)));
  } finally {
    await close();
  }
});

Deno.test({
  name: "atomicity: a failing event write rolls the change back (postgres)",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    try {
      await sql.unsafe(`CREATE FUNCTION "${schema}".refuse() RETURNS trigger
        LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`);
      await assertAtomic(store, async (on) => {
        await sql.unsafe(
          on
            ? `CREATE TRIGGER refuse BEFORE INSERT ON "${schema}".audit_events
                FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse()`
            : `DROP TRIGGER refuse ON "${schema}".audit_events`,
        );
      });
    } finally {
      await close();
    }
  },
});

/** No event holds a password, token, cookie, link or hash. */
function assertNothingSecret(events: AuditEvent[], secrets: string[]) {
  const text = JSON.stringify(events);
  for (const secret of secrets.filter((s) => s !== "")) {
    const value = secret.includes("=")
      ? secret.split("=").slice(1).join("=")
      : secret;
    const token = /#token=(.+)$/.exec(secret)?.[1] ?? value;
    assert(
      !text.includes(token),
      `an event holds a secret: ${token.slice(0, 8)}…`,
    );
  }
  assert(!/\$argon2/.test(text), "an event holds a password hash");
  // No 43-character base64url string (a token or a token's digest).
  assert(!/[A-Za-z0-9_-]{43}/.test(text), "an event holds a token or digest");
}

testEachStore(
  "every second-factor and passkey action writes exactly one event; no secret, code or TOTP secret in any",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApi(store);
    const one = async (action: () => Promise<unknown>) => {
      const events = await during(api, action);
      assertEquals(events.length, 1, events.map((e) => e.type).join(", "));
      return events[0]!;
    };
    const cookie = await api.login(member.email);
    const secrets: string[] = [PASSWORD, cookie];
    const setup =
      await (await api.call("POST", "/api/auth/totp/setup", undefined, {
        cookie,
      })).json();
    secrets.push(setup.secret, setup.otpauth_url);
    let codes: string[] = [];
    const enrolCode = totpCode(setup.secret, api.clock());
    secrets.push(enrolCode);
    const enabled = await one(async () => {
      const res = await api.call("POST", "/api/auth/totp/confirm", {
        code: enrolCode,
      }, { cookie });
      codes = (await res.json()).recovery_codes;
    });
    assertEquals(who(enabled), {
      type: "second_factor.enabled",
      actor: member.email,
      target: member.email,
    });
    const regenerated = await one(async () => {
      const res = await api.call(
        "POST",
        "/api/auth/recovery-codes",
        undefined,
        {
          cookie,
        },
      );
      codes = (await res.json()).recovery_codes;
    });
    assertEquals(regenerated.type, "recovery_codes.regenerated");
    secrets.push(...codes);
    const pending = await passwordStep(api, member.email);
    secrets.push(pending);
    const used = await during(api, async () => {
      const res = await secondStep(api, pending, { recovery_code: codes[0] });
      secrets.push(sessionCookieOf(res));
      await res.body?.cancel();
    });
    assertEquals(used.map((e) => e.type).sort(), [
      "login.succeeded",
      "recovery_code.used",
    ]);
    const key = await createAuthenticator();
    const options = await api.call(
      "POST",
      "/api/auth/passkeys/register/options",
      undefined,
      { cookie },
    );
    const creation = await options.json();
    const challenge = options.headers.get("set-cookie")!.split(";")[0]!;
    const added = await one(async () => {
      const res = await api.call("POST", "/api/auth/passkeys", {
        response: await key.register({
          challenge: creation.challenge,
          rpId: "app.example",
          origin: "https://app.example",
        }),
      }, { cookie: `${cookie}; ${challenge}` });
      assertEquals(res.status, 201);
      await res.body?.cancel();
      secrets.push(challenge);
    });
    assertEquals(added.type, "passkey.added");
    const passkeyId = String(added.detail.passkey_id);
    const removed = await one(() =>
      api.call("DELETE", `/api/auth/passkeys/${passkeyId}`, undefined, {
        cookie,
      })
    );
    assertEquals(removed.type, "passkey.removed");
    const disabled = await one(() =>
      api.call("DELETE", "/api/auth/totp", undefined, { cookie })
    );
    assertEquals(disabled.type, "second_factor.disabled");
    await enrolTotp(api, cookie);
    const admin = await api.login(root.email);
    const lost = await one(() =>
      api.call("DELETE", `/api/users/${member.id}/second-factor`, undefined, {
        cookie: admin,
      })
    );
    assertEquals(who(lost), {
      type: "second_factor.disabled",
      actor: root.email,
      target: member.email,
    });
    assertNothingSecret(await api.events(), secrets);
  },
);

testEachStore(
  "a flood of sign-ins past the limiter writes one login.rate_limited event per address and window",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store, { maxFailures: 3 });
    const events = await during(api, async () => {
      const answers = await Promise.all(
        Array.from(
          { length: 300 },
          (_, i) =>
            api.call("POST", "/api/auth/login", {
              email: member.email,
              password: `wrong guess ${i}`,
            }),
        ),
      );
      const statuses = await Promise.all(answers.map(async (res) => {
        await res.body?.cancel();
        return res.status;
      }));
      assertEquals(statuses.filter((s) => s === 401).length, 3);
      assertEquals(statuses.filter((s) => s === 429).length, 297);
      await api.gatehouse.settled();
    });
    assertEquals(
      events.map((e) => e.type).sort(),
      ["login.failed", "login.failed", "login.failed", "login.rate_limited"],
    );
  },
);

Deno.test("KvStore writes as many keys for an event of no account as for one of an account (equal work for unknown addresses)", async () => {
  const { store, kv, close } = await memoryStore();
  try {
    const keysAfter = async (event: AuditEvent) => {
      const before = await Array.fromAsync(kv.list({ prefix: [] }));
      await store.recordEvents([event]);
      const after = await Array.fromAsync(kv.list({ prefix: [] }));
      return after.length - before.length;
    };
    const event = (id: string, actor: string | null): AuditEvent => ({
      id,
      type: "password.reset_requested",
      at: Date.now(),
      actorId: actor,
      actorEmail: actor === null ? null : "ada@example.com",
      targetId: actor,
      targetEmail: actor === null ? null : "ada@example.com",
      ip: "203.0.113.5",
      userAgent: "",
      detail: { email: "ada@example.com" },
    });
    const known = await keysAfter(
      event(crypto.randomUUID(), crypto.randomUUID()),
    );
    const unknown = await keysAfter(event(crypto.randomUUID(), null));
    assertEquals(unknown, known);
  } finally {
    await close();
  }
});
