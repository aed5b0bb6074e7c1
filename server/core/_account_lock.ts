// The account lock (DESIGN.md §15, issue 30): failed proofs counted per
// address key, whoever guesses and from wherever. The login limiter counts
// per client address; a botnet spreads its guesses over thousands of them,
// so this count is kept per folded address instead (for an address with an
// account and one without alike: the answers tell nothing).
//
// What counts: a wrong password at sign-in, a wrong second-factor code or
// recovery code (at sign-in or re-authentication), a wrong current password
// (password change, re-authentication). Each browser is counted in one of
// two scopes: a browser presenting a valid trusted-device cookie for the
// address (_device_cookie.ts) on its own, every other browser together.
// Past `accountLockThreshold` failures of a scope within
// `accountLockWindow`, that scope answers 429 `login_rate_limited` (with
// `Retry-After` and `meta.scope: "account"`) before any argon2 work or code
// evaluation, until its window ends: the owner's trusted browser is not
// locked out by the attack. Besides, every failure counts toward the
// consecutive failures of the address (NIST SP 800-63B): past
// CONSECUTIVE_FAILURE_LIMIT since the last completed sign-in or password
// reset, every browser gets 429 (`meta.until: "reset"`) until a password
// reset or an administrator clears it.
//
// Exact like the address limiter: each proof reserves its scope's attempt
// in the store before the work (an atomic increment that refuses at the
// limit), a failure keeps it, anything else gives it back; so a burst of
// any size, on any number of instances sharing the store, evaluates at most
// the threshold per scope and window. The consecutive failures are read in
// the same round trip and counted once a failure is known (the scopes'
// gates already bound what can be in flight). An instance remembers the
// keys each scope had last (and guesses, for a scope it has not seen, the
// keys of an address never cleared), so an attempt reserves beside the
// read of the values that name them, in the account read's round trip,
// and reserves again only when they moved. Only the store's counters are
// used (reserveAttempt / releaseAttempt / readCounter), keyed by strings:
//
//   account_lock:<h>:cleared                moved by a reset or an unlock
//   account_lock:<h>:signed                 moved by a completed sign-in
//                                           that ends a run of failures
//   account_lock:<h>:<scope>:signed         moved by a completed sign-in of
//                                           the scope after failures
//   account_lock:<h>:<c>:<scope>:<o>        the scope's count
//   account_lock:<h>:<c>:<scope>:<o>:failed:<e>
//                                           its failures in the window
//                                           ending at <e>
//   account_lock:<h>:<c>:<s>:total          the consecutive failures
//
// where <h> is the SHA-256 of the address key (no address in a key),
// <scope> is `browsers` (without a device cookie) or `device:<id>`, and
// <c>, <o>, <s> name the current value of `cleared`, the scope's `signed`
// and `signed` (count and window end, so a value never repeats). So
// clearing a count is one write whatever it holds: a new <c> leaves every
// scope of the old one behind, the devices' too (which no one could list).
//
// The first refusal of a window for browsers without a device cookie
// records one `login.locked` (across instances: a marker counter admits
// one report per window), and hands an existing account to `onLocked`: the
// one place the `account_locked` notice (§14) is sent from. A device's own
// lock records nothing.

import type { AuditTrail } from "./_audit.ts";
import { inBackground } from "../http/_background.ts";
import type { ClientMeta } from "../http/_client_meta.ts";
import { readCookie } from "../http/cookie.ts";
import { hashToken } from "./_crypto.ts";
import { DEVICE_COOKIE, type DeviceKeys } from "./_device_cookie.ts";
import { recordableAddress } from "./_input.ts";
import type { Limits } from "../http/limits.ts";
import type { Logger } from "../http/logger.ts";
import { retryLater } from "../http/respond.ts";
import type { Counter, Store, UserRecord } from "./store.ts";

/**
 * Consecutive failures of an address, whatever the browsers and windows,
 * past which every browser is refused until a reset or an unlock (NIST SP
 * 800-63B §5.2.2 caps them at 100); `accountLockThreshold` when that is
 * higher.
 */
export const CONSECUTIVE_FAILURE_LIMIT = 100;

// How long the consecutive count (and the values naming the current
// counts) live without a write: a year without a completed sign-in or a
// reset starts the count again.
const YEAR = 365 * 24 * 60 * 60 * 1000;
// `cleared` and `signed` only ever grow within their year.
const UNBOUNDED = 2 ** 31 - 1;
// Windows this instance already reported (so that a flood of refusals asks
// the store once per scope and window), and scopes whose keys it last
// used; past this many the memory starts over (the store decides anyway).
const MAX_REMEMBERED = 1024;
// How long a report waits for attempts another instance has in flight
// (each one argon2 verification or a code check), ms, and how often it
// looks meanwhile. Past it, no report: the next refusal looks again.
const SETTLE_MS = 10_000;
const SETTLE_PAUSE = 25;

