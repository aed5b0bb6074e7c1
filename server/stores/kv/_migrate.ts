// KvStore's schema version, recorded under `schema`, and what migrate()
// writes on an empty database. Version 4 is the first: before the first
// release the data moved through versions 1 to 4 in place, and that
// unreleased history is gone, so a database of version 4 (written by the
// first release or by that history's end) is up to date as it stands, and
// any other recorded version is refused. A later version adds its step here,
// idempotent and committed record by record with checks, so instances that
// start together may run it at once, and records the version last.
//
// `decoy_email` holds the decoy account's id, so that reading an unknown
// address finds as many records as reading a known one (see
// KvStore.credentialsByEmail).

import { commit } from "./_atomic.ts";
import type { KvKeys, UserValue } from "./_keys.ts";

/** The schema version this code writes. */
export const SCHEMA_VERSION = 4;

/**
 * Brings the database to {@linkcode SCHEMA_VERSION}: an empty one gets its
 * version and decoy account; one of another version is refused.
 */
export async function migrate(kv: Deno.Kv, k: KvKeys): Promise<void> {
  const current = await kv.get<number>(k.schema());
  if (current.value === SCHEMA_VERSION) return;
  if (current.value !== null) {
    throw new Error(
      current.value > SCHEMA_VERSION
        ? `Cannot use store: schema version ${current.value} is newer than this Gatehouse (${SCHEMA_VERSION})`
        : `Cannot use store: schema version ${current.value} predates the first release of Gatehouse (${SCHEMA_VERSION}); start from an empty database`,
    );
  }
  // Checked against the absent version: of instances starting together, one
  // writes, and the others' commits fail on a database already written.
  const decoy = decoyAccount();
  await commit(
    kv.atomic().check(current).set(k.schema(), SCHEMA_VERSION)
      .set(k.decoyAccount(), decoy)
      .set(k.decoyEmail(), decoy.id),
  );
}

// The record an unknown address reads: shaped like an account, of no one,
// disabled, with a password hash that matches no password.
function decoyAccount(): UserValue {
  const random = (bytes: number) =>
    crypto.getRandomValues(new Uint8Array(bytes)).toBase64({
      omitPadding: true,
    });
  return {
    id: "00000000-0000-0000-0000-000000000000",
    email: "decoy.account@example.invalid",
    emailKey: "decoy.account@example.invalid",
    name: "Decoy Account",
    role: "",
    disabled: true,
    createdAt: 0,
    passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${random(16)}$${random(32)}`,
    generation: 0,
  };
}
