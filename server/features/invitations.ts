/**
 * Invitations: an administrator names a person (email, name, role) and the
 * person sets their own password through a single-use link, which signs them
 * in. The answer to the administrator has the same shape and does the same
 * work whether or not the address already has an account: for an existing
 * account the stored link is a decoy that accepts as a dead link, and a
 * mailer sends the owner a notice instead of a link.
 *
 * A mailed invitation is sent before its link is stored: a mail that fails
 * answers 502 `mail_failed` and leaves nothing behind, no live link and no
 * pending invitation (DESIGN.md §14).
 *
 * An invitation records who sent it, and carries that authority only while
 * the inviter has it: accepting needs the inviter still enabled and still
 * able to grant the role (DESIGN.md §5), decided in the commit that creates
 * the account. It replaces the address's earlier invitation only if its
 * inviter could have revoked that one (DESIGN.md §8): otherwise 403
 * `role_beyond_reach`, decided in the commit that stores it.
 *
 * @module
 */

import type { InviteAnswer } from "@gatehouse/contract";
import type { GatehouseContext } from "../core/context.ts";
import { uuidv7 } from "../core/_crypto.ts";
import { readEmail, readName, readRole } from "../core/_input.ts";
import { linkUrl, newLink, refuseReplacing } from "../core/_links.ts";
import { defineOperation, type Operation } from "../core/operation.ts";
import { grantersOf } from "../core/_roles.ts";
import { browserLocale } from "../core/mail/locale.ts";
import { decode, optionalString, requiredString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { NO_STORE, respond } from "../http/respond.ts";
import { DEAD_LINK, spendableLink } from "./_link_handlers.ts";
import { refuseEnforced } from "./_sso_enforced.ts";

// An accepted invitation's account: no second factor yet, and the
// password it was accepted with.
const NEW_ACCOUNT_FACTORS = Object.freeze({
  totpEnabled: false,
  passkeyCount: 0,
  factorVersion: 0,
  hasPassword: true,
});

/** `POST /api/users/invite` `{email, name, role?}`. */
export function inviteOperation(context: GatehouseContext): Operation {
  const { store, rules, limits, logger, now, trail } = context;
  const publicUrl = context.linkBase;
  const mail = context.mail;
  const mailing = mail.delivers("invitation");
  let warned = false;
  return defineOperation(
    context,
    "invite",
    async function invite(
      req,
      { identity: actor, standing },
      _params,
      info,
    ) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const { email, key } = readEmail(requiredString(body, "email"), limits);
      const name = readName(requiredString(body, "name"), limits);
      const role = readRole(optionalString(body, "role"));
      await rules.assertKnown(role);
      await rules.assertGrantable(actor, role);
      const reachableRoles = await rules.reachable(actor);
      const createdAt = now();
      const { token, record } = newLink({
        id: uuidv7(createdAt),
        kind: "invitation",
        email,
        emailKey: key,
        name,
        role,
        userId: "",
        invitedBy: actor.id,
        generation: 0,
        createdAt,
        expiresAt: createdAt + limits.invitationTtl,
      });
      const events = [
        trail.event("invitation.created", {
          actor,
          target: null,
          client: context.client(req, info),
          detail: { invitation_id: record.id, email, role },
        }),
      ];
      if (mailing) {
        // Both branches read the address, send one message and store a
        // link: the answer's timing does not tell whether the address had
        // an account. The message goes first: a failed one stores nothing,
        // and one the store would refuse is not sent: the address's
        // invitations are read with the inviter's standing, which refuses
        // an inviter disabled, demoted or signed out since the guard. (The
        // commit decides again: only a change during the mail itself, or
        // an invitation beyond reach stored meanwhile, can still refuse it,
        // its message sent.)
        const [existing, replaced] = await Promise.all([
          store.credentialsByEmail(key),
          store.invitationsFor(key, { actor: standing }),
        ]);
        refuseReplacing(replaced, reachableRoles, createdAt);
        // An address without an account (or whose account has no language
        // yet): the inviting request's language.
        const locale = mail.localeOf(req);
        const message = existing === null
          ? mail.compose("invitation", { email, name }, {
            link: linkUrl(publicUrl!, "invitation", token),
            expiresAt: record.expiresAt,
            validFor: limits.invitationTtl,
            inviter: actor.name || null,
          }, locale)
          : mail.compose(
            "account_exists",
            {
              email,
              name: existing.user.name,
            },
            {},
            // The account's own language, once it has one (§14).
            existing.user.locale || locale,
          );
        try {
          await mail.send(message);
        } catch {
          // Counted and logged by the outbox; nothing was stored.
          throw MAIL_FAILED;
        }
        await store.createLink(record, {
          events,
          reachableRoles,
          actor: standing,
        });
        trail.committed(events);
        return respond({ delivered: true } satisfies InviteAnswer, {
          headers: NO_STORE,
        });
      }
      // Both branches store a link and read the address: the answer's timing
      // does not tell whether the address had an account.
      await Promise.all([
        store.credentialsByEmail(key),
        store.createLink(record, { events, reachableRoles, actor: standing }),
      ]);
      trail.committed(events);
      let base = publicUrl;
      if (base === undefined) {
        // Only the administrator who asked sees this link, so the request's
        // own origin is acceptable here; mail never is.
        base = new URL(req.url).origin;
        if (!warned) {
          warned = true;
          logger.warn(
            "publicUrl is not set: activation links use the request's origin; set it before adding a mailer",
          );
        }
      }
      return respond(
        {
          delivered: false,
          activation_link: linkUrl(base, "invitation", token),
        } satisfies InviteAnswer,
        { headers: NO_STORE },
      );
    },
  );
}

const MAIL_FAILED = new AuthError("mail_failed", {
  message: "The invitation mail could not be sent; no invitation was made",
});

/**
 * `POST /api/auth/invite/accept` `{token, password}`: sets the password and
 * signs in; the account and its session are created in one commit, under
 * the inviter's current authority.
 */
export function acceptInviteOperation(context: GatehouseContext): Operation {
  const { store, sessions, trail } = context;
  return defineOperation(
    context,
    "acceptInvite",
    async function acceptInvite(req, _params, info) {
      const { tokenHash, link, passwordHash } = await spendableLink(
        req,
        context,
        "invitation",
      );
      // The invited person signs in through the enforcing provider
      // instead, which spends the invitation (DESIGN.md §13).
      refuseEnforced(context, link.emailKey);
      const at = context.now();
      const userId = uuidv7(at);
      const { cookie, ...session } = sessions.issue(at, userId);
      const granters = await grantersOf(
        context.capabilities,
        context.privileged,
        link.role,
      );
      const client = context.client(req, info);
      const events = [
        trail.event("invitation.accepted", {
          actor: { id: userId, email: link.email },
          client,
          detail: {
            invitation_id: link.id,
            invited_by: link.invitedBy === "" ? null : link.invitedBy,
            role: link.role,
            session_id: session.id,
          },
        }),
      ];
      const user = await store.acceptInvitation(tokenHash, {
        userId,
        passwordHash,
        now: at,
        // The language of the person's mail: their browser's (§14).
        locale: browserLocale(req.headers.get("accept-language")) ?? "",
        session: { ...session, ...client },
        events,
        ...(granters === undefined ? {} : { granters }),
      });
      if (user === null) throw DEAD_LINK;
      trail.committed(events);
      // The caller's own identity, like login's: a new account has no factor.
      return respond(await sessions.ownIdentity(user, NEW_ACCOUNT_FACTORS), {
        headers: { ...NO_STORE, "set-cookie": cookie },
      });
    },
  );
}
