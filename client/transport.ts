/**
 * The transport: the operations through which the client talks to a
 * server, named as the contract names them (one name from the server's
 * handler to the client's call). REST (`rest.ts`) answers all of them by
 * default;
 * {@linkcode configureAuthTransport} replaces any subset, once at startup,
 * and {@linkcode resetAuthTransport} restores REST. The setting is one per
 * copy of the package (keep one copy: see the README), not per component
 * tree.
 *
 * @module
 */

import type { LinkState } from "@gatehouse/contract";
import { restTransport } from "./rest.ts";
import type {
  FetchSessionOptions,
  InviteResult,
  NewInvitation,
  NewUser,
  PendingInvitation,
  SessionUser,
  SetUserDisabledOptions,
  User,
  UserPage,
  UserQuery,
} from "./types.ts";
import type {
  AccountSession,
  ActivityQuery,
  AuditEventPage,
  AuditQuery,
  Passkey,
  PasskeyOptions,
  PasswordChange,
  Proof,
  SecondFactorChallenge,
  SecondFactorProof,
  TotpSetup,
} from "./security_types.ts";

/**
 * The two kinds of single-use link: an invitation's and a password reset's.
 *
 * @example The kind of the page `/invite#token=…`
 * ```ts
 * import type { LinkKind } from "@gatehouse/client";
 *
 * const kind: LinkKind = "invitation";
 * ```
 */
export type LinkKind = "invitation" | "reset";

/**
 * The operations: one per operation of the HTTP contract (SPEC.md's twelve
 * and those added since), plus `isSessionRevoked`. A replacement must keep
 * the rules of each one (SPEC.md's "Must do" column), written below, and
 * throw the client's error classes.
 *
 * @example A transport that serves the session from memory
 * ```ts
 * import { type AuthTransport, configureAuthTransport } from "@gatehouse/client";
 *
 * const fromMemory: Partial<AuthTransport> = {
 *   fetchSession: () => Promise.resolve(null),
 * };
 * configureAuthTransport(fromMemory);
 * ```
 */
export interface AuthTransport {
  /** The signed-in account, or null when signed out. Never throws: other failures go to `onFailure`. */
  fetchSession(options?: FetchSessionOptions): Promise<SessionUser | null>;
  /**
   * Signs in. Answers the account, or a SecondFactorChallenge when the
   * account has a second factor (then `verifySecondFactor` finishes). Throws
   * InvalidCredentialsError, or RateLimitedError when the limiter refuses.
   */
  login(
    email: string,
    password: string,
  ): Promise<SessionUser | SecondFactorChallenge>;
  /** Signs out; signing out twice is not an error. */
  logout(): Promise<void>;
  /** True when `error` means the session is gone (REST: an UnauthorizedError). */
  isSessionRevoked(error: unknown): boolean;
  /** A page of accounts. Throws UnauthorizedError when the session is gone. */
  listUsers(query?: UserQuery): Promise<UserPage>;
  /** Creates an account. Throws UnauthorizedError, EmailTakenError, ValidationError and the role errors. */
  createUser(user: NewUser): Promise<User>;
  /** Disables or enables an account. Throws UnauthorizedError, RoleChangedError and the role errors. */
  setUserDisabled(
    id: string,
    disabled: boolean,
    options?: SetUserDisabledOptions,
  ): Promise<User>;
  /** Changes an account's role (`PUT /api/users/{id}/role`). Throws the role errors. */
  setUserRole(id: string, role: string): Promise<User>;
  /** Invites a person. Same answer for taken and fresh addresses; never EmailTakenError. */
  invite(invitation: NewInvitation): Promise<InviteResult>;
  /** The pending invitations, newest first. Throws UnauthorizedError and ForbiddenError. */
  listInvitations(): Promise<PendingInvitation[]>;
  /** Revokes a pending invitation. Throws InvitationNotFoundError and RoleBeyondReachError. */
  revokeInvitation(id: string): Promise<void>;
  /** Spends an invitation link, sets the password, signs in. Throws InvalidTokenError. */
  acceptInvite(token: string, password: string): Promise<SessionUser>;
  /** Asks for a reset link; answers nothing about the address. Throws RateLimitedError. */
  requestPasswordReset(email: string): Promise<void>;
  /** Spends a reset link. Throws InvalidTokenError, or ValidationError for a refused password. */
  resetPassword(token: string, password: string): Promise<void>;
  /** Whether a link still works, spending nothing: `ready`, or `account_exists` for an invitation to a taken address. Throws InvalidTokenError for a dead link. */
  checkLink(token: string, kind: LinkKind): Promise<LinkState>;
  /** Changes one's own password; every session ends and this one is renewed. Throws PasswordIncorrectError, ValidationError. */
  changePassword(change: PasswordChange): Promise<void>;
  /** Renews the session's proof of identity. Throws PasswordIncorrectError, CodeInvalidError, PasskeyInvalidError, TotpNotEnabledError. */
  reauthenticate(proof: Proof): Promise<void>;
  /** The caller's live sessions, newest first. */
  listSessions(): Promise<AccountSession[]>;
  /** Ends one of the caller's sessions. Throws SessionNotFoundError. */
  revokeSession(id: string): Promise<void>;
  /** Ends every session of the caller but this one. */
  revokeOtherSessions(): Promise<void>;
  /** Ends every session of another account. Throws UserNotFoundError, RoleBeyondReachError, ReauthenticationRequiredError. */
  revokeUserSessions(id: string): Promise<void>;
  /** Starts enrolling an authenticator app. Throws SecondFactorEnabledError, ReauthenticationRequiredError. */
  setupTotp(): Promise<TotpSetup>;
  /** Finishes the enrolment with a code; answers the ten recovery codes, once. Throws CodeInvalidError, SecondFactorEnabledError. */
  confirmTotp(code: string): Promise<string[]>;
  /** Removes the authenticator app and its recovery codes. Throws ReauthenticationRequiredError. */
  disableTotp(): Promise<void>;
  /** New recovery codes; the old ones die. Throws TotpNotEnabledError, ReauthenticationRequiredError. */
  regenerateRecoveryCodes(): Promise<string[]>;
  /** How many recovery codes are left unused; 0 when no app is enabled. */
  countRecoveryCodes(): Promise<number>;
  /** Finishes a sign-in that waits for its second factor. Throws InvalidCredentialsError (wrong code), InvalidTokenError (start again). */
  verifySecondFactor(proof: SecondFactorProof): Promise<SessionUser>;
  /** Removes every second factor of another account. Throws UserNotFoundError, RoleBeyondReachError, ReauthenticationRequiredError. */
  removeUserSecondFactor(id: string): Promise<void>;
  /** WebAuthn creation options for a new passkey. Throws ReauthenticationRequiredError. */
  passkeyRegistrationOptions(): Promise<PasskeyOptions>;
  /** Registers a passkey from the authenticator's answer. Throws PasskeyInvalidError, ValidationError. */
  registerPasskey(
    response: Readonly<Record<string, unknown>>,
    name?: string,
  ): Promise<Passkey>;
  /** The caller's passkeys. */
  listPasskeys(): Promise<Passkey[]>;
  /** Renames a passkey. Throws PasskeyNotFoundError, ValidationError. */
  renamePasskey(id: string, name: string): Promise<Passkey>;
  /** Removes a passkey. Throws PasskeyNotFoundError, ReauthenticationRequiredError. */
  removePasskey(id: string): Promise<void>;
  /** WebAuthn request options: to sign in, to finish a pending sign-in, or to re-authenticate. Throws RateLimitedError. */
  passkeyLoginOptions(): Promise<PasskeyOptions>;
  /** Signs in with a passkey, no password. Throws InvalidCredentialsError, InvalidTokenError. */
  loginWithPasskey(
    response: Readonly<Record<string, unknown>>,
  ): Promise<SessionUser>;
  /** A page of the audit log, newest first. Throws ForbiddenError. */
  listAuditEvents(query?: AuditQuery): Promise<AuditEventPage>;
  /** A page of the caller's own events, newest first. */
  listActivity(query?: ActivityQuery): Promise<AuditEventPage>;
}

