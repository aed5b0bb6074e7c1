// The account lock against credential stuffing (DESIGN.md §15, issue 30), on
// KV and Postgres, over real HTTP with real argon2: one address guessed from
// 50 client addresses (the 11th guess is refused without argon2 work, for an
// address with an account and one without alike), the owner's trusted
// browser signing in during the lock while its own wrong guesses are limited
// on their own, what clears a count (a completed sign-in its own scope; a
// reset or an administrator everything), the 100 consecutive failures that
// stop every browser, bursts of 1000 concurrent guesses on one instance and
// on two sharing a store, device cookies that must give nothing, and one
// `login.locked` per lock.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import {
  address,
  type Answer,
  KEY_A,
  KEY_B,
  type LockServer,
  lockServer,
  shapeOf,
} from "../fixtures/lock_server.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { ignorePostgres, schemaStore } from "../fixtures/postgres.ts";
import { CONSECUTIVE_FAILURE_LIMIT } from "../../server/core/_account_lock.ts";
import { DEVICE_COOKIE } from "../../server/core/_device_cookie.ts";
import type { Store } from "../../mod.ts";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";

const WINDOW = 15 * 60_000;
const ADA = "ada@example.com";
const NEW_PASSWORD = "a new and long passphrase";

/** A server on `store` closed after `fn`, with Ada's account. */
async function withServer(
  store: Store,
  fn: (t: LockServer) => Promise<void>,
  options: Parameters<typeof lockServer>[1] = {},
) {
  await addUser(store, { email: ADA, role: "member" });
  const t = lockServer(store, options);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

/** `n` wrong passwords for `email`, each from a client address of its own. */
async function guesses(
  t: LockServer,
  email: string,
  n: number,
  from = 0,
  device: string | null = null,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = from; i < from + n; i++) {
    answers.push(
      await t.signIn(email, `wrong guess ${i}`, { from: address(i), device }),
    );
  }
  return answers;
}

const LOCKED = [429, "login_rate_limited", { scope: "account" }] as const;
const WRONG = [401, "credentials_invalid", null] as const;

/** A trusted-device cookie from a completed sign-in of `email`. */
async function trustedDevice(
  t: LockServer,
  email: string,
  password = PASSWORD,
): Promise<string> {
  const signedIn = await t.signIn(email, password, { from: "192.0.2.1" });
  assertEquals(signedIn.status, 200);
  assert(signedIn.device !== null, "a completed sign-in sets the device");
  return signedIn.device;
}

testEachStore(
  "one address guessed from 50 client addresses: 10 evaluated, the 11th from a new address refused without argon2; an unknown address answers the same",
  async (store) => {
    await withServer(store, async (t) => {
      const known = await guesses(t, ADA, 50);
      assertEquals(t.calls.verify, 10, "argon2 ran for the first ten only");
      assertEquals(known.slice(0, 10).map(shapeOf), Array(10).fill(WRONG));
      assertEquals(known.slice(10).map(shapeOf), Array(40).fill(LOCKED));
      for (const refused of known.slice(10)) {
        assert(
          refused.retryAfter !== null && refused.retryAfter > 0 &&
            refused.retryAfter <= WINDOW / 1000,
          `Retry-After ${refused.retryAfter}`,
        );
      }
      // The right password from another browser is refused too, unheard.
      const right = await t.signIn(ADA, PASSWORD, { from: address(999) });
      assertEquals(shapeOf(right), LOCKED);
      assertEquals(t.calls.verify, 10);

      // The same guesses at an address without an account: the same answers.
      const unknown = await guesses(t, "nobody@example.com", 50, 1000);
      assertEquals(t.calls.verify, 20);
      assertEquals(unknown.map(shapeOf), known.map(shapeOf));

      // Once the window passed, the owner signs in.
      t.advance(WINDOW);
      assertEquals((await t.signIn(ADA, PASSWORD)).status, 200);
    });
  },
);

