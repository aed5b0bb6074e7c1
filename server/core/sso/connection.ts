// A provider that could not be discovered at start-up must not stop the
// site: its routes answer 503 `provider_unavailable` and discovery is tried
// again (DESIGN.md §13). A connection discovers once, shares one attempt
// among concurrent requests, logs a failure once per attempt (never with the
// client secret) and waits `retryAfter` before the next attempt.

import type { Logger } from "../../http/logger.ts";
import {
  type DiscoverSsoOptions,
  discoverSsoProvider,
  type SsoClient,
} from "./discovery.ts";
import { safeMessage } from "./_redact.ts";
import type { SsoProvider } from "./provider_config.ts";

/** Options of {@linkcode ssoConnection}. */
export interface SsoConnectionOptions extends DiscoverSsoOptions {
  /** Where a failed discovery is logged. */
  logger: Logger;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** How long to wait after a failure before trying again, ms. Default 30 s. */
  retryAfter?: number;
}

/** A provider's discovered client, discovered on demand and retried. */
export interface SsoConnection {
  /** The provider. */
  readonly provider: SsoProvider;
  /**
   * The client, discovering it when needed; null while the provider is
   * unavailable (the route answers 503 `provider_unavailable`).
   */
  client(): Promise<SsoClient | null>;
}

/**
 * A connection to `provider`. Call `client()` once at start-up to discover
 * early (and log a provider that is down), then on each request.
 *
 * @param provider The resolved provider.
 * @param options The redirect URI, the logger, the retry delay.
 * @returns The connection.
 *
 * @example
 * ```ts
 * import { ssoConnection } from "./connection.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [provider] = resolveSsoProviders({ providers: [{
 *   id: "down", name: "Down", issuer: "http://127.0.0.1:9",
 *   clientId: "app", clientSecret: "s3cret",
 * }] });
 * const lines: string[] = [];
 * const connection = ssoConnection(provider!, {
 *   redirectUri: "http://127.0.0.1:8000/api/auth/sso/down/callback",
 *   timeoutSeconds: 2,
 *   logger: { info() {}, warn() {}, error: (m, f) => lines.push(m + JSON.stringify(f)) },
 * });
 * console.assert(await connection.client() === null);
 * console.assert(lines.length === 1 && !lines[0]!.includes("s3cret"));
 * ```
 */
export function ssoConnection(
  provider: SsoProvider,
  options: SsoConnectionOptions,
): SsoConnection {
  const now = options.now ?? Date.now;
  const retryAfter = options.retryAfter ?? 30_000;
  let client: SsoClient | null = null;
  let attempt: Promise<SsoClient | null> | null = null;
  let failedAt = -Infinity;

  async function discover(): Promise<SsoClient | null> {
    try {
      client = await discoverSsoProvider(provider, options);
      options.logger.info("SSO provider discovered", { provider: provider.id });
      return client;
    } catch (error) {
      failedAt = now();
      options.logger.error("SSO provider unavailable", {
        provider: provider.id,
        error: safeMessage(error, provider.clientSecret),
        retryAfter,
      });
      return null;
    } finally {
      attempt = null;
    }
  }

  return {
    provider,
    client() {
      if (client !== null) return Promise.resolve(client);
      if (attempt !== null) return attempt;
      if (now() - failedAt < retryAfter) return Promise.resolve(null);
      attempt = discover();
      return attempt;
    },
  };
}
