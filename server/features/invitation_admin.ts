/**
 * The administrator's view of invitations (DESIGN.md §8): the pending ones
 * it could have sent, newest first, and revoking one of them. Both
 * come with `createAdmin` as `listInvitations` and `revokeInvitation`.
 *
 * @module
 */

import type { InvitationJson, InvitationListJson } from "@gatehouse/contract";
import type { GatehouseContext } from "../core/context.ts";
import { readId } from "../core/_input.ts";
import { defineOperation, type Operation } from "../core/operation.ts";
import { withinReach } from "../core/_roles.ts";
import { NO_STORE, respond } from "../http/respond.ts";
import type { AuditEvent, LinkRecord, UserRecord } from "../core/store.ts";

/**
 * `GET /api/users/invitations`: 200 `{invitations}`, pending only, newest
 * first, and only those within the actor's reach: an invitation whose role
 * the actor could not grant is not its to see (nor to revoke).
 */
export function listInvitationsOperation(context: GatehouseContext): Operation {
  const { store, rules, now } = context;
  return defineOperation(
    context,
    "listInvitations",
    async function listInvitations(_req, { identity: actor }) {
      const [all, reachable] = await Promise.all([
        store.listInvitations(now()),
        rules.reachable(actor),
      ]);
      const pending = all.filter((link) => withinReach(reachable, link.role));
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
    },
  );
}

/**
 * `DELETE /api/users/invitations/{id}`: 204; the link then answers 410.
 * `invitation_id_malformed` (400), `invitation_not_found` (404) for one
 * not pending (unknown, spent, expired, or its address has an account), and
 * `role_beyond_reach` (403) for an invitation whose role the actor could not
 * have sent.
 */
export function revokeInvitationOperation(
  context: GatehouseContext,
): Operation {
  const { store, rules, now, trail } = context;
  return defineOperation(
    context,
    "revokeInvitation",
    async function revokeInvitation(
      req,
      { identity: actor, standing },
      params,
      info,
    ) {
      const id = readId(params?.pathname.groups.id, "invitation_id_malformed");
      const client = context.client(req, info);
      // The id names an invitation no list shows once it is revoked: the
      // event carries whom it invited (DESIGN.md §10), read from the record
      // the commit deletes. A store may call this once per attempt: the last
      // call's events are the ones committed.
      let events: AuditEvent[] = [];
      await store.revokeInvitation(id, {
        now: now(),
        reachableRoles: await rules.reachable(actor),
        actor: standing,
        events: (invitation) =>
          events = [
            trail.event("invitation.revoked", {
              actor,
              target: null,
              client,
              detail: {
                invitation_id: id,
                email: invitation.email,
                role: invitation.role,
              },
            }),
          ],
      });
      trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );
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