testEachStore(
  "one login.locked per lock, of the first refused request: the account as target, or the address when there is none; a device's own lock records nothing",
  async (store) => {
    await withServer(store, async (t) => {
      const ada = await store.credentialsByEmail(ADA);
      await guesses(t, ADA, 10);
      await guesses(t, ADA, 20, 10);
      const locked = await t.events("login.locked");
      assertEquals(locked.length, 1, "one event for 20 refusals");
      assertEquals(locked[0]!.targetId, ada!.user.id);
      assertEquals(locked[0]!.actorId, null);
      assertEquals(locked[0]!.ip, address(10), "the first refused request's");
      assertMatch(String(locked[0]!.detail.locked_until), /^\d{4}-\d\d-\d\dT/);

      await guesses(t, "ghost@example.com", 12, 100);
      const ghost = (await t.events("login.locked")).slice(1);
      assertEquals(ghost.length, 1);
      assertEquals(ghost[0]!.targetId, null);
      assertEquals(ghost[0]!.detail.email, "ghost@example.com");

      // A trusted device locked by its own guesses: refused, not recorded.
      t.advance(WINDOW);
      const device = await trustedDevice(t, ADA);
      const own = await guesses(t, ADA, 11, 200, device);
      assertEquals(own.slice(0, 10).map(shapeOf), Array(10).fill(WRONG));
      assertEquals(shapeOf(own[10]!), LOCKED);
      assertEquals((await t.events("login.locked")).length, 2);
    });
  },
);

testEachStore(
  "the owner's trusted browser signs in during the lock; its own wrong guesses are counted on their own, and do not lock the others",
  async (store) => {
    await withServer(store, async (t) => {
      const device = await trustedDevice(t, ADA);
      const set = (await t.signIn(ADA, PASSWORD, { device })).setCookies
        .find((c) => c.startsWith(`${DEVICE_COOKIE}=`))!;
      assertMatch(
        set,
        new RegExp(
          `^${DEVICE_COOKIE}=[A-Za-z0-9_.~-]+; Max-Age=31536000; Path=/; HttpOnly; Secure; SameSite=Lax$`,
        ),
      );
      assertEquals(
        (await guesses(t, ADA, 12)).map(shapeOf).slice(9),
        [WRONG, LOCKED, LOCKED],
      );
      const verified = t.calls.verify;
      const owner = await t.signIn(ADA, PASSWORD, {
        device,
        from: "192.0.2.1",
      });
      assertEquals(owner.status, 200, "not locked out by the attack");
      assertEquals(t.calls.verify, verified + 1);
      // The owner's browser mistypes, ten times: its own lock.
      const own = await guesses(t, ADA, 11, 500, device);
      assertEquals(own.slice(0, 10).map(shapeOf), Array(10).fill(WRONG));
      assertEquals(shapeOf(own[10]!), LOCKED);

      // On a fresh address: a device's failures do not count for the others.
      await addUser(store, { email: "bob@example.com" });
      const bobDevice = await trustedDevice(t, "bob@example.com");
      await guesses(t, "bob@example.com", 10, 700, bobDevice);
      assertEquals(
        shapeOf(
          await t.signIn("bob@example.com", "wrong", {
            device: bobDevice,
            from: address(710),
          }),
        ),
        LOCKED,
      );
      const elsewhere = await t.signIn("bob@example.com", PASSWORD, {
        from: address(711),
      });
      assertEquals(elsewhere.status, 200, "other browsers are not locked");
    });
  },
);

testEachStore(
  "a completed sign-in clears the count it was counted under, and no other",
  async (store) => {
    await withServer(store, async (t) => {
      const device = await trustedDevice(t, ADA);
      assertEquals(
        (await guesses(t, ADA, 9)).map(shapeOf),
        Array(9).fill(WRONG),
      );
      assertEquals(
        (await t.signIn(ADA, PASSWORD, { from: address(50) })).status,
        200,
      );
      assertEquals(
        (await guesses(t, ADA, 11, 100)).map(shapeOf),
        [...Array(10).fill(WRONG), LOCKED],
        "the nine before the success no longer count",
      );
      // The trusted browser's sign-in leaves the others' lock in place.
      assertEquals((await t.signIn(ADA, PASSWORD, { device })).status, 200);
      assertEquals(
        shapeOf(await t.signIn(ADA, PASSWORD, { from: address(300) })),
        LOCKED,
      );
    });
  },
);

