// Where each record kind lives in PostgresRecords' schema: its table, and
// each field's column with its SQL type. The tables are PostgresStore's of
// version 8 (relational: an application joins its own tables to
// users(id)), plus `tallies` (version 9) and the single sign-on tables
// (`sso_identities`, `sso_flows`, `sso_logout_tokens`). Fields are listed in the order of
// their TypeScript interface (records.ts), so a record read back is built
// with its keys in the order it was written with.
//
// Rows travel as JSON both ways: a put sends the row as a JSON object that
// `jsonb_populate_record` casts to the table's types, and a read answers
// `row_to_json(row)` (text made in one pass, where `to_jsonb` builds a
// binary value first), whose bigint, integer, boolean, text[] and jsonb
// values arrive as JS numbers, booleans, arrays and objects. Only the
// nullable uuid columns whose record says "" for none (a link's user and
// inviter, a challenge's user) need a conversion. The session check's read
// lists its columns instead (_session_reads.ts).

import { isUuid } from "../../core/_crypto.ts";
import type { Kind, RecordKinds } from "../../core/records.ts";

/** The SQL type of a column, as a cast writes it. */
export type ColumnType =
  | "text"
  | "uuid"
  | "bigint"
  | "integer"
  | "boolean"
  | "text[]"
  | "jsonb";

/** A field's column. */
export interface Column {
  /** The column's name. */
  name: string;
  /** Its SQL type. */
  type: ColumnType;
  /** NULL in the table where the record holds "" (an optional uuid). */
  emptyIsNull?: boolean;
  /**
   * NULL in the table where the record lacks the field (an optional field
   * of its interface): read back, a NULL leaves the field out.
   */
  absentIsNull?: boolean;
}

/** A kind's table and the column of each of its fields. */
export interface KindTable<T> {
  /** The table's name in the schema. */
  table: string;
  /** Every field of the record, in its interface's order. */
  columns: { readonly [F in keyof T & string]-?: Column };
}

const text = (name: string): Column => ({ name, type: "text" });
const uuid = (name: string): Column => ({ name, type: "uuid" });
const optionalUuid = (name: string): Column => ({
  name,
  type: "uuid",
  emptyIsNull: true,
});
const optionalText = (name: string): Column => ({
  name,
  type: "text",
  absentIsNull: true,
});
const bigint = (name: string): Column => ({ name, type: "bigint" });
const integer = (name: string): Column => ({ name, type: "integer" });
const boolean = (name: string): Column => ({ name, type: "boolean" });
const texts = (name: string): Column => ({ name, type: "text[]" });

