// The sign-in's own commit function on Postgres (_session_commit.ts)
// against the generic one (_commit_function.ts), on the real database:
// the same commits answer the same and leave the same rows (failed checks,
// unique violations and replaced sessions included); it waits on every
// advisory lock the generic function would take for the same commit; only
// the sign-in's shape takes it; a schema at version 9 gets it from
// migrate(); and sign-ins racing at the cap from two instances, beside
// generic commits on the same account, keep the cap and the tally exact.

import assert from "node:assert/strict";
import type {
  AccountRecord,
  Commit,
  StoredSession,
  StoredTally,
} from "../../server/core/records.ts";
import { RuleStore } from "../../server/core/rules/mod.ts";
import { TABLES } from "../../server/stores/postgres/_columns.ts";
import { commitPayload } from "../../server/stores/postgres/_record_commit.ts";
import { sessionCommitArgs } from "../../server/stores/postgres/_session_commit.ts";
import { catalog, RECORDED } from "../fixtures/postgres_catalog.ts";
import { ignorePostgres, pool } from "../fixtures/postgres.ts";
import {
  account,
  event,
  type RecordsUnderTest,
  schemaRecords,
  session,
} from "../fixtures/postgres_records.ts";

function test(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: ignorePostgres, fn });
}

/** The versions a step's checks name, as read in one schema. */
interface Versions {
  account: string | null;
  tally: string | null;
}

// Every row of the tables a sign-in writes, versions left out.
async function rows(under: RecordsUnderTest): Promise<unknown> {
  const q = `"${under.schema}"`;
  const dump = async (table: string, order: string) =>
    (await under.sql.unsafe(
      `SELECT row_to_json(t)::text AS r FROM ${q}.${table} AS t
       ORDER BY ${order}`,
    )).map((row) => row.r);
  return {
    users: await dump("users", "id"),
    sessions: await dump("sessions", "token_hash"),
    tallies: await dump("tallies", "key"),
    events: await dump("audit_events", "id"),
  };
}

// The generic function's answer to `commit`, called as PostgresRecords
// called it before the sign-in had its own.
async function genericCommit(
  under: RecordsUnderTest,
  commit: Commit,
): Promise<boolean> {
  const payload = commitPayload(commit);
  if (typeof payload === "boolean") return payload;
  const [row] = await under.sql.unsafe(
    `SELECT "${under.schema}".commit($1::text::jsonb) AS ok`,
    [JSON.stringify(payload)],
  );
  return row?.ok === true;
}

const isSignIn = (commit: Commit) => {
  const payload = commitPayload(commit);
  return typeof payload !== "boolean" && sessionCommitArgs(payload) !== null;
};