testEachStore(
  "a password reset clears every count: the other browsers', a trusted device's and the consecutive failures",
  async (store) => {
    await withServer(store, async (t) => {
      const device = await trustedDevice(t, ADA);
      await guesses(t, ADA, 10);
      await guesses(t, ADA, 10, 100, device);
      assertEquals(shapeOf(await t.signIn(ADA, PASSWORD, { device })), LOCKED);
      const token = await t.resetToken(ADA);
      const reset = await t.call("POST", "/api/auth/password-reset/confirm", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals(reset.status, 204);
      await reset.body?.cancel();
      assertEquals(
        (await t.signIn(ADA, NEW_PASSWORD, { device })).status,
        200,
      );
      assertEquals(
        (await t.signIn(ADA, NEW_PASSWORD, { from: address(400) })).status,
        200,
      );
    });
  },
);

testEachStore(
  "past 100 consecutive failures every browser is refused, the trusted one too, until a reset; a completed sign-in before ends the run",
  async (store) => {
    await withServer(store, async (t) => {
      const device = await trustedDevice(t, ADA);
      // 95 failures over ten windows, then the owner signs in: a new run.
      for (let w = 0; w < 10; w++) {
        await guesses(t, ADA, w < 9 ? 10 : 5, w * 10);
        t.advance(WINDOW);
      }
      assertEquals((await t.signIn(ADA, PASSWORD, { device })).status, 200);
      for (let w = 0; w < 10; w++) {
        const answers = await guesses(t, ADA, 10, 1000 + w * 10);
        assertEquals(
          answers.map(shapeOf),
          Array(10).fill(WRONG),
          `window ${w}: the run started again`,
        );
        t.advance(WINDOW);
      }
      assertEquals(CONSECUTIVE_FAILURE_LIMIT, 100);
      const verified = t.calls.verify;
      const hard = [429, "login_rate_limited", {
        scope: "account",
        until: "reset",
      }] as const;
      const untrusted = await t.signIn(ADA, PASSWORD, { from: address(5000) });
      assertEquals(shapeOf(untrusted), hard);
      assert(untrusted.retryAfter! > WINDOW / 1000, "not a window's end");
      assertEquals(shapeOf(await t.signIn(ADA, PASSWORD, { device })), hard);
      t.advance(2 * WINDOW);
      assertEquals(shapeOf(await t.signIn(ADA, PASSWORD, { device })), hard);
      assertEquals(t.calls.verify, verified, "no argon2 work");
      const locked = (await t.events("login.locked"))
        .filter((e) => e.detail.until === "reset");
      assertEquals(locked.length, 1);

      const token = await t.resetToken(ADA);
      const reset = await t.call("POST", "/api/auth/password-reset/confirm", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals(reset.status, 204);
      await reset.body?.cancel();
      assertEquals(
        (await t.signIn(ADA, NEW_PASSWORD, { from: address(5001) })).status,
        200,
      );
    });
  },
);

testEachStore(
  "1,000 concurrent wrong sign-ins for one address from 1,000 client addresses: at most the threshold evaluated, one login.locked",
  async (store) => {
    await withServer(store, async (t) => {
      const answers = await Promise.all(
        Array.from(
          { length: 1000 },
          (_, i) => t.signIn(ADA, `wrong ${i}`, { from: address(i) }),
        ),
      );
      assertEquals(t.calls.verify, 10, "the whole threshold, and no more");
      assertEquals(answers.filter((a) => a.status === 401).length, 10);
      assertEquals(
        answers.filter((a) => a.status !== 401).map(shapeOf),
        Array(990).fill(LOCKED),
      );
      assertEquals((await t.events("login.locked")).length, 1);
    });
  },
);

pairTest(
  "1,000 concurrent wrong sign-ins for one address spread over both instances: at most the threshold evaluated, one login.locked",
  async (pair) => {
    await addUser(pair.a, { email: ADA });
    const clock = { now: Date.now() };
    const a = lockServer(pair.a, { clock });
    const b = lockServer(pair.b, { clock });
    try {
      const answers = await Promise.all(
        Array.from(
          { length: 1000 },
          (_, i) =>
            (i % 2 === 0 ? a : b).signIn(ADA, `wrong ${i}`, {
              from: address(i),
            }),
        ),
      );
      const evaluated = a.calls.verify + b.calls.verify;
      assertEquals(evaluated, 10, `${evaluated} evaluated`);
      assertEquals(answers.filter((x) => x.status === 401).length, 10);
      const others = answers.filter((x) => x.status !== 401);
      assertEquals(
        others.filter((x) => x.status === 429).length,
        990,
        JSON.stringify({
          answers: others.filter((x) => x.status !== 429).slice(0, 3)
            .map((x) => [x.status, x.body]),
          errors: [...a.logger.lines, ...b.logger.lines]
            .filter((l) => l.level === "error").slice(0, 3),
        }),
      );
      await a.gatehouse.settled();
      assertEquals((await b.events("login.locked")).length, 1);
      // Locked on either instance.
      assertEquals(
        shapeOf(await a.signIn(ADA, PASSWORD, { from: address(2000) })),
        LOCKED,
      );
    } finally {
      await a.close();
      await b.close();
    }
  },
);

testEachStore(
  "a trusted-device entry vouches for a year from its issue, and each completed sign-in issues it again",
  async (store) => {
    await withServer(store, async (t) => {
      const DAY = 24 * 60 * 60_000;
      const first = await trustedDevice(t, ADA);
      t.advance(364 * DAY);
      await guesses(t, ADA, 10);
      const renewed = await t.signIn(ADA, PASSWORD, { device: first });
      assertEquals(renewed.status, 200, "364 days old: still the owner's");
      assert(renewed.device !== null);
      t.advance(2 * DAY);
      await guesses(t, ADA, 10, 100);
      // A year and a day after it was issued the first entry counts as any
      // browser's, though a browser could keep the cookie for ever; the
      // entry issued again two days ago still vouches.
      assertEquals(
        shapeOf(await t.signIn(ADA, PASSWORD, { device: first })),
        LOCKED,
      );
      assertEquals(
        (await t.signIn(ADA, PASSWORD, { device: renewed.device })).status,
        200,
      );
    });
  },
);

testEachStore(
  "device cookies that give nothing: forged, tampered, another address's, signed with a removed key; a rotated key still verifies",
  async (store) => {
    await withServer(store, async (t) => {
      await addUser(store, { email: "bob@example.com" });
      const device = await trustedDevice(t, ADA);
      const bobs = await trustedDevice(t, "bob@example.com");
      await guesses(t, ADA, 10);
      const value = device.slice(DEVICE_COOKIE.length + 1);
      // The last base64url character of a 32-byte MAC carries 4 bits and 2
      // of padding: "A" and "B" differ only in padding, so a decoder may
      // read both as the same bytes. "A" and "E" differ in a bit of the MAC.
      const flip = (s: string) =>
        s.slice(0, -1) + (s.endsWith("A") ? "E" : "A");
      const bad: Record<string, string> = {
        forged: `${DEVICE_COOKIE}=AAAAAAAA.${"A".repeat(22)}.${"A".repeat(43)}`,
        tampered: `${DEVICE_COOKIE}=${flip(value)}`,
        "another id": `${DEVICE_COOKIE}=${
          value.replace(/\.[^.]+\./, `.${"B".repeat(22)}.`)
        }`,
        "another address's": bobs,
        garbage: `${DEVICE_COOKIE}=${"x~".repeat(500)}`,
      };
      for (const [what, cookie] of Object.entries(bad)) {
        assertEquals(
          shapeOf(await t.signIn(ADA, PASSWORD, { device: cookie })),
          LOCKED,
          what,
        );
      }
      assertEquals((await t.signIn(ADA, PASSWORD, { device })).status, 200);

      // Another instance on the store: KEY_B first, KEY_A kept, verifies
      // the old cookie and signs the new one with KEY_B.
      const rotated = lockServer(store, {
        deviceKeys: [KEY_B, KEY_A],
        clock: t.clock,
      });
      // One without KEY_A: the old cookie is nobody's.
      const removed = lockServer(store, {
        deviceKeys: [KEY_B],
        clock: t.clock,
      });
      try {
        await guesses(t, ADA, 10, 100);
        const renewed = await rotated.signIn(ADA, PASSWORD, { device });
        assertEquals(renewed.status, 200, "an older key still verifies");
        assert(renewed.device !== null && renewed.device !== device);
        assertEquals(
          shapeOf(await removed.signIn(ADA, PASSWORD, { device })),
          LOCKED,
          "a removed key verifies nothing",
        );
        assertEquals(
          (await removed.signIn(ADA, PASSWORD, { device: renewed.device }))
            .status,
          200,
          "the new key's cookie",
        );
        assertEquals(
          shapeOf(await t.signIn(ADA, PASSWORD, { device: renewed.device })),
          LOCKED,
          "KEY_B is unknown to the first instance",
        );
      } finally {
        await rotated.close();
        await removed.close();
      }
    });
  },
);

testEachStore(
  "a browser trusted for two addresses keeps an entry for each",
  async (store) => {
    await withServer(store, async (t) => {
      await addUser(store, { email: "bob@example.com" });
      const adaDevice = await trustedDevice(t, ADA);
      const both = await t.signIn("bob@example.com", PASSWORD, {
        device: adaDevice,
      });
      assertEquals(both.status, 200);
      await guesses(t, ADA, 10);
      await guesses(t, "bob@example.com", 10, 100);
      assertEquals(
        (await t.signIn(ADA, PASSWORD, { device: both.device })).status,
        200,
      );
      assertEquals(
        (await t.signIn("bob@example.com", PASSWORD, { device: both.device }))
          .status,
        200,
      );
    });
  },
);

testEachStore(
  "wrong current passwords (password change, re-authentication) count; a locked browser's re-authentication is refused, the trusted one's is not",
  async (store) => {
    await withServer(store, async (t) => {
      const signedIn = await t.signIn(ADA, PASSWORD);
      const session = signedIn.session!;
      const device = signedIn.device!;
      for (let i = 0; i < 5; i++) {
        const res = await t.call("POST", "/api/auth/password", {
          current_password: `wrong ${i}`,
          new_password: NEW_PASSWORD,
        }, { from: address(i), cookies: [session] });
        assertEquals(res.status, 403);
        await res.body?.cancel();
      }
      for (let i = 5; i < 10; i++) {
        const res = await t.call("POST", "/api/auth/reauthenticate", {
          password: `wrong ${i}`,
        }, { from: address(i), cookies: [session] });
        assertEquals(res.status, 403);
        await res.body?.cancel();
      }
      const verified = t.calls.verify;
      assertEquals(
        shapeOf(await t.signIn(ADA, PASSWORD, { from: address(20) })),
        LOCKED,
      );
      const locked = await t.answer(
        await t.call("POST", "/api/auth/reauthenticate", {
          password: PASSWORD,
        }, { from: address(21), cookies: [session] }),
      );
      assertEquals(shapeOf(locked), LOCKED);
      const change = await t.answer(
        await t.call("POST", "/api/auth/password", {
          current_password: PASSWORD,
          new_password: NEW_PASSWORD,
        }, { from: address(22), cookies: [session] }),
      );
      assertEquals(shapeOf(change), LOCKED);
      assertEquals(t.calls.verify, verified, "no argon2 work while locked");
      const trusted = await t.call("POST", "/api/auth/reauthenticate", {
        password: PASSWORD,
      }, { from: address(23), cookies: [session, device] });
      assertEquals(trusted.status, 204);
      await trusted.body?.cancel();
    });
  },
);

/** Root, support and Ada on a server; root's and support's sessions. */
async function admins(store: Store, t: LockServer) {
  const root = await addUser(store, {
    email: "root@example.com",
    role: "admin",
  });
  const support = await addUser(store, {
    email: "support@example.com",
    role: "support",
  });
  const session = async (email: string) =>
    (await t.signIn(email, PASSWORD, { from: "192.0.2.10" })).session!;
  return {
    root,
    support,
    rootSession: await session(root.email),
    supportSession: await session(support.email),
  };
}

/** The accounts of the first page, by address. */
async function listed(t: LockServer, session: string) {
  const res = await t.call("GET", "/api/users", undefined, {
    cookies: [session],
  });
  assertEquals(res.status, 200);
  const { users } = await res.json();
  return Object.fromEntries(
    users.map((u: { email: string }) => [u.email, u]),
  ) as Record<string, { id: string; locked_until: string | null }>;
}

testEachStore(
  "unlockUser: 204 within reach, audited login.unlocked; the users list shows locked_until until then",
  async (store) => {
    await withServer(store, async (t) => {
      const { root, rootSession, supportSession } = await admins(store, t);
      const ada = (await store.credentialsByEmail(ADA))!.user;
      assertEquals((await listed(t, rootSession))[ADA]!.locked_until, null);
      await guesses(t, ADA, 10);
      const before = await listed(t, rootSession);
      const until = Date.parse(before[ADA]!.locked_until!);
      assert(
        until > t.clock.now && until <= t.clock.now + WINDOW,
        before[ADA]!.locked_until!,
      );
      assertEquals(before["root@example.com"]!.locked_until, null);

      const res = await t.call(
        "DELETE",
        `/api/users/${ada.id}/lock`,
        undefined,
        {
          cookies: [supportSession],
        },
      );
      assertEquals(res.status, 204);
      assertEquals(await res.text(), "");
      const unlocked = await t.events("login.unlocked");
      assertEquals(unlocked.length, 1);
      assertEquals(unlocked[0]!.targetId, ada.id);
      assertEquals(unlocked[0]!.ip, "203.0.113.5");
      assertEquals((await listed(t, rootSession))[ADA]!.locked_until, null);
      assertEquals(
        (await t.signIn(ADA, PASSWORD, { from: address(100) })).status,
        200,
      );

      // The consecutive failures go too: 100 failures, then an unlock.
      for (let w = 0; w < 10; w++) {
        await guesses(t, ADA, 10, 1000 + w * 10);
        t.advance(WINDOW);
      }
      const fresh = (await t.signIn("root@example.com", PASSWORD, {
        from: "192.0.2.10",
      })).session!;
      const hardUntil = Date.parse(
        (await listed(t, fresh))[ADA]!.locked_until!,
      );
      assert(hardUntil > t.clock.now + WINDOW, "locked until a reset");
      const again = await t.call(
        "DELETE",
        `/api/users/${ada.id}/lock`,
        undefined,
        {
          cookies: [fresh],
        },
      );
      assertEquals(again.status, 204);
      await again.body?.cancel();
      assertEquals((await t.events("login.unlocked"))[1]!.actorId, root.id);
      assertEquals(
        (await t.signIn(ADA, PASSWORD, { from: address(3000) })).status,
        200,
      );
    });
  },
);

testEachStore(
  "unlockUser refuses: an unknown account 404, beyond reach 403, a stale proof 403, a member 403, no session 401",
  async (store) => {
    await withServer(store, async (t) => {
      const { root, rootSession, supportSession } = await admins(store, t);
      const ada = (await store.credentialsByEmail(ADA))!.user;
      const del = async (id: string, cookies: (string | null)[]) =>
        await t.answer(
          await t.call("DELETE", `/api/users/${id}/lock`, undefined, {
            cookies,
          }),
        );
      const code = (a: Answer) => [a.status, a.code];
      assertEquals(
        code(await del(crypto.randomUUID(), [rootSession])),
        [404, "user_not_found"],
      );
      assertEquals(
        code(await del(root.id, [supportSession])),
        [403, "role_beyond_reach"],
      );
      const member = (await t.signIn(ADA, PASSWORD)).session!;
      assertEquals(
        code(await del(ada.id, [member])),
        [403, "role_insufficient"],
      );
      assertEquals(code(await del(ada.id, [])), [401, "session_absent"]);
      t.advance(31 * 60_000);
      assertEquals(
        code(await del(ada.id, [rootSession])),
        [403, "reauthentication_required"],
      );
      assertEquals((await t.events("login.unlocked")).length, 0);
    });
  },
);

testEachStore(
  "bad input on the unlock route answers a JSON 4xx, never a 5xx",
  async (store) => {
    await withServer(store, async (t) => {
      const { rootSession } = await admins(store, t);
      const ids = [
        // A URL longer than fetch sends is no request at all.
        ...HOSTILE.filter((s) => s.length < 4096).map(urlComponent),
        "not-a-uuid",
        "0190f0a0-0000-7000-8000-00000000000g",
        "%",
        "..%2F..%2Fetc",
        "0".repeat(5000),
      ];
      for (const id of ids) {
        const res = await t.call("DELETE", `/api/users/${id}/lock`, undefined, {
          cookies: [rootSession],
        });
        const text = await res.text();
        assert(res.status >= 400 && res.status < 500, `${res.status} ${id}`);
        assert(
          res.headers.get("content-type")?.startsWith("application/json"),
          `JSON for ${id.slice(0, 40)}`,
        );
        assert(typeof JSON.parse(text).code === "string");
      }
      const malformed = await t.answer(
        await t.call("DELETE", "/api/users/not-a-uuid/lock", undefined, {
          cookies: [rootSession],
        }),
      );
      assertEquals([malformed.status, malformed.code], [
        400,
        "user_id_malformed",
      ]);
    });
  },
);

testEachStore(
  "a burst of right sign-ins past the threshold: the attempts in flight may hold the window, but nothing is counted or recorded as a lock",
  async (store) => {
    await withServer(store, async (t) => {
      const answers = await Promise.all(
        Array.from(
          { length: 30 },
          (_, i) => t.signIn(ADA, PASSWORD, { from: address(i) }),
        ),
      );
      for (const answer of answers) {
        assert(
          answer.status === 200 ||
            JSON.stringify(shapeOf(answer)) === JSON.stringify(LOCKED),
          `${answer.status} ${answer.code}`,
        );
      }
      // More than ten may be checked at once, and those past the threshold
      // refused (or not: a completed sign-in starts the count again).
      assert(answers.some((a) => a.status === 200));
      assertEquals(await t.events("login.locked"), [], "no lock recorded");
      // Nothing stayed counted: ten wrong guesses are still evaluated.
      assertEquals(
        (await guesses(t, ADA, 11, 100)).map(shapeOf),
        [...Array(10).fill(WRONG), LOCKED],
      );
    });
  },
);

Deno.test({
  name:
    "unlockUser records its event before it clears: an event that cannot be written leaves the account locked (postgres)",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    try {
      await withServer(store, async (t) => {
        const { rootSession } = await admins(store, t);
        const ada = (await store.credentialsByEmail(ADA))!.user;
        await guesses(t, ADA, 10);
        assert((await listed(t, rootSession))[ADA]!.locked_until !== null);
        await t.gatehouse.settled();
        // Every insert into the trail fails from now on.
        await sql.unsafe(`CREATE FUNCTION "${schema}".refuse() RETURNS trigger
          LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`);
        await sql.unsafe(`CREATE TRIGGER refuse BEFORE INSERT
          ON "${schema}".audit_events FOR EACH ROW
          EXECUTE FUNCTION "${schema}".refuse()`);
        const res = await t.call(
          "DELETE",
          `/api/users/${ada.id}/lock`,
          undefined,
          { cookies: [rootSession] },
        );
        assertEquals(res.status, 500);
        await res.body?.cancel();
        await sql.unsafe(`DROP TRIGGER refuse ON "${schema}".audit_events`);
        assert(
          (await listed(t, rootSession))[ADA]!.locked_until !== null,
          "still locked",
        );
        assertEquals(await t.events("login.unlocked"), []);
      });
    } finally {
      await close();
    }
  },
});

testEachStore(
  "200 simultaneous unlocks by a limited-reach administrator while the account is promoted beyond its reach: each a 204 with its event or a 403 without, none after the promotion",
  async (store) => {
    await withServer(store, async (t) => {
      const { rootSession, supportSession } = await admins(store, t);
      const ada = (await store.credentialsByEmail(ADA))!.user;
      await guesses(t, ADA, 10);
      const unlock = () =>
        t.call("DELETE", `/api/users/${ada.id}/lock`, undefined, {
          cookies: [supportSession],
        });
      const burst = Array.from({ length: 200 }, unlock);
      const promoted = await t.call(
        "PUT",
        `/api/users/${ada.id}/role`,
        { role: "admin" },
        { cookies: [rootSession] },
      );
      assertEquals(promoted.status, 200);
      await promoted.body?.cancel();
      const answers = await Promise.all(
        burst.map(async (answer) => {
          const res = await answer;
          const text = await res.text();
          return [res.status, text === "" ? null : JSON.parse(text).code];
        }),
      );
      for (const answer of answers) {
        assert(
          (answer[0] === 204 && answer[1] === null) ||
            (answer[0] === 403 && answer[1] === "role_beyond_reach"),
          JSON.stringify(answer),
        );
      }
      const unlocked = answers.filter(([status]) => status === 204).length;
      await t.gatehouse.settled();
      assertEquals((await t.events("login.unlocked")).length, unlocked);
      // Beyond reach now: refused, and nothing more recorded.
      const after = await unlock();
      assertEquals(after.status, 403);
      assertEquals((await after.json()).code, "role_beyond_reach");
      assertEquals((await t.events("login.unlocked")).length, unlocked);
    });
  },
);
