// The sign-in's commit in PostgresRecords: the commit a new session makes
// (core/rules/_session_creation.ts) goes through `commit_session`, a
// function written for that one shape, instead of the generic `commit`
// (_commit_function.ts). The shape: a check on the account and one on its
// `sessions:{user}` tally, one session put, sessions deleted (at the cap),
// one move of that tally, and audit events. Any other commit, and any
// commit of that shape this module does not recognise, takes the generic
// function.
//
// Its semantics are the generic function's, step for step: the same
// advisory locks (the same names, so the same 64-bit hashes, taken in the
// same ascending order, so a sign-in and any generic commit that share a
// record serialise, and neither waits on the other in a cycle); the same
// checks (`xmin` read with the row locked FOR NO KEY UPDATE, a NULL
// version meaning absent); the same writes in the same order (deletes, the
// session upserted on its token hash with every column replaced, the tally
// moved, the events inserted); and a unique violation or a deadlock in the
// writes answers false with nothing written.
//
// Why it is kept apart (issue 31; 2026-11-27, in process, one commit at a
// time, a sign-in at the cap): the generic function took 0.58 ms a commit,
// this one 0.36 ms, a bare INSERT 0.19 ms. The generic one spends about
// 0.1 ms hashing lock names out of the JSON payload and 0.13 ms on
// statements made with format() and run by EXECUTE, which Postgres parses
// and plans on every call; here every statement is static, so PL/pgSQL
// plans it once per connection, and the arguments arrive typed.
// tests/server/postgres_session_commit_test.ts compares the two on the same
// commits.

import type { CommitPayload } from "./_record_commit.ts";

// The columns of `sessions` each version of `commit_session` writes: the
// table's at that version (a test compares the newest with the table).
const COLUMNS_10 = [
  "token_hash",
  "id",
  "user_id",
  "generation",
  "created_at",
  "expires_at",
  "last_seen_at",
  "authenticated_at",
  "ip",
  "user_agent",
  "sso_provider",
  "sso_sid",
] as const;
const COLUMNS_11 = [...COLUMNS_10, "sso_subject_key"] as const;

/**
 * The statement creating `commit_session` as migration 10 made it;
 * `{schema}` is the quoted schema.
 */
export const SESSION_COMMIT_FUNCTION: string = sessionCommitFunction(
  "CREATE FUNCTION",
  COLUMNS_10,
);

/**
 * The statement replacing `commit_session` in migration 11, when sessions
 * gained `sso_subject_key`: the same function, writing every column. A
 * migration that adds a column to `sessions` replaces it again.
 */
export const SESSION_COMMIT_FUNCTION_11: string = sessionCommitFunction(
  "CREATE OR REPLACE FUNCTION",
  COLUMNS_11,
);

// The function's text for a list of the session's columns: the upsert on
// the token hash replaces every one.
function sessionCommitFunction(
  create: string,
  columns: readonly string[],
): string {
  const list = columns.join(", ");
  const replaced = columns.filter((c) => c !== "token_hash")
    .map((c) => `${c} = EXCLUDED.${c}`).join(",\n        ");
  return `${create} {schema}.commit_session(account_id text,
    account_version text, tally_key text, tally_version text, session jsonb,
    ended text[], tally_by bigint, events jsonb)
  RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  s constant text := (parse_ident('{schema}'))[1];
  lock_id bigint;
  current_version text;
BEGIN
  -- The lock names the generic commit derives from this commit's payload.
  FOR lock_id IN
    SELECT DISTINCT hashtextextended(s || ':' || n, 0) FROM (
      SELECT 'users:' || account_id
      UNION ALL SELECT 'tallies:' || tally_key
      UNION ALL SELECT 'sessions:' || (session->>'token_hash')
      UNION ALL SELECT 'sessions:' || e FROM unnest(ended) AS e
    ) AS touched (n)
    ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(lock_id);
  END LOOP;

  SELECT xmin::text INTO current_version FROM {schema}.users
    WHERE id = account_id::uuid FOR NO KEY UPDATE;
  IF current_version IS DISTINCT FROM account_version THEN
    RETURN false;
  END IF;
  SELECT xmin::text INTO current_version FROM {schema}.tallies
    WHERE key = tally_key FOR NO KEY UPDATE;
  IF current_version IS DISTINCT FROM tally_version THEN
    RETURN false;
  END IF;

  BEGIN
    IF cardinality(ended) > 0 THEN
      DELETE FROM {schema}.sessions WHERE token_hash = ANY (ended);
    END IF;
    INSERT INTO {schema}.sessions (${list})
      SELECT ${list}
      FROM jsonb_populate_record(NULL::{schema}.sessions, session)
      ON CONFLICT (token_hash) DO UPDATE SET
        ${replaced};
    INSERT INTO {schema}.tallies AS t (key, count) VALUES (tally_key, tally_by)
      ON CONFLICT (key) DO UPDATE SET count = t.count + EXCLUDED.count;
    IF events IS NOT NULL THEN
      INSERT INTO {schema}.audit_events
      SELECT * FROM jsonb_populate_recordset(NULL::{schema}.audit_events,
        events);
    END IF;
  EXCEPTION WHEN unique_violation OR deadlock_detected THEN
    RETURN false;
  END;
  RETURN true;
END $$`;
}

/** The call of `commit_session` in `schema`: its arguments are {@linkcode sessionCommitArgs}'s. */
export function sessionCommitStatement(schema: string): string {
  return `SELECT "${schema}".commit_session($1::text, $2::text, $3::text,
    $4::text, $5::text::jsonb, $6::text[], $7::bigint, $8::text::jsonb) AS ok`;
}

/** The arguments of `commit_session`, in its order. */
export type SessionCommitArgs = [
  accountId: string,
  accountVersion: string | null,
  tallyKey: string,
  tallyVersion: string | null,
  session: string,
  ended: string[],
  tallyBy: number,
  events: string | null,
];

/**
 * The arguments of `commit_session` for `payload` (the generic function's,
 * from _record_commit.ts) when it has the sign-in's shape; null when it
 * has any other, for the generic function.
 */
export function sessionCommitArgs(
  payload: CommitPayload,
): SessionCommitArgs | null {
  const { checks, puts, deletes = [], tallies, events } = payload;
  if (
    checks?.length !== 2 || puts?.length !== 1 || tallies?.length !== 1
  ) return null;
  const account = checks.find((c) => c.t === "users");
  const tally = checks.find((c) => c.t === "tallies");
  const [put] = puts;
  const [move] = tallies;
  if (
    account === undefined || tally === undefined || move!.k !== tally.v ||
    put!.t !== "sessions" || put!.u.length !== 0 ||
    put!.r.token_hash !== put!.v ||
    deletes.some((d) => d.t !== "sessions")
  ) return null;
  return [
    account.v,
    account.x,
    tally.v,
    tally.x,
    JSON.stringify(put!.r),
    deletes.map((d) => d.v),
    move!.n,
    events === undefined ? null : JSON.stringify(events),
  ];
}
