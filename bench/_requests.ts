// The raw requests the scenarios send, built once before a run. Methods
// and paths come from the contract (`OPERATIONS`), like the server's routes
// and the client's calls, so a moved path moves here too.

import { type OperationName, OPERATIONS } from "@gatehouse/contract";
import { PENDING_COOKIE } from "../server/core/auth.ts";
import { COOKIE_NAME } from "./_fixtures.ts";
import { httpRequest } from "./_load.ts";

function operationRequest(
  operation: OperationName,
  headers: Record<string, string>,
  body?: Record<string, unknown>,
): Uint8Array {
  const { method, path } = OPERATIONS[operation];
  return body === undefined
    ? httpRequest(method, path, headers)
    : httpRequest(method, path, {
      ...headers,
      "content-type": "application/json",
    }, JSON.stringify(body));
}

const sessionCookie = (token: string) => ({
  cookie: `${COOKIE_NAME}=${token}`,
});

/** `GET /api/auth/session` with the session `token`: the session check. */
export function sessionRequest(token: string): Uint8Array {
  return operationRequest("fetchSession", sessionCookie(token));
}

/** `GET /api/auth/sessions` with the session `token`: the account's sessions. */
export function listSessionsRequest(token: string): Uint8Array {
  return operationRequest("listSessions", sessionCookie(token));
}

/** `POST /api/auth/login` with `{email, password}`. */
export function loginRequest(email: string, password: string): Uint8Array {
  return operationRequest("login", {}, { email, password });
}

/** `POST /api/auth/second-factor` `{code}` with the pending sign-in's cookie. */
export function secondFactorRequest(
  pendingToken: string,
  code: string,
): Uint8Array {
  return operationRequest("verifySecondFactor", {
    cookie: `${PENDING_COOKIE}=${pendingToken}`,
  }, { code });
}

/** `POST /api/auth/password-reset` with `{email}`. */
export function resetRequest(email: string): Uint8Array {
  return operationRequest("requestPasswordReset", {}, { email });
}

/** The value of cookie `name` in the `Set-Cookie` headers of a raw head. */
export function setCookieValue(head: string, name: string): string | null {
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0 || line.slice(0, colon).toLowerCase() !== "set-cookie") {
      continue;
    }
    const pair = line.slice(colon + 1).trim().split(";", 1)[0]!;
    const eq = pair.indexOf("=");
    if (pair.slice(0, eq) === name) return pair.slice(eq + 1);
  }
  return null;
}
