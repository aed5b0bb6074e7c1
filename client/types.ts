/**
 * The shapes the client hands to your code. They are the server's JSON
 * (DESIGN.md §4) with camelCase names: `created_at` is `createdAt`,
 * `next_cursor` is `nextCursor`, `activation_link` is `activationLink`. The
 * REST transport converts at the boundary, in both directions; a replacement
 * transport answers in these shapes too.
 *
 * @module
 */

// Type only: erased from bundles, like every import of the contract here.
import type { UserSort } from "@gatehouse/contract";

export type { UserSort };

/**
 * The signed-in account, as login, the session check and an accepted
 * invitation answer it. `capabilities` and `grantable` are present only when
 * the server has a role registry (and are then lists, possibly empty).
 *
 * @example A signed-in administrator
 * ```ts
 * import type { SessionUser } from "@gatehouse/client";
 *
 * const ada: SessionUser = {
 *   id: "0190f0a0-0000-7000-8000-000000000001",
 *   email: "ada@example.com",
 *   name: "Ada",
 *   role: "admin",
 *   capabilities: ["users.manage"],
 *   grantable: ["admin", "member"],
 * };
 * ```
 */
export interface SessionUser {
  /** Account id, a UUID. */
  readonly id: string;
  /** The account email. */
  readonly email: string;
  /** The account name. */
  readonly name: string;
  /** The role; empty when the account has none. */
  readonly role: string;
  /** Capabilities of the role, when the server has a registry. */
  readonly capabilities?: readonly string[];
  /** Roles this account may hand out, when the registry answers it. */
  readonly grantable?: readonly string[];
  /**
   * The account's second factors (wire: `second_factor`), when the server
   * has them (DESIGN.md §9): only in the caller's own identity.
   */
  readonly secondFactor?: SecondFactorState;
  /**
   * True when the account's role needs a second factor it has not enrolled
   * yet (wire: `second_factor_required`): until it does, only enrolment works.
   */
  readonly secondFactorRequired?: boolean;
  /**
   * Whether the account has a password (wire: `has_password`): false for
   * one made by single sign-on until a reset link gives it one; absent
   * from a server older than it (then take it as true).
   */
  readonly hasPassword?: boolean;
  /**
   * The language of the account's mail (`en`, `es`…), "" while none is
   * known; absent from a server older than it.
   */
  readonly locale?: string;
}

/**
 * The second factors of the signed-in account.
 *
 * @example An account with an authenticator app and one passkey
 * ```ts
 * import type { SecondFactorState } from "@gatehouse/client";
 *
 * const state: SecondFactorState = { totp: true, passkeys: 1 };
 * ```
 */
export interface SecondFactorState {
  /** Whether an authenticator app (TOTP) is enabled. */
  readonly totp: boolean;
  /** How many passkeys the account has. */
  readonly passkeys: number;
}

/**
 * An account as the administration calls list and answer it.
 *
 * @example An account from a list
 * ```ts
 * import type { User } from "@gatehouse/client/admin";
 *
 * const grace: User = {
 *   id: "0190f0a0-0000-7000-8000-000000000002",
 *   email: "grace@example.com",
 *   name: "Grace",
 *   role: "member",
 *   disabled: false,
 *   createdAt: "2026-01-02T03:04:05.000Z",
 * };
 * ```
 */
export interface User {
  /** Account id, a UUID. */
  readonly id: string;
  /** The account email. */
  readonly email: string;
  /** The account name. */
  readonly name: string;
  /** The role; empty when the account has none. */
  readonly role: string;
  /** A disabled account cannot sign in. */
  readonly disabled: boolean;
  /** Creation time as an ISO 8601 string (wire: `created_at`). */
  readonly createdAt: string;
  /**
   * The account's second factors (wire: `second_factor`), in the list of
   * accounts when the server tells them: what an administrator could remove.
   */
  readonly secondFactor?: SecondFactorState;
  /**
   * Until when sign-ins to the account from browsers without a
   * trusted-device cookie are refused after failed attempts, as an ISO
   * 8601 string (wire: `locked_until`); null when they are not, absent
   * from servers that do not tell.
   */
  readonly lockedUntil?: string | null;
}

/**
 * One page of accounts, oldest first.
 *
 * @example Reading the next page
 * ```ts
 * import { listUsers, type UserPage } from "@gatehouse/client/admin";
 *
 * async function nextPage(page: UserPage): Promise<UserPage | null> {
 *   return page.nextCursor === null
 *     ? null
 *     : await listUsers({ cursor: page.nextCursor });
 * }
 * ```
 */
export interface UserPage {
  /** The accounts of this page, in the order asked for. */
  readonly users: readonly User[];
  /** Pass as `cursor` for the next page; null on the last one (wire: `next_cursor`). */
  readonly nextCursor: string | null;
  /**
   * How many accounts match over every page; absent when the server does
   * not count (older servers, which also ignore `sort`).
   */
  readonly total?: number;
}