/** Every kind's table. */
export const TABLES: { readonly [K in Kind]: KindTable<RecordKinds[K]> } = {
  account: {
    table: "users",
    columns: {
      id: uuid("id"),
      email: text("email"),
      emailKey: text("email_key"),
      name: text("name"),
      nameKey: text("name_key"),
      role: text("role"),
      disabled: boolean("disabled"),
      passwordHash: text("password_hash"),
      generation: integer("generation"),
      createdAt: bigint("created_at"),
      factorVersion: integer("factor_version"),
      totpEnabled: boolean("totp_enabled"),
      passkeyCount: integer("passkey_count"),
      locale: text("locale"),
      localeChosen: boolean("locale_chosen"),
    },
  },
  session: {
    table: "sessions",
    columns: {
      tokenHash: text("token_hash"),
      id: uuid("id"),
      userId: uuid("user_id"),
      generation: integer("generation"),
      createdAt: bigint("created_at"),
      expiresAt: bigint("expires_at"),
      lastSeenAt: bigint("last_seen_at"),
      authenticatedAt: bigint("authenticated_at"),
      ip: text("ip"),
      userAgent: text("user_agent"),
      // Only a single sign-on's session has them.
      ssoProvider: optionalText("sso_provider"),
      ssoSid: optionalText("sso_sid"),
      ssoSubjectKey: optionalText("sso_subject_key"),
    },
  },
  link: {
    table: "links",
    columns: {
      tokenHash: text("token_hash"),
      id: uuid("id"),
      kind: text("kind"),
      email: text("email"),
      emailKey: text("email_key"),
      name: text("name"),
      role: text("role"),
      // No account yet (an invitation), and no inviter (the first-run link).
      userId: optionalUuid("user_id"),
      invitedBy: optionalUuid("invited_by"),
      generation: integer("generation"),
      createdAt: bigint("created_at"),
      expiresAt: bigint("expires_at"),
    },
  },
  totp: {
    table: "totp",
    columns: {
      userId: uuid("user_id"),
      secret: text("secret"),
      lastStep: bigint("last_step"),
      recoveryCodes: texts("recovery_codes"),
    },
  },
  enrolment: {
    table: "totp_enrolments",
    columns: {
      userId: uuid("user_id"),
      secret: text("secret"),
      createdAt: bigint("created_at"),
      expiresAt: bigint("expires_at"),
    },
  },
  pending: {
    table: "pending_sign_ins",
    columns: {
      tokenHash: text("token_hash"),
      userId: uuid("user_id"),
      generation: integer("generation"),
      factorVersion: integer("factor_version"),
      failures: integer("failures"),
      createdAt: bigint("created_at"),
      expiresAt: bigint("expires_at"),
    },
  },
  challenge: {
    table: "webauthn_challenges",
    columns: {
      tokenHash: text("token_hash"),
      challenge: text("challenge"),
      use: text("use"),
      // A login challenge names no account.
      userId: optionalUuid("user_id"),
      createdAt: bigint("created_at"),
      expiresAt: bigint("expires_at"),
    },
  },
  passkey: {
    table: "passkeys",
    columns: {
      id: uuid("id"),
      userId: uuid("user_id"),
      credentialId: text("credential_id"),
      publicKey: text("public_key"),
      counter: bigint("counter"),
      transports: texts("transports"),
      name: text("name"),
      createdAt: bigint("created_at"),
      lastUsedAt: bigint("last_used_at"),
    },
  },
  event: {
    table: "audit_events",
    columns: {
      id: uuid("id"),
      type: text("type"),
      at: bigint("at"),
      // null in the record too: an event may name no account.
      actorId: uuid("actor_id"),
      actorEmail: text("actor_email"),
      targetId: uuid("target_id"),
      targetEmail: text("target_email"),
      ip: text("ip"),
      userAgent: text("user_agent"),
      detail: { name: "detail", type: "jsonb" },
    },
  },
  tally: {
    table: "tallies",
    columns: { key: text("key"), count: bigint("count") },
  },
  identity: {
    table: "sso_identities",
    columns: {
      id: uuid("id"),
      userId: uuid("user_id"),
      providerId: text("provider_id"),
      issuer: text("issuer"),
      subject: text("subject"),
      subjectKey: text("subject_key"),
      email: text("email"),
      name: text("name"),
      linkedAt: bigint("linked_at"),
    },
  },
  sso_flow: {
    table: "sso_flows",
    columns: {
      tokenHash: text("token_hash"),
      providerId: text("provider_id"),
      state: text("state"),
      nonce: text("nonce"),
      codeVerifier: text("code_verifier"),
      returnTo: text("return_to"),
      purpose: text("purpose"),
      // null in the record too: a sign-in names no account yet.
      userId: uuid("user_id"),
      // null for a sign-in, and in a row of before version 13.
      sessionId: uuid("session_id"),
      createdAt: bigint("created_at"),
      expiresAt: bigint("expires_at"),
    },
  },
  logout_token: {
    table: "sso_logout_tokens",
    columns: { key: text("key"), expiresAt: bigint("expires_at") },
  },
};

/** A row as JSON: column name to value. */
export type RowJson = Record<string, unknown>;

/** The column of `field` of `kind`. */
export function columnOf(kind: Kind, field: string): Column {
  const column = (TABLES[kind].columns as Record<string, Column>)[field];
  if (column === undefined) {
    throw new TypeError(`Unknown field of ${kind}: "${field}"`);
  }
  return column;
}

/** The row of `value`, a record of `kind`, as `jsonb_populate_record` reads it. */
export function toRow(kind: Kind, value: object): RowJson {
  const row: RowJson = {};
  const record = value as Record<string, unknown>;
  for (const [field, column] of fieldsOf(kind)) {
    const v = record[field];
    row[column.name] = (column.emptyIsNull === true && v === "") ||
        (column.absentIsNull === true && v === undefined)
      ? null
      : v;
  }
  return row;
}

/** The record of `kind` that `row` (`row_to_json` of its table's row) holds. */
export function fromRow<K extends Kind>(kind: K, row: RowJson): RecordKinds[K] {
  const record: Record<string, unknown> = {};
  for (const [field, column] of fieldsOf(kind)) {
    const v = row[column.name];
    if (column.absentIsNull === true && v === null) continue;
    record[field] = column.emptyIsNull === true && v === null
      ? ""
      : ownCopy(column, v);
  }
  return record as unknown as RecordKinds[K];
}

// A record's lists and objects are its own, so that one row answering
// several reads (the account of many coalesced session checks) gives each a
// record it may change: the rest of a row is strings, numbers and booleans.
function ownCopy(column: Column, v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  return column.type === "text[]" && Array.isArray(v)
    ? [...v]
    : structuredClone(v);
}

// The fields of each kind with their columns, in the interface's order
// (made once: this runs for every record read).
const FIELDS = new Map<Kind, [string, Column][]>();
function fieldsOf(kind: Kind): [string, Column][] {
  let fields = FIELDS.get(kind);
  if (fields === undefined) {
    fields = Object.entries(TABLES[kind].columns as Record<string, Column>);
    FIELDS.set(kind, fields);
  }
  return fields;
}

/**
 * `value` as the column compares it: a uuid in lower case (the form
 * Postgres answers it in), or null when it is no uuid, so no row can hold
 * it (a query would fail on the cast, where the answer is "none").
 */
export function lookupValue(column: Column, value: string): string | null {
  if (column.type !== "uuid") return value;
  return isUuid(value) ? value.toLowerCase() : null;
}
