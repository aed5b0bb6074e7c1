// storeConformance: registers every case of the suite (one private module
// per area beside it) with Deno.test. The public entry is mod.ts.

import type { Store } from "../../core/store.ts";
import { ACCOUNT_CASES } from "./_accounts.ts";
import { AUDIT_CASES } from "./_audit.ts";
import { SESSION_CASES } from "./_sessions.ts";
import { AUTHORITY_CASES } from "./_authority.ts";
import { COUNTER_CASES } from "./_counters.ts";
import { TOTP_CASES } from "./_factors.ts";
import { PASSKEY_CASES } from "./_passkeys.ts";
import { PENDING_CASES } from "./_pending.ts";
import { INVITATION_CASES } from "./_invitations.ts";
import { RECORD_CASES } from "./_records.ts";

/** A store opened for one test case, and how to release it. */
export interface StoreUnderTest {
  /** A fresh, empty store; the suite calls `migrate()` itself. */
  store: Store;
  /** Releases everything the store holds (connections, files, schemas). */
  close(): void | Promise<void>;
}

/** Opens a fresh, empty store for one test case. */
export type OpenStore = () => StoreUnderTest | Promise<StoreUnderTest>;

/** Options of {@linkcode storeConformance}. */
export interface StoreConformanceOptions {
  /** Registers every case as ignored, e.g. when the database is unreachable. */
  ignore?: boolean;
  /** Deno's op sanitizer for every case; on by default. */
  sanitizeOps?: boolean;
  /** Deno's resource sanitizer for every case; on by default. */
  sanitizeResources?: boolean;
}

/**
 * Registers the store conformance cases with `Deno.test`, one test per rule
 * of the `Store` contract: accounts and their rules (`email_taken` by folded
 * email, `role_changed`, `role_beyond_reach`, `last_privileged_refused`),
 * session revocation, sessions bound to the verified credential and capped
 * per account, single-use links and their authority (reset links and
 * generations, invitations and their inviter, the first-run link), pending
 * invitations and their revocation, limiter reservations, bounded expiry
 * sweeps, concurrent writers, and second factors (TOTP steps and recovery
 * codes spent once, pending sign-ins and WebAuthn challenges, passkeys and
 * their cap and counters, the factor version). Each case opens its own store and closes
 * it after.
 *
 * @param name Prefix of every test name, e.g. `"PostgresStore"`.
 * @param open Opens a fresh, empty store for one case.
 * @param options Ignore the cases, or relax Deno's sanitizers.
 *
 * @example Ignoring the cases when the backend is missing
 * ```ts
 * import { storeConformance } from "@gatehouse/server/conformance";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * // The report then lists the cases as ignored instead of failing them.
 * const available = typeof Deno.openKv === "function";
 * storeConformance(
 *   "KvStore on a file",
 *   async () => {
 *     const path = await Deno.makeTempFile();
 *     const kv = await Deno.openKv(path);
 *     return {
 *       store: new KvStore(kv),
 *       close: async () => {
 *         kv.close();
 *         await Deno.remove(path);
 *       },
 *     };
 *   },
 *   { ignore: !available },
 * );
 *
 * Deno.test("the backend is available here", () => {
 *   console.assert(available);
 * });
 * ```
 */
export function storeConformance(
  name: string,
  open: OpenStore,
  options: StoreConformanceOptions = {},
): void {
  const cases = [
    ...ACCOUNT_CASES,
    ...RECORD_CASES,
    ...AUTHORITY_CASES,
    ...INVITATION_CASES,
    ...COUNTER_CASES,
    ...SESSION_CASES,
    ...AUDIT_CASES,
    ...TOTP_CASES,
    ...PENDING_CASES,
    ...PASSKEY_CASES,
  ];
  for (const [title, check] of cases) {
    Deno.test({
      name: `${name}: ${title}`,
      ignore: options.ignore ?? false,
      sanitizeOps: options.sanitizeOps ?? true,
      sanitizeResources: options.sanitizeResources ?? true,
      async fn() {
        const opened = await open();
        try {
          await opened.store.migrate();
          await check(opened.store);
        } finally {
          await opened.close();
        }
      },
    });
  }
}
