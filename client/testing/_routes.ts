// The endpoints of DESIGN.md §4 as msw routes, the status of every error
// code, and small helpers the canned handlers share. Paths start with `*`,
// so they match whatever origin the transport talks to.

import { http } from "msw";
import type { HttpHandler } from "../_peer_types.ts";
import type { AuthTransport } from "../transport.ts";

/**
 * An operation that has an HTTP endpoint (every one but `isSessionRevoked`):
 * what `answerError`, `serverTooOld` and `networkFailure` answer for.
 *
 * @example Failing every call of one kind
 * ```ts
 * import { type Endpoint, networkFailure } from "@gatehouse/client/testing";
 *
 * const offline = (endpoints: Endpoint[]) => endpoints.map(networkFailure);
 * const handlers = offline(["fetchSession", "login"]);
 * ```
 */
export type Endpoint = Exclude<keyof AuthTransport, "isSessionRevoked">;

type Method = "get" | "post" | "patch" | "put";

export const ROUTES: Record<Endpoint, { method: Method; path: string }> = {
  fetchSession: { method: "get", path: "*/api/auth/session" },
  login: { method: "post", path: "*/api/auth/login" },
  logout: { method: "post", path: "*/api/auth/logout" },
  fetchUsers: { method: "get", path: "*/api/users" },
  createUser: { method: "post", path: "*/api/users" },
  setUserDisabled: { method: "patch", path: "*/api/users/:id" },
  setUserRole: { method: "put", path: "*/api/users/:id/role" },
  invite: { method: "post", path: "*/api/users/invite" },
  acceptInvite: { method: "post", path: "*/api/auth/invite/accept" },
  requestPasswordReset: { method: "post", path: "*/api/auth/password-reset" },
  resetPassword: { method: "post", path: "*/api/auth/password-reset/confirm" },
};

/** The status of every server code (DESIGN.md §4). */
export const STATUS: Record<string, number> = {
  body_malformed: 400,
  body_field_required: 400,
  email_invalid: 400,
  name_required: 400,
  name_too_long: 400,
  password_too_short: 400,
  password_too_long: 400,
  user_id_malformed: 400,
  role_unknown: 400,
  credentials_invalid: 401,
  session_absent: 401,
  role_insufficient: 403,
  capability_missing: 403,
  role_beyond_reach: 403,
  self_disable_refused: 403,
  self_role_refused: 403,
  request_cross_origin: 403,
  user_not_found: 404,
  email_taken: 409,
  role_changed: 409,
  last_privileged_refused: 409,
  token_invalid: 410,
  body_too_large: 413,
  login_rate_limited: 429,
  internal: 500,
};

export function route(
  endpoint: Endpoint,
  resolver: Parameters<typeof http.get>[1],
): HttpHandler {
  const { method, path } = ROUTES[endpoint];
  return http[method](path, resolver);
}

export async function jsonBody(
  request: Request,
): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => ({}));
  return typeof body === "object" && body !== null
    ? body as Record<string, unknown>
    : {};
}

export const text = (value: unknown, fallback: string): string =>
  typeof value === "string" ? value : fallback;
