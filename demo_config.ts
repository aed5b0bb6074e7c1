// The demo's roles (DESIGN.md §7), shared by the demo server and
// `deno task create-admin`: `admin` carries `users.manage` (so it is the
// role that may administer users, on the server and in the screens alike)
// and may grant `admin` and `member`; `member` carries nothing and grants
// nothing. An account may also have no role.

import {
  type Logger,
  type RoleDefinition,
  type TrustedProxy,
  USERS_MANAGE,
} from "@gatehouse/server";
import type {
  GatehouseSsoOptions,
  SsoProviderOptions,
} from "@gatehouse/server/sso";
import { readEmail, readName } from "./server/core/_input.ts";
import { DEFAULT_LIMITS } from "./server/http/limits.ts";

/** The demo's roles, as `createGatehouse` and `runCreateAdmin` take them. */
export const ROLES: Readonly<Record<string, RoleDefinition>> = {
  admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] },
  member: {},
};

/** The session settings the demo reads from its environment. */
export interface DemoSessionSettings {
  idleTimeout?: number;
  reauthenticationWindow?: number;
  requireSecondFactor?: readonly string[];
  totpKeys?: readonly string[];
  deviceKeys?: readonly string[];
  trustedProxy?: TrustedProxy;
}

const DURATION = /^(\d{1,9})\s*(s|m|h|d)?$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `GATEHOUSE_IDLE_TIMEOUT` and `GATEHOUSE_REAUTH_WINDOW`: a whole number of
 * seconds, or with a unit (`90s`, `30m`, `24h`, `7d`). Unset or empty: the
 * library's default (24 h, 30 min). `GATEHOUSE_REQUIRE_SECOND_FACTOR`: the
 * roles (comma-separated) that must have a second factor.
 * `GATEHOUSE_TOTP_KEYS`: the keys that seal TOTP secrets (comma-separated
 * base64 of 32 random bytes each, the sealing one first; Gatehouse checks
 * them). `GATEHOUSE_DEVICE_KEYS`: the keys that sign the trusted-device
 * cookie, alike (the signing one first). `GATEHOUSE_TRUSTED_PROXY`: the
 * reverse proxy whose client-address header the limiters, sessions and
 * audit events believe (see {@linkcode trustedProxyFromEnv}). Anything else
 * throws at start.
 */
export function sessionSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): DemoSessionSettings {
  const settings: DemoSessionSettings = {};
  const read = (name: string): number | undefined => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") return undefined;
    const match = DURATION.exec(raw);
    if (match === null) {
      throw new RangeError(
        `Invalid ${name}: "${raw}" (use seconds, or a number with s, m, h or d)`,
      );
    }
    return Number(match[1]) *
      UNIT_MS[(match[2] ?? "s") as keyof typeof UNIT_MS];
  };
  const idle = read("GATEHOUSE_IDLE_TIMEOUT");
  if (idle !== undefined) settings.idleTimeout = idle;
  const reauth = read("GATEHOUSE_REAUTH_WINDOW");
  if (reauth !== undefined) settings.reauthenticationWindow = reauth;
  const roles = env.GATEHOUSE_REQUIRE_SECOND_FACTOR?.split(",")
    .map((role) => role.trim()).filter((role) => role !== "");
  if (roles !== undefined && roles.length > 0) {
    const unknown = roles.filter((role) => !Object.hasOwn(ROLES, role));
    if (unknown.length > 0) {
      throw new RangeError(
        `Invalid GATEHOUSE_REQUIRE_SECOND_FACTOR: unknown role "${unknown[0]}"`,
      );
    }
    settings.requireSecondFactor = roles;
  }
  const keys = env.GATEHOUSE_TOTP_KEYS?.split(",")
    .map((key) => key.trim()).filter((key) => key !== "");
  if (keys !== undefined && keys.length > 0) settings.totpKeys = keys;
  const devices = env.GATEHOUSE_DEVICE_KEYS?.split(",")
    .map((key) => key.trim()).filter((key) => key !== "");
  if (devices !== undefined && devices.length > 0) {
    settings.deviceKeys = devices;
  }
  const proxy = trustedProxyFromEnv(env.GATEHOUSE_TRUSTED_PROXY);
  if (proxy !== undefined) settings.trustedProxy = proxy;
  return settings;
}

/**
 * `PORT`: a port number in decimal, 0 for any free port; 8000 when unset or
 * blank. `Number()` alone read `0x0`, `0.0` or blanks as 0, so the demo
 * listened on a port nobody asked for, and `0x1f40` as 8000.
 */
