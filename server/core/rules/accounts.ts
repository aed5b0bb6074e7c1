// The account rules over a RecordStore: creation (one account per folded
// address), lookups, the listing, a rehash that must not undo a reset, the
// update rules (./_account_update.ts) and ending every session of an
// account at once.

import { AuthError } from "../../http/errors.ts";
import { assertWithinReach } from "../_roles.ts";
import { fold } from "../_fold.ts";
import type { AccountRecord, RecordStore } from "../records.ts";
import type {
  NewUser,
  SessionsRevocation,
  Store,
  UserCredentials,
  UserPage,
  UserQuery,
  UserRecord,
} from "../store.ts";
import { committing, readRecord, readRecords, unchanged } from "./_commit.ts";
import { factorsOf, toUserRecord } from "./_records.ts";
import { enabledMoves, updateUser } from "./_account_update.ts";
import { deleteDeadSessions } from "./_session_sweep.ts";
import { readAsActor } from "./_actor.ts";

/**
 * The account operations of `Store`, decided over `records`.
 *
 * @example Creating an account and reading it back
 * ```ts
 * import { accountRules } from "./accounts.ts";
 * import type { RecordStore } from "../records.ts";
 *
 * async function create(records: RecordStore) {
 *   const accounts = accountRules(records);
 *   const user = await accounts.createUser({
 *     id: crypto.randomUUID(),
 *     email: "Ada@Example.com",
 *     emailKey: "ada@example.com",
 *     name: "Ada",
 *     role: "admin",
 *     passwordHash: "$argon2id$...",
 *     createdAt: Date.now(),
 *   });
 *   return await accounts.userById(user.id);
 * }
 * ```
 */
export function accountRules(
  records: RecordStore,
): Pick<
  Store,
  | "createUser"
  | "userById"
  | "credentialsByEmail"
  | "listUsers"
  | "hasUsers"
  | "updateUser"
  | "replacePasswordHash"
  | "revokeUserSessions"
> {
  return {
    createUser: (user) => createUser(records, user),
    userById: async (id) => {
      const found = await readRecord(records, "account", id);
      return found === null ? null : toUserRecord(found.value);
    },
    credentialsByEmail: (emailKey) => credentialsByEmail(records, emailKey),
    listUsers: (query) => listUsers(records, query),
    hasUsers: () => records.hasAccounts(),
    updateUser: (id, update) => updateUser(records, id, update),
    replacePasswordHash: (id, previousHash, nextHash) =>
      replacePasswordHash(records, id, previousHash, nextHash),
    revokeUserSessions: (userId, revocation) =>
      revokeUserSessions(records, userId, revocation),
  };
}

/**
 * Creates an account; `email_taken` when its folded address is in use. The
 * address is read by its unique field first; a racing sign-up with the same
 * address makes the store refuse the later commit, whose retry then reads
 * the winner and refuses properly.
 */
function createUser(records: RecordStore, user: NewUser): Promise<UserRecord> {
  const { events } = user;
  // Built field by field: nothing else the caller's object holds is kept.
  const account: AccountRecord = {
    id: user.id,
    email: user.email,
    emailKey: user.emailKey,
    name: user.name,
    nameKey: fold(user.name),
    role: user.role,
    passwordHash: user.passwordHash,
    createdAt: user.createdAt,
    disabled: false,
    generation: 0,
    factorVersion: 0,
    totpEnabled: false,
    passkeyCount: 0,
    locale: user.locale ?? "",
    localeChosen: false,
  };
  return committing(records, async () => {
    const { found: [taken, same], checks } = await readAsActor<
      [AccountRecord, AccountRecord]
    >(
      records,
      [
        { kind: "account", unique: "emailKey", value: user.emailKey },
        { kind: "account", key: user.id },
      ],
      user.actor,
    );
    if (taken !== null) {
      throw new AuthError("email_taken", { meta: { field: "email" } });
    }
    // Ids are the caller's UUIDs: a clash is a bug, not a refusal (and a
    // commit checked against it could only fail again).
    if (same !== null) throw new Error(`Account id "${user.id}" is in use`);
    return {
      commit: {
        checks: [unchanged("account", user.id, null), ...checks],
        puts: [{ kind: "account", value: account, before: null }],
        tallies: enabledMoves({ role: user.role, disabled: true }, account),
        ...(events === undefined ? {} : { events }),
      },
      result: toUserRecord(account),
    };
  });
}

