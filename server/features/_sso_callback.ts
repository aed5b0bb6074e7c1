// The callback of a single sign-on (DESIGN.md §13), after the protocol
// layer vouched for the person (server/core/sso/callback.ts): which account
// they sign in to (the store's linking rules), the role the provider's
// groups give it (`syncRole`, never past the last privileged account), and
// the session, which remembers the provider and its `sid`. Or, for a
// re-authentication, the proof of the session that asked renewed. Every
// failure is a 303 to the error path with `sso_error=CODE`; a failure
// after a flow was spent is also a `login.failed`.

import type { SsoErrorCode } from "@gatehouse/contract";
import type { ClientMeta } from "../http/_client_meta.ts";
import { readCookie, serializeCookie } from "../http/cookie.ts";
import { AuthError } from "../http/errors.ts";
import { NO_STORE } from "../http/respond.ts";
import { uuidv7 } from "../core/_crypto.ts";
import { fold } from "../core/_fold.ts";
import { readEmail, readName } from "../core/_input.ts";
import { grantersOf } from "../core/_roles.ts";
import type { GatehouseContext } from "../core/context.ts";
import { sessionFromContext } from "../core/identity.ts";
import type { AuditEvent, SsoAccount, SsoResolved } from "../core/store.ts";
import { finishSsoFlow } from "../core/sso/callback.ts";
import { type SsoIdentity, subjectKeyOf } from "../core/sso/claims.ts";
import type { SsoClient } from "../core/sso/discovery.ts";
import {
  SSO_COOKIE,
  type SsoFlow,
  type SsoFlowStore,
} from "../core/sso/flow.ts";
import { firstLinkRefusal } from "../core/sso/linking.ts";
import type { SsoProvider } from "../core/sso/provider_config.ts";
import { roleForNewAccount, roleForSync } from "../core/sso/role_map.ts";

// An account as a refusal's event names it.
type Someone = { readonly id: string; readonly email: string };

/** The cookie that ends a flow's cookie. */
export const CLEAR_SSO_COOKIE: string = serializeCookie(SSO_COOKIE, "", {
  maxAge: 0,
});

/** The flows of a store, as the protocol layer keeps them. */
export function flowsOf(context: GatehouseContext): SsoFlowStore {
  const { store } = context;
  return {
    save: (flow) => store.saveSsoFlow(flow),
    spend: (tokenHash) => store.spendSsoFlow(tokenHash),
  };
}

/**
 * Answers the callback of `client`'s provider: 303 to the flow's return
 * path, signed in (or re-authenticated), or to the error path.
 */
export async function answerCallback(
  context: GatehouseContext,
  client: SsoClient,
  req: Request,
  info: Deno.ServeHandlerInfo | undefined,
): Promise<Response> {
  const { now } = context;
  const meta = context.client(req, info);
  const url = new URL(req.url);
  const result = await finishSsoFlow(client, flowsOf(context), {
    now: now(),
    cookieToken: readCookie(req.headers.get("cookie"), SSO_COOKIE),
    params: url.searchParams,
  });
  const provider = client.provider;
  const refuse = (
    code: SsoErrorCode,
    reason: string,
    flow: SsoFlow | null,
    account: Someone | null = null,
  ) => refused(context, provider, meta, { code, reason, flow, account });
  if (!result.ok) return refuse(result.code, result.reason, result.flow);
  const { flow, identity } = result;
  if (flow.purpose === "reauthenticate") {
    return await reauthenticated(context, req, meta, flow, identity, refuse);
  }

  const person = personOf(context, identity);
  // An address another provider enforces signs in through that one only
  // (DESIGN.md §13): refused before anything is linked or made.
  if (enforcedElsewhere(context, provider, person.emailKey)) {
    return refuse(
      "sso_domain_refused",
      "Another provider enforces the address's domain",
      flow,
    );
  }
  const at = now();
  let made: readonly AuditEvent[] = [];
  const outcome = await context.store.resolveSsoAccount({
    providerId: provider.id,
    issuer: identity.issuer,
    subject: identity.subject,
    email: person.email,
    emailKey: person.emailKey,
    name: person.given,
    firstLinkRefusal: firstLinkRefusal(provider, identity)?.code as
      | "sso_domain_refused"
      | "sso_email_unverified"
      | undefined ?? null,
    ...(provider.createAccounts && person.email !== null
      ? {
        create: {
          name: person.name,
          role: roleForNewAccount(provider, identity.roleValues) ?? "",
        },
      }
      : {}),
    identityId: uuidv7(at),
    userId: uuidv7(at),
    now: at,
    granters: (role) =>
      grantersOf(context.capabilities, context.privileged, role),
    // The events of the commit that lands (a retried attempt makes them
    // again): made here, handed on once it returned.
    events: (resolved) => made = resolutionEvents(context, resolved, meta),
  });
  if (!outcome.ok) {
    return refuse(
      outcome.code,
      `The account could not be signed in to (${outcome.code})`,
      flow,
      outcome.account,
    );
  }
  context.trail.committed(made);

  let account = outcome.account;
  if (enforcedElsewhere(context, provider, fold(account.email))) {
    return refuse(
      "sso_domain_refused",
      "Another provider enforces the account's domain",
      flow,
      account,
    );
  }
  // A linked account follows the provider's groups at every sign-in; one
  // made now already has its role (an invitation's: `syncRole` applies
  // from the next sign-in).
  if (
    provider.syncRole && (outcome.how === "found" || outcome.how === "linked")
  ) {
    account = await syncRole(
      context,
      provider,
      account,
      roleForSync(provider, identity.roleValues),
      meta,
    );
  }

  let signedIn: { cookie: string; events: AuditEvent[] };
  try {
    signedIn = await context.sessions.signIn(account, {
      generation: outcome.generation,
      method: "sso",
      sso: {
        provider: provider.id,
        sid: identity.sid,
        subjectKey: subjectKeyOf(identity.issuer, identity.subject),
      },
    }, meta);
  } catch (error) {
    if (error instanceof AuthError && error.code === "credentials_invalid") {
      return refuse(
        await changedSince(context, account.id),
        "The account changed since it was read",
        flow,
        account,
      );
    }
    throw error;
  }
  context.trail.committed(signedIn.events);
  // A completed sign-in: its browser's failed attempts are forgiven, and
  // the browser is trusted for the address (DESIGN.md §15).
  const lock = context.accountLock;
  const emailKey = fold(account.email);
  await lock.proven(lock.scopeOf(req, emailKey));
  const headers = new Headers(NO_STORE);
  headers.set("location", flow.returnTo);
  headers.append("set-cookie", signedIn.cookie);
  headers.append("set-cookie", CLEAR_SSO_COOKIE);
  headers.append("set-cookie", lock.deviceCookie(req, emailKey));
  return new Response(null, { status: 303, headers });
}

