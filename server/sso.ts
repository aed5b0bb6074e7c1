/**
 * `@gatehouse/server/sso`: the types of single sign-on with a company's
 * OpenID Connect provider (DESIGN.md §13), for an application that writes
 * its `sso` option apart from the `createGatehouse` call (the option itself
 * is passed as `createGatehouse({sso})` and needs no import).
 *
 * - {@linkcode GatehouseSsoOptions}: the `sso` option, its providers
 *   ({@linkcode SsoProviderOptions}) and how Gatehouse talks to them
 *   ({@linkcode SsoFetch}, a timeout, the retry of an unreachable provider).
 * - {@linkcode SingleSignOn}: the handlers `gatehouse.sso` holds, for
 *   composing routes by hand (`routes` already mounts them).
 *
 * @example One provider for the staff of acme.example
 * ```ts
 * import type { GatehouseOptions } from "@gatehouse/server";
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
 *   }],
 * };
 * // Then: createGatehouse({ store, publicUrl: "https://app.acme.example", sso }).
 * const options: Pick<GatehouseOptions, "sso"> = { sso };
 * console.assert(options.sso?.providers.length === 1);
 * ```
 *
 * @module
 */

export type { GatehouseSsoOptions } from "./core/sso_settings.ts";
export type {
  SsoOptions,
  SsoProviderOptions,
} from "./core/sso/provider_config.ts";
export type { SsoFetch } from "./core/sso/no_redirect_fetch.ts";
export type { SingleSignOn } from "./features/sso.ts";
