// Conformance cases for TOTP and recovery codes: the pending enrolment and
// its confirmation, replay of time steps, single-use recovery codes under
// concurrency, replacing the stored secret, removal and the factor version.

import assert from "node:assert/strict";
import type { Store } from "../../core/store.ts";
import {
  addSession,
  addUser,
  type Case,
  hash,
  MINUTE,
  NO_FACTORS,
  refused,
} from "./_helpers.ts";

const SECRET = "JBSWY3DPEHPK3PXP";
/** The time step `withTotp` enrols at. */
export const STEP = 59_000_000;
const CODES = Array.from({ length: 10 }, (_, i) => `code-hash-${i}`);

/** An account with TOTP enabled at STEP, and its id. */
export async function withTotp(
  store: Store,
  email = "ada@example.com",
): Promise<string> {
  const user = await addUser(store, { email });
  const now = Date.now();
  await store.startTotpEnrolment({
    userId: user.id,
    secret: SECRET,
    createdAt: now,
    expiresAt: now + 10 * MINUTE,
  });
  assert.equal(
    await store.confirmTotp(user.id, {
      secret: SECRET,
      step: STEP,
      recoveryCodeHashes: CODES,
      now,
    }),
    true,
  );
  return user.id;
}

const totp: Case[] = [
  [
    "startTotpEnrolment() keeps the secret until it expires; a new one replaces it",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const enrolment = {
        userId: ada.id,
        secret: SECRET,
        createdAt: now,
        expiresAt: now + MINUTE,
      };
      await s.startTotpEnrolment(enrolment);
      assert.deepEqual(await s.totpEnrolment(ada.id, now), enrolment);
      assert.equal(await s.totpEnrolment(ada.id, now + MINUTE), null);
      const next = { ...enrolment, secret: "KRSXG5CTMVRXEZLU" };
      await s.startTotpEnrolment(next);
      assert.deepEqual(await s.totpEnrolment(ada.id, now), next);
      // The replaced secret no longer confirms.
      const confirmation = {
        secret: SECRET,
        step: STEP,
        recoveryCodeHashes: CODES,
        now,
      };
      assert.equal(await s.confirmTotp(ada.id, confirmation), false);
      assert.equal(await s.totp(ada.id), null);
      await refused(
        s.startTotpEnrolment({ ...enrolment, userId: crypto.randomUUID() }),
        "user_not_found",
      );
    },
  ],
  [
    "confirmTotp() enables TOTP with its codes, the enrolment's step used, once",
    async (s) => {
      const id = await withTotp(s);
      assert.deepEqual(await s.totp(id), {
        secret: SECRET,
        lastStep: STEP,
        recoveryCodesLeft: 10,
      });
      assert.deepEqual(await s.accountFactors(id), {
        ...NO_FACTORS,
        totpEnabled: true,
      });
      const credentials = await s.credentialsByEmail("ada@example.com");
      assert.equal(credentials?.factors.totpEnabled, true);
      assert.equal(await s.totpEnrolment(id, Date.now()), null);
      const now = Date.now();
      await refused(
        s.startTotpEnrolment({
          userId: id,
          secret: SECRET,
          createdAt: now,
          expiresAt: now + MINUTE,
        }),
        "second_factor_enabled",
      );
      await refused(
        s.confirmTotp(id, {
          secret: SECRET,
          step: STEP + 5,
          recoveryCodeHashes: CODES,
          now,
        }),
        "second_factor_enabled",
      );
      assert.equal(await s.useTotpStep(id, STEP), false);
      assert.equal(await s.useTotpStep(id, STEP - 1), false);
    },
  ],
  ["confirmTotp() refuses an expired enrolment", async (s) => {
    const ada = await addUser(s, { email: "ada@example.com" });
    const now = Date.now();
    await s.startTotpEnrolment({
      userId: ada.id,
      secret: SECRET,
      createdAt: now,
      expiresAt: now + MINUTE,
    });
    const late = {
      secret: SECRET,
      step: STEP,
      recoveryCodeHashes: CODES,
      now: now + MINUTE,
    };
    assert.equal(await s.confirmTotp(ada.id, late), false);
    assert.equal((await s.accountFactors(ada.id))?.totpEnabled, false);
  }],
  [
    "useTotpStep() accepts only steps later than the last, one winner among 100 concurrent",
    async (s) => {
      const id = await withTotp(s);
      assert.equal(await s.useTotpStep(id, STEP + 1), true);
      assert.equal(await s.useTotpStep(id, STEP + 1), false);
      assert.equal(await s.useTotpStep(id, STEP + 3), true);
      // A step between is older than the last accepted one: refused.
      assert.equal(await s.useTotpStep(id, STEP + 2), false);
      const results = await Promise.all(
        Array.from({ length: 100 }, () => s.useTotpStep(id, STEP + 4)),
      );
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal((await s.totp(id))?.lastStep, STEP + 4);
      // Without TOTP nothing is accepted.
      const bob = await addUser(s, { email: "bob@example.com" });
      assert.equal(await s.useTotpStep(bob.id, STEP + 9), false);
    },
  ],
  [
    "replaceTotpSecret() replaces only the secret given, one winner among 50 concurrent; steps and codes stay",
    async (s) => {
      // Optional in the interface: a store without it keeps secrets as
      // they were stored (KvStore and PostgresStore have it).
      if (s.replaceTotpSecret === undefined) return;
      const id = await withTotp(s);
      assert.equal(await s.useTotpStep(id, STEP + 1), true);
      assert.equal(await s.useRecoveryCode(id, CODES[0]!), 9);
      assert.equal(await s.replaceTotpSecret(id, "not-the-secret", "X"), false);
      assert.equal(await s.replaceTotpSecret(id, SECRET, "sealed1.a.b"), true);
      assert.deepEqual(await s.totp(id), {
        secret: "sealed1.a.b",
        lastStep: STEP + 1,
        recoveryCodesLeft: 9,
      });
      // The step and the code spent before are still spent.
      assert.equal(await s.useTotpStep(id, STEP + 1), false);
      assert.equal(await s.useRecoveryCode(id, CODES[0]!), null);
      const results = await Promise.all(
        Array.from(
          { length: 50 },
          (_, i) => s.replaceTotpSecret!(id, "sealed1.a.b", `sealed1.c.${i}`),
        ),
      );
      assert.equal(results.filter(Boolean).length, 1);
      const winner = results.indexOf(true);
      assert.equal((await s.totp(id))?.secret, `sealed1.c.${winner}`);
      // Racing with a step's spend, neither is lost.
      const [replaced, used] = await Promise.all([
        s.replaceTotpSecret(id, `sealed1.c.${winner}`, "sealed1.d.e"),
        s.useTotpStep(id, STEP + 2),
      ]);
      assert.deepEqual([replaced, used], [true, true]);
      assert.deepEqual(await s.totp(id), {
        secret: "sealed1.d.e",
        lastStep: STEP + 2,
        recoveryCodesLeft: 9,
      });
      // Without TOTP, and for an unknown or malformed id, nothing changes.
      const bob = await addUser(s, { email: "bob@example.com" });
      assert.equal(await s.replaceTotpSecret(bob.id, SECRET, "X"), false);
      assert.equal(await s.totp(bob.id), null);
      assert.equal(
        await s.replaceTotpSecret(crypto.randomUUID(), SECRET, "X"),
        false,
      );
      assert.equal(await s.replaceTotpSecret("not-a-uuid", SECRET, "X"), false);
      // A form replaced once is no longer the secret: it replaces nothing.
      assert.equal(await s.replaceTotpSecret(id, SECRET, "X"), false);
      assert.equal((await s.totp(id))?.secret, "sealed1.d.e");
    },
  ],
  [
    "useRecoveryCode() spends a code once, one winner among 200 concurrent",
    async (s) => {
      const id = await withTotp(s);
      assert.equal(await s.useRecoveryCode(id, CODES[0]!), 9);
      assert.equal(await s.useRecoveryCode(id, CODES[0]!), null);
      assert.equal(await s.useRecoveryCode(id, "not-a-code"), null);
      const results = await Promise.all(
        Array.from({ length: 200 }, () => s.useRecoveryCode(id, CODES[1]!)),
      );
      assert.deepEqual(results.filter((left) => left !== null), [8]);
      // Another account's code is not this one's.
      const bob = await withTotp(s, "bob@example.com");
      assert.equal(await s.useRecoveryCode(bob, CODES[0]!), 9);
      assert.equal((await s.totp(id))?.recoveryCodesLeft, 8);
    },
  ],
  ["replaceRecoveryCodes() kills the old codes at once", async (s) => {
    const id = await withTotp(s);
    assert.equal(await s.replaceRecoveryCodes(id, ["new-1", "new-2"]), true);
    assert.equal(await s.useRecoveryCode(id, CODES[2]!), null);
    assert.equal(await s.useRecoveryCode(id, "new-2"), 1);
    const bob = await addUser(s, { email: "bob@example.com" });
    assert.equal(await s.replaceRecoveryCodes(bob.id, ["x"]), false);
  }],
  [
    "disableTotp() removes TOTP and its codes and moves the factor version",
    async (s) => {
      const id = await withTotp(s);
      assert.equal(await s.disableTotp(id), true);
      assert.equal(await s.totp(id), null);
      assert.equal(await s.useRecoveryCode(id, CODES[3]!), null);
      assert.equal(await s.useTotpStep(id, STEP + 10), false);
      assert.deepEqual(await s.accountFactors(id), {
        ...NO_FACTORS,
        factorVersion: 1,
      });
      assert.equal(await s.disableTotp(id), false);
      assert.equal((await s.accountFactors(id))?.factorVersion, 1);
      // It can be enrolled again, with a fresh step history.
      const again = await withTotpAgain(s, id);
      assert.equal(again, true);
    },
  ],
  ["accountFactors() is null for an unknown account", async (s) => {
    assert.equal(await s.accountFactors(crypto.randomUUID()), null);
    assert.equal(await s.accountFactors("not-a-uuid"), null);
    const ada = await addUser(s, { email: "ada@example.com" });
    assert.deepEqual(await s.accountFactors(ada.id), NO_FACTORS);
    const credentials = await s.credentialsByEmail("ada@example.com");
    assert.deepEqual(credentials?.factors, await s.accountFactors(ada.id));
  }],
  [
    "the factors tell whether the account has a password, until it gets one",
    async (s) => {
      // As single sign-on makes an account: no password, its hash "".
      const sam = await addUser(s, {
        email: "sam@example.com",
        passwordHash: "",
      });
      const none = { ...NO_FACTORS, hasPassword: false };
      assert.deepEqual(await s.accountFactors(sam.id), none);
      assert.deepEqual(
        (await s.credentialsByEmail("sam@example.com"))?.factors,
        none,
      );
      const now = Date.now();
      const token = await addSession(s, sam.id, now);
      assert.deepEqual((await s.findSession(token, now))?.factors, none);
      assert.equal(await s.replacePasswordHash(sam.id, "", hash("set")), true);
      assert.deepEqual(await s.accountFactors(sam.id), NO_FACTORS);
      assert.deepEqual((await s.findSession(token, now))?.factors, NO_FACTORS);
    },
  ],
  [
    "listUsers() tells each account's second factors, where it tells them",
    async (s) => {
      const withApp = await withTotp(s);
      const none = await addUser(s, { email: "bob@example.com" });
      const listed = (await s.listUsers({ limit: 10 })).users;
      // Optional for a store; where it is told, it must be right (the
      // users screen offers "Remove second factor" by it).
      const of = (id: string) => listed.find((u) => u.id === id)?.secondFactor;
      for (
        const [id, expected] of [
          [withApp, { totp: true, passkeys: 0 }],
          [none.id, { totp: false, passkeys: 0 }],
        ] as const
      ) {
        const told = of(id);
        if (told !== undefined) assert.deepEqual(told, expected);
      }
      await s.removeUserSecondFactor(withApp, { events: [] });
      const after = (await s.listUsers({ limit: 10 })).users
        .find((u) => u.id === withApp)?.secondFactor;
      if (after !== undefined) {
        assert.deepEqual(after, { totp: false, passkeys: 0 });
      }
    },
  ],
];

async function withTotpAgain(s: Store, userId: string): Promise<boolean> {
  const now = Date.now();
  await s.startTotpEnrolment({
    userId,
    secret: SECRET,
    createdAt: now,
    expiresAt: now + MINUTE,
  });
  return await s.confirmTotp(userId, {
    secret: SECRET,
    step: STEP - 100,
    recoveryCodeHashes: CODES,
    now,
  });
}

/** TOTP and recovery codes. */
export const TOTP_CASES: readonly Case[] = totp;