export function portFromEnv(raw: string | undefined): number {
  const text = raw?.trim();
  if (text === undefined || text === "") return 8000;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port <= 65_535)) {
    throw new RangeError(
      `Invalid PORT: "${text}" (use a port number, or 0 for any free port)`,
    );
  }
  return port;
}

/** Who the demo's first-run link is for. */
export interface FirstAdmin {
  email: string;
  name: string;
}

/**
 * `GATEHOUSE_ADMIN_EMAIL` (`admin@example.com` when unset or empty) and
 * `GATEHOUSE_ADMIN_NAME` (the email's local part, cut to the name limit,
 * when unset or empty),
 * checked by the rules the first-run link applies. Read at start, before
 * the demo listens: the link is made only after it has said where it
 * serves, and a value the link refuses then stopped a demo that had
 * already announced itself, with an error that named no variable.
 */
export function firstAdminFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): FirstAdmin {
  const rawEmail = env.GATEHOUSE_ADMIN_EMAIL?.trim() || "admin@example.com";
  let email: string;
  try {
    email = readEmail(rawEmail, DEFAULT_LIMITS).email;
  } catch (err) {
    throw new RangeError(
      `Invalid GATEHOUSE_ADMIN_EMAIL: ${(err as Error).message}`,
    );
  }
  // A name in no particular language (the pages are in the reader's):
  // GATEHOUSE_ADMIN_NAME, or the email's local part, cut to the name limit
  // in whole characters (an address may be longer than a name).
  const rawName = env.GATEHOUSE_ADMIN_NAME?.trim() ||
    [...email.split("@")[0]!].slice(0, DEFAULT_LIMITS.maxNameLength).join("")
      .trim();
  try {
    return { email, name: readName(rawName, DEFAULT_LIMITS) };
  } catch (err) {
    throw new RangeError(
      `Invalid GATEHOUSE_ADMIN_NAME: ${(err as Error).message}`,
    );
  }
}

// The peers a proxy named without addresses may be: this machine.
const LOOPBACK = ["127.0.0.1", "::1"] as const;

/**
 * `GATEHOUSE_TRUSTED_PROXY`: `x-forwarded-for` trusts that header on
 * requests whose peer is this machine (a proxy on loopback);
 * `x-forwarded-for@10.0.0.1,10.0.0.2` names the proxies' addresses. Unset
 * or empty: no proxy, the peer is the client. Gatehouse checks the header
 * name and the addresses when it starts.
 *
 * @example A proxy on another machine
 * ```ts
 * import { trustedProxyFromEnv } from "./demo_config.ts";
 *
 * const proxy = trustedProxyFromEnv("x-forwarded-for@10.0.0.1");
 * console.assert(proxy?.addresses[0] === "10.0.0.1");
 * ```
 */
export function trustedProxyFromEnv(
  raw: string | undefined,
): TrustedProxy | undefined {
  const text = raw?.trim();
  if (text === undefined || text === "") return undefined;
  const at = text.indexOf("@");
  const header = (at === -1 ? text : text.slice(0, at)).trim();
  const addresses = at === -1 ? [...LOOPBACK] : text.slice(at + 1).split(",")
    .map((address) => address.trim()).filter((address) => address !== "");
  if (header === "" || addresses.length === 0) {
    throw new RangeError(
      `Invalid GATEHOUSE_TRUSTED_PROXY: "${text}" (use a header, e.g. x-forwarded-for, optionally @ the proxies' addresses)`,
    );
  }
  return { header, addresses };
}

/**
 * A device key made for this process, with a warning, for a demo started
 * without `GATEHOUSE_DEVICE_KEYS`: trusted browsers then lose their trust
 * when the process restarts, and other instances do not share it.
 */
export function processDeviceKeys(logger: Logger): readonly string[] {
  logger.warn("GATEHOUSE_DEVICE_KEYS is not set", {
    hint:
      "trusted-device cookies are signed with a key made for this process: browsers lose their trust on restart and on other instances; set GATEHOUSE_DEVICE_KEYS to the base64 of 32 random bytes (e.g. openssl rand -base64 32)",
  });
  return [crypto.getRandomValues(new Uint8Array(32)).toBase64()];
}

