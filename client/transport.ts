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

import { OPERATION_NAMES } from "@gatehouse/contract/operations";
import {
  type AuthTransport,
  type LinkKind,
  NOT_CLIENT_OPERATIONS,
  type TransportOperation,
} from "./auth_transport.ts";
import { restTransport } from "./rest.ts";

export type { AuthTransport, LinkKind };

/**
 * Earlier names of operations, still accepted by
 * {@linkcode configureAuthTransport}.
 *
 * @example Replacing the account list under its earlier name
 * ```ts
 * import { configureAuthTransport, resetAuthTransport } from "@gatehouse/client";
 * import type { DeprecatedTransportNames } from "@gatehouse/client/admin";
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
// The replaceable names: the contract's operations (as `TransportOperation`
// has them), plus isSessionRevoked.
const OPERATIONS: ReadonlySet<keyof AuthTransport> = new Set([
  ...OPERATION_NAMES.filter((name): name is TransportOperation =>
    !NOT_CLIENT_OPERATIONS.has(name)
  ),
  "isSessionRevoked",
]);

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
    if (!OPERATIONS.has(name as keyof AuthTransport)) {
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
