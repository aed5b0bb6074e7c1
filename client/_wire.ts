// The boundary between the server's JSON (snake_case, DESIGN.md §4) and the
// client's shapes (camelCase, types.ts). Reading checks every field the
// client relies on, so an answer outside the contract fails here, loudly,
// instead of deep inside a screen. Writing is for the test harness.

import type { LinkState } from "@gatehouse/contract";
import { UnexpectedResponseError } from "./service_errors.ts";
import type {
  InviteResult,
  PendingInvitation,
  SessionUser,
  User,
  UserPage,
} from "./types.ts";

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The error of an answer outside the contract. */
export function malformed(
  what: string,
  status: number,
): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `Unexpected answer from the server: ${what}`,
    { status },
  );
}

/** `value` as an object, or the error. */
export function object(value: unknown, what: string, status: number): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw malformed(`${what} is not an object`, status);
  }
  return value as Json;
}

/** A string field, or the error. */
export function string(body: Json, key: string, status: number): string {
  const value = body[key];
  if (typeof value !== "string") {
    throw malformed(`"${key}" is not a string`, status);
  }
  return value;
}

function strings(
  body: Json,
  key: string,
  status: number,
): readonly string[] | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw malformed(`"${key}" is not a list of strings`, status);
  }
  return Object.freeze([...value]);
}

/** The signed-in account from an Identity answer. */
export function readSessionUser(value: unknown, status: number): SessionUser {
  const body = object(value, "the identity", status);
  const capabilities = strings(body, "capabilities", status);
  const grantable = strings(body, "grantable", status);
  const factors = body.second_factor === undefined
    ? undefined
    : object(body.second_factor, "the second factors", status);
  const required = body.second_factor_required;
  if (required !== undefined && typeof required !== "boolean") {
    throw malformed(`"second_factor_required" is not a boolean`, status);
  }
  return {
    id: string(body, "id", status),
    email: string(body, "email", status),
    name: string(body, "name", status),
    role: body.role === undefined ? "" : string(body, "role", status),
    ...(capabilities === undefined ? {} : { capabilities }),
    ...(grantable === undefined ? {} : { grantable }),
    ...(factors === undefined ? {} : {
      secondFactor: {
        totp: factors.totp === true,
        passkeys: typeof factors.passkeys === "number" ? factors.passkeys : 0,
      },
    }),
    ...(required === undefined ? {} : { secondFactorRequired: required }),
  };
}

// A time field: ISO text or epoch ms, returned as ISO text.
export function time(body: Json, key: string, status: number): string {
  const value = body[key];
  const at = typeof value === "number" || typeof value === "string"
    ? new Date(value)
    : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) {
    throw malformed(`"${key}" is not a time`, status);
  }
  return at.toISOString();
}

/** An account from a User answer. `created_at` may be ISO text or epoch ms. */
export function readUser(value: unknown, status: number): User {
  const body = object(value, "the user", status);
  if (typeof body.disabled !== "boolean") {
    throw malformed(`"disabled" is not a boolean`, status);
  }
  const createdAt = time(body, "created_at", status);
  const factors = body.second_factor === undefined
    ? undefined
    : object(body.second_factor, "the second factors", status);
  return {
    id: string(body, "id", status),
    email: string(body, "email", status),
    name: string(body, "name", status),
    role: body.role === undefined ? "" : string(body, "role", status),
    disabled: body.disabled,
    createdAt,
    ...(factors === undefined ? {} : {
      secondFactor: {
        totp: factors.totp === true,
        passkeys: typeof factors.passkeys === "number" ? factors.passkeys : 0,
      },
    }),
  };
}

