/**
 * Invitations: an administrator names a person (email, name, role) and the
 * person sets their own password through a single-use link, which signs them
 * in. The answer to the administrator has the same shape and does the same
 * work whether or not the address already has an account: for an existing
 * account the stored link is a decoy that accepts as a dead link, and a
 * mailer sends the owner a notice instead of a link.
 *
 * An invitation records who sent it, and carries that authority only while
 * the inviter has it: accepting needs the inviter still enabled and still
 * able to grant the role (DESIGN.md §5), decided in the commit that creates
 * the account.
 *
 * @module
 */

import type { InviteAnswer } from "@gatehouse/contract";
import type { AuditTrail } from "../core/_audit.ts";
import type { ClientMeta } from "../http/_client_meta.ts";
import { uuidv7 } from "../core/_crypto.ts";
import type { AdminRules } from "../core/_admin_rules.ts";
import { readEmail, readName, readRole } from "../core/_input.ts";
import { linkUrl, mailerFor, newLink } from "../core/_links.ts";
import { grantersOf } from "../core/_roles.ts";
import { sessionIssuer } from "../core/auth.ts";
import { decode, optionalString, requiredString } from "../http/decode.ts";
import {
  answeringErrors,
  type Handler,
  NO_STORE,
  respond,
} from "../http/respond.ts";
import type { Limits } from "../http/limits.ts";
import type { Logger } from "../http/logger.ts";
import type { Mailer, MailMessage } from "../core/mailer.ts";
import type { Store } from "../core/store.ts";
import {
  DEAD_LINK,
  type LinkSettings,
  spendableLink,
} from "./_link_handlers.ts";

const NEW_ACCOUNT_FACTORS = Object.freeze({
  totpEnabled: false,
  passkeyCount: 0,
  factorVersion: 0,
});

/** What the invite handler needs; `createAdmin` builds it. */
export interface InviteDeps {
  store: Store;
  rules: AdminRules;
  limits: Limits;
  logger: Logger;
  now: () => number;
  mailer: Mailer | undefined;
  /** The link base from `linkBase()`: set whenever `mailer` is. */
  publicUrl: string | undefined;
  /** The events of this configuration. */
  trail: AuditTrail;
  /** The client of a request, as events record it. */
  client(req: Request, info?: Deno.ServeHandlerInfo): ClientMeta;
}

/** `POST /api/users/invite` `{email, name, role?}`. */
export function inviteHandler(deps: InviteDeps): Handler {
  const { store, rules, limits, logger, now, publicUrl } = deps;
  const mailer = mailerFor(deps.mailer, "invitation");
  let warned = false;
  const { trail } = deps;
  return answeringErrors(logger)(async function invite(req, _params, info) {
    const actor = rules.actor(req);
    const body = await decode(req, { maxBytes: limits.maxBodyBytes });
    const { email, key } = readEmail(requiredString(body, "email"), limits);
    const name = readName(requiredString(body, "name"), limits);
    const role = readRole(optionalString(body, "role"));
    await rules.assertKnown(role);
    await rules.assertGrantable(actor, role);
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
        client: deps.client(req, info),
        detail: { invitation_id: record.id, email, role },
      }),
    ];
    // Both branches store a link and read the address: the answer's timing
    // does not tell whether the address had an account.
    const [existing] = await Promise.all([
      store.credentialsByEmail(key),
      store.createLink(record, { events }),
    ]);
    trail.committed(events);
    if (mailer !== undefined) {
      const link = linkUrl(publicUrl!, "invitation", token);
      await mailer.send(
        existing === null
          ? invitationMail(email, name, link)
          : noticeMail(email),
      );
      return respond({ delivered: true } satisfies InviteAnswer, {
        headers: NO_STORE,
      });
    }
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
  });
}

function invitationMail(to: string, name: string, link: string): MailMessage {
  return {
    to,
    kind: "invitation",
    subject: "You are invited",
    text:
      `Hello ${name},\n\nYou have been invited. Set your password here:\n\n${link}\n\n` +
      "The link works once and expires in a few days.",
    link,
  };
}

function noticeMail(to: string): MailMessage {
  return {
    to,
    kind: "account_exists",
    subject: "An invitation for an account you already have",
    text:
      "Someone invited this address, but it already has an account, so no new account was made.\n\n" +
      'If you forgot your password, use "Forgot password" on the sign-in page.',
  };
}

/**
 * `POST /api/auth/invite/accept` `{token, password}`: sets the password and
 * signs in; the account and its session are created in one commit, under
 * the inviter's current authority.
 */
export function acceptInviteHandler(settings: LinkSettings): Handler {
  const { store, auth, logger } = settings;
  const issuer = sessionIssuer(auth);
  return answeringErrors(logger)(async function acceptInvite(
    req,
    _params,
    info,
  ) {
    const { tokenHash, link, passwordHash } = await spendableLink(
      req,
      settings,
      "invitation",
    );
    const at = settings.now();
    const userId = uuidv7(at);
    const { cookie, ...session } = issuer.issue(at, userId);
    const granters = await grantersOf(
      issuer.capabilities,
      issuer.privileged,
      link.role,
    );
    const client = issuer.client(req, info);
    const events = [
      issuer.trail.event("invitation.accepted", {
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
      session: { ...session, ...client },
      events,
      ...(granters === undefined ? {} : { granters }),
    });
    if (user === null) throw DEAD_LINK;
    issuer.trail.committed(events);
    // The caller's own identity, like login's: a new account has no factor.
    return respond(await issuer.ownIdentity(user, NEW_ACCOUNT_FACTORS), {
      headers: { ...NO_STORE, "set-cookie": cookie },
    });
  });
}
