// Discovery of a provider at start-up (DESIGN.md §13) with npm:openid-client:
// its metadata read from `{issuer}/.well-known/openid-configuration`, held to
// what the rest of the layer relies on (the exact issuer, the code flow,
// PKCE S256, signed ID tokens, a JWKS), and turned into the client that the
// start, the callback and the logout token check use. No request follows a
// redirect; ID token signatures are always checked; the client secret is in
// no message this module makes.

import type * as oidc from "openid-client";
import type { JWTVerifyGetKey } from "jose";
import { jose, openidClient } from "./_libraries.ts";
import { safeMessage } from "./_redact.ts";
import { noRedirectFetch, type SsoFetch } from "./no_redirect_fetch.ts";
import { isLoopbackHost, type SsoProvider } from "./provider_config.ts";

/** The clock skew tolerated on ID and logout tokens, seconds (§13: ≤ 60). */
export const SSO_CLOCK_TOLERANCE = 60;

/** Options of {@linkcode discoverSsoProvider}. */
export interface DiscoverSsoOptions {
  /**
   * The redirect URI registered at the provider: the callback route's
   * absolute URL (`ssoRedirectUri(publicUrl, id)`).
   */
  redirectUri: string;
  /**
   * The fetch underneath every request to the provider (the global one by
   * default). Whatever it does, redirects are refused.
   */
  fetch?: SsoFetch;
  /** Timeout of each request to the provider, seconds. Default 10. */
  timeoutSeconds?: number;
}

/**
 * A discovered provider: what the start, the callback and the back-channel
 * logout need. Made by {@linkcode discoverSsoProvider}; holds the secret
 * only inside openid-client's configuration, which prints nothing of it.
 */
export interface SsoClient {
  /** The provider's configuration. */
  readonly provider: SsoProvider;
  /** The redirect URI sent in authorization and token requests. */
  readonly redirectUri: string;
  /** openid-client's configuration: server metadata, client, fetch. */
  readonly configuration: oidc.Configuration;
  /** The provider's keys (its JWKS), fetched without redirects, cached. */
  readonly keys: JWTVerifyGetKey;
  /** The JWS algorithms the provider signs ID tokens with (never `none`). */
  readonly signingAlgorithms: readonly string[];
  /**
   * Whether the provider advertises RFC 9207's
   * `authorization_response_iss_parameter_supported`: then a callback
   * without `iss` is refused.
   */
  readonly issParameter: boolean;
  /** Whether the provider has a userinfo endpoint. */
  readonly userinfo: boolean;
}

/** Thrown when a provider cannot be discovered or is unfit for sign-in. */
export class SsoDiscoveryError extends Error {
  /** The provider's id. */
  readonly providerId: string;

  /**
   * A discovery failure of one provider.
   *
   * @param providerId The provider's id.
   * @param message What failed (never holding the client secret).
   */
  constructor(providerId: string, message: string) {
    super(message);
    this.name = "SsoDiscoveryError";
    this.providerId = providerId;
  }
}

// Asymmetric algorithms openid-client and jose verify; the fallback when a
// provider lists none (the discovery field is required, RS256 the default).
const ASYMMETRIC = /^(?:RS|PS|ES)(?:256|384|512)$|^EdDSA$|^Ed25519$/;

/**
 * Discovers `provider` and builds its client. Refuses a provider whose
 * declared issuer differs from the configured one by even a character, that
 * redirects any request, that lacks the code flow, PKCE S256 (when it lists
 * PKCE methods), a JWKS or an asymmetric ID token algorithm, or whose
 * endpoints are plain http off loopback.
 *
 * @param provider The resolved provider.
 * @param options The redirect URI, and optionally a fetch and a timeout.
 * @returns The client.
 * @throws {SsoDiscoveryError} With a message for the operator's log.
 *
 * @example Discover at start-up, log a failure
 * ```ts
 * import { discoverSsoProvider, SsoDiscoveryError } from "./discovery.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [provider] = resolveSsoProviders({
 *   providers: [{
 *     id: "down",
 *     name: "Down",
 *     issuer: "http://127.0.0.1:9",
 *     clientId: "app",
 *     clientSecret: "s3cret",
 *   }],
 * });
 * const error = await discoverSsoProvider(provider!, {
 *   redirectUri: "http://127.0.0.1:8000/api/auth/sso/down/callback",
 *   timeoutSeconds: 2,
 * }).catch((e) => e);
 * console.assert(error instanceof SsoDiscoveryError);
 * console.assert(!error.message.includes("s3cret"));
 * ```
 */