// Why the session's commit refused an account read before it: gone,
// disabled, or else only its generation moved (its sessions were ended, or
// its password reset, while the sign-in was in flight). That last is no
// fault of the account: the flow is spent, and the person starts again. It
// is never signed in under the new generation: a sign-in in flight when
// the sessions end leaves no session (DESIGN.md §5).
async function changedSince(
  context: GatehouseContext,
  accountId: string,
): Promise<SsoErrorCode> {
  const current = await context.store.userById(accountId);
  if (current === null) return "sso_account_unknown";
  return current.disabled ? "sso_account_disabled" : "sso_state_invalid";
}

// Whether an enforcing provider other than `provider` speaks for the
// address: then only that one may sign it in.
function enforcedElsewhere(
  context: GatehouseContext,
  provider: SsoProvider,
  emailKey: string | null,
): boolean {
  const enforcing = emailKey === null ? null : context.sso.enforcedBy(emailKey);
  return enforcing !== null && enforcing.id !== provider.id;
}

// The address and the name a provider gives, by the same rules as typed
// ones (an address or a name they refuse is none: it is the person's own
// text at many providers, and is kept as the identity's), and the name an
// account made for it gets.
function personOf(context: GatehouseContext, identity: SsoIdentity) {
  const { limits } = context;
  let email: string | null = null;
  let emailKey: string | null = null;
  if (identity.email !== null) {
    try {
      ({ email, key: emailKey } = readEmail(identity.email, limits));
    } catch {
      // Not an address these rules take: as if the provider gave none.
    }
  }
  let given: string | null = null;
  try {
    if (identity.name !== null) given = readName(identity.name, limits);
  } catch {
    // Not a name these rules take: as if the provider gave none.
  }
  // An account's name: the provider's, else the address's local part.
  let name = given ??
    (email === null ? "" : email.slice(0, email.lastIndexOf("@")));
  if (name === "") name = "SSO";
  return {
    email,
    emailKey,
    given,
    // Cut in whole characters, as the name rules count them: a cut in
    // UTF-16 units could leave half of an emoji, a lone surrogate.
    name: [...name].slice(0, limits.maxNameLength).join(""),
  };
}

// `sso.linked` for every new link, with `user.created` (via SSO) or
// `invitation.accepted` for an account made now.
function resolutionEvents(
  context: GatehouseContext,
  resolved: SsoResolved,
  client: ClientMeta,
): AuditEvent[] {
  const { trail } = context;
  const { account, identity } = resolved;
  const events: AuditEvent[] = [];
  if (resolved.how === "created") {
    events.push(trail.event("user.created", {
      actor: null,
      target: account,
      client,
      detail: {
        via: "sso",
        provider: identity.providerId,
        role: account.role,
      },
    }));
  }
  if (resolved.how === "invited" && resolved.invitation !== null) {
    const invitation = resolved.invitation;
    events.push(trail.event("invitation.accepted", {
      actor: account,
      client,
      detail: {
        invitation_id: invitation.id,
        ...(invitation.invitedBy === ""
          ? {}
          : { invited_by: invitation.invitedBy }),
        role: invitation.role,
        via: "sso",
      },
    }));
  }
  if (resolved.how !== "found") {
    events.push(trail.event("sso.linked", {
      actor: account,
      client,
      detail: { identity_id: identity.id, provider: identity.providerId },
    }));
  }
  return events;
}

