// The input boundary (DESIGN.md §5): every string of a request is checked by
// one set of rules before a store or a log sees it, so hostile strings get a
// clear 4xx on both stores, never a 5xx; emails are compared after NFC and
// lower-casing, the same on KV and Postgres; a malformed login email is an
// unknown email.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { apiOn, refusal } from "../fixtures/api.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { Identity, Store } from "../../mod.ts";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";

async function admin(store: Store): Promise<Identity> {
  const user = await addUser(store, {
    email: "owner@example.com",
    role: "admin",
  });
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

function assertClientError(status: number, what: string): void {
  assert(status >= 400 && status < 500, `${what}: answered ${status}`);
}

testEachStore(
  "hostile strings in every field of every route answer 4xx, never 5xx",
  async (store) => {
    const t = apiOn(store, { maxFailures: 100_000 });
    const owner = await admin(store);
    for (const s of HOSTILE) {
      const what = JSON.stringify(s.slice(0, 40));
      const publicCalls: Array<[string, unknown]> = [
        ["/api/auth/login", { email: s, password: s }],
        ["/api/auth/login", { email: "owner@example.com", password: s }],
        ["/api/auth/password-reset", { email: s }],
        ["/api/auth/invite/accept", { token: s, password: s }],
        ["/api/auth/invite/accept", { token: s, password: PASSWORD }],
        ["/api/auth/password-reset/confirm", { token: s, password: s }],
      ];
      for (const [path, body] of publicCalls) {
        const res = await t.call("POST", path, body);
        await res.body?.cancel();
        // A reset request answers 202 whatever the address, unless malformed.
        if (res.status !== 202) {
          assertClientError(res.status, `${path} ${what}`);
        }
      }
      const adminCalls: Array<[string, string, unknown]> = [
        ["POST", "/api/users", { email: s, name: "N", password: PASSWORD }],
        ["POST", "/api/users", {
          email: "n@example.com",
          name: s,
          password: PASSWORD,
        }],
        ["POST", "/api/users", {
          email: "n@example.com",
          name: "N",
          password: PASSWORD,
          role: s,
        }],
        ["POST", "/api/users/invite", { email: s, name: "N" }],
        ["POST", "/api/users/invite", { email: "i@example.com", name: s }],
        ["POST", "/api/users/invite", {
          email: "i@example.com",
          name: "N",
          role: s,
        }],
        ["GET", `/api/users?q=${urlComponent(s)}`, undefined],
        ["GET", `/api/users?cursor=${urlComponent(s)}`, undefined],
        ["GET", `/api/users?limit=${urlComponent(s)}`, undefined],
        ["PATCH", `/api/users/${urlComponent(s)}`, { disabled: true }],
        ["PATCH", `/api/users/${owner.id}`, { disabled: false, role: s }],
        ["PUT", `/api/users/${urlComponent(s)}/role`, { role: "member" }],
      ];
      for (const [method, path, body] of adminCalls) {
        const res = await t.asActor(owner, method, path, body);
        await res.body?.cancel();
        assert(
          res.status < 500,
          `${method} ${path.slice(0, 60)}: ${res.status}`,
        );
      }
    }
    // What became an account (look-alikes, upper case) obeys the rules.
    const users = (await store.listUsers({ limit: 100 })).users;
    for (const user of users) {
      for (const text of [user.email, user.name]) {
        assert(text.isWellFormed() && !/\p{Cc}/u.test(text), text);
        assertEquals(text, text.normalize("NFC").trim());
      }
      assert(user.email.length <= 254 && user.name.length <= 100);
    }
    assertEquals(
      t.logger.lines.filter((l) => l.level === "error"),
      [],
      "no internal failure was logged",
    );
  },
);

testEachStore(
  "a login email of 2 KB, with NUL or a lone surrogate is an unknown email after one argon2 verification",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    await addUser(store, { email: "ada@example.com" });
    for (
      const email of [
        "a".repeat(2048) + "@example.com",
        "ada\u0000@example.com",
        "ada@example.com\ud800",
        "ada\u0001@example.com",
      ]
    ) {
      const before = t.calls.verify;
      const res = await t.call("POST", "/api/auth/login", {
        email,
        password: PASSWORD,
      });
      assertEquals(await refusal(res), [401, "credentials_invalid"]);
      assertEquals(t.calls.verify - before, 1);
    }
  },
);

testEachStore(
  "İx@ and i̇x@ (NFC then lower case) are one account, on every store",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const owner = await admin(store);
    const dotted = "\u0130x@example.com"; // İx@
    const folded = "i\u0307x@example.com"; // i̇x@, what İ lower-cases to
    const created = await t.asActor(owner, "POST", "/api/users", {
      email: dotted,
      name: "Dotted",
      password: PASSWORD,
    });
    assertEquals(created.status, 201);
    assertEquals((await created.json()).email, dotted);
    const twin = await t.asActor(owner, "POST", "/api/users", {
      email: folded,
      name: "Twin",
      password: PASSWORD,
    });
    assertEquals(await refusal(twin), [409, "email_taken"]);
    for (const email of [dotted, folded, "I\u0307X@EXAMPLE.COM"]) {
      assertEquals((await t.login(email, PASSWORD)).status, 200, email);
    }
  },
);

testEachStore(
  "a decomposed and a composed é are one address",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const owner = await admin(store);
    const composed = "jos\u00e9@example.com";
    const decomposed = "jose\u0301@example.com";
    const created = await t.asActor(owner, "POST", "/api/users", {
      email: decomposed,
      name: "Jose\u0301",
      password: PASSWORD,
    });
    assertEquals(created.status, 201);
    const user = await created.json();
    // Stored NFC-normalised, name included.
    assertEquals([user.email, user.name], [composed, "Jos\u00e9"]);
    assertEquals((await t.login(composed, PASSWORD)).status, 200);
    const found = await t.asActor(
      owner,
      "GET",
      `/api/users?q=${encodeURIComponent("JOSE\u0301")}`,
    );
    assertEquals(
      (await found.json()).users.map((u: { email: string }) => u.email),
      [composed],
    );
  },
);

testEachStore(
  "a password on the common list is refused with 400 password_too_common",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    const owner = await admin(store);
    for (const password of ["password1234", "PASSWORD1234", "qwerty123456"]) {
      const res = await t.asActor(owner, "POST", "/api/users", {
        email: "n@example.com",
        name: "N",
        password,
      });
      assertEquals(await res.json(), {
        error: "Password is too common: choose one that is harder to guess",
        code: "password_too_common",
        meta: { field: "password" },
      });
    }
  },
);
