// A RecordStore commit as the JSON payload of the schema's `commit`
// function (_commit_function.ts): each record as its table's row, each key
// as its column compares it, and the writes in the order the tables need.

import { type Commit, keyOf, type Kind, KINDS } from "../../core/records.ts";
import {
  columnOf,
  lookupValue,
  type RowJson,
  TABLES,
  toRow,
} from "./_columns.ts";

/** A check as `commit` reads it. */
interface CheckJson {
  t: string;
  k: string;
  v: string;
  x: string | null;
}

/** A delete as `commit` reads it. */
interface DeleteJson {
  t: string;
  k: string;
  v: string;
}

/** A put as `commit` reads it: the row and the lock names of its unique values. */
interface PutJson extends DeleteJson {
  u: string[];
  r: RowJson;
}

/** The argument of the schema's `commit` function. */
export interface CommitPayload {
  checks?: CheckJson[];
  deletes?: DeleteJson[];
  puts?: PutJson[];
  tallies?: { k: string; n: number }[];
  events?: RowJson[];
}

/**
 * The payload of `commit`, or the answer without asking the database:
 * true for a commit that checks and writes nothing, false for one with a
 * check no row can pass (a version required of a key that is no uuid, in a
 * table keyed by uuid).
 */
export function commitPayload(commit: Commit): CommitPayload | boolean {
  const payload: CommitPayload = {};
  const checks: CheckJson[] = [];
  for (const check of commit.checks ?? []) {
    const { table, column } = keyColumn(check.kind);
    const v = lookupValue(column, check.key);
    // No row has such a key: absent holds, a version cannot.
    if (v === null) {
      if (check.version === null) continue;
      return false;
    }
    checks.push({ t: table, k: column.name, v, x: check.version });
  }
  const deletes: DeleteJson[] = [];
  for (const d of commit.deletes ?? []) {
    const { table, column } = keyColumn(d.kind);
    const v = lookupValue(column, keyOf(d.kind, d.value));
    if (v !== null) deletes.push({ t: table, k: column.name, v });
  }
  // Accounts first: the other tables' rows refer to them. Then the
  // records that replace one (their old unique values are freed) before
  // new ones (which may take them): a unique index is checked row by row.
  const puts = (commit.puts ?? [])
    .map((put, i) => ({ put, i }))
    .sort((a, b) =>
      rank(a.put.kind, a.put.before) - rank(b.put.kind, b.put.before) ||
      a.i - b.i
    )
    .map(({ put }): PutJson => {
      const { table, column } = keyColumn(put.kind);
      const key = keyOf(put.kind, put.value);
      const unique = KINDS[put.kind].unique as readonly string[];
      return {
        t: table,
        k: column.name,
        // A key that is no uuid fails the insert's cast, as it should.
        v: lookupValue(column, key) ?? key,
        u: unique.map((field) => {
          const c = columnOf(put.kind, field);
          const value = String(
            (put.value as unknown as Record<string, unknown>)[field],
          );
          return `${table}.${c.name}:${lookupValue(c, value) ?? value}`;
        }),
        r: toRow(put.kind, put.value),
      };
    });
  const tallies = (commit.tallies ?? []).map((t) => ({ k: t.key, n: t.by }));
  const events = (commit.events ?? []).map((e) => toRow("event", e));
  if (checks.length > 0) payload.checks = checks;
  if (deletes.length > 0) payload.deletes = deletes;
  if (puts.length > 0) payload.puts = puts;
  if (tallies.length > 0) payload.tallies = tallies;
  if (events.length > 0) payload.events = events;
  return Object.keys(payload).length === 0 ? true : payload;
}

function keyColumn(kind: Kind) {
  return { table: TABLES[kind].table, column: columnOf(kind, KINDS[kind].key) };
}

function rank(kind: Kind, before: unknown): number {
  return (kind === "account" ? 0 : 2) + (before == null ? 1 : 0);
}
