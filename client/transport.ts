/**
 * The transport: the twelve operations through which the client talks to a
 * server. REST (`rest.ts`) answers all of them by default;
 * {@linkcode configureAuthTransport} replaces any subset, once at startup,
 * and {@linkcode resetAuthTransport} restores REST. The setting is one per
 * copy of the package (keep one copy: see the README), not per component
 * tree.
 *
 * @module
 */

import { restTransport } from "./rest.ts";
import type {
  FetchSessionOptions,
  Invitation,
  InviteResult,
  NewUser,
  SessionUser,
  SetUserDisabledOptions,
  User,
  UserPage,
  UserQuery,
} from "./types.ts";

/**
 * The twelve operations. A replacement must keep the rules of each one
 * (SPEC.md's "Must do" column), written below, and throw the client's error
 * classes.
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
  /** Signs in. Throws InvalidCredentialsError, or RateLimitedError when the limiter refuses. */
  login(email: string, password: string): Promise<SessionUser>;
  /** Signs out; signing out twice is not an error. */
  logout(): Promise<void>;
  /** True when `error` means the session is gone (REST: an UnauthorizedError). */
  isSessionRevoked(error: unknown): boolean;
  /** A page of accounts. Throws UnauthorizedError when the session is gone. */
  fetchUsers(query?: UserQuery): Promise<UserPage>;
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
  invite(invitation: Invitation): Promise<InviteResult>;
  /** Spends an invitation link, sets the password, signs in. Throws InvalidTokenError. */
  acceptInvite(token: string, password: string): Promise<SessionUser>;
  /** Asks for a reset link; answers nothing about the address. Throws RateLimitedError. */
  requestPasswordReset(email: string): Promise<void>;
  /** Spends a reset link. Throws InvalidTokenError, or ValidationError for a refused password. */
  resetPassword(token: string, password: string): Promise<void>;
}

/** The names of the twelve operations, in SPEC.md's order. */
const OPERATIONS: ReadonlySet<string> = new Set<keyof AuthTransport>([
  "fetchSession",
  "login",
  "logout",
  "isSessionRevoked",
  "fetchUsers",
  "createUser",
  "setUserDisabled",
  "setUserRole",
  "invite",
  "acceptInvite",
  "requestPasswordReset",
  "resetPassword",
]);

const REST: AuthTransport = restTransport();
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
 * // Both replacements hold now; the other ten operations use REST.
 * resetAuthTransport();
 * ```
 */
export function configureAuthTransport(
  operations: Partial<AuthTransport>,
): void {
  const next: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(operations)) {
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
