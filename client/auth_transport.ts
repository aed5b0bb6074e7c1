/**
 * The transport's interface: what any transport (the REST one, a test's, an
 * application's) answers, one operation per operation of the contract: the
 * names come from the contract's `OPERATIONS`, the answers are the client's
 * camelCase types. Apart from `transport.ts`, which holds the configured
 * one, so that the REST transport can name the interface without importing
 * its holder.
 *
 * @module
 */

import type { LinkState } from "@gatehouse/contract";
import type { OperationName } from "@gatehouse/contract/operations";
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
  AccountUpdate,
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
import type { SsoIdentity, SsoProvider, SsoStartOptions } from "./sso_types.ts";

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
 * The operations of the contract that no call of the client makes: the
 * OpenAPI document (`describeApi`), and the two single sign-on routes only
 * a provider reaches (DESIGN.md §13): its redirect back to the site
 * (`ssoCallback`, a navigation the provider sends the browser on) and its
 * server's back-channel logout (`ssoBackchannelLogout`).
 *
 * @internal
 */
export type NotClientOperation =
  | "describeApi"
  | "ssoCallback"
  | "ssoBackchannelLogout";

/**
 * The names of {@linkcode NotClientOperation}, for code that lists the
 * transport's operations.
 *
 * @internal
 */
export const NOT_CLIENT_OPERATIONS: ReadonlySet<string> = new Set<
  NotClientOperation
>(["describeApi", "ssoCallback", "ssoBackchannelLogout"]);

/**
 * The operations of the contract a transport carries: every one but those
 * no call of the client makes ({@linkcode NotClientOperation}).
 *
 * @internal
 */
export type TransportOperation = Exclude<OperationName, NotClientOperation>;

/**
 * One asynchronous call per operation of the contract: what
 * {@linkcode AuthTransport} extends, so that an operation the contract adds
 * is a member every transport must have (the REST one fails to compile
 * until it answers it).
 *
 * @internal
 */
export type TransportTable = {
  [Name in TransportOperation]: (...args: never[]) => Promise<unknown>;
};

/**
 * The operations: one per operation of the HTTP contract (SPEC.md's twelve
 * and those added since; their names are the contract's, see
 * {@linkcode TransportTable}), plus `isSessionRevoked`. A replacement must keep
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
export interface AuthTransport extends TransportTable {
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
  /** Changes one's own name or the language of one's mail; answers the account. Throws ValidationError (`name_required`, `locale_unknown`…). */
  updateAccount(update: AccountUpdate): Promise<SessionUser>;
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
  /** Clears the account lock of another account (failed sign-ins counted against its address). Throws UserNotFoundError, RoleBeyondReachError, ReauthenticationRequiredError. */
  unlockUser(id: string): Promise<void>;
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
  /** The single sign-on providers, in the order the login screen shows them; none when the server has none. */
  listSsoProviders(): Promise<SsoProvider[]>;
  /**
   * Leaves the page for the provider's sign-in: a browser navigation (not a
   * fetch) to `GET /api/auth/sso/{id}/start`, which comes back to
   * `returnTo` signed in (or re-authenticated), or to `/?sso_error=CODE`.
   * Resolves once the navigation is asked for.
   */
  startSso(provider: string, options?: SsoStartOptions): Promise<void>;
  /** The identities at providers linked to the signed-in account. */
  listSsoIdentities(): Promise<SsoIdentity[]>;
  /** Unlinks one of them. Throws IdentityNotFoundError, LastSignInMethodError, ReauthenticationRequiredError. */
  unlinkSsoIdentity(id: string): Promise<void>;
  /** A page of the audit log, newest first. Throws ForbiddenError. */
  listAuditEvents(query?: AuditQuery): Promise<AuditEventPage>;
  /** A page of the caller's own events, newest first. */
  listActivity(query?: ActivityQuery): Promise<AuditEventPage>;
}

// Every member is an operation of the contract or `isSessionRevoked`: a
// member the contract does not name fails to compile here.
const _onlyContractOperations: [
  Exclude<keyof AuthTransport, TransportOperation | "isSessionRevoked">,
] extends [never] ? true : false = true;
