// Bench-only Store wrappers: the real store with one kind of write taken
// away, so a scenario can compare a feature on and off in the same server
// build (bench/servers/ours.ts picks them with its `without` option). Each
// wrapper hands every other call to the real store unchanged: the "off"
// server does the same reads and the same writes but the ones named.
//
// Why not a Proxy: KvStore and PostgresStore keep private fields, which a
// method reached through a Proxy (`this` = the proxy) cannot read, and a
// `get` trap on every call would tax the "off" side of a comparison. The
// methods are bound once instead, so a call costs one extra function hop.

import type { AuditEvent, Store } from "../../server/core/store.ts";

/** The store writes a bench server can do without. */
export type StoreWrite =
  | "idle-writes"
  | "audit-trail"
  | "limiter-counts"
  | "account-lock-counts";

/** Wraps `store` so that it leaves out each write in `without`. */
export function storeWithout(
  store: Store,
  without: readonly StoreWrite[],
): Store {
  return without.reduce((wrapped, write) => WRAPPERS[write](wrapped), store);
}

const WRAPPERS: Record<StoreWrite, (store: Store) => Store> = {
  // `last_seen_at` is never written (the idle timeout's cost, off).
  "idle-writes": (store) =>
    delegating(store, { touchSession: () => Promise.resolve() }),
  "audit-trail": withoutAuditTrail,
  // Every attempt is admitted and nothing is counted: failed logins are
  // measured by the thousand, and the limiter would refuse past its
  // threshold (the middleware itself still runs).
  "limiter-counts": (store) =>
    delegating(store, {
      reserveAttempt: (_key, window) =>
        Promise.resolve({
          admitted: true,
          count: 0,
          resetAt: window.now + window.windowMs,
        }),
      releaseAttempt: () => Promise.resolve(),
    }),
  // The account lock's counters alone (DESIGN.md §15: their keys start
  // with `account_lock:`) are neither read nor written; the address
  // limiter's still are.
  "account-lock-counts": (store) =>
    delegating(store, {
      reserveAttempt: (key, window) =>
        key.startsWith(ACCOUNT_LOCK)
          ? Promise.resolve({
            admitted: true,
            count: 0,
            resetAt: window.now + window.windowMs,
          })
          : store.reserveAttempt(key, window),
      releaseAttempt: (key, resetAt) =>
        key.startsWith(ACCOUNT_LOCK)
          ? Promise.resolve()
          : store.releaseAttempt(key, resetAt),
      readCounter: (key, now) =>
        key.startsWith(ACCOUNT_LOCK)
          ? Promise.resolve(null)
          : store.readCounter(key, now),
    }),
};

const ACCOUNT_LOCK = "account_lock:";

// A store whose methods are the real store's, bound to it, except those in
// `overrides`.
function delegating(store: Store, overrides: Partial<Store>): Store {
  const out: Record<string, unknown> = {};
  for (const name of methodNames(store)) {
    const method = (store as unknown as Record<string, unknown>)[name];
    out[name] = (method as (...args: unknown[]) => unknown).bind(store);
  }
  return Object.assign(out, overrides) as unknown as Store;
}

function methodNames(object: object): string[] {
  const names = new Set<string>();
  for (
    let proto: object | null = object;
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (object as Record<string, unknown>)[name];
      if (name !== "constructor" && typeof value === "function") {
        names.add(name);
      }
    }
  }
  return [...names];
}

// The Store methods that take an argument object with `events` (a
// `WithEvents`, or `UserUpdate.events`), as the type checker finds them
// in server/store.ts and server/store_factors.ts.
type CarriesEvents<T> = T extends object
  ? "events" extends keyof T ? true : false
  : false;
type EventfulMethod = {
  [K in keyof Store]-?: NonNullable<Store[K]> extends
    (...args: infer A) => unknown
    ? true extends { [I in keyof A]: CarriesEvents<NonNullable<A[I]>> }[number]
      ? K
    : never
    : never;
}[keyof Store];

// Every such method, no more, no less: `deno check` fails when the Store
// gains or loses one, so the "off" side cannot silently keep writing
// events a new method carries.
const EVENTFUL: Record<EventfulMethod, true> = {
  createUser: true,
  updateUser: true,
  createSession: true,
  deleteSession: true,
  deleteSessionById: true,
  deleteOtherSessions: true,
  revokeUserSessions: true,
  renewAuthentication: true,
  changePassword: true,
  createLink: true,
  acceptInvitation: true,
  revokeInvitation: true,
  confirmReset: true,
  confirmTotp: true,
  disableTotp: true,
  replaceRecoveryCodes: true,
  useRecoveryCode: true,
  addPasskey: true,
  removePasskey: true,
  removeUserSecondFactor: true,
  resolveSsoAccount: true,
  unlinkIdentity: true,
  endSsoSessions: true,
};

// The audit trail, off: the `events` of every argument object are dropped
// (the change itself is written as usual) and refusals are not recorded.
function withoutAuditTrail(store: Store): Store {
  const overrides: Record<string, unknown> = {
    recordEvents: (_events: readonly AuditEvent[]) => Promise.resolve(),
  };
  for (const name of Object.keys(EVENTFUL)) {
    const method = (store as unknown as Record<string, unknown>)[name] as (
      ...args: unknown[]
    ) => unknown;
    overrides[name] = (...args: unknown[]) =>
      method.apply(store, args.map(withoutEvents));
  }
  return delegating(store, overrides as Partial<Store>);
}

function withoutEvents(arg: unknown): unknown {
  if (typeof arg !== "object" || arg === null || !("events" in arg)) {
    return arg;
  }
  const { events: _dropped, ...rest } = arg as Record<string, unknown>;
  return rest;
}