// The counter of the failures of a scope's window ending at `resetAt`.
const failuresOf = (key: string, resetAt: number) => `${key}:failed:${resetAt}`;

/**
 * Told of each `login.locked` recorded for an address that has an account
 * (once per lock, across instances), after its event was written: where the
 * `account_locked` notice to the owner (DESIGN.md §14) is sent from. Must
 * not throw; a rejection is logged.
 */
export type OnAccountLocked = (
  account: UserRecord,
  lockedUntil: number,
) => void | Promise<void>;

/** What the lock needs (the context has each). */
export interface AccountLockContext {
  store: Store;
  limits: Limits;
  logger: Logger;
  now: () => number;
  trail: AuditTrail;
  /** Signs and checks the trusted-device cookie. */
  devices: DeviceKeys;
  /** See {@linkcode OnAccountLocked}; none by default. */
  onLocked?: OnAccountLocked | undefined;
}

/** Whom a proof is counted for: an address key, and the browser's device. */
export interface LockScope {
  /** The folded address. */
  readonly emailKey: string;
  /** The trusted device the browser proved it is for this address, or null. */
  readonly device: string | null;
}

/**
 * One reserved attempt, to settle once the proof is judged: exactly one of
 * its methods is called, once.
 */
export interface LockTicket {
  /**
   * A failure: the attempt stays counted, and it counts toward the
   * consecutive failures of the address.
   */
  failed(): Promise<void>;
  /**
   * Not a failure (a right password at the first of two steps or at a
   * re-authentication, or an error that judged nothing): the attempt goes
   * back.
   */
  giveBack(): Promise<void>;
  /**
   * A completed sign-in: the attempt goes back, with its scope's count
   * and the consecutive failures of the address.
   */
  complete(): Promise<void>;
}

/** The account lock of one configuration. */
export interface AccountLock {
  /** The scope of a request's proof for `emailKey`: its trusted device, if any. */
  scopeOf(req: Request | null, emailKey: string): LockScope;
  /**
   * Reserves one attempt for `scope` before a proof is checked: the ticket
   * to settle, or the 429 to answer (the proof must then not be checked).
   */
  admit(scope: LockScope, client: ClientMeta): Promise<LockTicket | Response>;
  /**
   * Runs `check` (true: the proof is right) under one reserved attempt of
   * `scope`: its answer, or the 429 to send (`check` is then not run). A
   * wrong proof keeps the attempt; a right one or a throw gives it back (a
   * right proof is no sign-in yet: once one is committed, `proven`).
   */
  check(
    scope: LockScope,
    client: ClientMeta,
    check: () => Promise<boolean>,
  ): Promise<boolean | Response>;
  /**
   * A completed sign-in whose attempt is settled (a second step, a passkey,
   * single sign-on): the failures before it of its scope, and the
   * consecutive ones, are cleared.
   */
  proven(scope: LockScope): Promise<void>;
  /** Clears every count of the address (a password reset, an administrator's unlock). */
  clearAll(emailKey: string): Promise<void>;
  /**
   * Until when browsers without a trusted-device cookie are refused for
   * `emailKey` (ms), or null when they are not.
   */
  lockedUntil(emailKey: string): Promise<number | null>;
  /** The `Set-Cookie` value of the trusted-device cookie after a completed sign-in. */
  deviceCookie(req: Request, emailKey: string): string;
}

/** The counter keys of one address as they stand now. */
interface Keys {
  scope: string;
  total: string;
  /** Moved to start the scope's count again. */
  scopeSigned: string;
  /** Moved to start the consecutive count again. */
  signed: string;
}

