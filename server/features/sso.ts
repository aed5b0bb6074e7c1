/**
 * Single sign-on with a company's OpenID Connect provider (DESIGN.md §13):
 * the providers the login screen offers, the start and the callback of a
 * sign-in (or a re-authentication), the provider's back-channel logout, and
 * the caller's linked identities. The protocol is server/core/sso/; the
 * linking rules are the store's (`resolveSsoAccount`); what happens at the
 * callback is ./_sso_callback.ts.
 *
 * @module
 */

import type {
  SsoIdentityJson,
  SsoIdentityListJson,
  SsoProviderListJson,
} from "@gatehouse/contract";
import { isUuid } from "../core/_crypto.ts";
import type { GatehouseContext } from "../core/context.ts";
import { sessionFromContext } from "../core/identity.ts";
import { defineOperation, type Operations } from "../core/operation.ts";
import type { StoredIdentity } from "../core/store.ts";
import type { SsoClient } from "../core/sso/discovery.ts";
import { SSO_COOKIE, SSO_FLOW_TTL } from "../core/sso/flow.ts";
import { verifyLogoutToken } from "../core/sso/logout_token.ts";
import { startSsoFlow } from "../core/sso/start.ts";
import { serializeCookie } from "../http/cookie.ts";
import { AuthError } from "../http/errors.ts";
import { type Handler, NO_STORE, respond } from "../http/respond.ts";
import { answerCallback, flowsOf } from "./_sso_callback.ts";
import { readForm } from "./_sso_form.ts";

/** The single sign-on handlers, named as their operations. */
export interface SingleSignOn {
  /** `GET /api/auth/sso`: 200 `{providers: [{id, name, domains, enforce}]}`. */
  listSsoProviders: Handler;
  /** `GET /api/auth/sso/{id}/start?return_to&reauthenticate`: 302 to the provider. */
  startSso: Handler;
  /** `GET /api/auth/sso/{id}/callback`: 303 to the return path, or to `?sso_error=CODE`. */
  ssoCallback: Handler;
  /** `POST /api/auth/sso/{id}/backchannel-logout` (form `logout_token`): 200. */
  ssoBackchannelLogout: Handler;
  /** `GET /api/auth/sso/identities`: 200 `{identities}`. */
  listSsoIdentities: Handler;
  /** `DELETE /api/auth/sso/identities/{id}`: 204. */
  unlinkSsoIdentity: Handler;
}

const PROVIDERS_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  ...NO_STORE,
};
const PROVIDER_NOT_FOUND = new AuthError("provider_not_found");
const PROVIDER_UNAVAILABLE = new AuthError("provider_unavailable");
const SESSION_ABSENT = new AuthError("session_absent");
const LOGOUT_TOKEN_INVALID = new AuthError("logout_token_invalid", {
  meta: { field: "logout_token" },
});
const IDENTITY_ID_MALFORMED = new AuthError("identity_id_malformed", {
  meta: { field: "id" },
});

/** The single sign-on operations, on one context. */
export function ssoOperations(context: GatehouseContext): Operations<
  | "listSsoProviders"
  | "startSso"
  | "ssoCallback"
  | "ssoBackchannelLogout"
  | "listSsoIdentities"
  | "unlinkSsoIdentity"
