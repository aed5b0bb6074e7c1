// The callback of a single sign-on (DESIGN.md §13): the flow the browser's
// cookie names is spent first (whatever follows, it is used once), then the
// answer is checked in the order that gives each failure its own code —
// state (`sso_state_invalid`), RFC 9207's `iss` (`sso_token_invalid`), a
// provider's error (`sso_denied`) — and the code is exchanged with the PKCE
// verifier by openid-client, which checks the ID token's signature against
// the provider's JWKS, `iss`, `aud` (and `azp`), `exp`, `iat` and `nonce`
// (`sso_token_invalid`). What comes back is an identity, or a refusal;
// whether that identity may sign in is the routes' and the store's call.

import { hashToken, isTokenShaped } from "../_crypto.ts";
import { timingSafeEqual } from "../_sha256.ts";
import { openidClient } from "./_libraries.ts";
import { safeMessage } from "./_redact.ts";
import {
  identityFromClaims,
  isKeptText,
  needsUserinfo,
  type SsoClaims,
  type SsoIdentity,
} from "./claims.ts";
import { SSO_CLOCK_TOLERANCE, type SsoClient } from "./discovery.ts";
import { refuse, type SsoErrorCode, type SsoRefusal } from "./errors.ts";
import type { SsoFlow, SsoFlowStore } from "./flow.ts";

/** Options of {@linkcode finishSsoFlow}. */
export interface FinishSsoOptions {
  /** The current time, ms since the epoch. */
  now: number;
  /** The `__Host-gatehouse-sso` cookie's value, or null when absent. */
  cookieToken: string | null;
  /** The callback's query (`code`, `state`, `iss` or `error`). */
  params: URLSearchParams;
}

/** A callback that succeeded: who signed in, and the flow it ends. */
export interface SsoSignIn {
  /** Always true. */
  ok: true;
  /** The spent flow (its purpose, return path, account for a re-auth). */
  flow: SsoFlow;
  /** The identity the provider vouched for. */
  identity: SsoIdentity;
}

/** A callback that failed; `flow` is the spent flow when one was found. */
export interface SsoCallbackRefusal extends SsoRefusal<SsoErrorCode> {
  /** The flow the cookie named, when there was one (spent all the same). */
  flow: SsoFlow | null;
}

/** What {@linkcode finishSsoFlow} answers. */
export type SsoCallbackResult = SsoSignIn | SsoCallbackRefusal;

// The error codes a provider may send (RFC 6749 §4.1.2.1 and OIDC); any
// other text is not copied into a log line.
const ERROR_CODE = /^[a-z_]{1,64}$/;
// The longest `sub` an identity is kept under (a logout token's limit).
const MAX_SUBJECT = 1024;

/**
 * Finishes a sign-in at the callback: spends the flow, checks the answer,
 * exchanges the code and answers the identity or a refusal carrying the
 * `sso_error` code.
 *
 * @param client The discovered provider the callback belongs to.
 * @param flows Where flows are kept.
 * @param options The clock, the cookie's value, the callback's query.
 * @returns The identity and the flow, or a refusal.
 *
 * @example In the callback route
 * ```ts
 * import { finishSsoFlow } from "./callback.ts";
 * import type { SsoClient } from "./discovery.ts";
 * import type { SsoFlowStore } from "./flow.ts";
 *
 * async function callback(
 *   client: SsoClient,
 *   flows: SsoFlowStore,
 *   url: URL,
 *   cookie: string | null,
 * ) {
 *   const result = await finishSsoFlow(client, flows, {
 *     now: Date.now(),
 *     cookieToken: cookie,
 *     params: url.searchParams,
 *   });
 *   if (!result.ok) return `/?sso_error=${result.code}`;
 *   return result.flow.returnTo; // after the session is made
 * }
 * ```
 */