/** Builds the lock of one configuration. */
export function accountLock(context: AccountLockContext): AccountLock {
  const { store, limits, logger, now, trail, devices, onLocked } = context;
  const threshold = limits.accountLockThreshold;
  const windowMs = limits.accountLockWindow;
  // Never below the window's own threshold (one configured past 100 means
  // no lock of its own is wanted below it).
  const consecutive = Math.max(CONSECUTIVE_FAILURE_LIMIT, threshold);
  // scope key → end of the window whose lock this instance reported.
  const reported = new Map<string, number>();

  const base = (emailKey: string) => `account_lock:${hashToken(emailKey)}`;
  const tag = (counter: Counter | null) =>
    counter === null ? "0" : `${counter.count}.${counter.resetAt}`;

  // The keys of the counts when `cleared`, `signed` and the scope's own
  // `signed` have these values.
  function keysFrom(
    scope: LockScope,
    cleared: Counter | null,
    run: Counter | null,
    own: Counter | null,
  ): Keys {
    const address = base(scope.emailKey);
    const name = scope.device === null ? "browsers" : `device:${scope.device}`;
    const current = `${address}:${tag(cleared)}`;
    return {
      scope: `${current}:${name}:${tag(own)}`,
      total: `${current}:${tag(run)}:total`,
      scopeSigned: `${address}:${name}:signed`,
      signed: `${address}:signed`,
    };
  }

  // The keys of the counts now: the values of `cleared`, `signed` and the
  // scope's own `signed` name them, read at once.
  async function keysOf(scope: LockScope, at: number): Promise<Keys> {
    const address = base(scope.emailKey);
    const name = scope.device === null ? "browsers" : `device:${scope.device}`;
    const [cleared, run, own] = await Promise.all([
      store.readCounter(`${address}:cleared`, at),
      store.readCounter(`${address}:signed`, at),
      store.readCounter(`${address}:${name}:signed`, at),
    ]);
    return keysFrom(scope, cleared, run, own);
  }

  const release = async (key: string, resetAt: number) => {
    try {
      await store.releaseAttempt(key, resetAt);
    } catch (error) {
      // The count stays one too high: the safe side.
      logger.error("account lock could not give an attempt back", { error });
    }
  };

  // The attempts of this instance being checked, by scope key: each an
  // attempt reserved and not yet judged. A refusal waits for them before
  // it decides whether failures filled the window.
  const checking = new Map<string, Set<Promise<void>>>();
  const track = (key: string): () => void => {
    let set = checking.get(key);
    if (set === undefined) checking.set(key, set = new Set());
    const { promise, resolve } = Promise.withResolvers<void>();
    set.add(promise);
    return () => {
      set.delete(promise);
      if (set.size === 0 && checking.get(key) === set) checking.delete(key);
      resolve();
    };
  };
  // Scope keys whose refusal is being looked into, so a flood of refusals
  // looks once.
  const looking = new Set<string>();

  // One `login.locked` per scope and window, across instances, and the
  // owner told of it. An attempt being checked holds its reservation, so a
  // burst of right attempts can fill a window too, on any instance: the
  // report waits for this instance's attempts of the scope, and is made
  // only once the window's failures, counted apart, fill it (a window
  // full of another instance's attempts in flight is looked at again
  // until they are judged). Everything it needs is read before the answer.
  function report(
    keys: Keys,
    resetAt: number,
    emailKey: string,
    client: ClientMeta,
    hard: boolean,
  ) {
    const key = hard ? keys.total : keys.scope;
    if (reported.get(key) === resetAt || looking.has(key)) return;
    looking.add(key);
    const limit = hard ? consecutive : threshold;
    // The lock recorded: the one refused, or the address's (below).
    let lock = { key, resetAt, hard };
    inBackground(
      store,
      (async () => {
        await Promise.all([...(checking.get(key) ?? [])]);
        let at = now();
        if (!hard) {
          // Another instance's attempts in flight hold the window too, and
          // this one cannot wait for them: the window's failures, counted
          // apart, say whether it is full of them. While it is full but not
          // of failures, the others are still being checked: look again.
          for (const until = Date.now() + SETTLE_MS;;) {
            const [counter, failures] = await Promise.all([
              store.readCounter(key, at),
              store.readCounter(failuresOf(key, resetAt), at),
            ]);
            if (counter?.resetAt !== resetAt) return;
            if ((failures?.count ?? 0) >= limit) break;
            if (counter.count < limit || Date.now() >= until) return;
            await new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE));
            at = now();
          }
          // The failures waited for may have made the consecutive ones
          // reach their limit: every browser is refused until a reset now,
          // and that is the lock to record, once (its marker is the hard
          // report's), not a window's that says the owner's browsers are
          // not affected.
          const total = await store.readCounter(keys.total, at);
          if (total !== null && total.count >= consecutive) {
            lock = { key: keys.total, resetAt: total.resetAt, hard: true };
          }
        } else {
          const counter = await store.readCounter(key, at);
          if (counter?.resetAt !== resetAt || counter.count < limit) return;
        }
        if (reported.size >= MAX_REMEMBERED) reported.clear();
        reported.set(lock.key, lock.resetAt);
        return await store.reserveAttempt(
          `${lock.key}:locked:${lock.resetAt}`,
          {
            now: at,
            windowMs: Math.max(1, lock.resetAt - at),
            limit: 1,
          },
        );
      })().finally(() => looking.delete(key)).then(async (marker) => {
        if (marker?.admitted !== true) return;
        const found = await store.credentialsByEmail(emailKey);
        const account = found?.user ?? null;
        const event = trail.event("login.locked", {
          actor: null,
          target: account,
          client,
          detail: {
            locked_until: new Date(lock.resetAt).toISOString(),
            ...(lock.hard ? { until: "reset" } : {}),
            // An address without an account is kept only when it looks
            // deliverable (what was typed may be a password).
            ...(account === null && recordableAddress(emailKey, false)
              ? { email: emailKey }
              : {}),
          },
        });
        await store.recordEvents([event]);
        trail.committed([event]);
        if (account === null || onLocked === undefined) return;
        try {
          await onLocked(account, lock.resetAt);
        } catch (error) {
          logger.error("account lock notice failed", { error });
        }
      }),
      (error) => logger.error("account lock not recorded", { error }),
    );
  }

  // The 429 of a lock: the address's lock (`until: "reset"`) or a scope's.
  const refusal = (resetAt: number, hard: boolean) =>
    retryLater(resetAt - now(), {
      message: hard
        ? "Sign-in to this account is paused after too many failed attempts; reset the password"
        : "Sign-in to this account is paused after too many failed attempts; try again later",
      meta: hard ? { scope: "account", until: "reset" } : { scope: "account" },
    });

  // Starts a count again by moving the counter that names its key: one
  // write, however many attempts the old key holds (attempts in flight
  // settle on the old key, which is left to expire).
  const restart = async (signed: string) => {
    await store.reserveAttempt(signed, {
      now: now(),
      windowMs: YEAR,
      limit: UNBOUNDED,
    });
  };

  // A completed sign-in clears its scope's failures (no longer
  // consecutive): its own attempt (`held`) goes back, and when the window
  // held others, the scope's count starts again.
  const clearScope = (keys: Keys, own: Counter, held: boolean) =>
    Promise.all([
      held ? release(keys.scope, own.resetAt) : undefined,
      own.count > (held ? 1 : 0) ? restart(keys.scopeSigned) : undefined,
    ]);

  // The scope's attempt is reserved (the exact gate: no burst evaluates
  // more than the threshold); the consecutive failures are read beside it,
  // in the same round trip, and counted once a failure is known.
  const reserveUnder = (keys: Keys, at: number) =>
    Promise.all([
      store.reserveAttempt(keys.scope, { now: at, windowMs, limit: threshold }),
      store.readCounter(keys.total, at),
    ]);

  // The keys each scope had at its last attempt on this instance. They
  // change only when a count starts again, so the next attempt reserves
  // under them while it reads the values that name the keys, in the same
  // round trip, and only when those name other keys reserves again under
  // the right ones (giving the first reservation back). A scope this
  // instance has not seen (or has forgotten) is guessed to have never been
  // cleared nor signed in after failures, as most addresses are, so its
  // first attempt costs one round trip too. Which keys count is always
  // decided by the values read, never by this memory or the guess.
  const lastKeys = new Map<string, Keys>();

  // Reserves under `keys`, tracked from before the reservation (a report
  // waiting for the attempts in flight must see this one too); `judged`
  // ends the tracking.
  async function reserveTracked(keys: Keys, at: number) {
    const judged = track(keys.scope);
    try {
      const [own, total] = await reserveUnder(keys, at);
      return { keys, own, total, judged };
    } catch (error) {
      judged();
      throw error;
    }
  }

  async function reserve(scope: LockScope, at: number) {
    const id = `${scope.emailKey}\u0000${scope.device ?? ""}`;
    const guess = lastKeys.get(id) ?? keysFrom(scope, null, null, null);
    let early: Awaited<ReturnType<typeof reserveTracked>> | undefined;
    const [read, attempt] = await Promise.allSettled([
      keysOf(scope, at),
      reserveTracked(guess, at),
    ]);
    if (attempt.status === "fulfilled") early = attempt.value;
    if (read.status === "rejected") {
      if (early !== undefined) await giveUp(early);
      throw read.reason;
    }
    if (attempt.status === "rejected") throw attempt.reason;
    const keys = read.value;
    if (keys.scope !== guess.scope || keys.total !== guess.total) {
      await giveUp(early!);
      early = undefined;
    }
    if (lastKeys.size >= MAX_REMEMBERED) lastKeys.clear();
    lastKeys.set(id, keys);
    return early ?? await reserveTracked(keys, at);
  }

  // A reservation not taken up: given back, then no longer tracked.
  async function giveUp(reserved: Awaited<ReturnType<typeof reserveTracked>>) {
    try {
      if (reserved.own.admitted) {
        await release(reserved.keys.scope, reserved.own.resetAt);
      }
    } finally {
      reserved.judged();
    }
  }

  async function admit(
    scope: LockScope,
    client: ClientMeta,
  ): Promise<LockTicket | Response> {
    const at = now();
    const reserved = await reserve(scope, at);
    const { keys, own, total, judged } = reserved;
    const hard = total !== null && total.count >= consecutive;
    if (!own.admitted || hard) {
      await giveUp(reserved);
      if (hard) report(keys, total.resetAt, scope.emailKey, client, true);
      else if (scope.device === null) {
        report(keys, own.resetAt, scope.emailKey, client, false);
      }
      return refusal(hard ? total.resetAt : own.resetAt, hard);
    }
    return {
      async failed() {
        try {
          const at = now();
          await store.reserveAttempt(keys.total, {
            now: at,
            windowMs: YEAR,
            limit: UNBOUNDED,
          });
          // The window's failures, apart from its attempts in flight:
          // what a report judges the window by (see `report`). A device's
          // own window is never reported: nothing to count. Counted after
          // the consecutive ones, never beside them: a report (on any
          // instance) that finds the window full of failures then finds
          // each of them among the consecutive ones too, so a window that
          // reached the hard lock is recorded as that, once.
          if (scope.device === null && own.resetAt > at) {
            await store.reserveAttempt(failuresOf(keys.scope, own.resetAt), {
              now: at,
              windowMs: own.resetAt - at,
              limit: UNBOUNDED,
            });
          }
        } finally {
          judged();
        }
      },
      async giveBack() {
        try {
          await release(keys.scope, own.resetAt);
        } finally {
          judged();
        }
      },
      async complete() {
        try {
          await Promise.all([
            clearScope(keys, own, true),
            total === null || total.count === 0
              ? undefined
              : restart(keys.signed),
          ]);
        } catch (error) {
          // The sign-in stands: a count left too high is the safe side.
          logger.error("account lock could not clear its count", { error });
        } finally {
          judged();
        }
      },
    };
  }

  async function check(
    scope: LockScope,
    client: ClientMeta,
    run: () => Promise<boolean>,
  ): Promise<boolean | Response> {
    const ticket = await admit(scope, client);
    if (ticket instanceof Response) return ticket;
    let right: boolean;
    try {
      right = await run();
    } catch (err) {
      // Not a wrong proof (the store or the configuration failed).
      await ticket.giveBack();
      throw err;
    }
    if (!right) await ticket.failed();
    else await ticket.giveBack();
    return right;
  }

  async function proven(scope: LockScope): Promise<void> {
    try {
      const at = now();
      const keys = await keysOf(scope, at);
      const [own, total] = await Promise.all([
        store.readCounter(keys.scope, at),
        store.readCounter(keys.total, at),
      ]);
      await Promise.all([
        own === null ? undefined : clearScope(keys, own, false),
        total === null || total.count === 0 ? undefined : restart(keys.signed),
      ]);
    } catch (error) {
      logger.error("account lock could not clear its count", { error });
    }
  }

  async function clearAll(emailKey: string): Promise<void> {
    await store.reserveAttempt(`${base(emailKey)}:cleared`, {
      now: now(),
      windowMs: YEAR,
      limit: UNBOUNDED,
    });
  }

  async function lockedUntil(emailKey: string): Promise<number | null> {
    const at = now();
    const keys = await keysOf({ emailKey, device: null }, at);
    const [own, total] = await Promise.all([
      store.readCounter(keys.scope, at),
      store.readCounter(keys.total, at),
    ]);
    let until: number | null = null;
    if (own !== null && own.count >= threshold) until = own.resetAt;
    if (total !== null && total.count >= consecutive) {
      until = Math.max(until ?? 0, total.resetAt);
    }
    return until;
  }

  const deviceCookieOf = (req: Request | null) =>
    req === null ? null : readCookie(req.headers.get("cookie"), DEVICE_COOKIE);

  return {
    scopeOf: (req, emailKey) => ({
      emailKey,
      device: devices.deviceOf(deviceCookieOf(req), emailKey),
    }),
    admit,
    check,
    proven,
    clearAll,
    lockedUntil,
    deviceCookie: (req, emailKey) =>
      devices.issue(deviceCookieOf(req), emailKey),
  };
}