/**
 * One single sign-on provider from the environment (DESIGN.md §13), or
 * undefined when no `GATEHOUSE_OIDC_*` variable is set (any of them without
 * `GATEHOUSE_OIDC_ISSUER` throws):
 * `GATEHOUSE_OIDC_ISSUER`, `GATEHOUSE_OIDC_CLIENT_ID` and
 * `GATEHOUSE_OIDC_CLIENT_SECRET` (required together),
 * `GATEHOUSE_OIDC_NAME` (the button's, "SSO" by default),
 * `GATEHOUSE_OIDC_ID` (`sso` by default: the redirect URI is
 * `{PUBLIC_URL}/api/auth/sso/{id}/callback`), `GATEHOUSE_OIDC_DOMAINS`
 * (comma-separated), `GATEHOUSE_OIDC_CREATE=1` (just-in-time accounts),
 * `GATEHOUSE_OIDC_ROLE_MAP` (`group=role,group2=role2`, first match wins),
 * `GATEHOUSE_OIDC_DEFAULT_ROLE`, `GATEHOUSE_OIDC_SYNC_ROLE=1` and
 * `GATEHOUSE_OIDC_ENFORCE=1`. Roles must be the demo's; Gatehouse checks
 * the rest when it starts.
 *
 * @example Acme's staff sign in with Acme's provider
 * ```ts
 * import { ssoFromEnv } from "./demo_config.ts";
 *
 * const sso = ssoFromEnv({
 *   GATEHOUSE_OIDC_ISSUER: "https://login.acme.example",
 *   GATEHOUSE_OIDC_CLIENT_ID: "gatehouse",
 *   GATEHOUSE_OIDC_CLIENT_SECRET: "s3cret",
 *   GATEHOUSE_OIDC_DOMAINS: "acme.example",
 *   GATEHOUSE_OIDC_ROLE_MAP: "gatehouse-admins=admin,staff=member",
 * });
 * console.assert(sso?.providers[0]?.id === "sso");
 * ```
 */
export function ssoFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): GatehouseSsoOptions | undefined {
  const read = (name: string) => env[name]?.trim() || undefined;
  const issuer = read("GATEHOUSE_OIDC_ISSUER");
  if (issuer === undefined) {
    // Other GATEHOUSE_OIDC_* set without the issuer (a misspelt name, say)
    // would turn single sign-on off without a word, and its enforcement
    // with it: the provider's addresses would sign in by password.
    const others = Object.keys(env).filter((name) =>
      name.startsWith("GATEHOUSE_OIDC_") && read(name) !== undefined
    );
    if (others.length === 0) return undefined;
    throw new RangeError(
      `Invalid GATEHOUSE_OIDC_ISSUER: unset, while ${
        others.sort().join(", ")
      } are set`,
    );
  }
  const clientId = read("GATEHOUSE_OIDC_CLIENT_ID");
  const clientSecret = read("GATEHOUSE_OIDC_CLIENT_SECRET");
  if (clientId === undefined || clientSecret === undefined) {
    throw new RangeError(
      "Invalid GATEHOUSE_OIDC_*: GATEHOUSE_OIDC_ISSUER needs GATEHOUSE_OIDC_CLIENT_ID and GATEHOUSE_OIDC_CLIENT_SECRET",
    );
  }
  const flag = (name: string): boolean => {
    const value = read(name);
    if (value === undefined || value === "0") return false;
    if (value === "1") return true;
    throw new RangeError(`Invalid ${name}: "${value}" (use 1 or 0)`);
  };
  const role = (name: string, value: string): string => {
    if (!Object.hasOwn(ROLES, value)) {
      throw new RangeError(`Invalid ${name}: unknown role "${value}"`);
    }
    return value;
  };
  const roleMap: [string, string][] = [];
  for (const pair of (read("GATEHOUSE_OIDC_ROLE_MAP") ?? "").split(",")) {
    if (pair.trim() === "") continue;
    const at = pair.lastIndexOf("=");
    const group = pair.slice(0, at).trim();
    if (at === -1 || group === "") {
      throw new RangeError(
        `Invalid GATEHOUSE_OIDC_ROLE_MAP: "${pair.trim()}" (use group=role, comma-separated)`,
      );
    }
    roleMap.push([
      group,
      role("GATEHOUSE_OIDC_ROLE_MAP", pair.slice(at + 1).trim()),
    ]);
  }
  const defaultRole = read("GATEHOUSE_OIDC_DEFAULT_ROLE");
  const provider: SsoProviderOptions = {
    id: read("GATEHOUSE_OIDC_ID") ?? "sso",
    name: read("GATEHOUSE_OIDC_NAME") ?? "SSO",
    issuer,
    clientId,
    clientSecret,
    domains: (read("GATEHOUSE_OIDC_DOMAINS") ?? "").split(",")
      .map((domain) => domain.trim()).filter((domain) => domain !== ""),
    createAccounts: flag("GATEHOUSE_OIDC_CREATE"),
    roleMap,
    ...(defaultRole === undefined
      ? {}
      : { defaultRole: role("GATEHOUSE_OIDC_DEFAULT_ROLE", defaultRole) }),
    syncRole: flag("GATEHOUSE_OIDC_SYNC_ROLE"),
    enforce: flag("GATEHOUSE_OIDC_ENFORCE"),
  };
  return { providers: [provider] };
}
