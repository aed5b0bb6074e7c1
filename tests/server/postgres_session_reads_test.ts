// PostgresRecords' two paths that the session check and the Reaper take on
// Postgres, against the real database: the session check's own read (a
// session and an account by key in one join, _session_reads.ts) answers
// exactly what the generic read answers, alone and coalesced; and the
// expiry sweep takes the earliest expiries first through the expiry index,
// never an unexpired row, however many batches it takes.

import assert from "node:assert/strict";
import type { RecordRef } from "../../server/core/records.ts";
import { ignorePostgres } from "../fixtures/postgres.ts";
import {
  account,
  schemaRecords,
  session,
} from "../fixtures/postgres_records.ts";

function test(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: ignorePostgres, fn });
}

// A ref only the generic read answers: added to a read, it sends that read
// (and any read coalesced with it) through the generic query.
const GENERIC: RecordRef = { kind: "tally", key: "enabled" };

test("PostgresRecords answers the session check's reads as the generic read does, alone and coalesced", async () => {
  const queries: string[] = [];
  const { records: writer, close, instance } = await schemaRecords();
  try {
    const a = account({
      role: "admin",
      totpEnabled: true,
      passkeyCount: 2,
      factorVersion: 3,
      generation: 4,
      locale: "de",
      localeChosen: true,
      name: 'Zoë "quoted", {braces}',
    });
    const b = account({ disabled: true });
    const sso = session(a.id, {
      generation: 4,
      ssoProvider: "corp",
      ssoSid: "sid-1",
      ssoSubjectKey: "subject-key-1",
      userAgent: 'Agent with "quotes", commas and {braces}',
    });
    const plain = session(a.id, { generation: 4, ip: "" });
    const other = session(b.id);
    await writer.commit({
      puts: [
        { kind: "account", value: a },
        { kind: "account", value: b },
        { kind: "session", value: sso },
        { kind: "session", value: plain },
        { kind: "session", value: other },
      ],
    });
    const s = (x: { tokenHash: string }): RecordRef => ({
      kind: "session",
      key: x.tokenHash,
    });
    const u = (id: string): RecordRef => ({ kind: "account", key: id });
    const cases: RecordRef[][] = [
      [s(sso), u(a.id)],
      [s(plain), u(a.id)],
      [u(a.id), s(sso)],
      [s(other), u(a.id)],
      [s(other), u(b.id)],
      [s(sso)],
      [u(b.id)],
      [u(a.id.toUpperCase())],
      [{ kind: "session", key: "missing" }, u(a.id)],
      [s(sso), u("not-a-uuid")],
      [s(sso), u(crypto.randomUUID())],
    ];
    // The generic read's answers, each case read beside a ref only it reads.
    const expected = [];
    for (const refs of cases) {
      expected.push((await writer.read([...refs, GENERIC])).slice(0, -1));
    }
    assert.deepEqual(expected[0]![0]!.value, sso);
    assert.deepEqual(expected[2]![0]!.value, a);
    assert.equal(expected[8]![0], null);
    assert.equal(expected[9]![1], null);

    const records = instance({
      sessionReadsInFlight: 1,
      onQuery: (text) => queries.push(text),
    });
    // The pool's first connection asks for the database's types first.
    await records.read([GENERIC]);
    // Alone: one query each, the scalar statement.
    for (const [i, refs] of cases.entries()) {
      queries.length = 0;
      assert.deepEqual(await records.read(refs), expected[i], `case ${i}`);
      assert.equal(queries.length, 1);
      assert.doesNotMatch(queries[0]!, /row_to_json|unnest/);
    }
    // Coalesced: every case three times at once, one query for the many.
    queries.length = 0;
    const many = cases.flatMap((refs) => [refs, refs, refs]);
    const answers = await Promise.all(many.map((refs) => records.read(refs)));
    for (const [i, answer] of answers.entries()) {
      assert.deepEqual(answer, expected[Math.floor(i / 3)], `read ${i}`);
    }
    assert.ok(queries.length <= 2, `${queries.length} queries`);
    assert.ok(queries.some((text) => /unnest/.test(text)));
    // Each reader has records of its own, even of one row.
    (answers[0]![1]!.value as { name: string }).name = "changed";
    (answers[0]![0]!.value as { ip: string }).ip = "changed";
    assert.deepEqual(answers[1], expected[0]);

    // A read beside another kind of read goes through the generic query,
    // and both are answered.
    queries.length = 0;
    const [check, tally] = await Promise.all([
      records.read([s(sso), u(a.id)]),
      records.read([GENERIC]),
      records.read([s(plain), u(a.id)]),
    ]);
    assert.deepEqual(check, expected[0]);
    assert.deepEqual(tally, [null]);
    assert.ok(queries.some((text) => /row_to_json/.test(text)));

    // Nothing is kept: a session ended, an account disabled, are read so.
    await writer.commit({
      deletes: [{ kind: "session", value: sso }],
      puts: [{ kind: "account", value: { ...a, disabled: true }, before: a }],
    });
    const [gone, disabled] = await records.read([s(sso), u(a.id)]);
    assert.equal(gone, null);
    assert.equal((disabled!.value as { disabled: boolean }).disabled, true);
    assert.notEqual(disabled!.version, expected[0]![1]!.version);
  } finally {
    await close();
  }
});

test("PostgresRecords.deleteExpired() takes the earliest expiries first and never an unexpired row, batch after batch", async () => {
  const { records, close } = await schemaRecords();
  try {
    const a = account();
    const now = 1_700_000_000_000;
    // 240 expired at shuffled times (several at the same time), 60 live.
    const expired = Array.from(
      { length: 240 },
      (_, i) => session(a.id, { expiresAt: now - 1 - (i * 7919) % 120 }),
    );
    const live = Array.from(
      { length: 60 },
      (_, i) => session(a.id, { expiresAt: now + 1 + i }),
    );
    await records.commit({
      puts: [
        { kind: "account", value: a },
        ...[...live, ...expired].map((value) => ({
          kind: "session" as const,
          value,
        })),
      ],
    });
    const byExpiry = [...expired].sort((x, y) => x.expiresAt - y.expiresAt);
    let swept = 0;
    for (;;) {
      const deleted = await records.deleteExpired("session", now, 25);
      swept += deleted;
      const left = (await records.list("session", "userId", a.id))
        .map((found) => found.value);
      // What is left of the expired is the latest of them: every expiry
      // below the earliest left is gone.
      const leftExpired = left.filter((x) => x.expiresAt <= now);
      assert.equal(leftExpired.length, expired.length - swept);
      if (leftExpired.length > 0) {
        const earliest = Math.min(...leftExpired.map((x) => x.expiresAt));
        assert.ok(
          byExpiry.slice(0, swept).every((x) => x.expiresAt <= earliest),
          `after ${swept}: an expiry before ${earliest} was left`,
        );
      }
      assert.equal(left.length - leftExpired.length, live.length);
      if (deleted < 25) break;
    }
    assert.equal(swept, expired.length);
    assert.equal(await records.deleteExpired("session", now, 25), 0);
    assert.equal(
      await records.deleteExpired("session", now + live.length, 100),
      live.length,
    );
  } finally {
    await close();
  }
});
