/**
 * The embedded store: Deno KV, on a local file (`Deno.openKv(path)`), in
 * memory (`:memory:`), or Deno Deploy's managed KV. Pass the `Deno.Kv` you
 * opened; the store never opens or closes it.
 *
 * Every multi-record decision is one atomic commit guarded by versionstamp
 * checks and retried on conflict, so several instances sharing one KV
 * database keep the same rules as one.
 *
 * @example Opening the store
 * ```ts
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * kv.close();
 * ```
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import type {
  Counter,
  InvitationAcceptance,
  LinkRecord,
  NewSession,
  NewUser,
  ResetConfirmation,
  SessionLookup,
  Store,
  UserCredentials,
  UserPage,
  UserQuery,
  UserRecord,
  UserUpdate,
} from "../store.ts";
import {
  countOf,
  type KvKeys,
  kvKeys,
  MINUS_ONE,
  type SessionValue,
  ttl,
  type UserValue,
} from "./_kv_keys.ts";
import { userUpdateDecision } from "./_user_rules.ts";

const SCHEMA_VERSION = 1;
const MAX_ATTEMPTS = 100;
const MAX_PRIVILEGED_ROLES = 9;
// Deno KV takes at most 1000 mutations per commit; a session costs three.
// Smaller commits hold KV's single writer for less time, so session reads
// queued behind a sweep or a mass revocation wait less.
const SESSION_BATCH = 100;

/** Options of {@linkcode KvStore}. */
export interface KvStoreOptions {
  /** Key prefix, so Gatehouse can share a database; `["gatehouse"]` by default. */
  prefix?: Deno.KvKey;
}

/**
 * The Deno KV implementation of `Store`.
 *
 * @example Two app instances sharing one KV file
 * ```ts
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const path = await Deno.makeTempFile();
 * const a = await Deno.openKv(path);
 * const b = await Deno.openKv(path);
 * const storeA = new KvStore(a);
 * const storeB = new KvStore(b);
 * await storeA.migrate();
 * console.assert(!(await storeB.hasUsers()));
 * a.close();
 * b.close();
 * ```
 */
export class KvStore implements Store {
  readonly #kv: Deno.Kv;
  readonly #keys: KvKeys;

  /**
   * Wraps an open `Deno.Kv`.
   *
   * @param kv The database; the caller opens and closes it.
   * @param options The key prefix.
   */
  constructor(kv: Deno.Kv, options: KvStoreOptions = {}) {
    this.#kv = kv;
    this.#keys = kvKeys(options.prefix ?? ["gatehouse"]);
  }

