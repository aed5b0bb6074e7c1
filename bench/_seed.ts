// Prepares the stores the servers under test open: the account of
// bench/_fixtures.ts (created through the real store, with a real argon2id
// hash), probe sessions issued by the real `startSession`, and, for the
// scale and reaper scenarios, many more sessions written in bulk.
//
// Bulk sessions are written straight in the store's own layout because
// going through `createSession` one by one would take minutes for a
// million: KV gets batched atomic commits in KvStore's key layout
// (server/stores/kv/_keys.ts), Postgres one INSERT … SELECT over
// generate_series. Bulk sessions belong to the same account; what the
// scale scenario measures is the depth of the session index.

import postgres from "postgres";
import { createAuth } from "../server/auth.ts";
import { argon2Hasher } from "../server/password.ts";
import type { Store } from "../server/store.ts";
import { kvKeys, type SessionValue } from "../server/stores/kv/_keys.ts";
import { KvStore } from "../server/stores/kv/mod.ts";
import { PostgresStore } from "../server/stores/postgres/mod.ts";
import {
  COOKIE_NAME,
  DISABLED_USER,
  PASSWORD,
  registry,
  USER,
} from "./_fixtures.ts";

const DAY = 86_400_000;

let passwordHash: Promise<string> | undefined;
/** The argon2id hash of the fixture password, made once per run. */
export function fixtureHash(): Promise<string> {
  passwordHash ??= argon2Hasher().hash(PASSWORD);
  return passwordHash;
}

/** What a seeded store gives the scenarios. */
export interface Seeded {
  /** Cookie tokens of live sessions issued by the real `startSession`. */
  tokens: string[];
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
}

async function seedAccount(
  store: Store,
  probes: number,
  disabled = false,
): Promise<string[]> {
  await store.migrate();
  for (const user of disabled ? [USER, DISABLED_USER] : [USER]) {
    await store.createUser({
      ...user,
      emailKey: user.email,
      passwordHash: await fixtureHash(),
      createdAt: Date.now(),
    });
  }
  if (disabled) await store.updateUser(DISABLED_USER.id, { disabled: true });
  const auth = createAuth({
    store,
    cookieName: COOKIE_NAME,
    // The probes must all stay live: lift the per-account session cap.
    limits: { maxSessionsPerAccount: probes + 1 },
    roles: registry(),
  });
  const tokens: string[] = [];
  for (let i = 0; i < probes; i++) {
    const cookie = await auth.startSession(USER.id);
    tokens.push(cookie.slice(COOKIE_NAME.length + 1, cookie.indexOf(";")));
  }
  return tokens;
}

/** Creates a KV file at `path` with the account and sessions. */
export async function seedKv(
  path: string,
  options: SeedOptions = {},
): Promise<Seeded> {
  const kv = await Deno.openKv(path);
  try {
    const tokens = await seedAccount(
      new KvStore(kv),
      options.probes ?? 1,
      options.disabled,
    );
    const now = Date.now();
    await bulkKv(kv, options.bulkLive ?? 0, now, now + 7 * DAY);
    await bulkKv(kv, options.bulkExpired ?? 0, now - 8 * DAY, now - DAY);
    return { tokens };
  } finally {
    kv.close();
  }
}

// Deno KV takes at most 1000 mutations and 80 KiB of keys per commit; a
// session is three keys, about 240 bytes.
const KV_BATCH = 250;

async function bulkKv(
  kv: Deno.Kv,
  count: number,
  createdAt: number,
  expiresAt: number,
): Promise<void> {
  const k = kvKeys(["gatehouse"]);
  const value = (): SessionValue => ({
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
    const op = kv.atomic();
    for (let i = 0; i < Math.min(KV_BATCH, count - done); i++) {
      const hash = randomHash();
      op.set(k.session(hash), value())
        .set(k.sessionUser(USER.id, hash), expiresAt)
        .set(k.sessionExpiry(expiresAt, hash), USER.id);
    }
    inFlight.push(op.commit().catch((err) => failure ??= err));
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
    const tokens = await seedAccount(
      new PostgresStore(sql, { schema }),
      options.probes ?? 1,
      options.disabled,
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
    return { tokens };
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
