// Passkeys over the narrow store: registration within a cap, a credential
// registered once across every account, listing, renaming, removal (which
// moves the factor version) and the signature counter rule (a second
// step's use spent with its challenge and pending sign-in). Registration
// and removal rewrite the account's `passkeyCount` in their commit, checked
// against the account's version: the cap holds under concurrency.

import { AuthError } from "../../http/errors.ts";
import type { ByActor } from "../actor.ts";
import type {
  AccountRecord,
  Check,
  Delete,
  RecordStore,
  StoredPasskey,
  StoredTally,
} from "../records.ts";
import type {
  NewPasskey,
  OwnFactorChange,
  PasskeyRecord,
  PasskeyUse,
  Store,
} from "../store.ts";
import { committing, readRecords, unchanged } from "./_commit.ts";
import {
  accountPut,
  afterRemoval,
  keepsAWayIn,
  withFactors,
} from "./_factor_account.ts";
import { readAsActor } from "./_actor.ts";
import {
  pendingUnchanged,
  readChallenge,
  readPending,
} from "./_factor_pending.ts";
import { tally } from "./_records.ts";

// The passkey operations of `Store`.
type PasskeyRules = Pick<
  Store,
  | "addPasskey"
  | "listPasskeys"
  | "passkeyByCredentialId"
  | "renamePasskey"
  | "removePasskey"
  | "usePasskey"
>;

/**
 * The passkey operations of `Store`, decided over `records`.
 *
 * @example Registering a passkey within a cap of 10
 * ```ts
 * import { passkeyRules } from "./passkeys.ts";
 * import type { RecordStore } from "../records.ts";
 *
 * async function register(records: RecordStore, userId: string) {
 *   const passkeys = passkeyRules(records);
 *   return await passkeys.addPasskey({
 *     id: crypto.randomUUID(),
 *     userId,
 *     credentialId: "credential-id",
 *     publicKey: "AAEC",
 *     counter: 0,
 *     transports: ["internal"],
 *     name: "Laptop",
 *     createdAt: Date.now(),
 *   }, 10);
 * }
 * ```
 */
export function passkeyRules(records: RecordStore): PasskeyRules {
  return {
    addPasskey: (passkey, maxPasskeys, options) =>
      addPasskey(records, passkey, maxPasskeys, options),
    listPasskeys: async (userId) =>
      (await records.list("passkey", "userId", userId))
        .map(({ value }) => value)
        .sort((a, b) =>
          a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
        ),
    passkeyByCredentialId: async (credentialId) => {
      const [found] = await readRecords<[StoredPasskey]>(records, [
        { kind: "passkey", unique: "credentialId", value: credentialId },
      ]);
      return found?.value ?? null;
    },
    renamePasskey: (userId, id, name, options) =>
      updatePasskey(
        records,
        id,
        (passkey) => passkey.userId === userId ? { ...passkey, name } : null,
        options,
      ),
    removePasskey: (userId, id, options) =>
      removePasskey(records, userId, id, options),
    usePasskey: (id, use) => usePasskey(records, id, use),
  };
}

// Registers a passkey for an enabled account below the cap. The credential
// id is unique among passkeys: a racing registration of it fails the
// commit, and the retry reads it and refuses.
function addPasskey(
  records: RecordStore,
  passkey: NewPasskey,
  maxPasskeys: number,
  options: OwnFactorChange = {},
): Promise<PasskeyRecord | null> {
  const value: StoredPasskey = {
    id: passkey.id,
    userId: passkey.userId,
    credentialId: passkey.credentialId,
    publicKey: passkey.publicKey,
    counter: passkey.counter,
    transports: [...passkey.transports],
    name: passkey.name,
    createdAt: passkey.createdAt,
    lastUsedAt: null,
  };
  return committing(records, async () => {
    const { found: [account, credential, same], checks } = await readAsActor<
      [AccountRecord, StoredPasskey, StoredPasskey]
    >(records, [
      { kind: "account", key: value.userId },
      { kind: "passkey", unique: "credentialId", value: value.credentialId },
      { kind: "passkey", key: value.id },
    ], options.actor);
    if (account === null || account.value.disabled) {
      throw new AuthError("user_not_found");
    }
    // A passkey with this id is one registered already, too.
    if (credential !== null || same !== null) {
      throw new AuthError("passkey_invalid");
    }
    const { passkeyCount } = account.value;
    if (passkeyCount >= maxPasskeys) return { commit: null, result: null };
    return {
      commit: {
        checks: [
          unchanged("account", value.userId, account),
          unchanged("passkey", value.id, null),
          ...checks,
        ],
        puts: [
          accountPut(
            account.value,
            withFactors(account.value, { passkeyCount: passkeyCount + 1 }),
          ),
          { kind: "passkey", value, before: null },
        ],
        events: options.events ?? [],
      },
      result: value,
    };
  });
}

