// The record-and-commit tables: what every RecordStore must do, whatever it
// stores records in. The domain scenarios (store_conformance.ts) then run
// the rules over it; these cases hold the store alone to the narrow
// interface's meaning, so a failure names the store's fault, not a rule's.

import type {
  AuditEvent,
  RecordStore,
  StoredLink,
  StoredPasskey,
  StoredTotp,
} from "../../core/records.ts";
import { account, event, session } from "./_builders.ts";

/** A record store opened for one case, and how to close it. */
export interface RecordStoreUnderTest {
  /** The store, fresh and empty. */
  records: RecordStore;
  /** Releases it. */
  close(): void | Promise<void>;
}

/** Opens a fresh, empty record store. */
export type OpenRecordStore = () =>
  | RecordStoreUnderTest
  | Promise<RecordStoreUnderTest>;

type Case = [string, (records: RecordStore) => Promise<void>];

function fail(message: string): never {
  throw new Error(message);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) fail(`${what}: expected ${e}, got ${a}`);
}

const CASES: Case[] = [
  [
    "a put record reads back exactly, by key and by unique field, one version",
    async (records) => {
      const a = account({ name: "Zoë ✓", disabled: true, generation: 3 });
      same(
        await records.commit({ puts: [{ kind: "account", value: a }] }),
        true,
        "commit",
      );
      const [byKey, byEmail, none] = await records.read([
        { kind: "account", key: a.id },
        { kind: "account", unique: "emailKey", value: a.emailKey },
        { kind: "account", key: crypto.randomUUID() },
      ]);
      same(byKey?.value, a, "by key");
      same(byEmail?.value, a, "by unique field");
      same(byKey?.version, byEmail?.version, "one version");
      same(none, null, "absent");
    },
  ],
  ["every kind's record round-trips with its types", async (records) => {
    const a = account();
    const totp: StoredTotp = {
      userId: a.id,
      secret: "sealed:v1:abc",
      lastStep: 57_000_000,
      recoveryCodes: ["h1", "h2"],
    };
    const passkey: StoredPasskey = {
      id: crypto.randomUUID(),
      userId: a.id,
      credentialId: "cred-1",
      publicKey: "pk",
      counter: 0,
      transports: ["usb", "nfc"],
      name: "Key",
      createdAt: 1,
      lastUsedAt: null,
    };
    const link: StoredLink = {
      tokenHash: "link-hash",
      id: crypto.randomUUID(),
      kind: "reset",
      email: a.email,
      emailKey: a.emailKey,
      name: "",
      role: "",
      userId: a.id,
      invitedBy: "",
      generation: 0,
      createdAt: 1,
      expiresAt: 2,
    };
    const pending = {
      tokenHash: "pending-hash",
      userId: a.id,
      generation: 1,
      factorVersion: 2,
      failures: 0,
      createdAt: 1,
      expiresAt: 2,
    };
    const challenge = {
      tokenHash: "challenge-hash",
      challenge: "c",
      use: "login" as const,
      userId: "",
      createdAt: 1,
      expiresAt: 2,
    };
    const enrolment = { userId: a.id, secret: "s", createdAt: 1, expiresAt: 2 };
    const s = session(a.id);
    const e = event({
      actorId: a.id,
      actorEmail: a.email,
      detail: { n: 1, ok: true, none: null },
    });
    same(
      await records.commit({
        puts: [
          { kind: "account", value: a },
          { kind: "session", value: s },
          { kind: "totp", value: totp },
          { kind: "passkey", value: passkey },
          { kind: "link", value: link },
          { kind: "pending", value: pending },
          { kind: "challenge", value: challenge },
          { kind: "enrolment", value: enrolment },
        ],
        events: [e],
      }),
      true,
      "commit",
    );
    const found = await records.read([
      { kind: "session", key: s.tokenHash },
      { kind: "totp", key: a.id },
      { kind: "passkey", unique: "credentialId", value: "cred-1" },
      { kind: "link", unique: "id", value: link.id },
      { kind: "pending", key: "pending-hash" },
      { kind: "challenge", key: "challenge-hash" },
      { kind: "enrolment", key: a.id },
    ]);
    same(found.map((f) => f?.value), [
      s,
      totp,
      passkey,
      link,
      pending,
      challenge,
      enrolment,
    ], "records");
    same(await records.events({ limit: 10 }), [e], "event");
  }],
  ["a check of a changed version refuses the whole commit", async (records) => {
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    const [read] = await records.read([{ kind: "account", key: a.id }]);
    const renamed = { ...a, name: "B" };
    same(
      await records.commit({
        checks: [{ kind: "account", key: a.id, version: read!.version }],
        puts: [{ kind: "account", value: renamed, before: a }],
      }),
      true,
      "first",
    );
    const other = account();
    same(
      await records.commit({
        checks: [{ kind: "account", key: a.id, version: read!.version }],
        puts: [{ kind: "account", value: other }],
        tallies: [{ key: "enabled", by: 1 }],
        events: [event()],
      }),
      false,
      "stale check",
    );
    const [after, notWritten, tally] = await records.read([
      { kind: "account", key: a.id },
      { kind: "account", key: other.id },
      { kind: "tally", key: "enabled" },
    ]);
    same(after?.value, renamed, "kept");
    same(notWritten, null, "nothing written");
    same(tally, null, "no tally");
    same(await records.events({ limit: 10 }), [], "no event");
  }],
  [
    "an absence check holds only while the record is absent",
    async (records) => {
      const a = account();
      const absent = { kind: "account" as const, key: a.id, version: null };
      same(
        await records.commit({
          checks: [absent],
          puts: [{ kind: "account", value: a }],
        }),
        true,
        "absent",
      );
      same(
        await records.commit({
          checks: [absent],
          puts: [{ kind: "account", value: a, before: a }],
        }),
        false,
        "present",
      );
    },
  ],
  [
    "a unique value held by another record refuses the commit",
    async (records) => {
      const a = account();
      const b = account({ emailKey: a.emailKey });
      await records.commit({ puts: [{ kind: "account", value: a }] });
      same(
        await records.commit({
          puts: [{ kind: "account", value: b }],
          tallies: [{ key: "t", by: 1 }],
        }),
        false,
        "taken",
      );
      same(
        await records.read([{ kind: "account", key: b.id }, {
          kind: "tally",
          key: "t",
        }]),
        [null, null],
        "nothing written",
      );
      // Freed by a change of the holder in the same commit, it may be taken.
      const moved = { ...a, emailKey: "moved@example.com" };
      same(
        await records.commit({
          puts: [{ kind: "account", value: moved, before: a }, {
            kind: "account",
            value: b,
          }],
        }),
        true,
        "freed",
      );
      const [old, now] = await records.read([
        { kind: "account", unique: "emailKey", value: "moved@example.com" },
        { kind: "account", unique: "emailKey", value: a.emailKey },
      ]);
      same(old?.value, moved, "new value indexed");
      same(now?.value, b, "old value re-used");
    },
  ],
  [
    "sessions are listed by the single sign-on identity that made them, whichever account; one without it under none",
    async (records) => {
      const [a, b] = [account(), account()];
      const key = "subject-key-1";
      const sso = { ssoProvider: "acme", ssoSubjectKey: key };
      const mine = session(a.id, sso);
      const theirs = session(b.id, sso);
      const another = session(a.id, { ...sso, ssoSubjectKey: "subject-key-2" });
      const plain = session(a.id);
      await records.commit({
        puts: [
          { kind: "account", value: a },
          { kind: "account", value: b },
          ...[mine, theirs, another, plain].map((value) => ({
            kind: "session" as const,
            value,
          })),
        ],
      });
      const listed = async () =>
        (await records.list("session", "ssoSubjectKey", key))
          .map((v) => v.value).sort((x, y) =>
            x.tokenHash < y.tokenHash ? -1 : 1
          );
      same(
        await listed(),
        [mine, theirs].sort((x, y) => x.tokenHash < y.tokenHash ? -1 : 1),
        "by identity",
      );
      await records.commit({ deletes: [{ kind: "session", value: mine }] });
      same(await listed(), [theirs], "a deleted one unlisted");
    },
  ],
  ["a changed unique or list field leaves no stale entry", async (records) => {
    const a = account();
    const s = session(a.id);
    await records.commit({
      puts: [{ kind: "account", value: a }, { kind: "session", value: s }],
    });
    const b = account();
    const moved = { ...s, userId: b.id };
    await records.commit({
      puts: [{ kind: "account", value: b }, {
        kind: "session",
        value: moved,
        before: s,
      }],
    });
    same((await records.list("session", "userId", a.id)).length, 0, "old list");
    same((await records.list("session", "userId", b.id)).map((v) => v.value), [
      moved,
    ], "new list");
    const renamed = { ...a, emailKey: "new@example.com" };
    await records.commit({
      puts: [{ kind: "account", value: renamed, before: a }],
    });
    same(
      await records.read([{
        kind: "account",
        unique: "emailKey",
        value: a.emailKey,
      }]),
      [null],
      "old unique",
    );
  }],
  [
    "a delete removes the record and its entries; an absent one is fine",
    async (records) => {
      const a = account();
      const s = session(a.id);
      await records.commit({
        puts: [{ kind: "account", value: a }, { kind: "session", value: s }],
      });
      same(
        await records.commit({
          deletes: [{ kind: "session", value: s }, {
            kind: "account",
            value: a,
          }],
        }),
        true,
        "delete",
      );
      same(
        await records.read([{ kind: "account", key: a.id }, {
          kind: "account",
          unique: "emailKey",
          value: a.emailKey,
        }, { kind: "session", key: s.tokenHash }]),
        [null, null, null],
        "gone",
      );
      same(await records.list("session", "userId", a.id), [], "list");
      same(
        await records.commit({ deletes: [{ kind: "session", value: s }] }),
        true,
        "absent delete",
      );
      same(await records.hasAccounts(), false, "no accounts");
    },
  ],
  ["tallies add up from zero and move their version", async (records) => {
    await records.commit({ tallies: [{ key: "role:admin", by: 1 }] });
    const [first] = await records.read([{ kind: "tally", key: "role:admin" }]);
    same(first?.value, { key: "role:admin", count: 1 }, "first");
    await records.commit({ tallies: [{ key: "role:admin", by: 2 }] });
    await records.commit({ tallies: [{ key: "role:admin", by: -1 }] });
    const [second] = await records.read([{ kind: "tally", key: "role:admin" }]);
    same(second?.value, { key: "role:admin", count: 2 }, "sum");
    if (second!.version === first!.version) fail("the version did not move");
    same(
      await records.commit({
        checks: [{ kind: "tally", key: "role:admin", version: first!.version }],
      }),
      false,
      "stale tally check",
    );
  }],
  [
    "200 racing commits checking one version: exactly one wins",
    async (records) => {
      const a = account();
      await records.commit({ puts: [{ kind: "account", value: a }] });
      const [read] = await records.read([{ kind: "account", key: a.id }]);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          records.commit({
            checks: [{ kind: "account", key: a.id, version: read!.version }],
            puts: [{
              kind: "account",
              value: { ...a, name: `n${i}` },
              before: a,
            }],
            tallies: [{ key: "wins", by: 1 }],
          })),
      );
      same(results.filter(Boolean).length, 1, "winners");
      const [tally] = await records.read([{ kind: "tally", key: "wins" }]);
      same(tally?.value, { key: "wins", count: 1 }, "one write");
    },
  ],
  [
    "100 racing creations of one key with absence checks: exactly one wins",
    async (records) => {
      const id = crypto.randomUUID();
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          records.commit({
            checks: [{ kind: "account", key: id, version: null }],
            puts: [{ kind: "account", value: account({ id, name: `n${i}` }) }],
          })),
      );
      same(results.filter(Boolean).length, 1, "winners");
    },
  ],
  ["list answers every record of the field's value", async (records) => {
    const a = account();
    const sessions = Array.from({ length: 25 }, () => session(a.id));
    await records.commit({
      puts: [
        { kind: "account", value: a },
        ...sessions.map((value) => ({ kind: "session" as const, value })),
      ],
    });
    const other = account();
    await records.commit({
      puts: [
        { kind: "account", value: other },
        { kind: "session", value: session(other.id) },
      ],
    });
    const listed = (await records.list("session", "userId", a.id)).map((v) =>
      v.value.tokenHash
    ).sort();
    same(listed, sessions.map((s) => s.tokenHash).sort(), "listed");
  }],
  [
    "events page newest first by id, by account (actor or target) and type",
    async (records) => {
      const u = crypto.randomUUID();
      const all = [
        event({ actorId: u }),
        event({ targetId: u, type: "user.disabled" }),
        event({ type: "user.disabled" }),
        event({ actorId: u, targetId: u, type: "session.revoked" }),
        event(),
      ];
      await records.commit({ events: all.slice(0, 3) });
      await records.commit({ events: all.slice(3) });
      const ids = (es: AuditEvent[]) => es.map((e) => e.id);
      const newest = [...all].reverse();
      same(ids(await records.events({ limit: 10 })), ids(newest), "all");
      const first = await records.events({ limit: 2 });
      same(ids(first), ids(newest.slice(0, 2)), "page 1");
      same(
        ids(await records.events({ limit: 2, cursor: first[1]!.id })),
        ids(newest.slice(2, 4)),
        "page 2",
      );
      same(
        ids(await records.events({ limit: 10, userId: u })),
        ids([all[3]!, all[1]!, all[0]!]),
        "by account",
      );
      same(
        ids(await records.events({ limit: 10, type: "user.disabled" })),
        ids([all[2]!, all[1]!]),
        "by type",
      );
      same(
        ids(
          await records.events({ limit: 10, userId: u, type: "user.disabled" }),
        ),
        ids([all[1]!]),
        "both",
      );
    },
  ],
  [
    "deleteExpired deletes what ended by `before`, at most `limit`",
    async (records) => {
      const a = account();
      const ended = Array.from(
        { length: 5 },
        (_, i) => session(a.id, { expiresAt: 1000 + i }),
      );
      const live = session(a.id, { expiresAt: 5000 });
      await records.commit({
        puts: [
          { kind: "account", value: a },
          ...[...ended, live].map((value) => ({
            kind: "session" as const,
            value,
          })),
        ],
      });
      same(await records.deleteExpired("session", 1004, 3), 3, "first batch");
      same(await records.deleteExpired("session", 1004, 3), 2, "second batch");
      same(await records.deleteExpired("session", 1004, 3), 0, "none left");
      same(
        (await records.list("session", "userId", a.id)).map((v) => v.value),
        [live],
        "live kept",
      );
      same(
        await records.read([{ kind: "session", key: ended[0]!.tokenHash }]),
        [null],
        "gone",
      );
      await records.commit({ events: [event({ at: 10 }), event({ at: 20 })] });
      same(await records.deleteExpired("event", 15, 10), 1, "events");
    },
  ],
  ["accounts page, search and count", async (records) => {
    const names = ["Carol", "alice", "Bob"];
    for (const [i, name] of names.entries()) {
      await records.commit({
        puts: [{
          kind: "account",
          value: account({ name, nameKey: name.toLowerCase(), createdAt: i }),
        }],
      });
    }
    same(await records.hasAccounts(), true, "has");
    const byName = await records.accounts({ limit: 2, sort: "name" });
    same(byName.accounts.map((a) => a.name), ["alice", "Bob"], "page 1");
    same(byName.total, 3, "total");
    const next = await records.accounts({
      limit: 2,
      sort: "name",
      cursor: byName.nextCursor!,
    });
    same(next.accounts.map((a) => a.name), ["Carol"], "page 2");
    same(next.nextCursor, null, "end");
    same(
      (await records.accounts({ limit: 10, q: "bo" })).accounts.map((a) =>
        a.name
      ),
      ["Bob"],
      "search",
    );
    same(typeof byName.accounts[0]!.passwordHash, "string", "whole records");
  }],
  [
    "200 concurrent reservations against a limit of 50 admit exactly 50",
    async (records) => {
      const window = { now: 1000, windowMs: 60_000, limit: 50 };
      const results = await Promise.all(
        Array.from({ length: 200 }, () => records.reserveAttempt("k", window)),
      );
      same(results.filter((r) => r.admitted).length, 50, "admitted");
      same(
        await records.readCounter("k", 1000),
        { count: 50, resetAt: 61_000 },
        "counter",
      );
      await records.releaseAttempt("k", 61_000);
      same((await records.readCounter("k", 1000))?.count, 49, "released");
      await records.releaseAttempt("k", 999);
      same(
        (await records.readCounter("k", 1000))?.count,
        49,
        "other window untouched",
      );
      same(await records.readCounter("k", 61_000), null, "ended");
      same(await records.deleteExpiredCounters(61_000, 10), 1, "swept");
    },
  ],
];

/**
 * Registers the record-and-commit cases for a {@linkcode RecordStore}, each
 * on a fresh store from `open`.
 *
 * @example
 * ```ts ignore
 * import { recordStoreConformance } from "@gatehouse/server/conformance";
 * import { SqliteRecords } from "@gatehouse/server/sqlite";
 *
 * recordStoreConformance("SqliteRecords", () => {
 *   const records = new SqliteRecords({ path: ":memory:" });
 *   return { records, close: () => records.close() };
 * });
 * ```
 */
export function recordStoreConformance(
  name: string,
  open: OpenRecordStore,
  options: { ignore?: boolean } = {},
): void {
  for (const [title, check] of CASES) {
    Deno.test({
      name: `${name} (records): ${title}`,
      ignore: options.ignore ?? false,
      async fn() {
        const opened = await open();
        try {
          await opened.records.migrate();
          await check(opened.records);
        } finally {
          await opened.close();
        }
      },
    });
  }
}
