// The boundary for the shapes of DESIGN.md §8–§10: reading the server's
// JSON into the client's camelCase shapes (security_types.ts), checking
// every field the client relies on, and writing it back for the test
// harness. The primitives are _wire.ts's.

import { SECOND_FACTOR_METHODS } from "@gatehouse/contract";
import { type Json, malformed, object, string, time } from "./_wire.ts";
import type {
  AccountSession,
  AuditAccount,
  AuditEvent,
  AuditEventPage,
  AuditEventType,
  Passkey,
  SecondFactorChallenge,
  SecondFactorMethod,
  TotpSetup,
} from "./security_types.ts";

function list(body: Json, key: string, status: number): unknown[] {
  const value = body[key];
  if (!Array.isArray(value)) throw malformed(`"${key}" is not a list`, status);
  return value;
}

const METHODS: ReadonlySet<string> = new Set(SECOND_FACTOR_METHODS);

/** The 202 answer of the password step: the methods, at least one. */
export function readChallenge(
  value: unknown,
  status: number,
): SecondFactorChallenge {
  const body = object(value, "the second-factor challenge", status);
  const methods = list(body, "second_factor", status);
  if (methods.length === 0 || !methods.every((m) => METHODS.has(String(m)))) {
    throw malformed(`"second_factor" is not a list of methods`, status);
  }
  return {
    kind: "secondFactor",
    methods: Object.freeze(methods as SecondFactorMethod[]),
  };
}

/** The sessions of a `{sessions}` answer. */
export function readSessions(value: unknown, status: number): AccountSession[] {
  const body = object(value, "the session list", status);
  return list(body, "sessions", status).map((item) => {
    const session = object(item, "a session", status);
    if (typeof session.current !== "boolean") {
      throw malformed(`"current" is not a boolean`, status);
    }
    return {
      id: string(session, "id", status),
      createdAt: time(session, "created_at", status),
      lastSeenAt: time(session, "last_seen_at", status),
      expiresAt: time(session, "expires_at", status),
      idleExpiresAt: time(session, "idle_expires_at", status),
      ip: string(session, "ip", status),
      userAgent: string(session, "user_agent", status),
      current: session.current,
    };
  });
}

/** A TOTP setup answer. */
export function readTotpSetup(value: unknown, status: number): TotpSetup {
  const body = object(value, "the authenticator setup", status);
  return {
    secret: string(body, "secret", status),
    otpauthUrl: string(body, "otpauth_url", status),
    qrSvg: string(body, "qr_svg", status),
  };
}

/** The codes of a `{recovery_codes}` answer. */
export function readRecoveryCodes(value: unknown, status: number): string[] {
  const body = object(value, "the recovery codes", status);
  const codes = list(body, "recovery_codes", status);
  if (codes.length === 0 || !codes.every((c) => typeof c === "string")) {
    throw malformed(`"recovery_codes" is not a list of codes`, status);
  }
  return codes as string[];
}

/** The count of a `{recovery_codes_left}` answer: a whole number, 0 or more. */
export function readRecoveryCodeCount(value: unknown, status: number): number {
  const body = object(value, "the recovery code count", status);
  const left = body.recovery_codes_left;
  if (typeof left !== "number" || !Number.isInteger(left) || left < 0) {
    throw malformed(`"recovery_codes_left" is not a count`, status);
  }
  return left;
}

/** One passkey. */
export function readPasskey(value: unknown, status: number): Passkey {
  const body = object(value, "a passkey", status);
  return {
    id: string(body, "id", status),
    name: string(body, "name", status),
    createdAt: time(body, "created_at", status),
    lastUsedAt: body.last_used_at == null
      ? null
      : time(body, "last_used_at", status),
  };
}

/** The passkeys of a `{passkeys}` answer. */
export function readPasskeys(value: unknown, status: number): Passkey[] {
  const body = object(value, "the passkey list", status);
  return list(body, "passkeys", status).map((p) => readPasskey(p, status));
}

/** WebAuthn options, passed on as they came (the browser library reads them). */
export function readOptions(
  value: unknown,
  status: number,
): Record<string, unknown> {
  const body = object(value, "the passkey options", status);
  string(body, "challenge", status);
  return body;
}

function account(value: unknown, status: number): AuditAccount | null {
  if (value === null || value === undefined) return null;
  const body = object(value, "an account of an event", status);
  // One's own activity leaves another account (an administrator) unnamed.
  if (body.id === null && body.email === null) return { id: null, email: null };
  return {
    id: string(body, "id", status),
    email: string(body, "email", status),
  };
}

/** A page of audit events. */
export function readAuditPage(value: unknown, status: number): AuditEventPage {
  const body = object(value, "the event page", status);
  const cursor = body.next_cursor ?? null;
  if (cursor !== null && typeof cursor !== "string") {
    throw malformed(`"next_cursor" is not a string or null`, status);
  }
  const events = list(body, "events", status).map((item): AuditEvent => {
    const event = object(item, "an event", status);
    const detail = event.detail === undefined
      ? {}
      : object(event.detail, "the detail", status);
    return {
      id: string(event, "id", status),
      type: string(event, "type", status) as AuditEventType,
      at: time(event, "at", status),
      actor: account(event.actor, status),
      target: account(event.target, status),
      ip: string(event, "ip", status),
      userAgent: string(event, "user_agent", status),
      detail: Object.fromEntries(
        Object.entries(detail).map(([k, v]) => [k, String(v)]),
      ),
    };
  });
  return { events, nextCursor: cursor };
}

/** The `{sessions}` JSON (for fake servers). */
export function writeSessions(sessions: readonly AccountSession[]): Json {
  return {
    sessions: sessions.map((s) => ({
      id: s.id,
      created_at: s.createdAt,
      last_seen_at: s.lastSeenAt,
      expires_at: s.expiresAt,
      idle_expires_at: s.idleExpiresAt,
      ip: s.ip,
      user_agent: s.userAgent,
      current: s.current,
    })),
  };
}

/** A TOTP setup JSON (for fake servers). */
export function writeTotpSetup(setup: TotpSetup): Json {
  return {
    secret: setup.secret,
    otpauth_url: setup.otpauthUrl,
    qr_svg: setup.qrSvg,
  };
}

/** One passkey's JSON (for fake servers). */
export function writePasskey(passkey: Passkey): Json {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: passkey.createdAt,
    last_used_at: passkey.lastUsedAt,
  };
}

/** A page of events as JSON (for fake servers). */
export function writeAuditPage(page: AuditEventPage): Json {
  return {
    events: page.events.map((e) => ({
      id: e.id,
      type: e.type,
      at: e.at,
      actor: e.actor,
      target: e.target,
      ip: e.ip,
      user_agent: e.userAgent,
      detail: { ...e.detail },
    })),
    next_cursor: page.nextCursor,
  };
}
