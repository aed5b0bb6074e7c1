// The configuration of single sign-on providers (DESIGN.md §13), checked
// once at start-up: a mistake here is a TypeError naming the provider and
// the field, before any request is served. The client secret is kept out of
// every message and out of what a log of the resolved provider would print.

import { fold } from "../_fold.ts";

/** One provider as the application configures it (DESIGN.md §13). */
export interface SsoProviderOptions {
  /** The provider's slug in paths and records, `[a-z0-9-]{1,32}`. */
  id: string;
  /** Shown on the button: "Sign in with {name}". */
  name: string;
  /**
   * The issuer identifier. Discovery reads
   * `{issuer}/.well-known/openid-configuration` and the issuer it declares
   * must equal this string exactly. `https`, or `http` on a loopback address.
   */
  issuer: string;
  /** The client id registered at the provider. */
  clientId: string;
  /** The client secret registered at the provider. Never logged. */
  clientSecret: string;
  /** Scopes to ask for; `openid email profile` by default; must hold `openid`. */
  scopes?: string | readonly string[];
  /** The email domains this provider speaks for (`example.com`). */
  domains?: readonly string[];
  /** Create accounts at the first sign-in (just in time). Default false. */
  createAccounts?: boolean;
  /** The claim whose values `roleMap` maps. Default `groups`. */
  roleClaim?: string;
  /**
   * Claim value → role; the first entry (in map order) whose value the
   * claim holds wins. An object keeps its order only while no key looks
   * like an array index (`"42"`): give a list of pairs then.
   */
  roleMap?:
    | Readonly<Record<string, string>>
    | ReadonlyArray<readonly [string, string]>;
  /** The role of an account created when nothing maps. Default none. */
  defaultRole?: string | null;
  /** Set the role from the mapping at every SSO sign-in. Default false. */
  syncRole?: boolean;
  /**
   * Accounts whose address is in `domains` must sign in through this
   * provider. Default false; needs `domains`.
   */
  enforce?: boolean;
}

/** The `sso` option of `createGatehouse`. */
export interface SsoOptions {
  /** The providers, in the order the login screen shows them. */
  providers: readonly SsoProviderOptions[];
}

/**
 * A provider's checked and normalised configuration, frozen. `clientSecret`
 * is not enumerable, so printing or serialising the object does not show
 * it (and a spread copy, `{...provider}`, lacks it: pass the object itself).
 */
export interface SsoProvider {
  /** The slug, `[a-z0-9-]{1,32}`. */
  readonly id: string;
  /** The button's name. */
  readonly name: string;
  /** The issuer identifier, exactly as configured. */
  readonly issuer: string;
  /** The client id. */
  readonly clientId: string;
  /** The client secret (not enumerable). */
  readonly clientSecret: string;
  /** The scopes asked for, `openid` among them. */
  readonly scopes: readonly string[];
  /** Email domains, folded (lower case), without duplicates. */
  readonly domains: readonly string[];
  /** Just-in-time account creation. */
  readonly createAccounts: boolean;
  /** The claim that carries role values. */
  readonly roleClaim: string;
  /** Claim value → role pairs, in order. */
  readonly roleMap: ReadonlyArray<readonly [string, string]>;
  /** The role of a created account when nothing maps, or null. */
  readonly defaultRole: string | null;
  /** Whether each sign-in sets the role from the mapping. */
  readonly syncRole: boolean;
  /** Whether addresses in `domains` must sign in through this provider. */
  readonly enforce: boolean;
}

/** Options of {@linkcode resolveSsoProviders}. */
export interface ResolveSsoOptions {
  /**
   * The roles the application declares: when given, every role of a
   * `roleMap` and every `defaultRole` must be one of them.
   */
  knownRoles?: readonly string[];
}

const ID = /^[a-z0-9-]{1,32}$/;
// RFC 6749 §3.3 scope-token characters.
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// Control characters, which no configured text may hold.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;
const DEFAULT_SCOPES = ["openid", "email", "profile"] as const;

