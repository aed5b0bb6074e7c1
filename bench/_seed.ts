// Prepares the stores the servers under test open: the account of
// bench/_fixtures.ts (created through the real store, with a real argon2id
// hash), probe sessions issued by the real `startSession`, member accounts
// (with sessions, or with TOTP enrolled through the store's own
// `startTotpEnrolment` and `confirmTotp`), and, for the scale and reaper
// scenarios, many more sessions written in bulk.
//
// Bulk sessions skip the rules because going through `createSession` one
// by one would take minutes for a million: KV gets batched commits of
// session records through KvRecords.commit (the record with its list and
// expiry entries, whatever the key layout), Postgres one INSERT … SELECT
// over generate_series. Both move the account's `sessions:{userId}` tally by
// as many, as a sign-in would: its count must never be below the sessions
// stored (a sign-in at the cap lists them only then). Bulk sessions belong
// to the same account; what the scale scenario measures is the depth of the
// session index.

import postgres from "postgres";
import { createAuth } from "../server/core/auth.ts";
import { argon2Hasher } from "../server/core/password.ts";
import {
  hashRecoveryCode,
  newRecoveryCodes,
} from "../server/core/recovery_codes.ts";
import type { Store } from "../server/core/store.ts";
import type { StoredSession } from "../server/core/records.ts";
import { KvRecords, KvStore } from "../server/stores/kv/mod.ts";
import { PostgresStore } from "../server/stores/postgres/mod.ts";
import {
  COOKIE_NAME,
  DISABLED_USER,
  PASSWORD,
  registry,
  USER,
} from "./_fixtures.ts";
import { TOTP_SECRET, totpStep } from "./_totp.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let passwordHash: Promise<string> | undefined;
/** The argon2id hash of the fixture password, made once per run. */
export function fixtureHash(): Promise<string> {
  passwordHash ??= argon2Hasher().hash(PASSWORD);
  return passwordHash;
}

/** A member account a seed adds beside {@linkcode USER}. */
export interface SeededMember {
  id: string;
  email: string;
  /** Cookie tokens of its sessions. */
  tokens: string[];
}

/** What a seeded store gives the scenarios. */
export interface Seeded {
  /** Cookie tokens of live sessions issued by the real `startSession`. */
  tokens: string[];
  /** The member accounts, in the order of their emails' numbers. */
  members: SeededMember[];
}

/** How much to put in a store beyond the account. */
export interface SeedOptions {
  /** Probe sessions issued through `startSession` (their tokens are returned). */
  probes?: number;
  /** Live sessions written in bulk (tokens unknown, only their hashes). */
  bulkLive?: number;
  /** Expired sessions written in bulk, for the reaper. */
  bulkExpired?: number;
  /** Also a disabled account ({@linkcode DISABLED_USER}). */
  disabled?: boolean;
  /** Member accounts, group after group, numbered on across the groups. */
  members?: readonly MemberGroup[];
}

/**
 * Member accounts of a seed (`member-<i>@example.com`, role "member", the
 * fixture password): `count` of them, each with `sessions` live sessions
 * (none by default) and, with `totp`, TOTP enabled with
 * {@linkcode TOTP_SECRET}.
 */
export interface MemberGroup {
  count: number;
  sessions?: number;
  totp?: boolean;
}

/** The email of member `i` of a seed. */
export const memberEmail = (i: number): string => `member-${i}@example.com`;

async function seedAccounts(
  store: Store,
  options: SeedOptions,
): Promise<Seeded> {
  await store.migrate();
  const passwordHash = await fixtureHash();
  for (const user of options.disabled ? [USER, DISABLED_USER] : [USER]) {
    await store.createUser({
      ...user,
      emailKey: user.email,
      passwordHash,
      createdAt: Date.now(),
    });
  }
  if (options.disabled) {
    await store.updateUser(DISABLED_USER.id, { disabled: true });
  }
  const probes = options.probes ?? 1;
  const groups = options.members ?? [];
  const auth = createAuth({
    store,
    cookieName: COOKIE_NAME,
    // The seeded sessions must all stay live: lift the per-account cap.
    limits: {
      maxSessionsPerAccount: Math.max(
        probes,
        ...groups.map((g) => g.sessions ?? 0),
      ) + 1,
    },
    roles: registry(),
  });
  const sessionsOf = async (userId: string, count: number) => {
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) {
      const cookie = await auth.startSession(userId);
      tokens.push(cookie.slice(COOKIE_NAME.length + 1, cookie.indexOf(";")));
    }
    return tokens;
  };
  const tokens = await sessionsOf(USER.id, probes);
  const specs = groups.flatMap((g) => Array<MemberGroup>(g.count).fill(g));
  const members = await inParallel(specs.length, async (i) => {
    const spec = specs[i]!;
    const email = memberEmail(i);
    const { id } = await store.createUser({
      id: crypto.randomUUID(),
      email,
      emailKey: email,
      name: `Member ${i}`,
      role: "member",
      passwordHash,
      createdAt: Date.now(),
    });
    if (spec.totp) await enrolTotp(store, id);
    return { id, email, tokens: await sessionsOf(id, spec.sessions ?? 0) };
  });
  return { tokens, members };
}

// TOTP enabled as the enrolment screens would leave it, through the store:
// an enrolment confirmed by a code of a step an hour ago (the confirming
// step counts as used, and the bench signs in with codes of the current
// one).
async function enrolTotp(store: Store, userId: string): Promise<void> {
  const now = Date.now();
  await store.startTotpEnrolment({
    userId,
    secret: TOTP_SECRET,
    createdAt: now,
    expiresAt: now + HOUR,
  });
  const confirmed = await store.confirmTotp(userId, {
    secret: TOTP_SECRET,
    step: totpStep(now - HOUR),
    recoveryCodeHashes: newRecoveryCodes().map((code) =>
      hashRecoveryCode(code)!
    ),
    now,
  });
  if (!confirmed) throw new Error(`TOTP not confirmed for ${userId}`);
}