test("The sign-in's commit function answers and writes what the generic commit does, case by case", async () => {
  const generic = await schemaRecords();
  const queries: string[] = [];
  const dedicated = await schemaRecords();
  const watched = dedicated.instance({ onQuery: (text) => queries.push(text) });
  try {
    const ada = account({ generation: 2 });
    const other = account();
    const tallyKey = `sessions:${ada.id}`;
    const old = [1, 2, 3].map((i) =>
      session(ada.id, { generation: 2, createdAt: i })
    );
    const seed: Commit = {
      puts: [
        { kind: "account", value: ada },
        { kind: "account", value: other },
        ...old.map((value) => ({ kind: "session" as const, value })),
      ],
    };
    for (const under of [generic, dedicated]) {
      assert.equal(await under.records.commit(seed), true);
    }
    const taken = session(other.id);
    const sso = session(ada.id, {
      generation: 2,
      ssoProvider: "corp",
      ssoSid: "sid-1",
      ssoSubjectKey: "subject-key-1",
      userAgent: 'Agent "quoted", {braces}',
    });
    const signIn = (
      v: Versions,
      over: Partial<StoredSession> = {},
      more: Partial<Commit> = {},
    ): Commit => ({
      checks: [
        { kind: "account", key: ada.id, version: v.account },
        { kind: "tally", key: tallyKey, version: v.tally },
      ],
      puts: [{
        kind: "session",
        value: session(ada.id, { generation: 2, ...over }),
        before: null,
      }],
      tallies: [{ key: tallyKey, by: 1 }],
      events: [event({ actorId: ada.id, targetId: ada.id })],
      ...more,
    });
    const duplicate = event();
    // Each step: the commit (given the versions read in its schema), and
    // what both functions must answer.
    const steps: [string, (v: Versions) => Commit, boolean][] = [
      ["a first sign-in: no tally yet", (v) => signIn(v), true],
      [
        "the tally's absence required, but it exists",
        (v) => signIn({ ...v, tally: null }),
        false,
      ],
      ["a stale account version", (v) => signIn({ ...v, account: "1" }), false],
      ["a stale tally version", (v) => signIn({ ...v, tally: "1" }), false],
      [
        "the account's absence required",
        (v) => signIn({ ...v, account: null }),
        false,
      ],
      ["at the cap: two sessions ended, one absent, the tally moved down", (
        v,
      ) =>
        signIn(v, {}, {
          deletes: [
            { kind: "session", value: old[0]! },
            { kind: "session", value: old[1]! },
            { kind: "session", value: session(ada.id) },
          ],
          tallies: [{ key: tallyKey, by: -1 }],
        }), true],
      [
        "a single sign-on's session, no event",
        (v) => signIn(v, sso, { events: undefined }),
        true,
      ],
      [
        "the same token again: the session replaced",
        (v) => signIn(v, { ...sso, ip: "198.51.100.1", ssoSid: undefined }),
        true,
      ],
      [
        "a session id another session holds: unique violation, nothing written",
        (
          v,
        ) =>
          signIn(v, { id: taken.id }, {
            deletes: [{ kind: "session", value: old[2]! }],
          }),
        false,
      ],
      ["an event id already stored: unique violation, nothing written", (
        v,
      ) =>
        signIn(v, {}, {
          deletes: [{ kind: "session", value: old[2]! }],
          events: [duplicate],
        }), false],
      ["two events, the last session ended", (v) =>
        signIn(v, {}, {
          deletes: [{ kind: "session", value: old[2]! }],
          events: [event(), event({ type: "session.revoked" })],
          tallies: [{ key: tallyKey, by: 0 }],
        }), true],
    ];
    // The other account's session and the event the duplicates meet.
    for (const under of [generic, dedicated]) {
      assert.equal(
        await under.records.commit({
          puts: [{ kind: "session", value: taken }],
          events: [duplicate],
        }),
        true,
      );
    }
    for (const [label, step, expected] of steps) {
      const answers: boolean[] = [];
      // One commit for both schemas, where each reads its own versions.
      const planned = step({ account: "account", tally: "tally" });
      for (const under of [generic, dedicated]) {
        const [found, tally] = await under.records.read([
          { kind: "account", key: ada.id },
          { kind: "tally", key: tallyKey },
        ]);
        const read: Record<string, string | null> = {
          account: found?.version ?? null,
          tally: tally?.version ?? null,
        };
        const commit: Commit = {
          ...planned,
          checks: planned.checks!.map((c) => ({
            ...c,
            version: c.version !== null && c.version in read
              ? read[c.version]!
              : c.version,
          })),
        };
        if (under === dedicated) {
          assert.ok(isSignIn(commit), label);
          queries.length = 0;
          answers.push(await watched.commit(commit));
          assert.ok(
            queries.some((text) => text.includes(".commit_session(")),
            label,
          );
        } else answers.push(await genericCommit(under, commit));
      }
      assert.deepEqual(answers, [expected, expected], label);
      assert.deepEqual(await rows(dedicated), await rows(generic), label);
    }
    const sessions = await dedicated.records.list("session", "userId", ada.id);
    assert.equal(sessions.length, 4);
    assert.ok(
      sessions.some((s) =>
        (s.value as StoredSession).ip === "198.51.100.1" &&
        (s.value as StoredSession).ssoSid === undefined
      ),
    );
  } finally {
    await generic.close();
    await dedicated.close();
  }
});

