// The single sign-on operations of `Store` over a RecordStore (DESIGN.md
// §13): flows kept until their callback spends them once, identities
// listed and unlinked (never the account's last way in), and, in private
// modules beside this one, the account a sign-in resolves to
// (./_sso_accounts.ts) and the sessions a back-channel logout ends
// (./_sso_logout.ts).

import { AuthError } from "../../http/errors.ts";
import type {
  AccountRecord,
  RecordStore,
  StoredIdentity,
  StoredSsoFlow,
  StoredTally,
} from "../records.ts";
import type { IdentityUnlinking, Store } from "../store.ts";
import { committing, readRecord, readRecords, unchanged } from "./_commit.ts";
import { tally } from "./_records.ts";
import { readAsActor } from "./_actor.ts";
import { keepsAWayIn } from "./_factor_account.ts";
import { resolveSsoAccount, subjectKeyOf } from "./_sso_accounts.ts";
import { endSsoSessions } from "./_sso_logout.ts";

// The single sign-on operations of `Store`.
type SsoRules = Pick<
  Store,
  | "saveSsoFlow"
  | "spendSsoFlow"
  | "identityBySubject"
  | "listIdentities"
  | "resolveSsoAccount"
  | "unlinkIdentity"
  | "endSsoSessions"
  | "deleteExpiredSsoRecords"
>;

/**
 * The single sign-on operations of `Store`, decided over `records`.
 *
 * @example A flow is spent once
 * ```ts
 * import { ssoRules } from "./sso.ts";
 * import type { RecordStore } from "../records.ts";
 *
 * async function once(records: RecordStore, now: number) {
 *   const sso = ssoRules(records);
 *   await sso.saveSsoFlow({
 *     tokenHash: "digest",
 *     providerId: "acme",
 *     state: "s",
 *     nonce: "n",
 *     codeVerifier: "v",
 *     returnTo: "/",
 *     purpose: "sign_in",
 *     userId: null,
 *     sessionId: null,
 *     createdAt: now,
 *     expiresAt: now + 600_000,
 *   });
 *   const [a, b] = await Promise.all([
 *     sso.spendSsoFlow("digest"),
 *     sso.spendSsoFlow("digest"),
 *   ]);
 *   return (a === null) !== (b === null); // true
 * }
 * ```
 */
export function ssoRules(records: RecordStore): SsoRules {
  return {
    saveSsoFlow: (flow) => saveSsoFlow(records, flow),
    spendSsoFlow: (tokenHash) => spendSsoFlow(records, tokenHash),
    identityBySubject: async (issuer, subject) => {
      const [found] = await readRecords<[StoredIdentity]>(records, [{
        kind: "identity",
        unique: "subjectKey",
        value: subjectKeyOf(issuer, subject),
      }]);
      return found?.value ?? null;
    },
    listIdentities: (userId) => listIdentities(records, userId),
    resolveSsoAccount: (request) => resolveSsoAccount(records, request),
    unlinkIdentity: (userId, id, options) =>
      unlinkIdentity(records, userId, id, options),
    endSsoSessions: (logout) => endSsoSessions(records, logout),
    deleteExpiredSsoRecords: async (now, limit) => {
      const flows = await records.deleteExpired("sso_flow", now, limit);
      if (flows >= limit) return flows;
      return flows +
        await records.deleteExpired("logout_token", now, limit - flows);
    },
  };
}

// Built field by field: nothing else the caller's object holds is kept.
// The token is random: a record already under its digest is a bug.
async function saveSsoFlow(
  records: RecordStore,
  flow: StoredSsoFlow,
): Promise<void> {
  const value: StoredSsoFlow = {
    tokenHash: flow.tokenHash,
    providerId: flow.providerId,
    state: flow.state,
    nonce: flow.nonce,
    codeVerifier: flow.codeVerifier,
    returnTo: flow.returnTo,
    purpose: flow.purpose,
    userId: flow.userId,
    sessionId: flow.sessionId,
    createdAt: flow.createdAt,
    expiresAt: flow.expiresAt,
  };
  const saved = await records.commit({
    checks: [unchanged("sso_flow", value.tokenHash, null)],
    puts: [{ kind: "sso_flow", value, before: null }],
  });
  if (!saved) throw new Error("Cannot save the SSO flow: its token is taken");
}

// Read and deleted in one checked commit: of racing spends, the one whose
// commit lands gets the flow; the others read again and find none.
function spendSsoFlow(
  records: RecordStore,
  tokenHash: string,
): Promise<StoredSsoFlow | null> {
  return committing(records, async () => {
    const found = await readRecord(records, "sso_flow", tokenHash);
    if (found === null) return { commit: null, result: null };
    return {
      commit: {
        checks: [unchanged("sso_flow", tokenHash, found)],
        deletes: [{ kind: "sso_flow", value: found.value }],
      },
      // A flow saved before flows named their session has none, on every
      // store alike (Postgres reads the new column's NULL).
      result: { ...found.value, sessionId: found.value.sessionId ?? null },
    };
  });
}

async function listIdentities(
  records: RecordStore,
  userId: string,
): Promise<StoredIdentity[]> {
  return (await records.list("identity", "userId", userId))
    .map(({ value }) => value)
    .sort((a, b) =>
      a.linkedAt - b.linkedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
    );
}

// Decided on the identity, the account (its password and passkeys) and the
// account's `identities:` tally, all checked by the commit: a passkey
// removed, or another identity unlinked, meanwhile makes it decide again.
function unlinkIdentity(
  records: RecordStore,
  userId: string,
  id: string,
  options: IdentityUnlinking = {},
): Promise<StoredIdentity> {
  const key = tally.identities(userId);
  return committing(records, async () => {
    // With `actor`, bound to the session that asks (`readAsActor`): an
    // account disabled or signed out meanwhile keeps its identity.
    const { found: [found, owner, count], checks } = await readAsActor<
      [StoredIdentity, AccountRecord, StoredTally]
    >(records, [
      { kind: "identity", key: id },
      { kind: "account", key: userId },
      { kind: "tally", key },
    ], options.actor);
    if (found === null || found.value.userId !== userId || owner === null) {
      throw new AuthError("identity_not_found");
    }
    // Listed after the tally: an identity linked since moved it.
    const others = (await records.list("identity", "userId", userId))
      .filter(({ value }) => value.id !== id);
    const account = owner.value;
    if (
      !keepsAWayIn(account, {
        passkeys: account.passkeyCount,
        identities: others.length,
      })
    ) {
      throw new AuthError("last_sign_in_method");
    }
    return {
      commit: {
        checks: [
          unchanged("identity", id, found),
          unchanged("account", userId, owner),
          unchanged("tally", key, count),
          ...checks,
        ],
        deletes: [{ kind: "identity", value: found.value }],
        tallies: [{ key, by: 1 }],
        events: options.events?.(found.value) ?? [],
      },
      result: found.value,
    };
  });
}