/**
 * Sets the account's role from the provider's groups, under the last
 * privileged account rule: a demotion that would leave no privileged
 * account is skipped (logged, audited `user.role_sync_skipped`). Answers
 * the account as it is now.
 */
async function syncRole(
  context: GatehouseContext,
  provider: SsoProvider,
  account: SsoAccount,
  wanted: string | null,
  client: ClientMeta,
): Promise<SsoAccount> {
  const { store, trail } = context;
  const role = wanted ?? "";
  if (role === account.role) return account;
  let made: readonly AuditEvent[] = [];
  try {
    const user = await store.updateUser(account.id, {
      role,
      keepPrivileged: context.privileged,
      // The invitations the new role may not grant end with the change.
      granters: (role) =>
        grantersOf(context.capabilities, context.privileged, role),
      events: (before, after) =>
        made = before.role === after.role ? [] : [
          trail.event("user.role_changed", {
            actor: null,
            target: after,
            client,
            detail: {
              old_role: before.role,
              new_role: after.role,
              via: "sso",
              provider: provider.id,
            },
          }),
        ],
    });
    trail.committed(made);
    return user;
  } catch (error) {
    if (
      !(error instanceof AuthError) || error.code !== "last_privileged_refused"
    ) {
      throw error;
    }
    context.logger.warn(
      "SSO role sync skipped: the account is the last privileged one",
      { provider: provider.id, userId: account.id, wantedRole: role },
    );
    trail.refused([trail.event("user.role_sync_skipped", {
      actor: null,
      target: account,
      client,
      detail: {
        role: account.role,
        wanted_role: role,
        via: "sso",
        provider: provider.id,
      },
    })]);
    return account;
  }
}

// A re-authentication (§8): the session that started it, still live (the
// browser's session is the one the flow names, of the account it names),
// whose identity at this provider signed in again; its proof is renewed, no
// session is made. A flow whose session ended meanwhile (alone, or with a
// sign-out everywhere) renews nothing, not even a session the browser
// signed in with since: the provider's sign-in proved a person to the
// session that asked, and that session is gone.
async function reauthenticated(
  context: GatehouseContext,
  req: Request,
  client: ClientMeta,
  flow: SsoFlow,
  identity: SsoIdentity,
  refuse: (
    code: SsoErrorCode,
    reason: string,
    flow: SsoFlow | null,
    account?: Someone | null,
  ) => Response,
): Promise<Response> {
  const { store, trail, now } = context;
  const signedIn = await context.sessions.resolve(req);
  const session = sessionFromContext(req);
  if (
    signedIn === null || session === null || signedIn.id !== flow.userId ||
    session.id !== flow.sessionId
  ) {
    return refuse(
      "sso_state_invalid",
      "The session that asked to re-authenticate is gone",
      flow,
    );
  }
  const linked = await store.identityBySubject(
    identity.issuer,
    identity.subject,
  );
  if (linked === null || linked.userId !== signedIn.id) {
    return refuse(
      "sso_account_unknown",
      "The provider signed in someone not linked to this account",
      flow,
      signedIn,
    );
  }
  const events = [
    trail.event("reauthenticated", {
      actor: signedIn,
      client,
      detail: {
        session_id: session.id,
        method: "sso",
        provider: linked.providerId,
      },
    }),
  ];
  if (
    !await store.renewAuthentication(session.tokenHash, { now: now(), events })
  ) {
    return refuse("sso_state_invalid", "The session ended meanwhile", flow);
  }
  trail.committed(events);
  return new Response(null, {
    status: 303,
    headers: {
      ...NO_STORE,
      location: flow.returnTo,
      "set-cookie": CLEAR_SSO_COOKIE,
    },
  });
}

/** A refused sign-in: logged, audited when a flow was spent, and a 303. */
function refused(
  context: GatehouseContext,
  provider: SsoProvider,
  client: ClientMeta,
  refusal: {
    code: SsoErrorCode;
    reason: string;
    flow: SsoFlow | null;
    account: Someone | null;
  },
): Response {
  const { code, reason, flow, account } = refusal;
  context.logger.warn("SSO sign-in refused", {
    provider: provider.id,
    code,
    reason,
  });
  // Without a flow the callback did nothing but read a cookie: recording
  // each would let anyone grow the audit trail at will. A flow was written
  // by a start, which the limiter counts.
  if (flow !== null) {
    context.trail.refused([context.trail.event("login.failed", {
      actor: account,
      client,
      detail: { method: "sso", provider: provider.id, reason: code },
    })]);
  }
  const path = context.sso.errorPath;
  const location = `${path}${path.includes("?") ? "&" : "?"}sso_error=${code}`;
  return new Response(null, {
    status: 303,
    headers: { ...NO_STORE, location, "set-cookie": CLEAR_SSO_COOKIE },
  });
}