Deno.test("Only a commit of the sign-in's shape takes the sign-in's commit function", () => {
  const ada = account();
  const tallyKey = `sessions:${ada.id}`;
  const s = session(ada.id);
  const base: Commit = {
    checks: [
      { kind: "account", key: ada.id, version: "7" },
      { kind: "tally", key: tallyKey, version: null },
    ],
    puts: [{ kind: "session", value: s, before: null }],
    tallies: [{ key: tallyKey, by: 1 }],
  };
  assert.ok(isSignIn(base));
  assert.ok(isSignIn({ ...base, checks: [...base.checks!].reverse() }));
  const others: Commit[] = [
    { ...base, checks: base.checks!.slice(0, 1) },
    {
      ...base,
      checks: [...base.checks!, { kind: "session", key: "x", version: null }],
    },
    { ...base, tallies: [] },
    { ...base, tallies: [{ key: "enabled", by: 1 }] },
    { ...base, tallies: [...base.tallies!, { key: "enabled", by: 1 }] },
    { ...base, puts: [{ kind: "account", value: ada, before: null }] },
    {
      ...base,
      puts: [...base.puts!, { kind: "session", value: session(ada.id) }],
    },
    {
      ...base,
      deletes: [{ kind: "link", value: { tokenHash: "t" } as never }],
    },
    // An account key that is no uuid: the generic commit answers false.
    {
      ...base,
      checks: [
        { kind: "account", key: "nope", version: "7" },
        base.checks![1]!,
      ],
    },
  ];
  for (const [i, commit] of others.entries()) {
    assert.equal(isSignIn(commit), false, `case ${i}`);
  }
});

