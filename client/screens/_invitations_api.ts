// SEAM, to be pointed at the client's real calls at merge: the pending
// invitations (`GET /api/users/invitations`, `DELETE
// /api/users/invitations/{id}`, DESIGN.md §8). Until the client's contract
// module has `listInvitations` and `revokeInvitation`, these two functions
// call the routes over REST themselves, with the client's error mapping; a
// server without the routes answers 404, which is ServerTooOldError, and
// the screens then leave the pending invitations out.

import { send } from "../_http.ts";
import { UnexpectedResponseError } from "../service_errors.ts";

/** A pending invitation, as the screens show it (DESIGN.md §8's Invitation). */
export interface PendingInvitation {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  /** Empty for none. */
  readonly role: string;
  /** Who sent it, when known. */
  readonly invitedBy: { readonly name: string; readonly email: string } | null;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly expiresAt: string;
}

/** The cache key of the pending invitations. */
export const INVITATIONS_KEY = ["gatehouse", "invitations"] as const;

const REST = {};

/** The pending invitations, newest first. Throws ServerTooOldError without the route. */
export async function listInvitations(): Promise<readonly PendingInvitation[]> {
  const response = await send(REST, {
    method: "GET",
    path: "/api/users/invitations",
    operation: "listInvitations",
    feature: "invitations",
  });
  return readInvitations(await response.json().catch(() => null));
}

/** Revokes one pending invitation; its link then answers 410. */
export async function revokeInvitation(id: string): Promise<void> {
  const response = await send(REST, {
    // _http.ts's type predates DELETE; fetch takes any method.
    method: "DELETE" as "POST",
    path: `/api/users/invitations/${encodeURIComponent(id)}`,
    operation: "revokeInvitation",
    feature: "invitations",
  });
  await response.body?.cancel();
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function readInvitations(body: unknown): readonly PendingInvitation[] {
  const list = (body as { invitations?: unknown } | null)?.invitations;
  if (!Array.isArray(list)) {
    throw new UnexpectedResponseError(
      'Unexpected answer from the server: "invitations" is not a list',
      { status: 200 },
    );
  }
  return list.map((raw: Record<string, unknown>) => {
    const by = raw.invited_by as Record<string, unknown> | null | undefined;
    return {
      id: text(raw.id),
      email: text(raw.email),
      name: text(raw.name),
      role: text(raw.role),
      invitedBy: by ? { name: text(by.name), email: text(by.email) } : null,
      createdAt: text(raw.created_at),
      expiresAt: text(raw.expires_at),
    };
  });
}
