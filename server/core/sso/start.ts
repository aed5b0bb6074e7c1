// The start of a single sign-on (DESIGN.md §13): a fresh state, nonce and
// PKCE verifier, kept in a flow record bound to the browser by a random
// cookie token, and the provider's authorization URL that carries them.
// PKCE S256 always, whatever the provider says it needs.

import { hashToken, randomToken } from "../_crypto.ts";
import type { SsoClient } from "./discovery.ts";
import {
  SSO_FLOW_TTL,
  type SsoFlow,
  type SsoFlowStore,
  type SsoPurpose,
} from "./flow.ts";
import { openidClient } from "./_libraries.ts";
import { safeReturnPath } from "./return_to.ts";

/** Options of {@linkcode startSsoFlow}. */
export interface StartSsoOptions {
  /** The current time, ms since the epoch (the context's clock). */
  now: number;
  /**
   * The raw `return_to` query value: checked here (a same-origin path, else
   * `/`), so no unchecked target is ever stored.
   */
  returnTo?: string | null;
  /** Sign-in (default) or re-authentication (`prompt=login`, `max_age=0`). */
  purpose?: SsoPurpose;
  /** The signed-in account, required for a re-authentication. */
  userId?: string | null;
  /**
   * The public id of the session that asks, required for a
   * re-authentication: only that session's proof is renewed.
   */
  sessionId?: string | null;
}

/** What the start route answers with. */
export interface SsoStart {
  /**
   * The value of the `__Host-gatehouse-sso` cookie (`SSO_COOKIE`, Max-Age
   * `SSO_FLOW_TTL / 1000`). The store holds only its hash.
   */
  cookieToken: string;
  /** The provider's authorization URL: the 302's Location. */
  location: string;
  /** The flow as saved. */
  flow: SsoFlow;
}

/**
 * Starts a sign-in (or re-authentication) with `client`'s provider: saves a
 * new flow through `flows` and answers the cookie token and the URL to
 * redirect to.
 *
 * @param client The discovered provider.
 * @param flows Where flows are kept.
 * @param options The clock, the return path, the purpose.
 * @returns The cookie token, the Location and the saved flow.
 * @throws {TypeError} For a re-authentication without `userId`.
 *
 * @example In the start route
 * ```ts
 * import type { SsoClient } from "./discovery.ts";
 * import { SSO_COOKIE, SSO_FLOW_TTL, type SsoFlowStore } from "./flow.ts";
 * import { startSsoFlow } from "./start.ts";
 *
 * async function start(client: SsoClient, flows: SsoFlowStore, url: URL) {
 *   const begun = await startSsoFlow(client, flows, {
 *     now: Date.now(),
 *     returnTo: url.searchParams.get("return_to"),
 *   });
 *   return new Response(null, {
 *     status: 302,
 *     headers: {
 *       location: begun.location,
 *       "set-cookie": `${SSO_COOKIE}=${begun.cookieToken}; Max-Age=${
 *         SSO_FLOW_TTL / 1000
 *       }; Path=/; Secure; HttpOnly; SameSite=Lax`,
 *     },
 *   });
 * }
 * ```
 */
export async function startSsoFlow(
  client: SsoClient,
  flows: SsoFlowStore,
  options: StartSsoOptions,
): Promise<SsoStart> {
  const purpose = options.purpose ?? "sign_in";
  const userId = options.userId ?? null;
  const sessionId = options.sessionId ?? null;
  if (purpose === "reauthenticate" && (userId === null || sessionId === null)) {
    throw new TypeError(
      "A re-authentication needs the signed-in account and its session",
    );
  }
  // Loaded already: the client's discovery imported it.
  const oidc = await openidClient();
  const cookieToken = randomToken();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const flow: SsoFlow = {
    tokenHash: hashToken(cookieToken),
    providerId: client.provider.id,
    state: randomToken(),
    nonce: randomToken(),
    codeVerifier,
    returnTo: safeReturnPath(options.returnTo),
    purpose,
    userId: purpose === "reauthenticate" ? userId : null,
    sessionId: purpose === "reauthenticate" ? sessionId : null,
    createdAt: options.now,
    expiresAt: options.now + SSO_FLOW_TTL,
  };
  const parameters: Record<string, string> = {
    response_type: "code",
    redirect_uri: client.redirectUri,
    scope: client.provider.scopes.join(" "),
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  };
  if (purpose === "reauthenticate") {
    parameters.prompt = "login";
    parameters.max_age = "0";
  }
  const location = oidc.buildAuthorizationUrl(client.configuration, parameters)
    .href;
  await flows.save(flow);
  return { cookieToken, location, flow };
}
