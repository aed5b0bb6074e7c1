/**
 * The `SsoStore` interface: what a store keeps of single sign-on (DESIGN.md
 * §13): the identities linked to accounts, the attempts between start and
 * callback, and the back-channel logout tokens acted on. `Store` extends
 * it; `RuleStore` decides every operation once, over any `RecordStore`
 * (./rules/sso.ts).
 *
 * Rules every store keeps, beyond those of `Store`:
 * - An identity is its exact (`issuer`, `subject`): linked once, to one
 *   account; after the link its address is never matched again.
 * - A flow is spent once, also under hundreds of concurrent callbacks.
 * - The first link of an identity (to the account of its address, to an
 *   account made from a pending invitation, or to an account made for it)
 *   is decided and written in one commit; a disabled account links nothing.
 * - An account keeps a way to sign in: the last of its password, passkeys
 *   and identities is not unlinked.
 *
 * @module
 */

import type { ByActor } from "./actor.ts";
import type { AuditEvent } from "./audit_event.ts";
import type {
  AccountRecord,
  StoredIdentity,
  StoredLink,
  StoredSsoFlow,
} from "./records.ts";

/** An account as single sign-on answers it: no credential material. */
export type SsoAccount = Pick<
  AccountRecord,
  "id" | "email" | "name" | "role" | "disabled" | "createdAt"
>;

/** The codes a resolution refuses with (the callback's `sso_error`). */
export type SsoAccountRefusal =
  | "sso_domain_refused"
  | "sso_email_unverified"
  | "sso_account_unknown"
  | "sso_account_disabled";

/** How an identity found its account. */
export type SsoResolution = "found" | "linked" | "invited" | "created";

/** An account an SSO sign-in may sign in to. */
export interface SsoResolved {
  /**
   * `found`: the identity was linked before; `linked`: linked now to the
   * account of its address; `invited`: an account made now from the
   * pending invitation of its address (spent); `created`: an account made
   * now for it.
   */
  how: SsoResolution;
  /** The account. */
  account: SsoAccount;
  /** The account's generation when it was read (a session is bound to it). */
  generation: number;
  /** The identity as stored after this sign-in. */
  identity: StoredIdentity;
  /** The invitation spent, for `invited`; else null. */
  invitation: StoredLink | null;
}

/** What {@linkcode SsoStore.resolveSsoAccount} answers. */
export type SsoAccountOutcome =
  | ({ ok: true } & SsoResolved)
  | {
    ok: false;
    /** Why. */
    code: SsoAccountRefusal;
    /** The account concerned, when one is known (a disabled one). */
    account: SsoAccount | null;
  };

/** Who a provider signed in, and what a first link may do. */
export interface SsoAccountRequest {
  /** The provider's `id`. */
  providerId: string;
  /** The identity's `iss`. */
  issuer: string;
  /** The identity's `sub`. */
  subject: string;
  /** The address the provider gives (trimmed, NFC), or null. */
  email: string | null;
  /** That address folded, or null. */
  emailKey: string | null;
  /** The person's name at the provider, or null. */
  name: string | null;
  /**
   * Why the identity may not be linked for the first time (the provider's
   * domains, an address it does not vouch for), or null. Checked only when
   * no identity is linked yet: a linked one signs in by its key alone.
   */
  firstLinkRefusal: "sso_domain_refused" | "sso_email_unverified" | null;
  /**
   * Just-in-time creation: the name and role of an account made when
   * neither an account nor a pending invitation has the address; absent:
   * no creation (`sso_account_unknown`).
   */
  create?: { name: string; role: string };
  /** The id of the identity, if one is linked now. */
  identityId: string;
  /** The id of the account, if one is made now. */
  userId: string;
  /** Now, ms. */
  now: number;
  /**
   * The roles whose holders may grant `role` (an invitation spends only
   * while its inviter holds one); undefined: any role.
   */
  granters(role: string): Promise<readonly string[] | undefined>;
  /** The events of a resolution, written in its commit (none for `found`). */
  events?(resolved: SsoResolved): readonly AuditEvent[];
}

/**
 * An unlink of one's own identity: its events, and the standing of the
 * session that asks for it (the account still enabled, at that session's
 * generation, read in the unlink's own commit; else `session_absent`).
 */