export async function discoverSsoProvider(
  provider: SsoProvider,
  options: DiscoverSsoOptions,
): Promise<SsoClient> {
  const secret = provider.clientSecret;
  const fail = (detail: string): never => {
    throw new SsoDiscoveryError(
      provider.id,
      `Cannot use SSO provider "${provider.id}" (${provider.issuer}): ${detail}`,
    );
  };
  const [oidc, { createRemoteJWKSet, customFetch }] = await Promise.all([
    openidClient(),
    jose(),
  ]);
  const guarded = noRedirectFetch(options.fetch);
  // openid-client types its request body more widely than RequestInit (a
  // Uint8Array over any buffer); the values it sends are plain fetch bodies.
  const forOidc: oidc.CustomFetch = (url, init) =>
    guarded(url, init as RequestInit);
  const timeout = options.timeoutSeconds ?? 10;
  const insecure = new URL(provider.issuer).protocol === "http:";
  const execute = insecure ? [oidc.allowInsecureRequests] : [];

  let discovered: oidc.Configuration;
  try {
    // No client authentication yet: it depends on what the metadata lists.
    discovered = await oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      undefined,
      oidc.None(),
      { [oidc.customFetch]: forOidc, execute, timeout },
    );
  } catch (error) {
    return fail(`discovery failed: ${safeMessage(error, secret)}`);
  }
  const metadata = { ...discovered.serverMetadata() };

  if (metadata.issuer !== provider.issuer) {
    fail(
      `the provider declares issuer "${metadata.issuer}", not the configured one`,
    );
  }
  for (
    const field of [
      "authorization_endpoint",
      "token_endpoint",
      "jwks_uri",
    ] as const
  ) {
    const url = metadata[field];
    if (typeof url !== "string") fail(`its metadata has no ${field}`);
    else checkEndpoint(url, field, fail);
  }
  if (typeof metadata.userinfo_endpoint === "string") {
    checkEndpoint(metadata.userinfo_endpoint, "userinfo_endpoint", fail);
  }
  if (!(metadata.response_types_supported ?? []).includes("code")) {
    fail("it does not support response_type=code");
  }
  const pkce = metadata.code_challenge_methods_supported;
  if (pkce !== undefined && !pkce.includes("S256")) {
    fail("it does not support PKCE with S256");
  }
  const signingAlgorithms =
    (metadata.id_token_signing_alg_values_supported ?? ["RS256"])
      .filter((alg) => ASYMMETRIC.test(alg));
  if (signingAlgorithms.length === 0) {
    fail("it signs ID tokens with no asymmetric algorithm we verify");
  }
  // openid-client checks an ID token's `alg` against this list: with `none`
  // and symmetric algorithms taken out, an unsigned token never passes.
  metadata.id_token_signing_alg_values_supported = signingAlgorithms;

  const configuration = new oidc.Configuration(
    metadata,
    provider.clientId,
    {
      client_secret: secret,
      [oidc.clockTolerance]: SSO_CLOCK_TOLERANCE,
    },
    clientAuthentication(oidc, metadata, secret, fail),
  );
  configuration[oidc.customFetch] = forOidc;
  configuration.timeout = timeout;
  if (insecure) oidc.allowInsecureRequests(configuration);
  // openid-client trusts the TLS channel for ID tokens from the token
  // endpoint and skips their signature unless told; §13 wants it checked.
  oidc.enableNonRepudiationChecks(configuration);

  const keys = createRemoteJWKSet(new URL(metadata.jwks_uri!), {
    [customFetch]: guarded,
    timeoutDuration: timeout * 1000,
  });
  return Object.freeze({
    provider,
    redirectUri: options.redirectUri,
    configuration,
    keys,
    signingAlgorithms: Object.freeze(signingAlgorithms),
    issParameter: metadata.authorization_response_iss_parameter_supported ===
      true,
    userinfo: typeof metadata.userinfo_endpoint === "string",
  });
}

function checkEndpoint(
  value: string,
  field: string,
  fail: (detail: string) => never,
): void {
  if (!URL.canParse(value)) fail(`its ${field} is not a URL`);
  const url = new URL(value);
  if (
    url.protocol !== "https:" &&
    !(url.protocol === "http:" && isLoopbackHost(url.hostname))
  ) {
    fail(`its ${field} is not https`);
  }
}

// client_secret_basic is what a provider that lists nothing supports
// (OpenID Connect Discovery §3); post when only that is listed.
function clientAuthentication(
  oidc: typeof import("openid-client"),
  metadata: oidc.ServerMetadata,
  secret: string,
  fail: (detail: string) => never,
): oidc.ClientAuth {
  const methods = metadata.token_endpoint_auth_methods_supported ??
    ["client_secret_basic"];
  if (methods.includes("client_secret_basic")) {
    return oidc.ClientSecretBasic(secret);
  }
  if (methods.includes("client_secret_post")) {
    return oidc.ClientSecretPost(secret);
  }
  return fail(
    "its token endpoint accepts neither client_secret_basic nor client_secret_post",
  );
}