/**
 * Which accounts {@linkcode listUsers} asks for. Every field is optional.
 *
 * @example Searching
 * ```ts
 * import type { UserQuery } from "@gatehouse/client/admin";
 *
 * const query: UserQuery = { q: "ada", limit: 20, sort: "name" };
 * ```
 */
export interface UserQuery {
  /** At most this many accounts (the server caps it). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
  /** Case-insensitive part of an email or name. */
  readonly q?: string;
  /**
   * The order: `created` (the default), `name` or `email`, a leading `-`
   * for descending. Servers that do not count (no `total`) ignore it.
   */
  readonly sort?: UserSort;
}

/**
 * A new account for {@linkcode createUser}.
 *
 * @example An account with a role
 * ```ts
 * import type { NewUser } from "@gatehouse/client/admin";
 *
 * const input: NewUser = {
 *   email: "grace@example.com",
 *   name: "Grace",
 *   password: "a long enough password",
 *   role: "member",
 * };
 * ```
 */
export interface NewUser {
  /** The email; must not be in use. */
  readonly email: string;
  /** The display name. */
  readonly name: string;
  /** The initial password. */
  readonly password: string;
  /** The role; omitted or empty for none. */
  readonly role?: string;
}

/**
 * A person to invite with {@linkcode invite}: no password, they choose it.
 *
 * @example An invitation
 * ```ts
 * import type { NewInvitation } from "@gatehouse/client/admin";
 *
 * const invitation: NewInvitation = { email: "ada@example.com", name: "Ada", role: "member" };
 * ```
 */
export interface NewInvitation {
  /** Where the activation link goes. */
  readonly email: string;
  /** The display name of the account to be. */
  readonly name: string;
  /** The role the account gets; omitted or empty for none. */
  readonly role?: string;
}

/**
 * An invitation not yet accepted, as {@linkcode listInvitations} answers it
 * (wire: `invited_by`, `created_at`, `expires_at`). `role` is empty for none;
 * `invitedBy` is null when no account sent it (the first-run link).
 *
 * @example Showing who sent an invitation
 * ```ts
 * import type { PendingInvitation } from "@gatehouse/client/admin";
 *
 * const sender = (invitation: PendingInvitation): string =>
 *   invitation.invitedBy?.name ?? "the first run";
 * ```
 */
export interface PendingInvitation {
  /** The invitation's own id (never its token), a UUID. */
  readonly id: string;
  /** Who is invited. */
  readonly email: string;
  /** Their display name to be. */
  readonly name: string;
  /** The role they get; empty for none. */
  readonly role: string;
  /** Who sent it, or null. */
  readonly invitedBy: {
    readonly id: string;
    readonly email: string;
    readonly name: string;
  } | null;
  /** When it was sent, ISO 8601. */
  readonly createdAt: string;
  /** When its link dies, ISO 8601. */
  readonly expiresAt: string;
}

/**
 * What {@linkcode invite} answers: the server mailed the link, or (with no
 * mail set up) it hands the link back for the administrator to pass on. The
 * shape is the same whether the address already had an account or not.
 *
 * @example Showing the link when it was not mailed
 * ```ts
 * import type { InviteResult } from "@gatehouse/client/admin";
 *
 * function linkToShow(result: InviteResult): string | null {
 *   return result.delivered ? null : result.activationLink;
 * }
 * ```
 */
export type InviteResult =
  | { readonly delivered: true }
  | { readonly delivered: false; readonly activationLink: string };

/**
 * Options of {@linkcode setUserDisabled}.
 *
 * @example Disabling the account as it was shown
 * ```ts
 * import { setUserDisabled, type User } from "@gatehouse/client/admin";
 *
 * async function disable(user: User): Promise<User> {
 *   return await setUserDisabled(user.id, true, { seenRole: user.role });
 * }
 * ```
 */
export interface SetUserDisabledOptions {
  /**
   * The role the account had when it was shown (wire: `role`). When set, the
   * server refuses with `role_changed` ({@linkcode RoleChangedError}) if the
   * role changed since.
   */
  readonly seenRole?: string;
}

/**
 * Options of {@linkcode fetchSession}.
 *
 * @example Telling "signed out" from "could not ask"
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 *
 * let failure: unknown = null;
 * const user = await fetchSession({ onFailure: (error) => (failure = error) });
 * const state = user !== null ? "signed in" : failure === null ? "signed out" : "unknown";
 * ```
 */
export interface FetchSessionOptions {
  /**
   * Called with the error when the session could not be read (network down,
   * server error). `fetchSession` still resolves to null: it never throws.
   */
  readonly onFailure?: (error: unknown) => void;
}
