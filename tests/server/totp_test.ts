// TOTP with real codes from npm:otpauth and the server's injected clock:
// which codes are accepted (the current step, one before and after) and
// refused (two steps away, malformed), and, through a real store on KV and
// Postgres, replay: a step accepted once per account ever, the enrolment's
// step included.

import assert from "node:assert/strict";
import { TOTP } from "otpauth";
import {
  newTotpSecret,
  totpCode,
  totpSetup,
  totpStepAt,
  totpStepOf,
} from "../../server/core/totp.ts";
import type { Store } from "../../server/core/store.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";

const STEP_MS = 30_000;
// A fixed instant, in the middle of a step.
const NOW = 1_800_000_000_000 + 15_000;

Deno.test("totpStepOf() accepts the current step and one either side, not two", () => {
  const secret = newTotpSecret();
  const step = totpStepAt(NOW);
  for (const offset of [-1, 0, 1]) {
    const code = totpCode(secret, NOW + offset * STEP_MS);
    assert.equal(totpStepOf(secret, code, NOW), step + offset);
  }
  for (const offset of [-2, 2, 10]) {
    const code = totpCode(secret, NOW + offset * STEP_MS);
    // A code two steps away may collide with a near one by chance (1 in
    // 10^6 per step); the secret is random, so a collision is a real bug.
    assert.equal(totpStepOf(secret, code, NOW), null);
  }
});

Deno.test("totpStepOf() refuses malformed codes and another secret's code", () => {
  const secret = newTotpSecret();
  const code = totpCode(secret, NOW);
  assert.equal(
    totpStepOf(secret, `${code.slice(0, 3)} ${code.slice(3)}`, NOW),
    totpStepAt(NOW),
  );
  for (
    const bad of [
      "",
      "12345",
      "1234567",
      "abcdef",
      `${code}\0`,
      "١٢٣٤٥٦",
      "\ud800",
    ]
  ) {
    assert.equal(totpStepOf(secret, bad, NOW), null, JSON.stringify(bad));
  }
  assert.equal(totpStepOf(newTotpSecret(), code, NOW), null);
});

Deno.test("totpCode() is RFC 6238's SHA-1, 6 digits, 30 s (the RFC's own test vector)", () => {
  // RFC 6238 appendix B: the ASCII secret "12345678901234567890" at
  // 59 s gives 94287082 with 8 digits; its last 6 digits are 287082.
  const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  assert.equal(totpCode(secret, 59_000), "287082");
  assert.equal(totpCode(secret, 1_111_111_109_000), "081804");
});

Deno.test("totpSetup() answers a secret, its otpauth URL and a QR code in SVG", () => {
  const secret = newTotpSecret();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.notEqual(newTotpSecret(), secret);
  const setup = totpSetup(secret, {
    issuer: "Gatehouse",
    label: "ada@example.com",
  });
  assert.equal(setup.secret, secret);
  const parsed = new URL(setup.otpauthUrl);
  assert.equal(parsed.protocol, "otpauth:");
  assert.equal(parsed.searchParams.get("secret"), secret);
  assert.equal(parsed.searchParams.get("issuer"), "Gatehouse");
  assert.equal(parsed.searchParams.get("algorithm"), "SHA1");
  assert.equal(parsed.searchParams.get("digits"), "6");
  assert.equal(parsed.searchParams.get("period"), "30");
  assert.match(
    decodeURIComponent(parsed.pathname),
    /Gatehouse:ada@example\.com$/,
  );
  // What an authenticator app computes from the URL matches the server.
  const app = new URL(setup.otpauthUrl).searchParams.get("secret")!;
  assert.equal(
    new TOTP({ secret: app }).generate({ timestamp: NOW }),
    totpCode(secret, NOW),
  );
  assert.match(setup.qrSvg, /^<svg[^>]*>[\s\S]*<\/svg>$/);
});

// Enrols TOTP the way the confirm route will: the code is checked against
// the pending enrolment's secret and its step counts as used.
async function enrol(store: Store, userId: string, now: number) {
  const secret = newTotpSecret();
  await store.startTotpEnrolment({
    userId,
    secret,
    createdAt: now,
    expiresAt: now + 10 * 60_000,
  });
  const step = totpStepOf(secret, totpCode(secret, now), now);
  assert.notEqual(step, null);
  assert.equal(
    await store.confirmTotp(userId, {
      secret,
      step: step!,
      recoveryCodeHashes: [],
      now,
    }),
    true,
  );
  return secret;
}

// A sign-in's second step: the code's step, then the store's single use.
async function signIn(store: Store, userId: string, code: string, now: number) {
  const totp = await store.totp(userId);
  const step = totp === null ? null : totpStepOf(totp.secret, code, now);
  return step !== null && await store.useTotpStep(userId, step);
}

testEachStore(
  "the enrolment's code is refused at the first sign-in, in the same step and the next call",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const secret = await enrol(store, ada.id, NOW);
    assert.equal(
      await signIn(store, ada.id, totpCode(secret, NOW), NOW),
      false,
    );
    // Still refused a few seconds later within the same step.
    assert.equal(
      await signIn(store, ada.id, totpCode(secret, NOW), NOW + 10_000),
      false,
    );
    // The next step's code is accepted, once.
    const next = totpCode(secret, NOW + STEP_MS);
    assert.equal(await signIn(store, ada.id, next, NOW + STEP_MS), true);
    assert.equal(await signIn(store, ada.id, next, NOW + STEP_MS), false);
  },
);

testEachStore(
  "a code one step early or late is accepted, but never one of a step at or before the last accepted",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const secret = await enrol(store, ada.id, NOW - 10 * STEP_MS);
    // The phone is one step behind: accepted.
    assert.equal(
      await signIn(store, ada.id, totpCode(secret, NOW - STEP_MS), NOW),
      true,
    );
    // The current step's code, then the next (phone one step ahead): accepted.
    assert.equal(await signIn(store, ada.id, totpCode(secret, NOW), NOW), true);
    assert.equal(
      await signIn(store, ada.id, totpCode(secret, NOW + STEP_MS), NOW),
      true,
    );
    // The previous code again, or the current one again: replay, refused.
    assert.equal(
      await signIn(store, ada.id, totpCode(secret, NOW), NOW),
      false,
    );
    assert.equal(
      await signIn(store, ada.id, totpCode(secret, NOW + STEP_MS), NOW),
      false,
    );
    // Two steps away: refused, whatever the history.
    assert.equal(
      await signIn(store, ada.id, totpCode(secret, NOW + 3 * STEP_MS), NOW),
      false,
    );
  },
);

testEachStore(
  "one code sent 100 times at once is accepted once",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const secret = await enrol(store, ada.id, NOW - 10 * STEP_MS);
    const code = totpCode(secret, NOW);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => signIn(store, ada.id, code, NOW)),
    );
    assert.equal(results.filter(Boolean).length, 1);
  },
);

testEachStore(
  "a code of another account's secret is refused; each account has its own step history",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const bob = await addUser(store, { email: "bob@example.com" });
    const adas = await enrol(store, ada.id, NOW - 10 * STEP_MS);
    const bobs = await enrol(store, bob.id, NOW - 10 * STEP_MS);
    assert.equal(await signIn(store, ada.id, totpCode(bobs, NOW), NOW), false);
    assert.equal(await signIn(store, ada.id, totpCode(adas, NOW), NOW), true);
    assert.equal(await signIn(store, bob.id, totpCode(bobs, NOW), NOW), true);
  },
);