export async function finishSsoFlow(
  client: SsoClient,
  flows: SsoFlowStore,
  options: FinishSsoOptions,
): Promise<SsoCallbackResult> {
  const { cookieToken, params, now } = options;
  if (cookieToken === null || !isTokenShaped(cookieToken)) {
    return refused(null, "sso_state_invalid", "No SSO cookie came back");
  }
  const flow = await flows.spend(hashToken(cookieToken));
  if (flow === null) {
    return refused(null, "sso_state_invalid", "Unknown or spent SSO flow");
  }
  const refusal = checkAnswer(client, flow, params, now);
  if (refusal !== null) return refusal;

  // Loaded already: the client's discovery imported it.
  const oidc = await openidClient();
  const secret = client.provider.clientSecret;
  const currentUrl = new URL(client.redirectUri);
  currentUrl.search = params.toString();
  let claims: SsoClaims;
  let accessToken: string;
  try {
    const tokens = await oidc.authorizationCodeGrant(
      client.configuration,
      currentUrl,
      {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      },
    );
    const idToken = tokens.claims();
    if (idToken === undefined) throw new Error("No ID token");
    claims = idToken;
    accessToken = tokens.access_token;
  } catch (error) {
    return refused(
      flow,
      "sso_token_invalid",
      `The code exchange or the ID token failed: ${safeMessage(error, secret)}`,
    );
  }

  // The identity's key, as a logout token may name it (./logout_token.ts
  // reads a `sub` up to 1024 characters): a longer one could never be
  // logged out by `sub`, and is past what a store keeps in one record
  // (a Deno KV value holds 64 KiB). OIDC Core §2 allows 255. An unpaired
  // surrogate or a NUL is not text every store keeps and finds alike
  // (`isKeptText`).
  if (
    typeof claims.sub !== "string" || claims.sub === "" ||
    claims.sub.length > MAX_SUBJECT || !isKeptText(claims.sub)
  ) {
    return refused(
      flow,
      "sso_token_invalid",
      "The ID token's sub is not well-formed text of at most 1024 characters",
    );
  }

  if (flow.purpose === "reauthenticate") {
    // max_age=0 asked the provider to authenticate the person now: its
    // auth_time must not be older than this flow.
    const authTime = claims.auth_time;
    if (
      typeof authTime !== "number" ||
      authTime * 1000 < flow.createdAt - SSO_CLOCK_TOLERANCE * 1000
    ) {
      return refused(
        flow,
        "sso_token_invalid",
        "The provider did not authenticate the person again (auth_time)",
      );
    }
  }

  let userinfo: SsoClaims | null = null;
  if (client.userinfo && needsUserinfo(client.provider, claims)) {
    // Best effort: the ID token decides, userinfo only fills gaps; its
    // `sub` must be the ID token's (openid-client checks it).
    userinfo = await oidc.fetchUserInfo(
      client.configuration,
      accessToken,
      String(claims.sub),
    ).catch(() => null);
  }
  return {
    ok: true,
    flow,
    identity: identityFromClaims(client.provider, claims, userinfo),
  };
}

// The checks on the answer itself, before any request to the provider.
function checkAnswer(
  client: SsoClient,
  flow: SsoFlow,
  params: URLSearchParams,
  now: number,
): SsoCallbackRefusal | null {
  if (flow.expiresAt <= now) {
    return refused(flow, "sso_state_invalid", "The SSO flow expired");
  }
  if (flow.providerId !== client.provider.id) {
    return refused(
      flow,
      "sso_state_invalid",
      `The SSO flow was started with provider "${flow.providerId}"`,
    );
  }
  const state = single(params, "state");
  if (state === undefined || !sameText(state, flow.state)) {
    return refused(
      flow,
      "sso_state_invalid",
      state === undefined
        ? "The callback has no (single) state"
        : "The callback's state is not the flow's",
    );
  }
  const iss = single(params, "iss");
  if (
    params.has("iss") && iss !== client.configuration.serverMetadata().issuer
  ) {
    return refused(
      flow,
      "sso_token_invalid",
      "The callback's iss parameter is not the provider's issuer",
    );
  }
  if (iss === undefined && client.issParameter) {
    return refused(
      flow,
      "sso_token_invalid",
      "The callback has no iss parameter, which the provider promises",
    );
  }
  const error = params.get("error");
  if (error !== null) {
    return refused(
      flow,
      "sso_denied",
      `The provider answered "${
        ERROR_CODE.test(error) ? error : "(unreadable)"
      }"`,
    );
  }
  if (single(params, "code") === undefined) {
    return refused(
      flow,
      "sso_token_invalid",
      "The callback has no (single) code",
    );
  }
  return null;
}

function refused(
  flow: SsoFlow | null,
  code: SsoErrorCode,
  reason: string,
): SsoCallbackRefusal {
  return { ...refuse(code, reason), flow };
}

// A parameter given exactly once, else undefined: a repeated `state` or
// `code` is an answer nobody should have to interpret.
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

function sameText(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  return timingSafeEqual(encoder.encode(a), encoder.encode(b));
}