/** The pending invitations from an `{invitations}` answer. */
export function readInvitations(
  value: unknown,
  status: number,
): PendingInvitation[] {
  const body = object(value, "the invitation list", status);
  if (!Array.isArray(body.invitations)) {
    throw malformed(`"invitations" is not a list`, status);
  }
  return body.invitations.map((item) => {
    const invitation = object(item, "an invitation", status);
    const by = invitation.invited_by ?? null;
    const sender = by === null ? null : object(by, "the inviter", status);
    return {
      id: string(invitation, "id", status),
      email: string(invitation, "email", status),
      name: string(invitation, "name", status),
      role: invitation.role === undefined
        ? ""
        : string(invitation, "role", status),
      invitedBy: sender === null ? null : {
        id: string(sender, "id", status),
        email: string(sender, "email", status),
        name: string(sender, "name", status),
      },
      createdAt: time(invitation, "created_at", status),
      expiresAt: time(invitation, "expires_at", status),
    };
  });
}

/** A page of accounts from a `{users, next_cursor, total?}` answer. */
export function readUserPage(value: unknown, status: number): UserPage {
  const body = object(value, "the page", status);
  if (!Array.isArray(body.users)) {
    throw malformed(`"users" is not a list`, status);
  }
  const cursor = body.next_cursor ?? null;
  if (cursor !== null && typeof cursor !== "string") {
    throw malformed(`"next_cursor" is not a string or null`, status);
  }
  const total = body.total;
  if (
    total !== undefined &&
    !(typeof total === "number" && Number.isInteger(total) && total >= 0)
  ) {
    throw malformed(`"total" is not a count`, status);
  }
  return {
    users: body.users.map((user) => readUser(user, status)),
    nextCursor: cursor,
    ...(total === undefined ? {} : { total }),
  };
}

/**
 * An invite answer. `{delivered: false}` without a link comes back with an
 * empty `activationLink`; the caller treats that as a failed invitation.
 */
export function readInviteResult(value: unknown, status: number): InviteResult {
  const body = object(value, "the invite answer", status);
  if (typeof body.delivered !== "boolean") {
    throw malformed(`"delivered" is not a boolean`, status);
  }
  if (body.delivered) return { delivered: true };
  const link = body.activation_link;
  return {
    delivered: false,
    activationLink: typeof link === "string" ? link : "",
  };
}

/** A link check's answer: what the live link is good for. */
export function readLinkState(value: unknown, status: number): LinkState {
  const body = object(value, "the link check", status);
  if (body.status !== "ready" && body.status !== "account_exists") {
    throw malformed(`"status" is not a link state`, status);
  }
  return body.status;
}

/** The Identity JSON of a signed-in account (for fake servers). */
export function writeSessionUser(user: SessionUser): Json {
  const { secondFactor, secondFactorRequired, ...rest } = user;
  return {
    ...rest,
    ...(secondFactor === undefined
      ? {}
      : { second_factor: { ...secondFactor } }),
    ...(secondFactorRequired === undefined
      ? {}
      : { second_factor_required: secondFactorRequired }),
  };
}

/** The User JSON of an account (for fake servers). */
export function writeUser(user: User): Json {
  const { createdAt, secondFactor, ...rest } = user;
  return {
    ...rest,
    created_at: createdAt,
    ...(secondFactor === undefined
      ? {}
      : { second_factor: { ...secondFactor } }),
  };
}

/** The `{users, next_cursor, total?}` JSON of a page (for fake servers). */
export function writeUserPage(page: UserPage): Json {
  return {
    users: page.users.map(writeUser),
    next_cursor: page.nextCursor,
    ...(page.total === undefined ? {} : { total: page.total }),
  };
}

/** The invite answer JSON (for fake servers). */
export function writeInviteResult(result: InviteResult): Json {
  return result.delivered
    ? { delivered: true }
    : { delivered: false, activation_link: result.activationLink };
}

/** The `{invitations}` JSON of a list (for fake servers). */
export function writeInvitations(
  invitations: readonly PendingInvitation[],
): Json {
  return {
    invitations: invitations.map((
      { invitedBy, createdAt, expiresAt, ...rest },
    ) => ({
      ...rest,
      invited_by: invitedBy,
      created_at: createdAt,
      expires_at: expiresAt,
    })),
  };
}
