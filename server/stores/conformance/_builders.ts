// Records to write in the record-and-commit tables and in each store's own
// record tests: one builder a kind, with plain defaults a test overrides
// where it matters. Ids are UUIDv7, as the rules make them, so records
// built one after another sort in that order (event pages, creation order).

import { uuidv7 } from "../../core/_crypto.ts";
import type {
  AccountRecord,
  AuditEvent,
  StoredLink,
  StoredSession,
} from "../../core/records.ts";

/** An enabled account with a fresh id and address, and no factors. */
export function account(over: Partial<AccountRecord> = {}): AccountRecord {
  const id = over.id ?? uuidv7();
  return {
    id,
    email: `${id}@example.com`,
    emailKey: `${id}@example.com`,
    name: "Ada Lovelace",
    nameKey: "ada lovelace",
    role: "user",
    disabled: false,
    passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
    generation: 0,
    createdAt: 1_700_000_000_000,
    factorVersion: 0,
    totpEnabled: false,
    passkeyCount: 0,
    locale: "",
    localeChosen: false,
    ...over,
  };
}

/** A session of `userId` with a fresh token digest. */
export function session(
  userId: string,
  over: Partial<StoredSession> = {},
): StoredSession {
  return {
    tokenHash: crypto.randomUUID(),
    id: uuidv7(),
    userId,
    generation: 0,
    createdAt: 1_700_000_000_000,
    expiresAt: 1_700_000_100_000,
    lastSeenAt: 1_700_000_000_000,
    authenticatedAt: 1_700_000_000_000,
    ip: "203.0.113.9",
    userAgent: "Firefox on Linux",
    ...over,
  };
}

/** An invitation with a fresh token digest. */
export function link(over: Partial<StoredLink> = {}): StoredLink {
  return {
    tokenHash: crypto.randomUUID(),
    id: uuidv7(),
    kind: "invitation",
    email: "bob@example.com",
    emailKey: "bob@example.com",
    name: "Bob",
    role: "user",
    userId: "",
    invitedBy: "",
    generation: 0,
    createdAt: 1_700_000_000_000,
    expiresAt: 1_700_000_100_000,
    ...over,
  };
}

/** A sign-in event with a fresh id, later than every one built before. */
export function event(over: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: uuidv7(),
    type: "login.succeeded",
    at: 1_700_000_000_000,
    actorId: null,
    actorEmail: null,
    targetId: null,
    targetEmail: null,
    ip: "203.0.113.9",
    userAgent: "Firefox on Linux",
    detail: {},
    ...over,
  };
}