> {
  const { store, sso, limits, now, trail, logger } = context;

  // The provider of the path, discovered: 404 for an id no provider has,
  // 503 while the provider cannot be reached (discovery is tried again).
  async function clientOf(params?: URLPatternResult): Promise<SsoClient> {
    const id = params?.pathname.groups.id;
    const connection = id === undefined ? null : sso.connection(id);
    if (connection === null) throw PROVIDER_NOT_FOUND;
    const client = await connection.client();
    if (client === null) throw PROVIDER_UNAVAILABLE;
    return client;
  }

  // The same answer every time: the configuration is fixed at start-up.
  const providers = JSON.stringify(
    {
      providers: sso.providers.map((provider) => ({
        id: provider.id,
        name: provider.name,
        domains: [...provider.domains],
        enforce: provider.enforce,
      })),
    } satisfies SsoProviderListJson,
  );
  const listSsoProviders = defineOperation(
    context,
    "listSsoProviders",
    function listSsoProviders() {
      // Never stored, like every answer of the API: it changes with the
      // deployment's configuration.
      return new Response(providers, { headers: PROVIDERS_HEADERS });
    },
  );

  const startSso = defineOperation(
    context,
    "startSso",
    async function startSso(req, params) {
      const client = await clientOf(params);
      const url = new URL(req.url);
      const reauthenticate = url.searchParams.get("reauthenticate") === "1";
      let userId: string | null = null;
      let sessionId: string | null = null;
      if (reauthenticate) {
        const identity = await context.sessions.resolve(req);
        const session = sessionFromContext(req);
        if (identity === null || session === null) throw SESSION_ABSENT;
        userId = identity.id;
        // The callback renews this session alone (_sso_callback.ts).
        sessionId = session.id;
      }
      const begun = await startSsoFlow(client, flowsOf(context), {
        now: now(),
        returnTo: url.searchParams.get("return_to"),
        purpose: reauthenticate ? "reauthenticate" : "sign_in",
        userId,
        sessionId,
      });
      return new Response(null, {
        status: 302,
        headers: {
          ...NO_STORE,
          location: begun.location,
          "set-cookie": serializeCookie(SSO_COOKIE, begun.cookieToken, {
            maxAge: SSO_FLOW_TTL / 1000,
          }),
        },
      });
    },
  );

  const ssoCallback = defineOperation(
    context,
    "ssoCallback",
    async function ssoCallback(req, params, info) {
      return await answerCallback(context, await clientOf(params), req, info);
    },
  );

  const ssoBackchannelLogout = defineOperation(
    context,
    "ssoBackchannelLogout",
    async function ssoBackchannelLogout(req, params, info) {
      const client = await clientOf(params);
      const form = await readForm(req, limits.maxBodyBytes);
      const tokens = form.getAll("logout_token");
      if (tokens.length === 0) {
        throw new AuthError("body_field_required", {
          message: 'Request body is missing a required field: "logout_token"',
          meta: { field: "logout_token" },
        });
      }
      if (tokens.length > 1) {
        throw new AuthError("body_malformed", {
          message: "Request body has more than one logout_token",
          meta: { field: "logout_token" },
        });
      }
      const provider = client.provider;
      const result = await verifyLogoutToken(client, tokens[0]!, {
        now: now(),
      });
      if (!result.ok) {
        logger.warn("SSO back-channel logout refused", {
          provider: provider.id,
          reason: result.reason,
        });
        throw LOGOUT_TOKEN_INVALID;
      }
      const { logout } = result;
      const meta = context.client(req, info);
      const ended = await store.endSsoSessions({
        providerId: provider.id,
        issuer: logout.issuer,
        subject: logout.subject,
        sid: logout.sid,
        jti: logout.jti,
        replayUntil: logout.replayUntil,
        events: (account, sessions) => [
          trail.event("logout", {
            actor: account,
            client: meta,
            detail: {
              via: "sso",
              provider: provider.id,
              method: "backchannel",
              sessions: String(sessions),
            },
          }),
        ],
      });
      // Only the events written: a delivery that found the sessions ended
      // by another of the same token wrote none.
      if (ended !== null) trail.committed(ended.events);
      logger.info("SSO back-channel logout", {
        provider: provider.id,
        sessions: ended?.sessions ?? 0,
        replayed: ended === null,
      });
      return new Response(null, { status: 200, headers: NO_STORE });
    },
  );

  const listSsoIdentities = defineOperation(
    context,
    "listSsoIdentities",
    async function listSsoIdentities(_req, { identity }) {
      const identities = (await store.listIdentities(identity.id))
        .map(toIdentityJson);
      return respond({ identities } satisfies SsoIdentityListJson, {
        headers: NO_STORE,
      });
    },
  );

  const unlinkSsoIdentity = defineOperation(
    context,
    "unlinkSsoIdentity",
    async function unlinkSsoIdentity(
      req,
      { identity, standing },
      params,
      info,
    ) {
      const raw = params?.pathname.groups.id;
      if (raw === undefined || !isUuid(raw)) throw IDENTITY_ID_MALFORMED;
      const id = raw.toLowerCase();
      const client = context.client(req, info);
      let made: readonly ReturnType<typeof trail.event>[] = [];
      await store.unlinkIdentity(identity.id, id, {
        // Bound to the session it came with, as every change to one's own
        // ways in is: an account disabled or signed out meanwhile keeps it.
        actor: standing,
        events: (unlinked) =>
          made = [trail.event("sso.unlinked", {
            actor: identity,
            client,
            detail: { identity_id: id, provider: unlinked.providerId },
          })],
      });
      trail.committed(made);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  return {
    listSsoProviders,
    startSso,
    ssoCallback,
    ssoBackchannelLogout,
    listSsoIdentities,
    unlinkSsoIdentity,
  };
}

function toIdentityJson(identity: StoredIdentity): SsoIdentityJson {
  return {
    id: identity.id,
    provider: identity.providerId,
    name: identity.name,
    email: identity.email,
    linked_at: new Date(identity.linkedAt).toISOString(),
  };
}