test("The sign-in's commit function waits on each advisory lock the generic commit takes for it", async () => {
  const under = await schemaRecords();
  const holder = pool();
  try {
    const ada = account();
    const ended = session(ada.id);
    await under.records.commit({
      puts: [
        { kind: "account", value: ada },
        { kind: "session", value: ended },
      ],
      tallies: [{ key: `sessions:${ada.id}`, by: 1 }],
    });
    const tallyKey = `sessions:${ada.id}`;
    for (
      const name of [
        `users:${ada.id}`,
        `tallies:${tallyKey}`,
        "sessions:{new}",
        `sessions:${ended.tokenHash}`,
      ]
    ) {
      const [found, tally] = await under.records.read([
        { kind: "account", key: ada.id },
        { kind: "tally", key: tallyKey },
      ]);
      const fresh = session(ada.id);
      const commit: Commit = {
        checks: [
          { kind: "account", key: ada.id, version: found!.version },
          { kind: "tally", key: tallyKey, version: tally!.version },
        ],
        puts: [{ kind: "session", value: fresh, before: null }],
        deletes: [{ kind: "session", value: ended }],
        tallies: [{ key: tallyKey, by: 0 }],
      };
      assert.ok(isSignIn(commit));
      const lock = `${under.schema}:${name.replace("{new}", fresh.tokenHash)}`;
      const held = await holder.reserve();
      let settled = false;
      try {
        await held`BEGIN`;
        await held`SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 0))`;
        const committed = under.records.commit(commit).finally(() => {
          settled = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(settled, false, `${name} was not waited on`);
        await held`COMMIT`;
        assert.equal(await committed, true, name);
      } finally {
        held.release();
      }
    }
  } finally {
    await holder.end();
    await under.close();
  }
});

test("The sign-in's commit function writes every column of sessions", async () => {
  const under = await schemaRecords();
  try {
    const [fn] = await under.sql`
      SELECT p.prosrc FROM pg_proc p JOIN pg_namespace n
        ON n.oid = p.pronamespace
      WHERE n.nspname = ${under.schema} AND p.proname = 'commit_session'`;
    const columns = await under.sql`
      SELECT column_name FROM information_schema.columns
      WHERE table_schema = ${under.schema} AND table_name = 'sessions'`;
    const names = columns.map((c) => String(c.column_name)).sort();
    assert.deepEqual(
      names,
      Object.values(TABLES.session.columns).map((c) => c.name).sort(),
    );
    for (const name of names) {
      assert.match(
        String(fn?.prosrc),
        new RegExp(`${name} = EXCLUDED\\.${name}|ON CONFLICT \\(${name}\\)`),
        name,
      );
    }
  } finally {
    await under.close();
  }
});

test("PostgresRecords.migrate() gives a schema at version 9 the sign-in's commit function", async () => {
  const under = await schemaRecords();
  const q = `"${under.schema}"`;
  try {
    // A store as version 9 left it: the tables and the generic commit.
    await under.sql.unsafe(`DROP FUNCTION ${q}.commit_session`);
    // (Its index, version 12's, goes with it.)
    await under.sql.unsafe(
      `ALTER TABLE ${q}.sessions DROP COLUMN sso_subject_key`,
    );
    // Version 13's.
    await under.sql.unsafe(`ALTER TABLE ${q}.sso_flows DROP COLUMN session_id`);
    await under.sql.unsafe(
      `DELETE FROM ${q}.schema_migrations WHERE version > 9`,
    );
    const ada = account();
    await under.records.commit({ puts: [{ kind: "account", value: ada }] });
    await Promise.all([
      under.records.migrate(),
      under.instance().migrate(),
    ]);
    const versions = await under.sql.unsafe(
      `SELECT version FROM ${q}.schema_migrations ORDER BY version`,
    );
    assert.deepEqual(versions.map((row) => row.version), [9, 10, 11, 12, 13]);
    assert.equal(
      await catalog(under.sql, under.schema),
      await Deno.readTextFile(RECORDED),
    );
    const [found] = await under.records.read([
      { kind: "account", key: ada.id },
    ]);
    const commit: Commit = {
      checks: [
        { kind: "account", key: ada.id, version: found!.version },
        { kind: "tally", key: `sessions:${ada.id}`, version: null },
      ],
      puts: [{ kind: "session", value: session(ada.id), before: null }],
      tallies: [{ key: `sessions:${ada.id}`, by: 1 }],
    };
    assert.ok(isSignIn(commit));
    assert.equal(await under.records.commit(commit), true);
  } finally {
    await under.close();
  }
});

test("60 sign-ins at the cap from two instances, beside generic commits on the account, keep the cap and the tally exact", async () => {
  const CAP = 5;
  const queries: string[] = [];
  const under = await schemaRecords();
  try {
    const a = new RuleStore(
      under.instance({ onQuery: (text) => queries.push(text) }),
    );
    const b = new RuleStore(under.instance());
    const ada = account();
    await under.records.commit({
      puts: [{ kind: "account", value: ada }],
      tallies: [{ key: "enabled", by: 1 }, { key: "role:user", by: 1 }],
    });
    const now = Date.now();
    const tokens: string[] = [];
    const signIns = Array.from({ length: 60 }, (_, i) => {
      const tokenHash = `digest-${i}-${crypto.randomUUID()}`;
      tokens.push(tokenHash);
      return (i % 2 === 0 ? a : b).createSession({
        tokenHash,
        userId: ada.id,
        createdAt: now + i,
        expiresAt: now + i + 3_600_000,
        maxSessions: CAP,
        expectedGeneration: 0,
      });
    });
    // Generic commits on the account and its tally meanwhile: renames,
    // checked on the account's version and retried until they land.
    const renames = Array.from({ length: 10 }, async (_, i) => {
      for (;;) {
        const [found] = await under.records.read([
          { kind: "account", key: ada.id },
        ]);
        const value = found!.value as AccountRecord;
        const commit: Commit = {
          checks: [{ kind: "account", key: ada.id, version: found!.version }],
          puts: [{ kind: "account", value: { ...value, name: `Ada ${i}` } }],
        };
        if (await under.records.commit(commit)) return;
      }
    });
    const created = await Promise.all(signIns);
    await Promise.all(renames);
    assert.deepEqual(created, created.map(() => true));
    assert.ok(queries.some((text) => text.includes(".commit_session(")));
    const sessions = await under.records.list("session", "userId", ada.id);
    assert.equal(sessions.length, CAP);
    const [tally] = await under.records.read([
      { kind: "tally", key: `sessions:${ada.id}` },
    ]);
    assert.equal((tally?.value as StoredTally).count, CAP);
    // The last ones to commit are the ones kept: each commit ended the
    // oldest beyond the cap, whatever the order they landed in.
    const kept = sessions.map((s) => (s.value as StoredSession).createdAt);
    assert.equal(new Set(kept).size, CAP);
  } finally {
    await under.close();
  }
});
