// Links are cheap to refuse and lose their power when they should (DESIGN.md
// §5): an unknown, spent or expired token answers 410 before any argon2
// work, a password reset or a disable kills every outstanding reset link of
// the account, and re-enabling does not revive them. On both stores.

import { assertEquals } from "../fixtures/assert.ts";
import { apiOn, refusal } from "../fixtures/api.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { randomToken } from "../../server/core/_crypto.ts";

const NEW_PASSWORD = "a brand new passphrase";
const LINK_ROUTES = [
  "/api/auth/invite/accept",
  "/api/auth/password-reset/confirm",
];

testEachStore(
  "300 unknown link tokens at once cost no argon2 hash",
  async (store) => {
    const t = apiOn(store, { maxFailures: 10_000 });
    const answers = await Promise.all(
      Array.from(
        { length: 300 },
        (_, i) =>
          t.call("POST", LINK_ROUTES[i % 2]!, {
            token: randomToken(),
            password: NEW_PASSWORD,
          }, { address: `198.51.100.${i % 200}` }).then(refusal),
      ),
    );
    assertEquals(
      answers.every(([status, code]) =>
        status === 410 && code === "token_invalid"
      ),
      true,
    );
    assertEquals(t.calls.hash, 0);
  },
);

testEachStore(
  "spent and expired links answer 410 without hashing",
  async (store) => {
    const t = apiOn(store, { mail: true, maxFailures: 1000 });
    await addUser(store, { email: "ada@example.com" });
    const token = await t.resetToken("ada@example.com");
    const confirm = (password: string) =>
      t.call("POST", "/api/auth/password-reset/confirm", { token, password });
    assertEquals((await confirm(NEW_PASSWORD)).status, 204);
    const hashes = t.calls.hash;
    assertEquals(await refusal(await confirm("yet another passphrase")), [
      410,
      "token_invalid",
    ]);
    const expiring = await t.resetToken("ada@example.com");
    t.advance(60 * 60 * 1000);
    assertEquals(
      await refusal(
        await t.call("POST", "/api/auth/password-reset/confirm", {
          token: expiring,
          password: "yet another passphrase",
        }),
      ),
      [410, "token_invalid"],
    );
    assertEquals(t.calls.hash, hashes);
  },
);

testEachStore(
  "using one reset link kills the account's other reset links",
  async (store) => {
    const t = apiOn(store, { mail: true, maxFailures: 1000 });
    await addUser(store, { email: "ada@example.com" });
    const tokens = [
      await t.resetToken("ada@example.com"),
      await t.resetToken("ada@example.com"),
    ];
    const first = await t.call("POST", "/api/auth/password-reset/confirm", {
      token: tokens[0],
      password: NEW_PASSWORD,
    });
    assertEquals(first.status, 204);
    const second = await t.call("POST", "/api/auth/password-reset/confirm", {
      token: tokens[1],
      password: "the attacker's passphrase",
    });
    assertEquals(await refusal(second), [410, "token_invalid"]);
    assertEquals(
      (await t.login("ada@example.com", NEW_PASSWORD)).status,
      200,
    );
  },
);

testEachStore(
  "a reset link asked for before a disable is dead while disabled and after re-enabling",
  async (store) => {
    const t = apiOn(store, { mail: true, maxFailures: 1000 });
    const ada = await addUser(store, { email: "ada@example.com" });
    const token = await t.resetToken("ada@example.com");
    await store.updateUser(ada.id, { disabled: true });
    const confirm = () =>
      t.call("POST", "/api/auth/password-reset/confirm", {
        token,
        password: NEW_PASSWORD,
      });
    assertEquals(await refusal(await confirm()), [410, "token_invalid"]);
    await store.updateUser(ada.id, { disabled: false });
    assertEquals(await refusal(await confirm()), [410, "token_invalid"]);
    // The password never changed.
    assertEquals((await t.login("ada@example.com", PASSWORD)).status, 200);
    assertEquals((await t.login("ada@example.com", NEW_PASSWORD)).status, 401);
  },
);

testEachStore(
  "a refused password keeps the link: the retry with a good one works",
  async (store) => {
    const t = apiOn(store, { mail: true, maxFailures: 1000 });
    await addUser(store, { email: "ada@example.com" });
    const token = await t.resetToken("ada@example.com");
    for (const password of ["short", "password1234", "x\u0000".repeat(8)]) {
      const res = await t.call("POST", "/api/auth/password-reset/confirm", {
        token,
        password,
      });
      assertEquals(res.status, 400, JSON.stringify(password));
      await res.body?.cancel();
    }
    assertEquals(t.calls.hash, 0);
    const res = await t.call("POST", "/api/auth/password-reset/confirm", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(res.status, 204);
  },
);