/**
 * Whether `hostname` (as `URL.hostname` gives it) is a loopback address,
 * where plain `http` is allowed for development and tests.
 *
 * @param hostname A URL's host name.
 * @returns True for `localhost`, `127.0.0.0/8` and `[::1]`.
 *
 * @example
 * ```ts
 * import { isLoopbackHost } from "./provider_config.ts";
 *
 * console.assert(isLoopbackHost("127.0.0.1") && isLoopbackHost("[::1]"));
 * console.assert(!isLoopbackHost("idp.example.com"));
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" ||
    /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Checks and normalises the `sso` option once, at start-up.
 *
 * @param options The `sso` option (`{providers: [...]}`).
 * @param resolve The application's roles, to check the mapped ones.
 * @returns One resolved provider per configured one, in order.
 * @throws {TypeError} Naming the provider and the field at fault; the
 *   message never holds the client secret.
 *
 * @example One provider for example.com's staff
 * ```ts
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [acme] = resolveSsoProviders({
 *   providers: [{
 *     id: "acme",
 *     name: "Acme",
 *     issuer: "https://login.acme.example",
 *     clientId: "gatehouse",
 *     clientSecret: "s3cret",
 *     domains: ["Acme.example"],
 *     roleMap: { admins: "admin" },
 *   }],
 * }, { knownRoles: ["admin", "member"] });
 * console.assert(acme!.domains[0] === "acme.example");
 * console.assert(!JSON.stringify(acme).includes("s3cret"));
 * ```
 */
export function resolveSsoProviders(
  options: SsoOptions,
  resolve: ResolveSsoOptions = {},
): SsoProvider[] {
  if (options === null || typeof options !== "object") {
    throw new TypeError("Invalid sso option: expected {providers: [...]}");
  }
  if (!Array.isArray(options.providers)) {
    throw new TypeError("Invalid sso option: providers must be a list");
  }
  const providers = options.providers.map((each, index) =>
    resolveProvider(each, index, resolve.knownRoles)
  );
  const seen = new Set<string>();
  const enforcedBy = new Map<string, string>();
  for (const provider of providers) {
    if (seen.has(provider.id)) {
      throw new TypeError(
        `Invalid sso provider "${provider.id}": id is used twice`,
      );
    }
    seen.add(provider.id);
    if (!provider.enforce) continue;
    for (const domain of provider.domains) {
      const other = enforcedBy.get(domain);
      if (other !== undefined) {
        throw new TypeError(
          `Invalid sso provider "${provider.id}": domain "${domain}" is already enforced by "${other}"`,
        );
      }
      enforcedBy.set(domain, provider.id);
    }
  }
  return providers;
}

/**
 * The redirect URI of a provider: `{publicUrl}/api/auth/sso/{id}/callback`,
 * what must be registered at the provider.
 *
 * @param publicUrl The site's public base URL (Gatehouse's `publicUrl`).
 * @param id The provider's id.
 * @returns The absolute redirect URI.
 *
 * @example
 * ```ts
 * import { ssoRedirectUri } from "./provider_config.ts";
 *
 * console.assert(
 *   ssoRedirectUri("https://app.example/", "acme") ===
 *     "https://app.example/api/auth/sso/acme/callback",
 * );
 * ```
 */
export function ssoRedirectUri(publicUrl: string, id: string): string {
  if (!URL.canParse(publicUrl)) {
    throw new TypeError(`Invalid publicUrl: "${publicUrl}" is not a URL`);
  }
  const base = new URL(publicUrl);
  const path = base.pathname.replace(/\/+$/, "");
  return `${base.origin}${path}/api/auth/sso/${
    encodeURIComponent(id)
  }/callback`;
}

