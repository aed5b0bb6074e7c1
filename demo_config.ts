// The demo's roles (DESIGN.md §7), shared by the demo server and
// `deno task create-admin`: `admin` carries `users.manage` (so it is the
// role that may administer users, on the server and in the screens alike)
// and may grant `admin` and `member`; `member` carries nothing and grants
// nothing. An account may also have no role.

import { type RoleDefinition, USERS_MANAGE } from "@gatehouse/server";

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
 * them). Anything else throws at start.
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
  return settings;
}
