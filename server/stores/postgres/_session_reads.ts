// The session check's read in PostgresRecords: a session by its token hash
// and an account by its id, the two refs every guarded request reads
// (core/rules/sessions.ts). The generic read (_record_reads.ts) answers
// any refs with one `SELECT` of `row_to_json` per table; this one answers
// reads of a session, an account, or one of each, with one join whose
// columns are listed here and arrive as plain values (postgres.js
// `.values()`), so each record is built by one object literal.
//
// Why it is kept apart (issue 27; in process, 50 callers over 500
// sessions, 2026-11-27): the generic read cost 17 µs of JavaScript and
// about 19 µs of Postgres CPU a check (the union of two selects, JSON built
// and parsed for every row, records assembled field by field through the
// kinds' column tables); this join 12 µs and about 10 µs, as much as
// c25f636's hand-written check read (11 µs and about 15 µs), which
// selected only the 14 columns it used. The records here are whole (a
// caller may write back what it read, as touchSession does), so every
// column is read; what the join saves is the work around them.

import type postgres from "postgres";
import type {
  AccountRecord,
  RecordRef,
  StoredSession,
  Versioned,
} from "../../core/records.ts";
import { columnOf, lookupValue, TABLES } from "./_columns.ts";

/** A read this module answers: a session's token hash and an account's id, or null for none. */
export interface SessionRead {
  /** The token hash of the session read, or null when none is. */
  tokenHash: string | null;
  /** The account's id, or null when none is read or it is no uuid. */
  userId: string | null;
  /** Where each answer goes: "s" the session's, "a" the account's. */
  order: readonly ("s" | "a")[];
}

/** The session's fields, in the order of the statement's columns. */
const SESSION_FIELDS = [
  "tokenHash",
  "id",
  "userId",
  "generation",
  "createdAt",
  "expiresAt",
  "lastSeenAt",
  "authenticatedAt",
  "ip",
  "userAgent",
  "ssoProvider",
  "ssoSid",
  "ssoSubjectKey",
] as const;

/** The account's fields, in the order of the statement's columns. */
const ACCOUNT_FIELDS = [
  "id",
  "email",
  "emailKey",
  "name",
  "nameKey",
  "role",
  "disabled",
  "passwordHash",
  "generation",
  "createdAt",
  "factorVersion",
  "totpEnabled",
  "passkeyCount",
  "locale",
  "localeChosen",
] as const;

// Every field of each record is listed above: a field added to a record
// and not to its list fails the type check here.
type Listed<T, L extends readonly string[]> =
  [Exclude<keyof T, L[number]>] extends [never] ? true : false;
type Holds<T extends true> = T;
type EveryField = [
  Holds<Listed<StoredSession, typeof SESSION_FIELDS>>,
  Holds<Listed<AccountRecord, typeof ACCOUNT_FIELDS>>,
];

// Where each record's columns start in a row: the ordinal first, then the
// session's version and fields, then the account's version and fields.
const S = 1;
const A = S + 1 + SESSION_FIELDS.length;

/** The statements of one schema: one read (`= $1`) or many (`unnest`). */
export interface SessionReadTexts {
  one: string;
  many: string;
}

/** The statement texts for `schema`, built once. */
export function sessionReadTexts(schema: string): SessionReadTexts {
  const s = SESSION_FIELDS.map((f) => `s."${columnOf("session", f).name}"`);
  const a = ACCOUNT_FIELDS.map((f) => `u."${columnOf("account", f).name}"`);
  const columns = `s.xmin::text, ${s.join(", ")}, u.xmin::text, ${
    a.join(", ")
  }`;
  const joins = (h: string, u: string) =>
    `LEFT JOIN "${schema}"."${TABLES.session.table}" s ON s.token_hash = ${h} LEFT JOIN "${schema}"."${TABLES.account.table}" u ON u.id = ${u}`;
  return {
    // A lone read binds scalars: an array costs a lone read more to
    // execute than the query itself (bench/README.md).
    one: `SELECT 1, ${columns} FROM (VALUES (1)) q ${
      joins("$1::text", "$2::uuid")
    }`,
    many:
      `SELECT q.n::integer, ${columns} FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY q(h, u, n) ${
        joins("q.h", "q.u")
      }`,
  };
}