// What an unknown address is answered from, then dropped: the answer is
// built either way, so the work does not tell whether the address has an
// account (the store reads one record by the unique field either way).
const NO_ONE: AccountRecord = {
  id: "",
  email: "",
  emailKey: "",
  name: "",
  nameKey: "",
  role: "",
  disabled: true,
  passwordHash: "",
  generation: 0,
  createdAt: 0,
  factorVersion: 0,
  totpEnabled: false,
  passkeyCount: 0,
  locale: "",
  localeChosen: false,
};

/** The account, hash, generation and factors behind a folded address. */
async function credentialsByEmail(
  records: RecordStore,
  emailKey: string,
): Promise<UserCredentials | null> {
  const [found] = await readRecords<[AccountRecord]>(records, [
    { kind: "account", unique: "emailKey", value: emailKey },
  ]);
  const account = found?.value ?? NO_ONE;
  const credentials: UserCredentials = {
    user: toUserRecord(account),
    passwordHash: account.passwordHash,
    generation: account.generation,
    factors: factorsOf(account),
  };
  return found === null ? null : credentials;
}

/**
 * A page of accounts from the store's listing, each with its second
 * factors (the account record carries them, so the list tells them at no
 * cost, as the users screen needs).
 */
async function listUsers(
  records: RecordStore,
  query: UserQuery,
): Promise<UserPage> {
  const page = await records.accounts(query);
  return {
    users: page.accounts.map((account) => ({
      ...toUserRecord(account),
      secondFactor: {
        totp: account.totpEnabled,
        passkeys: account.passkeyCount,
      },
    })),
    nextCursor: page.nextCursor,
    ...(page.total === undefined ? {} : { total: page.total }),
  };
}

/** Replaces a password hash only if it is still `previousHash`. */
function replacePasswordHash(
  records: RecordStore,
  id: string,
  previousHash: string,
  nextHash: string,
): Promise<boolean> {
  return committing(records, async () => {
    const found = await readRecord(records, "account", id);
    if (found === null || found.value.passwordHash !== previousHash) {
      return { commit: null, result: false };
    }
    return {
      commit: {
        checks: [unchanged("account", id, found)],
        puts: [{
          kind: "account",
          value: { ...found.value, passwordHash: nextHash },
          before: found.value,
        }],
      },
      result: true,
    };
  });
}

/**
 * Moves the account's generation: every session (and reset link) dies in
 * that commit, under the reach rule. The dead session records are removed
 * after.
 */
async function revokeUserSessions(
  records: RecordStore,
  userId: string,
  revocation: SessionsRevocation,
): Promise<UserRecord> {
  const { user, generation } = await committing(records, async () => {
    const { found: [found], checks } = await readAsActor<[AccountRecord]>(
      records,
      [{ kind: "account", key: userId }],
      revocation.actor,
    );
    if (found === null) throw new AuthError("user_not_found");
    const account = found.value;
    assertWithinReach(
      revocation.reachableRoles,
      account.role,
      `You may not act on an account with the role "${account.role}"`,
    );
    const next = { ...account, generation: account.generation + 1 };
    return {
      commit: {
        checks: [unchanged("account", userId, found), ...checks],
        puts: [{ kind: "account", value: next, before: account }],
        ...(revocation.events === undefined
          ? {}
          : { events: revocation.events }),
      },
      result: { user: toUserRecord(next), generation: next.generation },
    };
  });
  await deleteDeadSessions(records, userId, generation);
  return user;
}
