// The PostgresRecords class: the narrow RecordStore on PostgreSQL through
// postgres.js, over PostgresStore's relational tables (an application joins
// its own tables to users(id)) plus `tallies`. Each concern is in its
// private module beside it: the kinds' tables and columns (_columns.ts),
// reads (_record_reads.ts), the commit payload (_record_commit.ts), the
// schema's commit function (_commit_function.ts) and the sign-in's own
// (_session_commit.ts), listings and sweeps
// (_record_listing.ts), counters (_record_counters.ts) and the migrations
// (_records_migrations.ts). No method runs a client-side transaction (see
// _tables.ts): a commit is one call of the schema's `commit` function.

import type postgres from "postgres";
import type {
  AccountPage,
  AccountQuery,
  AttemptWindow,
  AuditEvent,
  Commit,
  Counter,
  EventQuery,
  ExpiringKind,
  Kind,
  ListField,
  RecordKinds,
  RecordRef,
  RecordStore,
  Reservation,
  Versioned,
} from "../../core/records.ts";
import { DEFAULT_SESSION_READS_IN_FLIGHT } from "../_coalesce.ts";
import { runMigrations } from "./_migrations.ts";
import * as counters from "./_record_counters.ts";
import { commitPayload } from "./_record_commit.ts";
import {
  accountsPage,
  deleteExpiredRecords,
  eventsPage,
  type ListingTables,
} from "./_record_listing.ts";
import { listRecords, type ReadAnswer, recordReader } from "./_record_reads.ts";
import {
  sessionCommitArgs,
  sessionCommitStatement,
} from "./_session_commit.ts";

/** Options of {@linkcode PostgresRecords}. */
export interface PostgresRecordsOptions {
  /**
   * The schema holding Gatehouse's tables, created by `migrate()`:
   * lower-case letters, digits and `_`. `gatehouse` by default.
   */
  schema?: string;
  /**
   * Reads in flight at most (2 by default). A read (the session check on
   * every request) that finds them all busy waits for the next one, which
   * reads every read then waiting (up to 200 records) in one query: under
   * load, one round trip serves many requests; alone, a read goes at once.
   * Nothing is cached, so an ended session is refused on the very next
   * request.
   */
  sessionReadsInFlight?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The PostgreSQL implementation of `RecordStore`: each record kind is a
 * row of PostgresStore's tables (accounts in `users`, sessions in
 * `sessions`, …), its version the row's `xmin`. A read of any number of
 * records is one query; a commit is one call of the schema's `commit`
 * function, which serialises commits that share a record with advisory
 * locks, checks versions, and writes everything or nothing.
 *
 * @example A record store on its own schema
 * ```ts
 * import postgres from "postgres";
 * import { PostgresRecords } from "./postgres_records.ts";
 *
 * // postgres.js connects lazily: nothing happens until the first query.
 * const sql = postgres("postgres://app@127.0.0.1:5432/app");
 * const records = new PostgresRecords(sql, { schema: "gatehouse" });
 * // At startup: `await records.migrate();`
 * await sql.end();
 * ```
 */