export interface IdentityUnlinking extends ByActor {
  /**
   * The events of the unlink, made from the identity the commit deletes
   * (its provider, which the caller knows only by id), in that commit.
   */
  events?(identity: StoredIdentity): readonly AuditEvent[];
}

/** What a back-channel logout ends (OIDC Back-Channel Logout 1.0). */
export interface SsoLogoutRequest {
  /** The provider the logout token came to. */
  providerId: string;
  /** The token's `iss`. */
  issuer: string;
  /** The token's `sub`, or null. */
  subject: string | null;
  /** The token's `sid`, or null: then every session of `subject` made through the provider. */
  sid: string | null;
  /** The token's `jti`: a token acted on once. */
  jti: string;
  /** Until when a replay of the token could pass, ms. */
  replayUntil: number;
  /**
   * The events of ending an account's sessions, in that commit. Made
   * again when the commit is decided again; those written are answered.
   */
  events?(account: SsoAccount, sessions: number): readonly AuditEvent[];
}

/** What a back-channel logout ended. */
export interface SsoLogoutOutcome {
  /** How many sessions it ended. */
  sessions: number;
  /** The events written with them: none when another delivery ended them. */
  events: readonly AuditEvent[];
}

/**
 * The single sign-on operations of a store.
 *
 * @example Spending a flow once
 * ```ts
 * import type { SsoStore } from "@gatehouse/server/store";
 *
 * async function callback(store: SsoStore, tokenHash: string) {
 *   const flow = await store.spendSsoFlow(tokenHash);
 *   return flow === null ? "sso_state_invalid" : flow.returnTo;
 * }
 * ```
 */
export interface SsoStore {
  /** Keeps a new flow until it is spent or its expiry (the reaper sweeps it). */
  saveSsoFlow(flow: StoredSsoFlow): Promise<void>;
  /**
   * Deletes the flow behind `tokenHash` and answers it; null when there is
   * none. Of concurrent spends of one flow, exactly one gets it. Expiry is
   * the caller's check.
   */
  spendSsoFlow(tokenHash: string): Promise<StoredSsoFlow | null>;
  /** The identity linked for exactly this (`issuer`, `subject`), or null. */
  identityBySubject(
    issuer: string,
    subject: string,
  ): Promise<StoredIdentity | null>;
  /** The identities linked to an account, oldest first. */
  listIdentities(userId: string): Promise<StoredIdentity[]>;
  /**
   * The account an SSO sign-in signs in to (DESIGN.md §13, "Linking
   * rules"): the account of the linked identity (its name and address at
   * the provider refreshed); else, unless `firstLinkRefusal`, the account
   * of the address (linked now), an account made from the pending
   * invitation of the address (spent now), or one made for the identity
   * (`create`). A disabled account is `sso_account_disabled` and links
   * nothing. Each is one commit, with its events.
   */
  resolveSsoAccount(request: SsoAccountRequest): Promise<SsoAccountOutcome>;
  /**
   * Unlinks the identity `id` of account `userId` and answers it;
   * `identity_not_found` when the account has no such identity,
   * `last_sign_in_method` when the account would be left with no password,
   * no passkey and no other identity; `session_absent` when
   * `options.actor` no longer stands. Decided on the reads its commit
   * checks: two racing unlinks cannot both pass.
   */
  unlinkIdentity(
    userId: string,
    id: string,
    options?: IdentityUnlinking,
  ): Promise<StoredIdentity>;
  /**
   * Ends the sessions a back-channel logout names: those made through the
   * provider with its `sid` (of the identity of `subject` too, when both
   * are given), or, without `sid`, every session the identity of `subject`
   * made through the provider. Answers what it ended, or null for a token
   * acted on already (its `jti`). Of deliveries of one token at once, the
   * one that ends an account's sessions records it; the others find them
   * gone.
   */
  endSsoSessions(logout: SsoLogoutRequest): Promise<SsoLogoutOutcome | null>;
  /** Deletes up to `limit` flows and logout tokens expired by `now`; how many. */
  deleteExpiredSsoRecords(now: number, limit: number): Promise<number>;
}
