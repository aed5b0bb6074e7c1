// The schema's one write path for PostgresRecords: `commit(p jsonb)`, which
// applies a whole RecordStore commit in the call's transaction (one round
// trip, one statement: no client-side transaction, see _tables.ts). The
// payload is built by _record_commit.ts:
//
//   { "checks":  [{ "t": table, "k": key column, "v": key, "x": version|null }],
//     "deletes": [{ "t", "k", "v" }],
//     "puts":    [{ "t", "k", "v", "u": [unique lock names], "r": row }],
//     "tallies": [{ "k": key, "n": amount }],
//     "events":  [row of audit_events] }
//
// In order:
// 1. A transaction-level advisory lock on every record the commit names
//    (table:key of each check, delete and put; tallies:key of each tally;
//    each unique value a put gives), taken in ascending order of their
//    64-bit hashes: two commits that share a record run one after the other,
//    and no two can wait on each other in a cycle. A hash collision only
//    serialises two unrelated commits.
// 2. Each check, by primary key, with the row locked (FOR NO KEY UPDATE) so
//    no writer outside commit() (the expiry sweep) changes it before the
//    writes. A VOLATILE function reads afresh at each statement, so a check
//    run after the locks were granted sees every commit that held them.
//    Any check that fails answers false, with nothing written.
// 3. The deletes, the puts (upserts that replace every column given), the
//    tally moves and the events, in a block of their own: a unique
//    violation (another row holds a unique value the commit gives) rolls the
//    block back and answers false. So does a deadlock on a unique index's
//    pending entry (a partial index no lock name covers), which Postgres
//    breaks by failing one side.
//
// Tables and columns come from the payload and are quoted with format's %I;
// the schema is the function's own (`{schema}` is its quoted name, which
// parse_ident unquotes for %I). The row's version is its `xmin`: every write
// of the row, including a tally move of 0, gives it a new one.
//
// A sign-in's commit takes `commit_session` instead (_session_commit.ts),
// which repeats these steps for that one shape with static statements: a
// change to the lock names, their order or the checks here is a change
// there too, or the two stop serialising each other.

/** The statement creating `commit(p jsonb)`; `{schema}` is the quoted schema. */
export const COMMIT_FUNCTION = `CREATE FUNCTION {schema}.commit(p jsonb)
  RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  s constant text := (parse_ident('{schema}'))[1];
  lock_id bigint;
  e jsonb;
  current_version text;
  names text;
  updates text;
BEGIN
  FOR lock_id IN
    SELECT DISTINCT hashtextextended(s || ':' || n, 0) FROM (
      SELECT (x->>'t') || ':' || (x->>'v') AS n
      FROM jsonb_array_elements(coalesce(p->'checks', '[]')
        || coalesce(p->'deletes', '[]') || coalesce(p->'puts', '[]')) AS x
      UNION ALL
      SELECT u FROM jsonb_array_elements(coalesce(p->'puts', '[]')) AS x,
        jsonb_array_elements_text(coalesce(x->'u', '[]')) AS u
      UNION ALL
      SELECT 'tallies:' || (x->>'k')
      FROM jsonb_array_elements(coalesce(p->'tallies', '[]')) AS x
    ) AS touched
    ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(lock_id);
  END LOOP;

  FOR e IN SELECT * FROM jsonb_array_elements(coalesce(p->'checks', '[]'))
  LOOP
    EXECUTE format('SELECT xmin::text FROM %1$I.%2$I WHERE %3$I = '
        '(jsonb_populate_record(NULL::%1$I.%2$I, $1)).%3$I FOR NO KEY UPDATE',
        s, e->>'t', e->>'k')
      INTO current_version USING jsonb_build_object(e->>'k', e->>'v');
    IF current_version IS DISTINCT FROM e->>'x' THEN
      RETURN false;
    END IF;
  END LOOP;

  BEGIN
    FOR e IN SELECT * FROM jsonb_array_elements(coalesce(p->'deletes', '[]'))
    LOOP
      EXECUTE format('DELETE FROM %1$I.%2$I WHERE %3$I = '
          '(jsonb_populate_record(NULL::%1$I.%2$I, $1)).%3$I',
          s, e->>'t', e->>'k')
        USING jsonb_build_object(e->>'k', e->>'v');
    END LOOP;
    FOR e IN SELECT * FROM jsonb_array_elements(coalesce(p->'puts', '[]'))
    LOOP
      SELECT string_agg(format('%I', c), ', '),
        string_agg(format('%1$I = EXCLUDED.%1$I', c), ', ')
          FILTER (WHERE c <> e->>'k')
      INTO names, updates FROM jsonb_object_keys(e->'r') AS c;
      EXECUTE format('INSERT INTO %1$I.%2$I (%3$s) SELECT %3$s '
          'FROM jsonb_populate_record(NULL::%1$I.%2$I, $1) '
          'ON CONFLICT (%4$I) DO UPDATE SET %5$s',
          s, e->>'t', names, e->>'k',
          coalesce(updates, format('%1$I = EXCLUDED.%1$I', e->>'k')))
        USING e->'r';
    END LOOP;
    IF p ? 'tallies' THEN
      INSERT INTO {schema}.tallies AS t (key, count)
      SELECT x.k, sum(x.n)::bigint
      FROM jsonb_to_recordset(p->'tallies') AS x(k text, n bigint)
      GROUP BY x.k
      ON CONFLICT (key) DO UPDATE SET count = t.count + EXCLUDED.count;
    END IF;
    IF p ? 'events' THEN
      INSERT INTO {schema}.audit_events
      SELECT * FROM jsonb_populate_recordset(NULL::{schema}.audit_events,
        p->'events');
    END IF;
  EXCEPTION WHEN unique_violation OR deadlock_detected THEN
    RETURN false;
  END;
  RETURN true;
END $$`;
