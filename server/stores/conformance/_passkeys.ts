// Conformance cases for passkeys: registration within a cap (exact under
// concurrency), a credential registered once, listing, renaming, removal
// and the factor version, the signature counter rule, and an
// administrator's removal of every second factor.

import assert from "node:assert/strict";
import type { Store } from "../../core/store.ts";
import type { NewPasskey } from "../../core/store_factors.ts";
import { withTotp } from "./_factors.ts";
import {
  addUser,
  type Case,
  nextId,
  NO_FACTORS,
  passkeyOf,
  refused,
  tokenHash,
} from "./_helpers.ts";

async function added(s: Store, passkey: NewPasskey): Promise<void> {
  assert.notEqual(await s.addPasskey(passkey, 20), null);
}

const passkeys: Case[] = [
  [
    "addPasskey() registers it: listed, found by credential, counted on the account",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const first = passkeyOf(ada.id, { counter: 7 });
      const second = passkeyOf(ada.id, { transports: [], name: "Phone" });
      assert.deepEqual(await s.addPasskey(first, 20), {
        ...first,
        lastUsedAt: null,
      });
      await added(s, second);
      assert.deepEqual(await s.listPasskeys(ada.id), [
        { ...first, lastUsedAt: null },
        { ...second, lastUsedAt: null },
      ]);
      assert.deepEqual(await s.passkeyByCredentialId(second.credentialId), {
        ...second,
        lastUsedAt: null,
      });
      assert.equal(await s.passkeyByCredentialId(tokenHash()), null);
      assert.equal((await s.accountFactors(ada.id))?.passkeyCount, 2);
      const credentials = await s.credentialsByEmail("ada@example.com");
      assert.equal(credentials?.factors.passkeyCount, 2);
      assert.deepEqual(await s.listPasskeys(nextId()), []);
    },
  ],
  [
    "addPasskey() refuses a credential registered already, a missing or disabled account",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      const passkey = passkeyOf(ada.id);
      await added(s, passkey);
      await refused(
        s.addPasskey(
          passkeyOf(bob.id, { credentialId: passkey.credentialId }),
          20,
        ),
        "passkey_invalid",
      );
      assert.deepEqual(await s.listPasskeys(bob.id), []);
      assert.equal((await s.accountFactors(bob.id))?.passkeyCount, 0);
      await refused(s.addPasskey(passkeyOf(nextId()), 20), "user_not_found");
      await s.updateUser(bob.id, { disabled: true });
      await refused(s.addPasskey(passkeyOf(bob.id), 20), "user_not_found");
    },
  ],
  [
    "addPasskey() holds the cap exactly under 50 concurrent registrations",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      await added(s, passkeyOf(ada.id));
      const results = await Promise.all(
        Array.from({ length: 50 }, () => s.addPasskey(passkeyOf(ada.id), 5)),
      );
      assert.equal(results.filter((r) => r !== null).length, 4);
      assert.equal((await s.listPasskeys(ada.id)).length, 5);
      assert.equal((await s.accountFactors(ada.id))?.passkeyCount, 5);
      assert.equal(await s.addPasskey(passkeyOf(ada.id), 5), null);
    },
  ],
  ["renamePasskey() renames the owner's passkey only", async (s) => {
    const ada = await addUser(s, { email: "ada@example.com" });
    const bob = await addUser(s, { email: "bob@example.com" });
    const passkey = passkeyOf(ada.id);
    await added(s, passkey);
    assert.equal(await s.renamePasskey(bob.id, passkey.id, "Mine"), null);
    assert.equal(await s.renamePasskey(ada.id, nextId(), "Mine"), null);
    assert.deepEqual(await s.renamePasskey(ada.id, passkey.id, "Work laptop"), {
      ...passkey,
      name: "Work laptop",
      lastUsedAt: null,
    });
    assert.equal((await s.listPasskeys(ada.id))[0]?.name, "Work laptop");
  }],
  [
    "removePasskey() removes the owner's passkey for good and moves the factor version",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      const passkey = passkeyOf(ada.id);
      await added(s, passkey);
      assert.equal(await s.removePasskey(bob.id, passkey.id), false);
      assert.equal(await s.removePasskey(ada.id, nextId()), false);
      assert.equal(await s.removePasskey(ada.id, passkey.id), true);
      assert.equal(await s.removePasskey(ada.id, passkey.id), false);
      assert.deepEqual(await s.accountFactors(ada.id), {
        ...NO_FACTORS,
        factorVersion: 1,
      });
      assert.equal(await s.passkeyByCredentialId(passkey.credentialId), null);
      assert.equal(
        await s.usePasskey(passkey.id, { counter: 1, now: 1 }),
        false,
      );
      // Its credential may be registered again.
      await added(s, passkeyOf(ada.id, { credentialId: passkey.credentialId }));
    },
  ],
  [
    "usePasskey() takes a growing counter, or zero from a non-counting authenticator",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const counting = passkeyOf(ada.id, { counter: 5 });
      const synced = passkeyOf(ada.id, { counter: 0 });
      await added(s, counting);
      await added(s, synced);
      assert.equal(
        await s.usePasskey(counting.id, { counter: 5, now: 1 }),
        false,
      );
      assert.equal(
        await s.usePasskey(counting.id, { counter: 4, now: 1 }),
        false,
      );
      assert.equal(
        await s.usePasskey(counting.id, { counter: 0, now: 1 }),
        false,
      );
      assert.equal(
        await s.usePasskey(counting.id, { counter: 6, now: 1000 }),
        true,
      );
      const found = await s.passkeyByCredentialId(counting.credentialId);
      assert.equal(found?.counter, 6);
      assert.equal(found?.lastUsedAt, 1000);
      assert.equal(
        await s.usePasskey(synced.id, { counter: 0, now: 2000 }),
        true,
      );
      assert.equal(
        await s.usePasskey(synced.id, { counter: 0, now: 3000 }),
        true,
      );
      assert.equal(
        (await s.passkeyByCredentialId(synced.credentialId))?.lastUsedAt,
        3000,
      );
      // One winner when the same counter arrives twice at once.
      const results = await Promise.all(
        Array.from(
          { length: 50 },
          () => s.usePasskey(counting.id, { counter: 9, now: 4000 }),
        ),
      );
      assert.equal(results.filter(Boolean).length, 1);
    },
  ],
  [
    "removeUserSecondFactor() removes TOTP, codes and passkeys at once, within reach",
    async (s) => {
      const ada = await withTotp(s);
      const passkey = passkeyOf(ada);
      await added(s, passkey);
      await added(s, passkeyOf(ada));
      await s.updateUser(ada, { role: "admin" });
      await refused(
        s.removeUserSecondFactor(ada, { reachableRoles: ["editor"] }),
        "role_beyond_reach",
      );
      assert.equal((await s.accountFactors(ada))?.passkeyCount, 2);
      assert.notEqual(await s.totp(ada), null);
      assert.equal(
        await s.removeUserSecondFactor(ada, { reachableRoles: ["admin"] }),
        true,
      );
      assert.deepEqual(await s.accountFactors(ada), {
        ...NO_FACTORS,
        factorVersion: 1,
      });
      assert.equal(await s.totp(ada), null);
      assert.deepEqual(await s.listPasskeys(ada), []);
      assert.equal(await s.passkeyByCredentialId(passkey.credentialId), null);
      await refused(s.removeUserSecondFactor(nextId(), {}), "user_not_found");
      // An account without factors: nothing to remove, still no error, and
      // nothing written: the factor version stays.
      const bob = await addUser(s, { email: "bob@example.com" });
      assert.equal(await s.removeUserSecondFactor(bob.id, {}), false);
      assert.equal((await s.accountFactors(bob.id))?.factorVersion, 0);
      // Again, once the first removal took everything.
      assert.equal(await s.removeUserSecondFactor(ada, {}), false);
      assert.equal((await s.accountFactors(ada))?.factorVersion, 1);
    },
  ],
];

/** Passkeys and the removal of every second factor. */
export const PASSKEY_CASES: readonly Case[] = passkeys;