/**
 * The read `refs` asks for if this module answers it (at most one session
 * by token hash and one account by id), else null.
 */
export function sessionReadOf(refs: readonly RecordRef[]): SessionRead | null {
  const [first, second] = refs;
  if (first === undefined || refs.length > 2 || !("key" in first)) return null;
  if (second === undefined) {
    if (first.kind === "session") {
      return { tokenHash: first.key, userId: null, order: SESSION };
    }
    return first.kind === "account"
      ? { tokenHash: null, userId: accountId(first.key), order: ACCOUNT }
      : null;
  }
  if (!("key" in second)) return null;
  if (first.kind === "session" && second.kind === "account") {
    return {
      tokenHash: first.key,
      userId: accountId(second.key),
      order: SESSION_ACCOUNT,
    };
  }
  if (first.kind === "account" && second.kind === "session") {
    return {
      tokenHash: second.key,
      userId: accountId(first.key),
      order: ACCOUNT_SESSION,
    };
  }
  return null;
}

// The orders of answers, shared by every read (the check's is the first).
const SESSION_ACCOUNT = ["s", "a"] as const;
const ACCOUNT_SESSION = ["a", "s"] as const;
const SESSION = ["s"] as const;
const ACCOUNT = ["a"] as const;

// An id no account can have (no uuid) reads as none.
const ACCOUNT_ID = columnOf("account", "id");
const accountId = (key: string) => lookupValue(ACCOUNT_ID, key);

/** What a read answers for each of its refs, in their order. */
export type SessionReadAnswer = (Versioned<unknown> | null)[];

/** Answers `reads` with one query, each read's answers in its refs' order. */
export async function readSessions(
  sql: postgres.Sql,
  texts: SessionReadTexts,
  reads: readonly SessionRead[],
): Promise<SessionReadAnswer[]> {
  const rows = reads.length === 1
    ? await sql.unsafe(texts.one, [reads[0]!.tokenHash, reads[0]!.userId], {
      prepare: true,
    }).values()
    : await sql.unsafe(
      texts.many,
      // postgres.js sends each array as the statement's typed array.
      [reads.map((r) => r.tokenHash), reads.map((r) => r.userId)] as never,
      { prepare: true },
    ).values();
  const answers: SessionReadAnswer[] = new Array(reads.length);
  for (const row of rows) {
    const read = reads[(row[0] as number) - 1]!;
    const session = read.tokenHash === null ? null : sessionOf(row);
    const account = read.userId === null ? null : accountOf(row);
    answers[(row[0] as number) - 1] = read.order.map((x) =>
      x === "s" ? session : account
    );
  }
  return answers;
}

// bigint columns arrive as strings (postgres.js parses no int8), the rest
// as the record holds them; a NULL version means no row.
function sessionOf(r: postgres.Row): Versioned<StoredSession> | null {
  if (r[S] === null) return null;
  const value: StoredSession = {
    tokenHash: r[S + 1],
    id: r[S + 2],
    userId: r[S + 3],
    generation: r[S + 4],
    createdAt: Number(r[S + 5]),
    expiresAt: Number(r[S + 6]),
    lastSeenAt: Number(r[S + 7]),
    authenticatedAt: Number(r[S + 8]),
    ip: r[S + 9],
    userAgent: r[S + 10],
  };
  // Only a single sign-on's session has them (NULL otherwise).
  if (r[S + 11] !== null) value.ssoProvider = r[S + 11];
  if (r[S + 12] !== null) value.ssoSid = r[S + 12];
  if (r[S + 13] !== null) value.ssoSubjectKey = r[S + 13];
  return { value, version: r[S] };
}

function accountOf(r: postgres.Row): Versioned<AccountRecord> | null {
  if (r[A] === null) return null;
  return {
    value: {
      id: r[A + 1],
      email: r[A + 2],
      emailKey: r[A + 3],
      name: r[A + 4],
      nameKey: r[A + 5],
      role: r[A + 6],
      disabled: r[A + 7],
      passwordHash: r[A + 8],
      generation: r[A + 9],
      createdAt: Number(r[A + 10]),
      factorVersion: r[A + 11],
      totpEnabled: r[A + 12],
      passkeyCount: r[A + 13],
      locale: r[A + 14],
      localeChosen: r[A + 15],
    },
    version: r[A],
  };
}
