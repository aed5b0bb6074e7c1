/**
 * The administrator's view of invitations (DESIGN.md §8): the pending ones,
 * newest first, and revoking one the administrator could have sent. Both
 * come with `createAdmin` as `listInvitations` and `revokeInvitation`.
 *
 * @module
 */

import type { AdminRules } from "./_admin_rules.ts";
import { readId } from "./_input.ts";
import { answerError, type Handler, respond } from "./http.ts";
import type { Logger } from "./logger.ts";
import type { LinkRecord, Store, UserRecord } from "./store.ts";

/** Who sent an invitation, on the wire. */
export interface InviterJson {
  /** A UUID. */
  id: string;
  /** The inviter's email. */
  email: string;
  /** The inviter's name. */
  name: string;
}

/** A pending invitation on the wire (DESIGN.md §8). */
export interface InvitationJson {
  /** Its own UUID, never the token. */
  id: string;
  /** The invited address. */
  email: string;
  /** The name the account will get. */
  name: string;
  /** The role the account will get; empty for none. */
  role: string;
  /** Who sent it; null for the first-run invitation. */
  invited_by: InviterJson | null;
  /** When it was sent, ISO 8601. */
  created_at: string;
  /** When its link dies, ISO 8601. */
  expires_at: string;
}

/** The answer of `GET /api/users/invitations`. */
export interface InvitationListJson {
  /** The pending invitations, newest first. */
  invitations: InvitationJson[];
}

/** What the two handlers need; `createAdmin` builds it. */
export interface InvitationAdminDeps {
  store: Store;
  rules: AdminRules;
  logger: Logger;
  now: () => number;
}

const NO_STORE = { "cache-control": "no-store" };

/** `GET /api/users/invitations`: 200 `{invitations}`, pending only, newest first. */
export function listInvitationsHandler(deps: InvitationAdminDeps): Handler {
  const { store, rules, logger, now } = deps;
  return async function listInvitations(req) {
    try {
      rules.actor(req);
      const pending = await store.listInvitations(now());
      // Few distinct inviters: each is read once.
      const inviters = new Map<string, Promise<UserRecord | null>>();
      const inviterOf = (id: string) => {
        if (id === "") return Promise.resolve(null);
        let user = inviters.get(id);
        if (user === undefined) inviters.set(id, user = store.userById(id));
        return user;
      };
      const invitations = await Promise.all(
        pending.map(async (link) =>
          toInvitationJson(link, await inviterOf(link.invitedBy))
        ),
      );
      const body: InvitationListJson = { invitations };
      return respond(body, { headers: NO_STORE });
    } catch (err) {
      return answerError(err, logger);
    }
  };
}

/**
 * `DELETE /api/users/invitations/{id}`: 204; the link then answers 410.
 * `invitation_id_malformed` (400), `invitation_not_found` (404), and
 * `role_beyond_reach` (403) for an invitation whose role the actor could not
 * have sent.
 */
export function revokeInvitationHandler(deps: InvitationAdminDeps): Handler {
  const { store, rules, logger, now } = deps;
  return async function revokeInvitation(req, params) {
    try {
      const actor = rules.actor(req);
      const id = readId(params?.pathname.groups.id, "invitation_id_malformed");
      await store.revokeInvitation(id, {
        now: now(),
        reachableRoles: await rules.reachable(actor),
      });
      return new Response(null, { status: 204, headers: NO_STORE });
    } catch (err) {
      return answerError(err, logger);
    }
  };
}

function toInvitationJson(
  link: LinkRecord,
  inviter: UserRecord | null,
): InvitationJson {
  return {
    id: link.id,
    email: link.email,
    name: link.name,
    role: link.role,
    invited_by: inviter === null
      ? null
      : { id: inviter.id, email: inviter.email, name: inviter.name },
    created_at: new Date(link.createdAt).toISOString(),
    expires_at: new Date(link.expiresAt).toISOString(),
  };
}