// One read-modify-write of a passkey: `change` answers the next record, or
// null to write nothing (the answer is then null). With `actor`, only while
// that account still stands (`readAsActor`), checked by the same commit.
function updatePasskey(
  records: RecordStore,
  id: string,
  change: (passkey: StoredPasskey) => StoredPasskey | null,
  { actor }: ByActor = {},
): Promise<PasskeyRecord | null> {
  return committing(records, async () => {
    const { found: [found], checks } = await readAsActor<[StoredPasskey]>(
      records,
      [{ kind: "passkey", key: id }],
      actor,
    );
    const next = found === null ? null : change(found.value);
    if (found === null || next === null) return { commit: null, result: null };
    return {
      commit: {
        checks: [unchanged("passkey", id, found), ...checks],
        puts: [{ kind: "passkey", value: next, before: found.value }],
      },
      result: next,
    };
  });
}

// Records a passkey's use under the counter rule. With `challenge`, only
// while that challenge is live, and with `pending`, only while that pending
// sign-in of the passkey's account is live: both end in the same commit,
// checked against them and the account. So of second steps sent at once
// with one assertion, one spends the challenge, the use and the sign-in it
// finishes together, and the others find the sign-in gone rather than the
// challenge spent (before, the challenge was spent first and the sign-in
// later: those counted a wrong proof, and five such ended the pending
// sign-in under the winner). With `actor` (a re-authentication), the
// session's account is read and checked by the same commit: a session
// ended in flight spends neither the challenge nor the use.
function usePasskey(
  records: RecordStore,
  id: string,
  use: PasskeyUse,
): Promise<boolean> {
  const { challenge, pending } = use;
  return committing(records, async () => {
    const [own, asked, signIn] = await Promise.all([
      readAsActor<[StoredPasskey]>(
        records,
        [{ kind: "passkey", key: id }],
        use.actor,
      ),
      challenge === undefined
        ? null
        : readChallenge(records, challenge.tokenHash, challenge.use, use.now),
      pending === undefined
        ? null
        : readPending(records, pending.tokenHash, pending.now),
    ]);
    const [found] = own.found;
    const next = found === null ? null : counted(found.value, use);
    if (
      found === null || next === null || asked?.live === null ||
      (signIn !== null &&
        (signIn.live === null || signIn.live.userId !== found.value.userId))
    ) {
      return { commit: null, result: false };
    }
    const checks: Check[] = [
      unchanged("passkey", id, found),
      ...own.checks,
    ];
    const deletes: Delete[] = [];
    if (asked?.live && challenge !== undefined) {
      checks.push(unchanged("challenge", challenge.tokenHash, asked.found));
      deletes.push({ kind: "challenge", value: asked.live });
    }
    if (signIn?.live) {
      checks.push(...pendingUnchanged(signIn, signIn.live));
      deletes.push({ kind: "pending", value: signIn.live });
    }
    return {
      commit: {
        checks,
        puts: [{ kind: "passkey", value: next, before: found.value }],
        deletes,
      },
      result: true,
    };
  });
}

// The signature counter must grow, unless the authenticator does not count
// (stored and new counter both 0): otherwise a replay or a clone.
function counted(
  passkey: StoredPasskey,
  use: PasskeyUse,
): StoredPasskey | null {
  const counts = passkey.counter > 0 || use.counter > 0;
  if (counts && use.counter <= passkey.counter) return null;
  return { ...passkey, counter: use.counter, lastUsedAt: use.now };
}

// Removes the account's passkey and moves the factor version, never the
// account's last way to sign in (DESIGN.md §13): an account with no
// password and no identity at a provider keeps its last passkey
// (`last_sign_in_method`). Decided on the account (its password and
// passkeys) and its `identities:` tally, both checked by the commit, as an
// unlink decides on them: before, an unlink and this removal at once each
// saw the other's way in, and left the account none; and this removal
// never looked, so after an unlink it left none anyway.
function removePasskey(
  records: RecordStore,
  userId: string,
  id: string,
  options: OwnFactorChange = {},
): Promise<boolean> {
  const identities = tally.identities(userId);
  return committing(records, async () => {
    const { found: [account, found, linked], checks } = await readAsActor<
      [AccountRecord, StoredPasskey, StoredTally]
    >(
      records,
      [
        { kind: "account", key: userId },
        { kind: "passkey", key: id },
        { kind: "tally", key: identities },
      ],
      options.actor,
    );
    const passkey = found?.value ?? null;
    if (account === null || passkey === null || passkey.userId !== userId) {
      return { commit: null, result: false };
    }
    const { passwordHash, passkeyCount } = account.value;
    // Listed after the tally (an identity linked or unlinked since moved
    // it), and only when nothing else is left.
    if (
      !keepsAWayIn(account.value, {
        passkeys: passkeyCount - 1,
        identities: passwordHash !== "" || passkeyCount > 1
          ? 0
          : (await records.list("identity", "userId", userId)).length,
      })
    ) {
      throw new AuthError("last_sign_in_method", {
        message:
          "This passkey is the account's last way to sign in: add a password or another passkey first",
      });
    }
    const next = afterRemoval(account.value, {
      passkeyCount: Math.max(0, passkeyCount - 1),
    });
    return {
      commit: {
        checks: [
          unchanged("account", userId, account),
          unchanged("passkey", id, found),
          unchanged("tally", identities, linked),
          ...checks,
        ],
        puts: [accountPut(account.value, next)],
        deletes: [{ kind: "passkey", value: passkey }],
        events: options.events ?? [],
      },
      result: true,
    };
  });
}