  /** Records the schema version; refuses a database from a newer version. */
  async migrate(): Promise<void> {
    const key = this.#keys.schema();
    const current = await this.#kv.get<number>(key);
    if (current.value !== null && current.value > SCHEMA_VERSION) {
      throw new Error(
        `Cannot use store: schema version ${current.value} is newer than this Gatehouse (${SCHEMA_VERSION})`,
      );
    }
    if (current.value === SCHEMA_VERSION) return;
    await commit(this.#kv.atomic().check(current).set(key, SCHEMA_VERSION));
  }

  /** Creates an account; `email_taken` when the address is in use. */
  createUser(user: NewUser): Promise<UserRecord> {
    const k = this.#keys;
    const value: UserValue = { ...user, disabled: false, generation: 0 };
    return this.#retry(async () => {
      const emailKey = k.userEmail(user.email.toLowerCase());
      const taken = await this.#kv.get(emailKey);
      if (taken.value !== null) {
        throw new AuthError("email_taken", { meta: { field: "email" } });
      }
      const op = this.#kv.atomic()
        .check(taken, { key: k.user(user.id), versionstamp: null })
        .set(k.user(user.id), value)
        .set(emailKey, user.id);
      this.#countEnabled(op, user.role, 1n);
      return { op, result: toRecord(value) };
    });
  }

  /** The account with this id, or null. */
  async userById(id: string): Promise<UserRecord | null> {
    const entry = await this.#kv.get<UserValue>(this.#keys.user(id));
    return entry.value === null ? null : toRecord(entry.value);
  }

  /** The account and password hash for an email (any case), or null. */
  async credentialsByEmail(email: string): Promise<UserCredentials | null> {
    const id = await this.#kv.get<string>(
      this.#keys.userEmail(email.trim().toLowerCase()),
    );
    if (id.value === null) return null;
    const user = await this.#kv.get<UserValue>(this.#keys.user(id.value));
    if (user.value === null) return null;
    return {
      user: toRecord(user.value),
      passwordHash: user.value.passwordHash,
    };
  }

  /** A page of accounts in creation order, optionally filtered by `q`. */
  async listUsers(query: UserQuery): Promise<UserPage> {
    const prefix = this.#keys.users();
    const needle = query.q?.trim().toLowerCase() ?? "";
    const selector: Deno.KvListSelector = query.cursor === undefined
      ? { prefix }
      : { prefix, start: [...prefix, query.cursor] };
    const users: UserRecord[] = [];
    for await (
      const entry of this.#kv.list<UserValue>(selector, { batchSize: 200 })
    ) {
      const user = entry.value;
      if (user.id === query.cursor) continue;
      if (
        needle !== "" && !user.email.toLowerCase().includes(needle) &&
        !user.name.toLowerCase().includes(needle)
      ) continue;
      if (users.length === query.limit) {
        return { users, nextCursor: users[users.length - 1]!.id };
      }
      users.push(toRecord(user));
    }
    return { users, nextCursor: null };
  }

  /** Whether any account exists. */
  async hasUsers(): Promise<boolean> {
    for await (
      const _ of this.#kv.list({ prefix: this.#keys.users() }, { limit: 1 })
    ) {
      return true;
    }
    return false;
  }

  /** Applies `update` atomically under its rules. */
  async updateUser(id: string, update: UserUpdate): Promise<UserRecord> {
    const k = this.#keys;
    let revoked = false;
    const user = await this.#retry(async () => {
      const entry = await this.#kv.get<UserValue>(k.user(id));
      if (entry.value === null) throw new AuthError("user_not_found");
      const current = entry.value;
      const ruleKeys = update.keepPrivileged === undefined
        ? []
        : update.keepPrivileged.length === 0
        ? [k.enabledCount()]
        // A role listed twice must not count its accounts twice.
        : [...new Set(update.keepPrivileged)].map((role) => k.roleCount(role));
      if (ruleKeys.length > MAX_PRIVILEGED_ROLES) {
        // Deno KV checks at most 10 keys per commit: the account plus one
        // counter per privileged role.
        throw new Error(
          `KvStore supports at most ${MAX_PRIVILEGED_ROLES} privileged roles, got ${ruleKeys.length}`,
        );
      }
      const counters = ruleKeys.length === 0
        ? []
        : await this.#kv.getMany(ruleKeys);
      const decision = userUpdateDecision(
        current,
        update,
        () => counters.reduce((sum, entry) => sum + countOf(entry), 0),
      );
      const next: UserValue = { ...current, ...decision.changes };
      revoked = next.generation !== current.generation;
      const op = this.#kv.atomic().check(entry, ...counters).set(
        k.user(id),
        next,
      );
      this.#moveCounts(op, current, next);
      return { op, result: toRecord(next) };
    });
    if (revoked) await this.#deleteSessionsOf(id);
    return user;
  }

  /** Replaces a password hash if it is still `previousHash`. */
  replacePasswordHash(
    id: string,
    previousHash: string,
    nextHash: string,
  ): Promise<boolean> {
    return this.#retry(async () => {
      const entry = await this.#kv.get<UserValue>(this.#keys.user(id));
      if (entry.value === null || entry.value.passwordHash !== previousHash) {
        return { op: null, result: false };
      }
      const op = this.#kv.atomic().check(entry)
        .set(this.#keys.user(id), { ...entry.value, passwordHash: nextHash });
      return { op, result: true };
    });
  }

  /** Records a session if the account exists and is enabled. */
  createSession(session: NewSession): Promise<boolean> {
    const k = this.#keys;
    return this.#retry(async () => {
      const entry = await this.#kv.get<UserValue>(k.user(session.userId));
      if (entry.value === null || entry.value.disabled) {
        return { op: null, result: false };
      }
      const value: SessionValue = {
        userId: session.userId,
        generation: entry.value.generation,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
      };
      const life = ttl(session.expiresAt, session.createdAt);
      const op = this.#kv.atomic().check(entry)
        .set(k.session(session.tokenHash), value, life)
        .set(
          k.sessionUser(session.userId, session.tokenHash),
          session.expiresAt,
          life,
        )
        .set(
          k.sessionExpiry(session.expiresAt, session.tokenHash),
          session.userId,
        );
      return { op, result: true };
    });
  }

  /** The live session behind `tokenHash` and its enabled account, or null. */
  async findSession(
    tokenHash: string,
    now: number,
  ): Promise<SessionLookup | null> {
    const session = await this.#kv.get<SessionValue>(
      this.#keys.session(tokenHash),
    );
    const value = session.value;
    if (value === null || value.expiresAt <= now) return null;
    const user = await this.#kv.get<UserValue>(this.#keys.user(value.userId));
    const account = user.value;
    if (
      account === null || account.disabled ||
      account.generation !== value.generation
    ) {
      return null;
    }
    return { user: toRecord(account), expiresAt: value.expiresAt };
  }

  /** Deletes one session. */
  async deleteSession(tokenHash: string): Promise<void> {
    const k = this.#keys;
    const entry = await this.#kv.get<SessionValue>(k.session(tokenHash));
    if (entry.value === null) return;
    await commit(
      this.#kv.atomic()
        .delete(k.session(tokenHash))
        .delete(k.sessionUser(entry.value.userId, tokenHash))
        .delete(k.sessionExpiry(entry.value.expiresAt, tokenHash)),
    );
  }

  /** Deletes up to `limit` sessions expired by `now`. */
  async deleteExpiredSessions(now: number, limit: number): Promise<number> {
    const k = this.#keys;
    const expired: Array<{ at: number; hash: string; userId: string }> = [];
    const selector = {
      prefix: k.sessionExpiries(),
      end: [...k.sessionExpiries(), now + 1],
    };
    for await (const entry of this.#kv.list<string>(selector, { limit })) {
      const [at, hash] = entry.key.slice(-2) as [number, string];
      expired.push({ at, hash, userId: entry.value });
    }
    for (let i = 0; i < expired.length; i += SESSION_BATCH) {
      const op = this.#kv.atomic();
      for (const { at, hash, userId } of expired.slice(i, i + SESSION_BATCH)) {
        op.delete(k.session(hash)).delete(k.sessionUser(userId, hash))
          .delete(k.sessionExpiry(at, hash));
      }
      await commit(op);
    }
    return expired.length;
  }

  /** Stores a single-use link. */
  async createLink(link: LinkRecord): Promise<void> {
    const life = ttl(link.expiresAt, link.createdAt);
    await commit(
      this.#kv.atomic()
        .set(this.#keys.link(link.tokenHash), link, life)
        .set(this.#keys.linkExpiry(link.expiresAt, link.tokenHash), null),
    );
  }

  /** Spends an invitation and creates its account in one commit. */
  acceptInvitation(
    tokenHash: string,
    acceptance: InvitationAcceptance,
  ): Promise<UserRecord | null> {
    const k = this.#keys;
    return this.#retry(async () => {
      const link = await this.#kv.get<LinkRecord>(k.link(tokenHash));
      const invitation = link.value;
      if (
        invitation === null || invitation.kind !== "invitation" ||
        invitation.expiresAt <= acceptance.now
      ) {
        return { op: null, result: null };
      }
      const spend = this.#kv.atomic().check(link).delete(k.link(tokenHash))
        .delete(k.linkExpiry(invitation.expiresAt, tokenHash));
      const emailKey = k.userEmail(invitation.email.toLowerCase());
      const taken = await this.#kv.get(emailKey);
      // The address has an account (or got one since): the link is spent
      // and creates nothing. This is also how decoy invitations die.
      if (taken.value !== null) return { op: spend, result: null };
      const value: UserValue = {
        id: acceptance.userId,
        email: invitation.email,
        name: invitation.name,
        role: invitation.role,
        disabled: false,
        createdAt: acceptance.now,
        passwordHash: acceptance.passwordHash,
        generation: 0,
      };
      spend.check(taken).set(k.user(value.id), value).set(emailKey, value.id);
      this.#countEnabled(spend, value.role, 1n);
      return { op: spend, result: toRecord(value) };
    });
  }

  /** Spends a reset link, sets the password and revokes every session. */
  async confirmReset(
    tokenHash: string,
    confirmation: ResetConfirmation,
  ): Promise<UserRecord | null> {
    const k = this.#keys;
    const user = await this.#retry(async () => {
      const link = await this.#kv.get<LinkRecord>(k.link(tokenHash));
      const reset = link.value;
      if (
        reset === null || reset.kind !== "reset" ||
        reset.expiresAt <= confirmation.now
      ) {
        return { op: null, result: null };
      }
      const spend = this.#kv.atomic().check(link).delete(k.link(tokenHash))
        .delete(k.linkExpiry(reset.expiresAt, tokenHash));
      const entry = await this.#kv.get<UserValue>(k.user(reset.userId));
      if (entry.value === null) return { op: spend, result: null };
      const next: UserValue = {
        ...entry.value,
        passwordHash: confirmation.passwordHash,
        generation: entry.value.generation + 1,
      };
      spend.check(entry).set(k.user(next.id), next);
      return { op: spend, result: toRecord(next) };
    });
    if (user !== null) await this.#deleteSessionsOf(user.id);
    return user;
  }

  /** Deletes up to `limit` links expired by `now`. */
  async deleteExpiredLinks(now: number, limit: number): Promise<number> {
    const k = this.#keys;
    const keys: Deno.KvKey[] = [];
    const selector = {
      prefix: k.linkExpiries(),
      end: [...k.linkExpiries(), now + 1],
    };
    for await (const entry of this.#kv.list(selector, { limit })) {
      keys.push(entry.key);
    }
    for (let i = 0; i < keys.length; i += 400) {
      const op = this.#kv.atomic();
      for (const key of keys.slice(i, i + 400)) {
        op.delete(key).delete(k.link(key[key.length - 1] as string));
      }
      await commit(op);
    }
    return keys.length;
  }

  /** Adds one to a fixed-window counter, atomically. */
  hitCounter(key: string, now: number, windowMs: number): Promise<Counter> {
    const k = this.#keys;
    return this.#retry(async () => {
      const entry = await this.#kv.get<Counter>(k.counter(key));
      const open = entry.value !== null && entry.value.resetAt > now;
      const next: Counter = open
        ? { count: entry.value!.count + 1, resetAt: entry.value!.resetAt }
        : { count: 1, resetAt: now + windowMs };
      const op = this.#kv.atomic().check(entry)
        .set(k.counter(key), next, ttl(next.resetAt, now));
      if (!open) {
        if (entry.value !== null) {
          op.delete(k.counterExpiry(entry.value.resetAt, key));
        }
        op.set(k.counterExpiry(next.resetAt, key), null);
      }
      return { op, result: next };
    });
  }

  /** The counter if its window is open at `now`. */
  async readCounter(key: string, now: number): Promise<Counter | null> {
    const entry = await this.#kv.get<Counter>(this.#keys.counter(key));
    return entry.value !== null && entry.value.resetAt > now
      ? entry.value
      : null;
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  async deleteExpiredCounters(now: number, limit: number): Promise<number> {
    const k = this.#keys;
    let deleted = 0;
    const selector = {
      prefix: k.counterExpiries(),
      end: [...k.counterExpiries(), now + 1],
    };
    for await (const entry of this.#kv.list(selector, { limit })) {
      const [at, key] = entry.key.slice(-2) as [number, string];
      const counter = await this.#kv.get<Counter>(k.counter(key));
      const op = this.#kv.atomic().delete(entry.key);
      // A counter that started a new window since keeps its record.
      if (counter.value !== null && counter.value.resetAt === at) {
        op.check(counter).delete(k.counter(key));
      }
      if ((await commit(op)).ok) deleted++;
    }
    return deleted;
  }

  // Net change of the enabled counters between two states of one account;
  // one mutation per key, since a commit may not touch a key twice.
  #moveCounts(
    op: Deno.AtomicOperation,
    before: UserValue,
    after: UserValue,
  ): void {
    if (before.disabled === after.disabled && before.role === after.role) {
      return;
    }
    if (before.disabled !== after.disabled) {
      op.sum(this.#keys.enabledCount(), after.disabled ? MINUS_ONE : 1n);
    }
    if (!before.disabled && !after.disabled) {
      op.sum(this.#keys.roleCount(before.role), MINUS_ONE);
      op.sum(this.#keys.roleCount(after.role), 1n);
    } else if (!before.disabled) {
      op.sum(this.#keys.roleCount(before.role), MINUS_ONE);
    } else if (!after.disabled) {
      op.sum(this.#keys.roleCount(after.role), 1n);
    }
  }

  #countEnabled(op: Deno.AtomicOperation, role: string, by: bigint): void {
    op.sum(this.#keys.roleCount(role), by).sum(this.#keys.enabledCount(), by);
  }

  // Revocation already happened atomically (the generation moved); this
  // removes the dead records so they do not wait for the reaper.
  async #deleteSessionsOf(userId: string): Promise<void> {
    const k = this.#keys;
    let batch: Array<[string, number]> = [];
    const flush = async () => {
      const op = this.#kv.atomic();
      for (const [hash, at] of batch) {
        op.delete(k.session(hash)).delete(k.sessionUser(userId, hash))
          .delete(k.sessionExpiry(at, hash));
      }
      await commit(op);
      batch = [];
    };
    for await (
      const entry of this.#kv.list<number>({ prefix: k.sessionsOfUser(userId) })
    ) {
      batch.push([entry.key[entry.key.length - 1] as string, entry.value]);
      if (batch.length === SESSION_BATCH) await flush();
    }
    if (batch.length > 0) await flush();
  }

  // Optimistic concurrency: read, decide, commit with checks; on a conflict
  // read again. `op: null` means nothing to write.
  async #retry<T>(
    attempt: () => Promise<{ op: Deno.AtomicOperation | null; result: T }>,
  ): Promise<T> {
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const { op, result } = await attempt();
      if (op === null || (await commit(op)).ok) return result;
      // Back off a little so racing instances interleave instead of colliding again.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(50, 2 ** i))
      );
    }
    throw new Error("KvStore: too much contention, commit kept conflicting");
  }
}

// Deno KV's SQLite backend refuses a commit with "database is locked" when
// another handle on the same file (another app instance) is writing at that
// moment. Nothing was written then, and checks are evaluated again at each
// commit, so committing the same operation again is safe.
const LOCKED = /\bdatabase (?:table )?is locked\b/;
const LOCKED_ATTEMPTS = 50;

async function commit(
  op: Deno.AtomicOperation,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  for (let i = 1;; i++) {
    try {
      return await op.commit();
    } catch (err) {
      if (i === LOCKED_ATTEMPTS || !LOCKED.test(String(err))) throw err;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(50, 2 ** i))
      );
    }
  }
}

function toRecord(value: UserValue): UserRecord {
  return {
    id: value.id,
    email: value.email,
    name: value.name,
    role: value.role,
    disabled: value.disabled,
    createdAt: value.createdAt,
  };
}
