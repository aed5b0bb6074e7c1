/**
 * The wire shapes as TypeScript types, snake_case as on the wire. They
 * mirror `SCHEMAS` (shapes.ts); the server builds its answers with them and
 * the tests check every answer against the schemas.
 *
 * @module
 */

import type { USER_SORTS } from "./shapes.ts";

/**
 * The JSON body of every error answer: `{error, code, meta?}`.
 *
 * @example A refusal
 * ```ts
 * import type { ErrorBody } from "@gatehouse/contract";
 *
 * const body: ErrorBody = { error: "Name is required", code: "name_required", meta: { field: "name" } };
 * ```
 */
export interface ErrorBody {
  /** A message in English, for people; it may change between versions. */
  error: string;
  /** The fixed code clients match on. */
  code: string;
  /** Present for some codes, e.g. `{field: "email"}`. */
  meta?: Record<string, string>;
}

/**
 * An account on the wire (DESIGN.md §4).
 *
 * @example An account
 * ```ts
 * import type { UserJson } from "@gatehouse/contract";
 *
 * const user: UserJson = {
 *   id: "0190f0a0-0000-7000-8000-000000000002",
 *   email: "grace@example.com",
 *   name: "Grace",
 *   role: "member",
 *   disabled: false,
 *   created_at: "2026-01-02T03:04:05.000Z",
 * };
 * ```
 */
export interface UserJson {
  /** A UUID. */
  id: string;
  /** As stored: trimmed, original case. */
  email: string;
  /** Display name. */
  name: string;
  /** The role; empty for none. */
  role: string;
  /** Whether the account is disabled. */
  disabled: boolean;
  /** Creation time, ISO 8601. */
  created_at: string;
}

/**
 * A page of accounts on the wire.
 *
 * @example The last page
 * ```ts
 * import type { UserListJson } from "@gatehouse/contract";
 *
 * const page: UserListJson = { users: [], next_cursor: null };
 * ```
 */
export interface UserListJson {
  /** The accounts, in the order asked for (oldest first by default). */
  users: UserJson[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** How many accounts match over every page, when the store counts them. */
  total?: number;
}

/**
 * An order of `GET /api/users` (its `sort` query value): by creation, name
 * or email, ties broken by id; a leading `-` reverses it. The values are
 * {@linkcode USER_SORTS}.
 *
 * @example Newest first
 * ```ts
 * import type { UserSort } from "@gatehouse/contract";
 *
 * const newest: UserSort = "-created";
 * ```
 */
export type UserSort = (typeof USER_SORTS)[number];

/**
 * The invitation answer: mailed, or the link handed back to the
 * administrator.
 *
 * @example Not mailed
 * ```ts
 * import type { InviteAnswer } from "@gatehouse/contract";
 *
 * const answer: InviteAnswer = { delivered: false, activation_link: "https://app.example/invite#token=abc" };
 * ```
 */
export type InviteAnswer =
  | { delivered: true }
  | { delivered: false; activation_link: string };

/**
 * A pending invitation on the wire (DESIGN.md §8). `id` is its own UUID,
 * never the token; `role` is `""` for none.
 *
 * @example An invitation sent by an administrator
 * ```ts
 * import type { InvitationJson } from "@gatehouse/contract";
 *
 * const invitation: InvitationJson = {
 *   id: "0190f0a0-0000-7000-8000-00000000000a",
 *   email: "ada@example.com",
 *   name: "Ada",
 *   role: "member",
 *   invited_by: { id: "0190f0a0-0000-7000-8000-000000000001", email: "root@example.com", name: "Root" },
 *   created_at: "2026-01-02T03:04:05.000Z",
 *   expires_at: "2026-01-09T03:04:05.000Z",
 * };
 * ```
 */
export interface InvitationJson {
  /** The invitation's own id, a UUID. */
  id: string;
  /** Who is invited. */
  email: string;
  /** Their display name to be. */
  name: string;
  /** The role they get; empty for none. */
  role: string;
  /** Who sent it; null when no account did (the first-run link). */
  invited_by: { id: string; email: string; name: string } | null;
  /** When it was sent, ISO 8601. */
  created_at: string;
  /** When its link dies, ISO 8601. */
  expires_at: string;
}

/**
 * The list of pending invitations on the wire.
 *
 * @example No invitations
 * ```ts
 * import type { InvitationListJson } from "@gatehouse/contract";
 *
 * const list: InvitationListJson = { invitations: [] };
 * ```
 */
export interface InvitationListJson {
  /** The pending invitations, newest first. */
  invitations: InvitationJson[];
}
