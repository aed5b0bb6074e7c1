/**
 * The reaper: a periodic sweep that deletes expired sessions, dead
 * invitation and reset links, and ended limiter windows. Expiry is checked
 * on every read anyway; the sweep only keeps the store from growing.
 *
 * @module
 */

import { DEFAULT_AUDIT_RETENTION } from "../http/limits.ts";
import { defaultLogger, type Logger } from "../http/logger.ts";
import type { Store } from "../core/store.ts";

/** Options of {@linkcode Reaper}. */
export interface ReaperOptions {
  /**
   * Time between sweeps, in ms. Without it the reaper sweeps hourly through
   * `Deno.cron` where the runtime has it (`--unstable-cron`, Deno Deploy),
   * and through a timer otherwise.
   */
  interval?: number;
  /** Where failed sweeps are logged; `console` by default. */
  logger?: Logger;
  /**
   * Records deleted per store call at most; 200 by default. A batch that
   * keeps the store busy longer than 10 ms makes the next ones smaller
   * (see {@linkcode Reaper}).
   */
  batchSize?: number;
  /** The clock, in ms since the epoch; `Date.now` by default. */
  now?: () => number;
  /** How long audit events are kept, in ms; 90 days by default. */
  auditRetention?: number;
}

/** What one sweep deleted. */
export interface SweepResult {
  /** Expired sessions. */
  sessions: number;
  /** Expired invitation and reset links. */
  links: number;
  /** Limiter counters whose window ended. */
  counters: number;
  /** Audit events older than the retention. */
  events: number;
  /** Expired pending sign-ins, WebAuthn challenges and TOTP enrolments. */
  factorRecords: number;
  /** Expired single sign-on flows and logout tokens past their replay window. */
  ssoRecords: number;
}

const HOUR = 60 * 60 * 1000;
const CRON_NAME = "gatehouse-reaper";
const CRON_SCHEDULE = "0 * * * *";

type CronRegistration = (
  name: string,
  schedule: string,
  options: { signal: AbortSignal },
  handler: () => Promise<void>,
) => Promise<void>;

// Deno.cron is unstable; read it without depending on its type declaration.
function runtimeCron(): CronRegistration | undefined {
  const cron = (Deno as unknown as { cron?: CronRegistration }).cron;
  return typeof cron === "function" ? cron.bind(Deno) : undefined;
}

// How long one batch may keep the store busy, in ms, before the next ones
// are made smaller, and the smallest batch. Measured (bench/README.md,
// "Sweeps"): with 50 session checks in flight, Deno KV's batches of 200 (tens
// of ms each) put the checks' p99 at 1.02–1.21× idle, a fixed 50 at 0.87×;
// Postgres deletes 200 in one statement of about 5 ms, and a fixed 50 made
// its sweep 2.5× longer for no better p99.
const BUSY_MS = 10;
const MIN_BATCH = 10;

// Pauses for `ms` (at least one macrotask), so pending requests run between
// two batches.
const pause = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

// The next batch's size: smaller in proportion when the last one kept the
// store busy too long, back up (doubling) when it was well within, never
// below MIN_BATCH (or `most`, when smaller) nor above `most`.
function nextBatch(limit: number, took: number, most: number): number {
  const floor = Math.min(MIN_BATCH, most);
  if (took > BUSY_MS) {
    return Math.max(floor, Math.floor((limit * BUSY_MS) / took));
  }
  return took < BUSY_MS / 2 ? Math.min(most, limit * 2) : limit;
}

/**
 * Sweeps a store periodically. `start()` schedules sweeps, `stop()` cancels
 * them and waits for one in progress; `sweep()` runs one now. Each kind of
 * record is deleted in batches of at most `batchSize`; after each batch the
 * reaper pauses for half as long as the batch took, so a sweep uses at
 * most two thirds of the store's time and requests keep flowing while it
 * runs (the sweep is hygiene: expiry is checked on every read anyway). A
 * batch is also kept short: one that took longer than 10 ms makes the next
 * ones smaller (a store that deletes record by record, like Deno KV, gets
 * batches of tens; one that deletes a batch in one statement keeps about
 * its 200), since a request that meets the sweep waits out the rest of its
 * busy stretch. A failed sweep is logged and the next one runs as planned.
 *
 * With the default schedule the reaper registers `Deno.cron` under the name
 * `gatehouse-reaper`, so one process runs one such reaper. On Deno Deploy,
 * crons must be registered at the top level of the main module: call
 * `Deno.cron` there yourself and run {@linkcode Reaper.sweep} from it.
 *
 * @example Sweeping every ten minutes
 * ```ts
 * import { Reaper } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const reaper = new Reaper(store, { interval: 10 * 60 * 1000 });
 * reaper.start();
 * // ... serve requests; on shutdown:
 * await reaper.stop();
 * kv.close();
 * ```
 */
