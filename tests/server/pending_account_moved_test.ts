// A commit acting on a pending sign-in as read checks its account too
// (pendingUnchanged in core/rules/_factor_pending.ts): an account disabled
// between the read and the commit ends the sign-in, so a wrong code is not
// counted against it, it is not spent, and a right code for it spends
// nothing. The store's conformance cases change the account before the
// read; here the change lands in the gap, on the rules over a record store
// that disables the account just before the next commit touching a
// pending sign-in (every store runs these rules over its own records).

import { assertEquals } from "../fixtures/assert.ts";
import { MemoryRecords } from "../fixtures/memory_records.ts";
import { RuleStore } from "../../server/core/rules/mod.ts";
import type { Commit, RecordStore } from "../../server/core/records.ts";
import { STEP, withTotp } from "../../server/stores/conformance/_factors.ts";
import { MINUTE, tokenHash } from "../../server/stores/conformance/_helpers.ts";

// The rules over records whose next commit that puts or deletes a pending
// sign-in first lets `meanwhile` land, once armed.
function gapped() {
  const real = new MemoryRecords();
  let meanwhile: (() => Promise<unknown>) | null = null;
  const touchesPending = (commit: Commit) =>
    [...commit.puts ?? [], ...commit.deletes ?? []]
      .some((change) => change.kind === "pending");
  const records = new Proxy(real, {
    get(target, property) {
      if (property === "commit") {
        return async (commit: Commit) => {
          const landing = meanwhile;
          if (landing !== null && touchesPending(commit)) {
            meanwhile = null;
            await landing();
          }
          return await target.commit(commit);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as RecordStore;
  const store = new RuleStore(records);
  return {
    store,
    /** Disables `userId` in the gap of the next commit on a pending sign-in. */
    disableInTheGap(userId: string) {
      meanwhile = () => store.updateUser(userId, { disabled: true });
    },
  };
}

/** An account with TOTP (and ten recovery codes), and a pending sign-in. */
async function signingIn() {
  const { store, disableInTheGap } = gapped();
  const userId = await withTotp(store);
  const now = Date.now();
  const factors = await store.accountFactors(userId);
  const pending = {
    tokenHash: tokenHash(),
    userId,
    generation: 0,
    factorVersion: factors!.factorVersion,
    createdAt: now,
    expiresAt: now + 5 * MINUTE,
  };
  await store.createPendingSignIn(pending);
  disableInTheGap(userId);
  return { store, userId, now, binding: { pending: { ...pending, now } } };
}

Deno.test("a wrong code whose account is disabled before its count commits counts nothing: the sign-in ended", async () => {
  const { store, binding, now } = await signingIn();
  const { tokenHash } = binding.pending;
  assertEquals(await store.failPendingSignIn(tokenHash, now, 5), null);
  assertEquals(await store.findPendingSignIn(tokenHash, now), null);
});

Deno.test("a pending sign-in whose account is disabled before its spend commits is not spent", async () => {
  const { store, binding, now } = await signingIn();
  assertEquals(
    await store.spendPendingSignIn(binding.pending.tokenHash, now),
    null,
  );
});

Deno.test("a right recovery code for a sign-in whose account is disabled before its commit stays unused", async () => {
  const { store, userId, binding } = await signingIn();
  assertEquals(
    await store.useRecoveryCode(userId, "code-hash-0", binding),
    null,
  );
  // Spent without a sign-in, the code is still one of the ten.
  assertEquals(await store.useRecoveryCode(userId, "code-hash-0"), 9);
});

Deno.test("a right TOTP step for a sign-in whose account is disabled before its commit is not taken", async () => {
  const { store, userId, binding } = await signingIn();
  assertEquals(await store.useTotpStep(userId, STEP + 1, binding), false);
  assertEquals((await store.totp(userId))?.lastStep, STEP);
});