// `count` calls of `task`, a few at a time (accounts are independent; one
// commit after another would take seconds for a thousand).
async function inParallel<T>(
  count: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, count) }, worker));
  return out;
}

/** Creates a KV file at `path` with the account and sessions. */
export async function seedKv(
  path: string,
  options: SeedOptions = {},
): Promise<Seeded> {
  const kv = await Deno.openKv(path);
  try {
    const seeded = await seedAccounts(new KvStore(kv), options);
    const now = Date.now();
    await bulkKv(kv, options.bulkLive ?? 0, now, now + 7 * DAY);
    await bulkKv(kv, options.bulkExpired ?? 0, now - 8 * DAY, now - DAY);
    return seeded;
  } finally {
    kv.close();
  }
}

// Deno KV takes at most 1000 mutations and 80 KiB of keys per commit; a
// session is three keys (record, list entry, expiry entry), about 240
// bytes.
const KV_BATCH = 250;

async function bulkKv(
  kv: Deno.Kv,
  count: number,
  createdAt: number,
  expiresAt: number,
): Promise<void> {
  const records = new KvRecords(kv);
  const session = (): StoredSession => ({
    tokenHash: randomHash(),
    id: crypto.randomUUID(),
    userId: USER.id,
    generation: 0,
    createdAt,
    expiresAt,
    lastSeenAt: createdAt,
    authenticatedAt: createdAt,
    ip: "",
    userAgent: "",
  });
  // A few commits in flight keep SQLite busy without piling up memory.
  // Each carries its own handler so that a failure is never "unhandled".
  const inFlight: Promise<unknown>[] = [];
  let failure: unknown;
  for (let done = 0; done < count; done += KV_BATCH) {
    // New records under fresh random keys, checked by nothing: the commit
    // cannot conflict, so `false` would mean a store that lost them.
    const puts = Array.from(
      { length: Math.min(KV_BATCH, count - done) },
      () => ({ kind: "session" as const, value: session() }),
    );
    inFlight.push(
      records.commit({
        puts,
        tallies: [{ key: `sessions:${USER.id}`, by: puts.length }],
      }).then((ok) => {
        if (!ok) throw new Error("KvRecords refused a bulk session commit");
      }).catch((err) => failure ??= err),
    );
    if (inFlight.length === 8) await inFlight.shift();
    if (failure !== undefined) break;
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
}

// Looks like a token hash (43 base64url characters); no token maps to it.
function randomHash(): string {
  return crypto.getRandomValues(new Uint8Array(32)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

/** Recreates `schema` in Postgres with the account and sessions. */
export async function seedPostgres(
  url: string,
  schema: string,
  options: SeedOptions = {},
): Promise<Seeded> {
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  try {
    await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    const seeded = await seedAccounts(
      new PostgresStore(sql, { schema }),
      options,
    );
    const now = Date.now();
    await bulkPostgres(sql, schema, options.bulkLive ?? 0, now, now + 7 * DAY);
    await bulkPostgres(
      sql,
      schema,
      options.bulkExpired ?? 0,
      now - 8 * DAY,
      now - DAY,
    );
    await sql.unsafe(`ANALYZE "${schema}".sessions`);
    return seeded;
  } finally {
    await sql.end();
  }
}

async function bulkPostgres(
  sql: postgres.Sql,
  schema: string,
  count: number,
  createdAt: number,
  expiresAt: number,
): Promise<void> {
  if (count === 0) return;
  // 32 random bytes, base64url without padding: the shape of a real hash.
  await sql.unsafe(
    `INSERT INTO "${schema}".sessions
       (token_hash, id, user_id, generation, created_at, expires_at,
        last_seen_at, authenticated_at)
     SELECT rtrim(translate(encode(sha256(gen_random_uuid()::text::bytea),
                 'base64'), '+/', '-_'), '='),
            gen_random_uuid(), $1, 0, $2, $3, $2, $2
     FROM generate_series(1, $4)`,
    [USER.id, createdAt, expiresAt, count],
  );
  await sql.unsafe(
    `INSERT INTO "${schema}".tallies AS t (key, count) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET count = t.count + excluded.count`,
    [`sessions:${USER.id}`, count],
  );
}

/** Drops a bench schema. */
export async function dropPostgresSchema(
  url: string,
  schema: string,
): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await sql.end();
  }
}

/** Adds `count` sessions that expired a day ago to an existing KV file. */
export async function addExpiredKv(path: string, count: number): Promise<void> {
  const kv = await Deno.openKv(path);
  try {
    const now = Date.now();
    await bulkKv(kv, count, now - 8 * DAY, now - DAY);
  } finally {
    kv.close();
  }
}

/** Adds `count` sessions that expired a day ago to an existing schema. */
export async function addExpiredPostgres(
  url: string,
  schema: string,
  count: number,
): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const now = Date.now();
    await bulkPostgres(sql, schema, count, now - 8 * DAY, now - DAY);
    // Expired sessions pile up over hours in real life, and autovacuum keeps
    // the planner's statistics current meanwhile; 100 000 rows appearing at
    // once would otherwise leave plans made for a near-empty table.
    await sql.unsafe(`ANALYZE "${schema}".sessions`);
  } finally {
    await sql.end();
  }
}
