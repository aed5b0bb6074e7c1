// The SQLite schema: one table of records (kind, key, version, the record as
// JSON), the indexes `KINDS` describes as expression indexes on the JSON,
// a clock for versions, the limiter's counters and the schema version. The
// tables carry a `gatehouse_` prefix so an application can keep its own
// tables in the same file.

import { KINDS } from "../../core/records.ts";
import type { Connection } from "./_connection.ts";

/** The table of records. */
export const RECORDS = "gatehouse_records";
/** The table of limiter counters. */
export const COUNTERS = "gatehouse_counters";

/** The SQL expression for the record's JSON field `field`. */
export function field(name: string): string {
  // Names come from KINDS (checked by `byField`), never from a request.
  return `json_extract(value, '$.${name}')`;
}

// Each entry takes the schema from the version before it to the next one.
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE ${RECORDS} (
     kind TEXT NOT NULL,
     key TEXT NOT NULL,
     version INTEGER NOT NULL,
     value TEXT NOT NULL,
     PRIMARY KEY (kind, key)
   );
   CREATE TABLE gatehouse_clock (n INTEGER NOT NULL);
   INSERT INTO gatehouse_clock (n) VALUES (0);
   CREATE TABLE ${COUNTERS} (
     key TEXT PRIMARY KEY,
     count INTEGER NOT NULL,
     reset_at INTEGER NOT NULL
   );
   CREATE INDEX gatehouse_counters_reset_at ON ${COUNTERS} (reset_at);`,
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

// Indexes are partial (one kind each), so a query names its kind as a
// literal for SQLite to use them. Ties in an order break by key.
function indexes(): string[] {
  const on = (kind: string, name: string, columns: string, unique = false) =>
    `CREATE ${unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ` +
    `gatehouse_${kind}_${name} ON ${RECORDS} (${columns}) ` +
    `WHERE kind = '${kind}'`;
  return [
    ...Object.entries(KINDS).flatMap(([kind, { unique, lists, expiry }]) => [
      ...unique.map((name) => on(kind, `unique_${name}`, field(name), true)),
      ...lists.map((name) => on(kind, `by_${name}`, field(name))),
      ...(expiry === null ? [] : [on(kind, "expiry", field(expiry))]),
    ]),
    // The orders and filters of the account and event pages.
    on("account", "by_nameKey", `${field("nameKey")}, key`),
    ...["actorId", "targetId", "type"].map((name) =>
      on("event", `by_${name}`, `${field(name)}, key`)
    ),
  ];
}

/**
 * Brings the database to {@linkcode SCHEMA_VERSION} in one write
 * transaction (so two instances starting together migrate once), then makes
 * sure every index `KINDS` describes exists. Refuses a database a newer
 * Gatehouse has migrated, and one this process may only read.
 */
export async function migrate(c: Connection): Promise<void> {
  // Readers never wait for the writer and a commit appends to the log. A
  // `:memory:` database keeps its own journal and answers "memory". Set
  // here, not on opening, so that a file another connection holds is
  // waited for between turns of the event loop, as any statement is.
  await c.whenFree(
    () => c.statement("PRAGMA journal_mode = WAL").get(),
    "write",
  );
  await c.write(() => {
    c.exec(
      "CREATE TABLE IF NOT EXISTS gatehouse_schema (version INTEGER NOT NULL)",
    );
    const schema = "SELECT max(version) AS v FROM gatehouse_schema";
    const current = Number(c.statement(schema).get()?.v ?? 0);
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `The SQLite database at ${c.path} has Gatehouse schema version ` +
          `${current}, newer than this Gatehouse knows (${SCHEMA_VERSION}): ` +
          "upgrade Gatehouse to open it",
      );
    }
    for (const sql of MIGRATIONS.slice(current)) c.exec(sql);
    for (const sql of indexes()) c.exec(sql);
    // The version is written even when it stays: a connection SQLite opened
    // read-only (it does so silently when the file cannot be written) would
    // otherwise begin, create nothing and commit without a complaint, and
    // the file be refused by a 500 on each write rather than here. Prepared,
    // not exec()uted: only a statement's error says it was read-only.
    c.statement("DELETE FROM gatehouse_schema").run();
    c.statement("INSERT INTO gatehouse_schema (version) VALUES (?)")
      .run(SCHEMA_VERSION);
  });
}