export class PostgresRecords implements RecordStore {
  readonly #sql: postgres.Sql;
  readonly #schema: string;
  readonly #tables: ListingTables;
  readonly #counters: counters.CounterTable;
  readonly #readCounter: (
    query: counters.CounterQuery,
  ) => Promise<Counter | null>;
  readonly #read: (refs: readonly RecordRef[]) => Promise<ReadAnswer[]>;
  readonly #commit: string;
  readonly #commitSession: string;

  /**
   * Wraps a postgres.js client.
   *
   * @param sql The client; the caller creates and ends it. It must not use
   *   postgres.js `transform` options: the store reads columns by name.
   * @param options The schema and the reads kept in flight.
   */
  constructor(sql: postgres.Sql, options: PostgresRecordsOptions = {}) {
    const schema = options.schema ?? "gatehouse";
    if (!SCHEMA_NAME.test(schema)) {
      throw new TypeError(
        `Invalid schema name: "${schema}" (use lower-case letters, digits and "_")`,
      );
    }
    const transform = sql.options?.transform;
    if (
      transform?.column.from || transform?.column.to || transform?.value.from ||
      transform?.row.from
    ) {
      throw new TypeError(
        "Invalid sql client: PostgresRecords needs one without transform options",
      );
    }
    this.#sql = sql;
    this.#schema = schema;
    this.#tables = {
      sql,
      users: sql(`${schema}.users`),
      auditEvents: sql(`${schema}.audit_events`),
    };
    this.#counters = { sql, counters: sql(`${schema}.counters`) };
    this.#readCounter = counters.counterReader(this.#counters);
    this.#read = recordReader(
      sql,
      schema,
      options.sessionReadsInFlight ?? DEFAULT_SESSION_READS_IN_FLIGHT,
    );
    // The text is constant, so postgres.js prepares it once a connection.
    this.#commit = `SELECT "${schema}".commit($1::text::jsonb) AS ok`;
    this.#commitSession = sessionCommitStatement(schema);
  }

  /** Creates or upgrades the schema; idempotent and safe to run concurrently. */
  async migrate(): Promise<void> {
    await runMigrations(this.#sql, this.#schema);
  }

  /** The records behind `refs`, in order (null where none): one query. */
  read(refs: readonly RecordRef[]): Promise<(Versioned<unknown> | null)[]> {
    return this.#read(refs);
  }

  /** Every record of `kind` whose `field` is `value`. */
  list<K extends Kind>(
    kind: K,
    field: ListField<K>,
    value: string,
  ): Promise<Versioned<RecordKinds[K]>[]> {
    return listRecords(this.#sql, this.#schema, kind, field, value);
  }

  /**
   * Applies `commit` if every check holds (one function call: a sign-in's
   * through its own function, _session_commit.ts); whether it did.
   */
  async commit(commit: Commit): Promise<boolean> {
    const payload = commitPayload(commit);
    if (typeof payload === "boolean") return payload;
    const session = sessionCommitArgs(payload);
    const [row] = session === null
      ? await this.#sql.unsafe(this.#commit, [JSON.stringify(payload)], {
        prepare: true,
      })
      : await this.#sql.unsafe(this.#commitSession, session, {
        prepare: true,
      });
    return row?.ok === true;
  }

  /** A page of accounts in the query's order, with the number of matches. */
  accounts(query: AccountQuery): Promise<AccountPage> {
    return accountsPage(this.#tables, query);
  }

  /** Whether any account exists. */
  async hasAccounts(): Promise<boolean> {
    const [row] = await this.#sql`
      SELECT EXISTS (SELECT 1 FROM ${this.#tables.users}) AS found`;
    return row?.found === true;
  }

  /** A page of audit events, newest first. */
  events(query: EventQuery): Promise<AuditEvent[]> {
    return eventsPage(this.#tables, query);
  }

  /** Deletes up to `limit` records of `kind` past `before`; how many. */
  deleteExpired(
    kind: ExpiringKind,
    before: number,
    limit: number,
  ): Promise<number> {
    return deleteExpiredRecords(this.#sql, this.#schema, kind, before, limit);
  }

  /** Reserves one attempt on a fixed-window counter (one upsert). */
  reserveAttempt(key: string, window: AttemptWindow): Promise<Reservation> {
    return counters.reserveAttempt(this.#counters, key, window);
  }

  /** Gives one attempt back to the window ending at `resetAt`. */
  releaseAttempt(key: string, resetAt: number): Promise<void> {
    return counters.releaseAttempt(this.#counters, key, resetAt);
  }

  /** The counter if its window is open at `now`. */
  readCounter(key: string, now: number): Promise<Counter | null> {
    return this.#readCounter({ key, now });
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  deleteExpiredCounters(now: number, limit: number): Promise<number> {
    return counters.deleteExpiredCounters(this.#counters, now, limit);
  }
}