export class Reaper {
  readonly #store: Store;
  readonly #interval: number | undefined;
  readonly #logger: Logger;
  readonly #batchSize: number;
  readonly #now: () => number;
  readonly #auditRetention: number;
  #running: Promise<SweepResult> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #cron: { abort: AbortController; registered: Promise<void> } | undefined;
  #started = false;
  // Bumped by every start(), so a timer chain from before a stop() ends.
  #epoch = 0;

  /**
   * Prepares a reaper; nothing runs before {@linkcode Reaper.start}.
   *
   * @param store The store to sweep.
   * @param options Interval, logger, batch size and clock.
   */
  constructor(store: Store, options: ReaperOptions = {}) {
    const { interval, batchSize = 200 } = options;
    if (
      interval !== undefined && (!Number.isFinite(interval) || interval < 1)
    ) {
      throw new RangeError(
        `Invalid reaper interval: ${interval} (use a positive number of ms)`,
      );
    }
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new RangeError(
        `Invalid reaper batch size: ${batchSize} (use a positive integer)`,
      );
    }
    this.#store = store;
    this.#interval = interval;
    this.#logger = options.logger ?? defaultLogger;
    this.#batchSize = batchSize;
    this.#now = options.now ?? Date.now;
    const retention = options.auditRetention ?? DEFAULT_AUDIT_RETENTION;
    if (!Number.isFinite(retention) || retention < 1) {
      throw new RangeError(
        `Invalid audit retention: ${retention} (use a positive number of ms)`,
      );
    }
    this.#auditRetention = retention;
  }

  /**
   * Schedules sweeps: every `interval` ms (the first one interval after
   * start), or hourly on the hour through `Deno.cron` without an interval.
   * Starting a started reaper does nothing.
   */
  start(): void {
    if (this.#started) return;
    const cron = this.#interval === undefined ? runtimeCron() : undefined;
    if (cron !== undefined) {
      const abort = new AbortController();
      const registered = cron(
        CRON_NAME,
        CRON_SCHEDULE,
        { signal: abort.signal },
        () => this.#scheduledSweep(),
      );
      this.#cron = { abort, registered };
    } else {
      this.#schedule(++this.#epoch);
    }
    this.#started = true;
  }

  /**
   * Cancels the schedule and waits for a sweep in progress to finish.
   *
   * @returns Resolves once no sweep is running.
   */
  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const cron = this.#cron;
    this.#cron = undefined;
    if (cron !== undefined) {
      cron.abort.abort();
      await cron.registered;
    }
    // A failure of that sweep was logged already.
    await this.#running?.catch(() => {});
  }

  /**
   * Runs one sweep now (or joins the one in progress): expired sessions,
   * links, then counters, each in batches. A failure is logged through the
   * logger and rejects the returned promise.
   *
   * @returns How many records of each kind were deleted.
   */
  sweep(): Promise<SweepResult> {
    this.#running ??= this.#sweepAll().catch((err) => {
      this.#logger.error("reaper sweep failed", { error: err });
      throw err;
    }).finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #sweepAll(): Promise<SweepResult> {
    const now = this.#now();
    const store = this.#store;
    return {
      sessions: await this.#drain((n) => store.deleteExpiredSessions(now, n)),
      links: await this.#drain((n) => store.deleteExpiredLinks(now, n)),
      counters: await this.#drain((n) => store.deleteExpiredCounters(now, n)),
      events: await this.#drain((n) =>
        store.deleteExpiredEvents(now - this.#auditRetention, n)
      ),
      factorRecords: await this.#drain((n) =>
        store.deleteExpiredFactorRecords(now, n)
      ),
      ssoRecords: await this.#drain((n) =>
        store.deleteExpiredSsoRecords(now, n)
      ),
    };
  }

  // Deletes batch after batch until one comes back short. Real time, not
  // the injectable clock, paces it: this is about sharing the store with
  // live requests.
  async #drain(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    let limit = this.#batchSize;
    for (;;) {
      const started = performance.now();
      const deleted = await batch(limit);
      total += deleted;
      if (deleted < limit) return total;
      const took = performance.now() - started;
      limit = nextBatch(limit, took, this.#batchSize);
      // A duty cycle of two thirds. A request's wait is set by the length
      // of the busy stretch it meets, kept short above, more than by their
      // share of the time; a pause as long as the batch (one half) made the
      // KV sweep of 100 000 sessions 12 s for the same p99 (bench/README.md,
      // "Sweeps").
      await pause(took / 2);
    }
  }

  async #scheduledSweep(): Promise<void> {
    try {
      await this.sweep();
    } catch {
      // Logged by sweep(); the schedule goes on.
    }
  }

  // A chain of timeouts rather than setInterval: sweeps never overlap, and
  // a slow sweep delays the next instead of piling up behind it.
  #schedule(epoch: number): void {
    this.#timer = setTimeout(async () => {
      await this.#scheduledSweep();
      if (this.#started && epoch === this.#epoch) this.#schedule(epoch);
    }, this.#interval ?? HOUR);
  }
}
