// The per-account count of wrong second-factor codes (DESIGN.md §15, issue
// 26 item 15). The login limiter counts per client address, and a right
// password opens a new pending sign-in with five tries of its own, so
// someone who has the password could spread code guesses over addresses and
// pending sign-ins without end. This count is kept per account instead, in
// the store (every instance sharing it shares the count), across pending
// sign-ins and re-authentication: past `accountLockThreshold` failures in
// `accountLockWindow`, every code check of the account answers 429
// `login_rate_limited` with `Retry-After` until the window ends, right
// codes included (else the lock would tell a right guess from a wrong one).
//
// Exact like the address limiter: each check reserves its attempt in the
// store before the code is evaluated (an atomic increment that refuses at
// the threshold), a wrong code keeps it, and a right one gives it back and
// clears the count (NIST SP 800-63B counts consecutive failures). So a
// burst of any size, on any number of instances, evaluates at most
// `accountLockThreshold` wrong codes per account and window.
//
// Passkeys are not counted and not refused: an assertion cannot be guessed,
// and the owner keeps a way in while someone grinds codes.

import type { ClientMeta } from "../http/_client_meta.ts";
import type { AuditTrail, EventAccount } from "./_audit.ts";
import { inBackground } from "../http/_background.ts";
import { retryLater } from "../http/respond.ts";
import type { Limits } from "../http/limits.ts";
import type { Logger } from "../http/logger.ts";
import type { Store } from "./store.ts";

/** What the lock needs (a SessionIssuer has each). */
export interface CodeLockContext {
  store: Store;
  limits: Limits;
  logger: Logger;
  now: () => number;
  trail: AuditTrail;
}

/** Checks codes of accounts under their per-account count. */
export interface CodeLock {
  /**
   * Runs `check` (true: the code is right, and spent) under one reserved
   * attempt of `account`: its answer, or the 429 to send when the
   * account's window is full (`check` is then not run).
   */
  check(
    account: EventAccount,
    client: ClientMeta,
    check: () => Promise<boolean>,
  ): Promise<boolean | Response>;
  /**
   * Clears the account's count after a second factor proven otherwise (a
   * passkey): the failures before it are no longer consecutive.
   */
  proven(userId: string): Promise<void>;
}

// Windows this instance already reported, so that a flood of refusals
// asks the store once per account and window; past this many the memory
// starts over and the store's marker decides.
const MAX_REMEMBERED_REPORTS = 1024;

/** The counter key of an account's wrong codes. */
export function codeLockKey(userId: string): string {
  return `second_factor:account:${userId}`;
}

/** Builds the lock of one configuration. */
export function codeLock(context: CodeLockContext): CodeLock {
  const { store, limits, logger, now, trail } = context;
  const threshold = limits.accountLockThreshold;
  const windowMs = limits.accountLockWindow;
  // key → end of the window whose lock this instance reported.
  const reported = new Map<string, number>();

  // One `login.locked` per account and window, across instances: a marker
  // counter admits one reservation and ends with the window. The client
  // is read before the answer (the request may be closed after it).
  function report(
    key: string,
    resetAt: number,
    account: EventAccount,
    client: ClientMeta,
  ) {
    if (reported.get(key) === resetAt) return;
    if (reported.size >= MAX_REMEMBERED_REPORTS) reported.clear();
    reported.set(key, resetAt);
    const at = now();
    inBackground(
      store,
      store.reserveAttempt(`${key}:locked:${resetAt}`, {
        now: at,
        windowMs: Math.max(1, resetAt - at),
        limit: 1,
      }).then(async (marker) => {
        if (!marker.admitted) return;
        const event = trail.event("login.locked", {
          actor: null,
          target: account,
          client,
          detail: {
            factor: "second_factor",
            locked_until: new Date(resetAt).toISOString(),
          },
        });
        await store.recordEvents([event]);
        trail.committed([event]);
      }),
      (error) => logger.error("account lock not recorded", { error }),
    );
  }

  // A right code clears the consecutive failures: each reserved attempt
  // of the window is given back (at most `threshold` writes, each atomic).
  async function clear(key: string, at: number) {
    const counter = await store.readCounter(key, at);
    if (counter === null || counter.count === 0) return;
    await Promise.all(
      Array.from(
        { length: counter.count },
        () => store.releaseAttempt(key, counter.resetAt),
      ),
    );
  }

  return {
    async check(account, client, check) {
      const key = codeLockKey(account.id);
      const reservation = await store.reserveAttempt(key, {
        now: now(),
        windowMs,
        limit: threshold,
      });
      if (!reservation.admitted) {
        report(key, reservation.resetAt, account, client);
        return retryLater(reservation.resetAt - now());
      }
      let right: boolean;
      try {
        right = await check();
      } catch (err) {
        // Not a wrong code (the store or the configuration failed): the
        // attempt goes back, as the address limiter does with a throw.
        await store.releaseAttempt(key, reservation.resetAt).catch((error) =>
          logger.error("account lock could not give an attempt back", {
            error,
          })
        );
        throw err;
      }
      if (right) {
        // The code is spent: a failed write leaves the count too high (the
        // safe side) and must not turn the sign-in into an error.
        try {
          await store.releaseAttempt(key, reservation.resetAt);
          await clear(key, now());
        } catch (error) {
          logger.error("account lock could not clear its count", { error });
        }
      }
      return right;
    },
    async proven(userId) {
      try {
        await clear(codeLockKey(userId), now());
      } catch (error) {
        logger.error("account lock could not clear its count", { error });
      }
    },
  };
}
