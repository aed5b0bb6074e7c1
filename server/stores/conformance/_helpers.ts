// Shared pieces of the store conformance cases: records made through the
// Store interface only, and the ways a case observes a store. Times are
// passed in, never slept through. Whether a record still exists is observed
// through the contract too: e.g. a bounded delete of expired records counts it.

import assert from "node:assert/strict";
import { uuidv7 } from "../../core/_crypto.ts";
import { fold } from "../../core/_fold.ts";
import type { ErrorCode } from "../../http/errors.ts";
import type {
  InvitationAcceptance,
  LinkKind,
  LinkRecord,
  NewUser,
  Store,
  UserRecord,
} from "../../core/store.ts";
import type { NewPasskey } from "../../core/store_factors.ts";

/** One conformance case: its title and its check on a fresh, migrated store. */
export type Case = readonly [
  title: string,
  check: (store: Store) => Promise<void>,
];

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
const FAR_FUTURE = 8_000_000_000_000;

// Ids must sort in creation order; uuidv7 of the same millisecond may not.
let clock = Date.now();

/** The factors of an account with a password and no second factor. */
export const NO_FACTORS = {
  totpEnabled: false,
  passkeyCount: 0,
  factorVersion: 0,
  hasPassword: true,
} as const;

/** A fresh UUIDv7, later than every id made before it. */
export const nextId = (): string => uuidv7(++clock);

/** A PHC-shaped stand-in for a password hash (stores never parse it). */
export const hash = (label: string): string =>
  `$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$${label}`;

/** A passkey of `userId` with defaults for the fields not given. */
export function passkeyOf(
  userId: string,
  fields: Partial<NewPasskey> = {},
): NewPasskey {
  return {
    id: nextId(),
    userId,
    credentialId: tokenHash(),
    publicKey: tokenHash(),
    counter: 0,
    transports: ["internal", "hybrid"],
    name: "Laptop",
    createdAt: ++clock,
    ...fields,
  };
}

/** A random token digest, shaped like the real ones. */
export const tokenHash = (): string =>
  crypto.getRandomValues(new Uint8Array(32)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });

/** Creates an account with defaults for the fields not given. */
export function addUser(
  store: Store,
  fields: Partial<NewUser> & { email: string },
): Promise<UserRecord> {
  return store.createUser({
    id: fields.id ?? nextId(),
    email: fields.email,
    emailKey: fields.emailKey ?? fold(fields.email),
    name: fields.name ?? fields.email.split("@")[0]!,
    role: fields.role ?? "",
    passwordHash: fields.passwordHash ?? hash("initial"),
    createdAt: fields.createdAt ?? Date.now(),
    ...(fields.events === undefined ? {} : { events: fields.events }),
  });
}

/** Records a session for an enabled account and returns its token digest. */
export async function addSession(
  store: Store,
  userId: string,
  createdAt: number,
  expiresAt: number = createdAt + HOUR,
): Promise<string> {
  const token = tokenHash();
  assert.equal(
    await store.createSession({
      tokenHash: token,
      userId,
      createdAt,
      expiresAt,
    }),
    true,
    "createSession() refused an enabled account",
  );
  return token;
}

/** What a link is made of, beyond its kind; the rest has defaults. */
export interface LinkFields {
  email: string;
  expiresAt: number;
  userId?: string;
  role?: string;
  /** Invitation: who sent it; "" (the default) for a first-run link. */
  invitedBy?: string;
  /** Reset: the account's generation it is issued under (0 by default). */
  generation?: number;
  createdAt?: number;
  id?: string;
}

/** Stores a link and returns its token digest. */
export async function addLink(
  store: Store,
  kind: LinkKind,
  fields: LinkFields,
): Promise<string> {
  const token = tokenHash();
  await store.createLink(linkRecord(token, kind, fields));
  return token;
}

/** The record {@linkcode addLink} stores. */
export function linkRecord(
  token: string,
  kind: LinkKind,
  fields: LinkFields,
): LinkRecord {
  const createdAt = fields.createdAt ?? fields.expiresAt - HOUR;
  return {
    tokenHash: token,
    id: fields.id ?? uuidv7(createdAt),
    kind,
    email: fields.email,
    emailKey: fold(fields.email),
    name: kind === "invitation" ? "Invited Person" : "",
    role: fields.role ?? "",
    userId: fields.userId ?? "",
    invitedBy: fields.invitedBy ?? "",
    generation: fields.generation ?? 0,
    createdAt,
    expiresAt: fields.expiresAt,
  };
}

/** What accepting an invitation writes, with a fresh session. */
export function acceptance(
  now: number,
  fields: { granters?: readonly string[]; password?: string } = {},
): InvitationAcceptance & { session: { tokenHash: string } } {
  return {
    userId: nextId(),
    passwordHash: hash(fields.password ?? "chosen"),
    now,
    session: { tokenHash: tokenHash(), expiresAt: now + HOUR },
    ...(fields.granters === undefined ? {} : { granters: fields.granters }),
  };
}

/** Whether the session behind `token` is live at `now`. */
export async function live(
  store: Store,
  token: string,
  now: number,
): Promise<boolean> {
  return (await store.findSession(token, now)) !== null;
}

/** Asserts that `promise` rejects with an error carrying `code`. */
export async function refused(
  promise: Promise<unknown>,
  code: ErrorCode,
): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.equal((err as { code?: unknown }).code, code);
    return true;
  });
}

/** Every account, oldest first. */
export async function allUsers(store: Store): Promise<UserRecord[]> {
  return (await store.listUsers({ limit: 100 })).users.map(withoutFactors);
}

/**
 * A listed account as `createUser` returns it: without the second factors
 * the list may add (checked by a case of their own), so cases can compare
 * the list with the records they made.
 */
export function withoutFactors(user: UserRecord): UserRecord {
  const { secondFactor: _, ...record } = user;
  return record;
}

/** Links left in the store, counted by sweeping them all as if expired. */
export async function remainingLinks(store: Store): Promise<number> {
  return await store.deleteExpiredLinks(FAR_FUTURE, 1000);
}
