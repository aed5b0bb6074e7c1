// Recovery codes: ten random codes of 80 bits in a readable form, one
// canonical form whatever the typing, digests that a store keeps; and,
// through a real store on KV and Postgres, single use also when the same
// code is sent 200 times at once, and regeneration killing the old ones.

import assert from "node:assert/strict";
import {
  hashRecoveryCode,
  newRecoveryCodes,
  normaliseRecoveryCode,
  RECOVERY_CODE_COUNT,
} from "../../server/core/recovery_codes.ts";
import { hashToken } from "../../server/core/_crypto.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { Store } from "../../server/core/store.ts";

const FORMAT = /^[0-9a-hjkmnp-tv-z]{4}(?:-[0-9a-hjkmnp-tv-z]{4}){3}$/;

Deno.test("newRecoveryCodes() makes ten distinct codes of 16 unambiguous symbols", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const codes = newRecoveryCodes();
    assert.equal(codes.length, RECOVERY_CODE_COUNT);
    for (const code of codes) {
      assert.match(code, FORMAT);
      seen.add(code);
    }
  }
  assert.equal(seen.size, 1000);
  // Every symbol of the alphabet turns up: the choice is uniform over 32.
  const symbols = new Set([...seen].join("").replaceAll("-", ""));
  assert.equal(symbols.size, 32);
});

Deno.test("normaliseRecoveryCode() forgives case, spaces, dashes and look-alikes only", () => {
  const rows: Array<[string, string | null]> = [
    ["abcd-efgh-jkmn-pqrs", "abcdefghjkmnpqrs"],
    ["ABCD EFGH JKMN PQRS", "abcdefghjkmnpqrs"],
    ["  abcdefghjkmnpqrs\n", "abcdefghjkmnpqrs"],
    ["0O1I-lL00-0000-0000", "0011110000000000"],
    ["abcd-efgh-jkmn-pqr", null],
    ["abcd-efgh-jkmn-pqrst", null],
    ["abcd-efgh-jkmn-pqru", null], // u is not in the alphabet
    ["abcd-efgh-jkmn-pq\0s", null],
    ["abcd-efgh-jkmn-pq\ud800s", null],
    ["", null],
  ];
  for (const [input, expected] of rows) {
    assert.equal(normaliseRecoveryCode(input), expected, JSON.stringify(input));
  }
});

Deno.test("hashRecoveryCode() is the SHA-256 of the canonical form, null for a non-code", () => {
  const [code] = newRecoveryCodes();
  const digest = hashRecoveryCode(code!);
  assert.equal(digest, hashToken(code!.replaceAll("-", "")));
  assert.equal(
    hashRecoveryCode(code!.toUpperCase().replaceAll("-", " ")),
    digest,
  );
  assert.equal(hashRecoveryCode("not a code"), null);
});

async function enrolWithCodes(store: Store, userId: string, codes: string[]) {
  const now = Date.now();
  const secret = "JBSWY3DPEHPK3PXP";
  await store.startTotpEnrolment({
    userId,
    secret,
    createdAt: now,
    expiresAt: now + 60_000,
  });
  await store.confirmTotp(userId, {
    secret,
    step: 1,
    recoveryCodeHashes: codes.map((code) => hashRecoveryCode(code)!),
    now,
  });
}

testEachStore(
  "a recovery code works once, however it is typed, and once among 200 at the same moment",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const codes = newRecoveryCodes();
    await enrolWithCodes(store, ada.id, codes);
    const typed = codes[0]!.toUpperCase().replaceAll("-", " ");
    assert.equal(
      await store.useRecoveryCode(ada.id, hashRecoveryCode(typed)!),
      9,
    );
    assert.equal(
      await store.useRecoveryCode(ada.id, hashRecoveryCode(codes[0]!)!),
      null,
    );
    const results = await Promise.all(
      Array.from(
        { length: 200 },
        () => store.useRecoveryCode(ada.id, hashRecoveryCode(codes[1]!)!),
      ),
    );
    assert.deepEqual(results.filter((left) => left !== null), [8]);
  },
);

testEachStore(
  "regenerated recovery codes replace the old ones at once",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const old = newRecoveryCodes();
    await enrolWithCodes(store, ada.id, old);
    const fresh = newRecoveryCodes();
    assert.equal(
      await store.replaceRecoveryCodes(
        ada.id,
        fresh.map((code) => hashRecoveryCode(code)!),
      ),
      true,
    );
    for (const code of old) {
      assert.equal(
        await store.useRecoveryCode(ada.id, hashRecoveryCode(code)!),
        null,
      );
    }
    assert.equal(
      await store.useRecoveryCode(ada.id, hashRecoveryCode(fresh[9]!)!),
      9,
    );
  },
);
