// What the scenarios that sign in share: how ours is configured for them,
// and the floor a login is held against.

import { fixtureHash } from "./_seed.ts";
import { type ServerProcess, startServer } from "./_servers.ts";

/**
 * Options of bench/servers/ours.ts for servers that take logins by the
 * thousand: the login limiter runs but its counts are not stored (every
 * attempt admitted), so failed logins are not refused past its threshold
 * and successful ones do not pay a reservation round trip that a bare
 * verify does not make either.
 */
export const UNCOUNTED_LOGINS: Readonly<{ without: readonly string[] }> = {
  without: ["limiter-counts"],
};

/**
 * Starts the floor of a login over HTTP: a bare server that verifies the
 * fixture hash with argon2id (bench/servers/argon2.ts).
 */
export async function startArgon2(): Promise<ServerProcess> {
  return startServer("argon2", { hash: await fixtureHash() });
}