/**
 * Earlier names of operations, still accepted by
 * {@linkcode configureAuthTransport}.
 *
 * @example Replacing the account list under its earlier name
 * ```ts
 * import { configureAuthTransport, type DeprecatedTransportNames, resetAuthTransport } from "@gatehouse/client";
 *
 * const old: DeprecatedTransportNames = {
 *   fetchUsers: () => Promise.resolve({ users: [], nextCursor: null }),
 * };
 * configureAuthTransport(old);
 * resetAuthTransport();
 * ```
 */
export interface DeprecatedTransportNames {
  /** @deprecated Use `listUsers`: the same operation. */
  readonly fetchUsers?: AuthTransport["listUsers"];
}

const ALIASES: Readonly<Record<string, keyof AuthTransport>> = {
  fetchUsers: "listUsers",
};

const REST: AuthTransport = restTransport();
// The operations are the REST transport's: one per operation of the
// contract, plus isSessionRevoked.
const OPERATIONS: ReadonlySet<string> = new Set(Object.keys(REST));

let current: AuthTransport = REST;

/**
 * Replaces some operations; the others stay as they are. Calls add up: a
 * second call keeps what the first replaced unless it replaces it again.
 * Call it once at startup, before rendering.
 *
 * @param operations The operations to replace.
 * @throws {TypeError} For a name that is not an operation, or a value that is not a function.
 *
 * @example Sessions from elsewhere, everything else on REST
 * ```ts
 * import { configureAuthTransport, resetAuthTransport } from "@gatehouse/client";
 *
 * configureAuthTransport({ logout: () => Promise.resolve() });
 * configureAuthTransport({ fetchSession: () => Promise.resolve(null) });
 * // Both replacements hold now; the other operations use REST.
 * resetAuthTransport();
 * ```
 */
export function configureAuthTransport(
  operations: Partial<AuthTransport> & DeprecatedTransportNames,
): void {
  const next: Record<string, unknown> = { ...current };
  for (const [given, value] of Object.entries(operations)) {
    const name = ALIASES[given] ?? given;
    if (!OPERATIONS.has(name)) {
      throw new TypeError(`Unknown transport operation: "${name}"`);
    }
    if (value === undefined) continue;
    if (typeof value !== "function") {
      throw new TypeError(
        `Invalid transport operation "${name}": expected a function`,
      );
    }
    next[name] = value;
  }
  current = next as unknown as AuthTransport;
}

/**
 * Restores REST for every operation (for tests).
 *
 * @example Between tests
 * ```ts
 * import { configureAuthTransport, resetAuthTransport } from "@gatehouse/client";
 *
 * configureAuthTransport({ fetchSession: () => Promise.resolve(null) });
 * resetAuthTransport();
 * ```
 */
export function resetAuthTransport(): void {
  current = REST;
}

/** The operations in force now. Internal: the public calls go through it. */
export function activeTransport(): AuthTransport {
  return current;
}
