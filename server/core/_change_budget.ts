// A bound on the audited changes a signed-in account makes to itself
// (issue 26 item 16). Each such change is real and is recorded, with its
// event kept for the audit retention; but new recovery codes, turning
// TOTP on and off, or a password change cost the caller nothing but a
// call, so a script holding one session could grow the audit store without
// end. Each account gets CHANGES_PER_WINDOW of them per WINDOW, counted in
// the store (shared by every instance, exact under bursts: reserved before
// the change, given back when nothing changed); past it, 429
// `login_rate_limited` with `Retry-After`. No person changes their second
// factor twenty times in a quarter of an hour.

import { retryLater } from "../http/respond.ts";
import type { Logger } from "../http/logger.ts";
import type { Store } from "./store.ts";

/** Audited self-service changes an account may make per window. */
export const CHANGES_PER_WINDOW = 20;
/** The window of {@linkcode CHANGES_PER_WINDOW}, ms. */
export const CHANGE_WINDOW = 15 * 60_000;

/** One reserved change: give it back when nothing changed. */
export interface ReservedChange {
  /** Gives the reservation back (the change did not happen). */
  giveBack(): Promise<void>;
}

/** Reserves audited changes of accounts. */
export interface ChangeBudget {
  /**
   * Reserves one change of `userId`: a reservation, or the 429 to answer
   * when the account's window is full.
   */
  reserve(userId: string): Promise<ReservedChange | Response>;
}

/** Builds the budget of one configuration. */
export function changeBudget(
  context: { store: Store; logger: Logger; now: () => number },
): ChangeBudget {
  const { store, logger, now } = context;
  return {
    async reserve(userId) {
      const key = `changes:account:${userId}`;
      const reservation = await store.reserveAttempt(key, {
        now: now(),
        windowMs: CHANGE_WINDOW,
        limit: CHANGES_PER_WINDOW,
      });
      if (!reservation.admitted) {
        return retryLater(reservation.resetAt - now());
      }
      return {
        async giveBack() {
          try {
            await store.releaseAttempt(key, reservation.resetAt);
          } catch (error) {
            // The count stays one too high: the safe side.
            logger.error("change budget could not give a change back", {
              error,
            });
          }
        },
      };
    },
  };
}

/** Runs `change` (true: something changed) under one reserved change. */
export async function withinBudget(
  budget: ChangeBudget,
  userId: string,
  change: () => Promise<boolean>,
): Promise<boolean | Response> {
  const reserved = await budget.reserve(userId);
  if (reserved instanceof Response) return reserved;
  let changed = false;
  try {
    changed = await change();
    return changed;
  } finally {
    if (!changed) await reserved.giveBack();
  }
}
