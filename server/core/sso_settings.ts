/**
 * The `sso` option of `createGatehouse` resolved once (DESIGN.md §13): the
 * checked providers, a connection to each (discovered at start-up, retried
 * while a provider is down), the address domains an enforcing provider
 * speaks for, and where a failed sign-in sends the browser.
 *
 * @module
 */

import type { Logger } from "../http/logger.ts";
import { type SsoConnection, ssoConnection } from "./sso/connection.ts";
import { emailDomain } from "./sso/claims.ts";
import type { SsoFetch } from "./sso/no_redirect_fetch.ts";
import {
  resolveSsoProviders,
  type SsoOptions,
  type SsoProvider,
  ssoRedirectUri,
} from "./sso/provider_config.ts";
import { safeReturnPath } from "./sso/return_to.ts";

/**
 * The `sso` option: the providers, and how Gatehouse talks to them.
 *
 * @example One provider for the staff of acme.example
 * ```ts
 * import type { GatehouseSsoOptions } from "@gatehouse/server/sso";
 *
 * const sso: GatehouseSsoOptions = {
 *   providers: [{
 *     id: "acme",
 *     name: "Acme",
 *     issuer: "https://login.acme.example",
 *     clientId: "gatehouse",
 *     clientSecret: "from the provider's console",
 *     domains: ["acme.example"],
 *     enforce: true,
 *   }],
 * };
 * ```
 */
export interface GatehouseSsoOptions extends SsoOptions {
  /**
   * Where the callback sends the browser when a sign-in fails, with
   * `sso_error=CODE` added to its query: a path of this site, `/` by
   * default (the login screen reads the code there).
   */
  errorPath?: string;
  /**
   * The fetch under every request to the providers (discovery, token,
   * userinfo, keys), the global one by default: for a proxy of your own.
   * Whatever it does, redirects are refused.
   */
  fetch?: SsoFetch;
  /** Timeout of each request to a provider, seconds; 10 by default. */
  timeoutSeconds?: number;
  /**
   * How long (ms) to wait before trying again to discover a provider that
   * could not be reached; 30 seconds by default. Meanwhile its routes
   * answer 503 `provider_unavailable`.
   */
  retryAfter?: number;
}

/** Single sign-on as a context holds it. */
export interface SsoSettings {
  /** The providers, in the order the login screen shows them. */
  readonly providers: readonly SsoProvider[];
  /** Where a failed sign-in goes (`?sso_error=` is added). */
  readonly errorPath: string;
  /** The provider with this id, or null. */
  provider(id: string): SsoProvider | null;
  /** The connection to the provider with this id, or null. */
  connection(id: string): SsoConnection | null;
  /**
   * The enforcing provider whose domains hold the folded address, or null:
   * such an address signs in only through it.
   */
  enforcedBy(emailKey: string): SsoProvider | null;
  /** The name of the provider with this id (its id when it is gone). */
  nameOf(id: string): string;
  /**
   * Discovers every provider (at start-up): resolves once each has been
   * reached or has failed (a failure is logged, and retried on use).
   */
  discover(): Promise<void>;
}

/** What resolving the option needs of the rest of the configuration. */
export interface SsoEnvironment {
  /** The site's public URL: the redirect URIs are built on it. */
  publicUrl: string | undefined;
  logger: Logger;
  now: () => number;
  /** The roles the application declares, when it lists them. */
  knownRoles?: readonly string[];
}

const NO_SSO: SsoSettings = Object.freeze({
  providers: Object.freeze([]),
  errorPath: "/",
  provider: () => null,
  connection: () => null,
  enforcedBy: () => null,
  nameOf: (id: string) => id,
  discover: () => Promise.resolve(),
});

/**
 * Resolves the `sso` option once; a mistake throws a `TypeError` naming
 * the provider and the field (never the client secret).
 *
 * @param options The option, if given.
 * @param environment The public URL, logger, clock and known roles.
 * @returns The settings; without providers, single sign-on is off.
 *
 * @example
 * ```ts
 * import { ssoSettings } from "./sso_settings.ts";
 *
 * const sso = ssoSettings({
 *   providers: [{
 *     id: "acme", name: "Acme", issuer: "https://login.acme.example",
 *     clientId: "app", clientSecret: "s3cret", domains: ["acme.example"],
 *     enforce: true,
 *   }],
 * }, { publicUrl: "https://app.example", logger: console, now: Date.now });
 * console.assert(sso.enforcedBy("ada@acme.example")?.id === "acme");
 * console.assert(sso.enforcedBy("ada@elsewhere.example") === null);
 * ```
 */
export function ssoSettings(
  options: GatehouseSsoOptions | undefined,
  environment: SsoEnvironment,
): SsoSettings {
  if (options === undefined) return NO_SSO;
  const providers = Object.freeze(
    resolveSsoProviders(
      options,
      environment.knownRoles === undefined
        ? {}
        : { knownRoles: environment.knownRoles },
    ),
  );
  const errorPath = options.errorPath ?? "/";
  if (
    typeof errorPath !== "string" || safeReturnPath(errorPath) !== errorPath
  ) {
    throw new TypeError(
      "Invalid sso option: errorPath must be a path of this site (/…)",
    );
  }
  if (providers.length === 0) return { ...NO_SSO, errorPath };
  const { publicUrl } = environment;
  if (publicUrl === undefined) {
    throw new TypeError(
      "Invalid sso option: publicUrl is required, the redirect URIs are built on it",
    );
  }
  const retryAfter = options.retryAfter ?? 30_000;
  if (!Number.isFinite(retryAfter) || retryAfter < 0) {
    throw new RangeError(
      "Invalid sso option: retryAfter must be ms, 0 or more",
    );
  }
  const byId = new Map(providers.map((provider) => [provider.id, provider]));
  const connections = new Map(providers.map((provider) => [
    provider.id,
    ssoConnection(provider, {
      redirectUri: ssoRedirectUri(publicUrl, provider.id),
      logger: environment.logger,
      now: environment.now,
      retryAfter,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.timeoutSeconds === undefined
        ? {}
        : { timeoutSeconds: options.timeoutSeconds }),
    }),
  ]));
  const enforcing = new Map<string, SsoProvider>();
  for (const provider of providers) {
    if (!provider.enforce) continue;
    for (const domain of provider.domains) enforcing.set(domain, provider);
  }
  return Object.freeze({
    providers,
    errorPath,
    provider: (id: string) => byId.get(id) ?? null,
    connection: (id: string) => connections.get(id) ?? null,
    enforcedBy: (emailKey: string) => {
      const domain = emailDomain(emailKey);
      return domain === null ? null : enforcing.get(domain) ?? null;
    },
    nameOf: (id: string) => byId.get(id)?.name ?? id,
    discover: async () => {
      await Promise.all([...connections.values()].map((c) => c.client()));
    },
  });
}