function resolveProvider(
  raw: SsoProviderOptions,
  index: number,
  knownRoles: readonly string[] | undefined,
): SsoProvider {
  if (raw === null || typeof raw !== "object") {
    throw new TypeError(`Invalid sso provider #${index + 1}: not an object`);
  }
  const id = raw.id;
  if (typeof id !== "string" || !ID.test(id)) {
    throw new TypeError(
      `Invalid sso provider #${index + 1}: id must match [a-z0-9-]{1,32}`,
    );
  }
  const fail = (detail: string): never => {
    throw new TypeError(`Invalid sso provider "${id}": ${detail}`);
  };
  const text = (value: unknown, field: string, max = 200): string => {
    if (typeof value !== "string" || value.trim() === "") {
      return fail(`${field} must be a non-empty string`);
    }
    if (value.length > max || CONTROL.test(value)) {
      return fail(`${field} is too long or holds control characters`);
    }
    return value;
  };
  const flag = (value: unknown, field: string): boolean => {
    if (value === undefined) return false;
    if (typeof value !== "boolean") return fail(`${field} must be a boolean`);
    return value;
  };
  const role = (value: unknown, field: string): string => {
    const checked = text(value, field, 100);
    if (knownRoles !== undefined && !knownRoles.includes(checked)) {
      fail(`${field} names the unknown role "${checked}"`);
    }
    return checked;
  };

  const name = text(raw.name, "name", 100);
  const issuer = readIssuer(text(raw.issuer, "issuer", 2000), fail);
  const clientId = text(raw.clientId, "clientId", 500);
  // Not `text()`: its messages are fine, but a secret is checked apart so
  // no future edit of that helper can print its value.
  if (typeof raw.clientSecret !== "string" || raw.clientSecret === "") {
    fail("clientSecret must be a non-empty string");
  }
  const scopes = readScopes(raw.scopes, fail);
  const domains = readDomains(raw.domains, fail);
  const roleClaim = raw.roleClaim === undefined
    ? "groups"
    : text(raw.roleClaim, "roleClaim", 100);
  const roleMap = readRoleMap(raw.roleMap, fail).map(
    ([value, mapped]) =>
      [text(value, "roleMap value", 500), role(mapped, "roleMap")] as const,
  );
  const defaultRole = raw.defaultRole === undefined || raw.defaultRole === null
    ? null
    : role(raw.defaultRole, "defaultRole");
  const enforce = flag(raw.enforce, "enforce");
  if (enforce && domains.length === 0) {
    fail("enforce needs domains: the addresses it applies to");
  }
  const provider = {
    id,
    name,
    issuer,
    clientId,
    scopes,
    domains,
    createAccounts: flag(raw.createAccounts, "createAccounts"),
    roleClaim,
    roleMap,
    defaultRole,
    syncRole: flag(raw.syncRole, "syncRole"),
    enforce,
  };
  Object.defineProperty(provider, "clientSecret", {
    value: raw.clientSecret,
    enumerable: false,
  });
  return Object.freeze(provider as typeof provider & { clientSecret: string });
}

function readIssuer(value: string, fail: (detail: string) => never): string {
  if (!URL.canParse(value)) fail("issuer must be a URL");
  const url = new URL(value);
  if (url.protocol !== "https:") {
    if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) {
      fail("issuer must use https (http only on a loopback address)");
    }
  }
  if (url.search !== "" || url.hash !== "" || /[?#]/.test(value)) {
    fail("issuer must have no query or fragment");
  }
  if (url.username !== "" || url.password !== "") {
    fail("issuer must hold no user name or password");
  }
  return value;
}

function readScopes(
  value: SsoProviderOptions["scopes"],
  fail: (detail: string) => never,
): readonly string[] {
  if (value === undefined) return DEFAULT_SCOPES;
  const list = typeof value === "string"
    ? value.split(/\s+/).filter((scope) => scope !== "")
    : Array.isArray(value)
    ? [...value]
    : fail("scopes must be a string or a list of strings");
  for (const scope of list) {
    if (typeof scope !== "string" || !SCOPE.test(scope)) {
      fail(`scopes holds an invalid scope`);
    }
  }
  if (!list.includes("openid")) fail('scopes must include "openid"');
  return Object.freeze([...new Set(list)]);
}

function readDomains(
  value: SsoProviderOptions["domains"],
  fail: (detail: string) => never,
): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) fail("domains must be a list of strings");
  const domains = new Set<string>();
  for (const domain of value) {
    const folded = typeof domain === "string" ? fold(domain.trim()) : "";
    if (!DOMAIN.test(folded)) {
      fail(
        `domains holds "${
          String(domain).slice(0, 100)
        }", which is not a domain name (use punycode for international names)`,
      );
    }
    domains.add(folded);
  }
  return Object.freeze([...domains]);
}

function readRoleMap(
  value: SsoProviderOptions["roleMap"],
  fail: (detail: string) => never,
): (readonly [unknown, unknown])[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) {
    return value.map((pair) =>
      Array.isArray(pair) && pair.length === 2
        ? [pair[0], pair[1]] as const
        : fail("roleMap must hold [claim value, role] pairs")
    );
  }
  if (value === null || typeof value !== "object") {
    return fail("roleMap must be an object or a list of pairs");
  }
  const entries = Object.entries(value);
  const indexLike = entries.find(([key]) => INDEX_LIKE.test(key));
  if (indexLike !== undefined && entries.length > 1) {
    fail(
      `roleMap key "${
        indexLike[0]
      }" looks like an array index, so an object cannot keep its order: give roleMap as a list of [value, role] pairs`,
    );
  }
  return entries;
}
