// Reading records in PostgresRecords: any number of refs in one query, and
// concurrent reads coalesced (../_coalesce.ts) so that under load one
// query answers every read waiting at that moment, as today's session check
// does. The refs are grouped by table and column, one `SELECT` each, joined
// by UNION ALL: the text of the query depends only on which groups it has
// (and whether each has one value or many), so postgres.js prepares few
// statements. Reads of a session and an account by key (the session
// check's), when they are all a query carries, take a join of their own
// instead (_session_reads.ts): the same records, for less work a check.

import type postgres from "postgres";
import {
  type Kind,
  KINDS,
  type ListField,
  type RecordKinds,
  type RecordRef,
  type Versioned,
} from "../../core/records.ts";
import { coalescing } from "../_coalesce.ts";
import {
  readSessions,
  type SessionRead,
  sessionReadOf,
  sessionReadTexts,
} from "./_session_reads.ts";
import {
  type Column,
  columnOf,
  fromRow,
  lookupValue,
  type RowJson,
  TABLES,
} from "./_columns.ts";

/** Refs one query reads at most (more wait for the next query). */
const MAX_REFS_PER_READ = 200;

/** What a read answers for each ref. */
export type ReadAnswer = Versioned<unknown> | null;

/** A ref resolved to its table, column and the value compared. */
interface Lookup {
  kind: Kind;
  field: string;
  column: Column;
  value: string;
}

/** Reads refs, coalescing concurrent reads; `maxInFlight` queries at most. */
export function recordReader(
  sql: postgres.Sql,
  schema: string,
  maxInFlight: number,
): (refs: readonly RecordRef[]) => Promise<ReadAnswer[]> {
  const texts = sessionReadTexts(schema);
  const read = coalescing<readonly RecordRef[], ReadAnswer[]>({
    async readMany(batches) {
      // The session check's reads (and lone sessions or accounts) have a
      // join of their own (_session_reads.ts); a batch holding any other
      // read goes through the generic query, with them in it.
      const sessionReads: SessionRead[] = [];
      for (const refs of batches) {
        const found = sessionReadOf(refs);
        if (found === null) break;
        sessionReads.push(found);
      }
      if (sessionReads.length === batches.length) {
        return await readSessions(sql, texts, sessionReads);
      }
      const answers = await readRefs(sql, schema, batches.flat());
      let at = 0;
      return batches.map((refs) => answers.slice(at, at += refs.length));
    },
    take(waiting) {
      let refs = 0;
      let count = 0;
      for (const batch of waiting) {
        refs += batch.length;
        if (count > 0 && refs > MAX_REFS_PER_READ) break;
        count++;
      }
      return count;
    },
    maxInFlight,
  });
  return (refs) => refs.length === 0 ? Promise.resolve([]) : read(refs);
}

/** The records behind `refs`, in order (null where none): one query. */
export async function readRefs(
  sql: postgres.Sql,
  schema: string,
  refs: readonly RecordRef[],
): Promise<ReadAnswer[]> {
  const lookups = refs.map(lookupOf);
  // Group the values by kind and field, in a fixed order of groups.
  const groups = new Map<string, { lookup: Lookup; values: Set<string> }>();
  for (const lookup of lookups) {
    if (lookup === null) continue;
    const name = `${lookup.kind}.${lookup.field}`;
    const group = groups.get(name) ??
      { lookup, values: new Set<string>() };
    group.values.add(lookup.value);
    groups.set(name, group);
  }
  if (groups.size === 0) return refs.map(() => null);
  const ordered = [...groups.entries()]
    .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    .map(([, group]) => group);
  const selects: string[] = [];
  const params: (string | string[])[] = [];
  ordered.forEach(({ lookup, values }, g) => {
    const { column } = lookup;
    const table = `"${schema}"."${TABLES[lookup.kind].table}"`;
    const match = values.size === 1
      ? `= $${g + 1}::${column.type}`
      : `= ANY($${g + 1}::${column.type}[])`;
    selects.push(
      `SELECT ${g} AS g, xmin::text AS v, row_to_json(t) AS r FROM ${table} t WHERE "${column.name}" ${match}`,
    );
    params.push(values.size === 1 ? [...values][0]! : [...values]);
  });
  const rows = await sql.unsafe(selects.join(" UNION ALL "), params, {
    prepare: true,
  });
  const found = new Map<string, { r: RowJson; v: string }>();
  for (const row of rows) {
    const { lookup } = ordered[row.g]!;
    const r = row.r as RowJson;
    found.set(`${row.g}:${r[lookup.column.name]}`, { r, v: row.v });
  }
  return lookups.map((lookup) => {
    if (lookup === null) return null;
    const g = ordered.findIndex((group) =>
      group.lookup.kind === lookup.kind && group.lookup.field === lookup.field
    );
    const hit = found.get(`${g}:${lookup.value}`);
    if (hit === undefined) return null;
    // Reads coalesced from several callers may ask for one record (the
    // account of many sessions): fromRow makes each its own.
    return { value: fromRow(lookup.kind, hit.r), version: hit.v };
  });
}

/** Every record of `kind` whose `field` is `value`: one query. */
export async function listRecords<K extends Kind>(
  sql: postgres.Sql,
  schema: string,
  kind: K,
  field: ListField<K>,
  value: string,
): Promise<Versioned<RecordKinds[K]>[]> {
  const column = columnOf(kind, field);
  const compared = lookupValue(column, value);
  if (compared === null) return [];
  const rows = await sql.unsafe(
    `SELECT xmin::text AS v, row_to_json(t) AS r FROM "${schema}"."${
      TABLES[kind].table
    }" t WHERE "${column.name}" = $1::${column.type}`,
    [compared],
    { prepare: true },
  );
  return rows.map((row) => ({
    value: fromRow(kind, row.r as RowJson),
    version: row.v as string,
  }));
}

// The table lookup of one ref, or null when no row can match it.
function lookupOf(ref: RecordRef): Lookup | null {
  const field = "key" in ref ? KINDS[ref.kind].key : ref.unique;
  const column = columnOf(ref.kind, field);
  const value = lookupValue(column, "key" in ref ? ref.key : ref.value);
  return value === null ? null : { kind: ref.kind, field, column, value };
}
