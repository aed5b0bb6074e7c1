// KvRecords' schema version, recorded under `schema`. Version 5 is the key
// layout of ./_record_keys.ts: records by kind, unique copies, list and
// expiry entries. Versions up to 4 were KvStore's layout, never released
// as a stable format; it is not upgraded in place. A later version adds
// its step here, idempotent and committed record by record with checks, so
// instances that start together may run it at once, and records the
// version last. Version 6 lists sessions by the single sign-on identity
// that made them (`ssoSubjectKey` in KINDS): a store of version 5 gets the
// entries of the sessions that recorded it (`indexSessionIdentities`).

import type { StoredSession } from "../../core/records.ts";
import { commit } from "./_atomic.ts";
import type { RecordKeys } from "./_record_keys.ts";
import { Writes } from "./_record_writes.ts";

/** The schema version KvRecords writes and reads. */
export const RECORDS_SCHEMA_VERSION = 6;

/**
 * Brings the store to {@linkcode RECORDS_SCHEMA_VERSION}: an empty one gets
 * its version, one of version 5 its sessions' identity entries first; one
 * of another version is refused with what to do.
 */
export async function migrateRecords(
  kv: Deno.Kv,
  k: RecordKeys,
  prefix: Deno.KvKey,
): Promise<void> {
  for (;;) {
    const current = await kv.get<number>(k.schema());
    if (current.value === RECORDS_SCHEMA_VERSION) return;
    if (current.value === 5) await indexSessionIdentities(kv, k);
    else if (current.value !== null) refuse(current.value, prefix);
    // Checked against the absent version: of instances starting together,
    // one writes; the others read the version it wrote on the next pass.
    const written = await commit(
      kv.atomic().check(current).set(k.schema(), RECORDS_SCHEMA_VERSION),
    );
    if (written.ok) return;
  }
}

/**
 * Version 5 to 6: each session that recorded its single sign-on identity
 * gets its entry under it. The session is written again as it is (a put
 * from a `before` without the identity), so its expiry entry's sweep note
 * names the new entry and keeps the record's versionstamp; checked on the
 * version read, and read again when another write came first. Idempotent:
 * instances starting together may both run it.
 */
async function indexSessionIdentities(
  kv: Deno.Kv,
  k: RecordKeys,
): Promise<void> {
  for await (
    const listed of kv.list<StoredSession>({ prefix: k.records("session") })
  ) {
    let entry: Deno.KvEntryMaybe<StoredSession> = listed;
    while (entry.value !== null && entry.value.ssoSubjectKey !== undefined) {
      const { ssoSubjectKey: _, ...before } = entry.value;
      const writes = new Writes(k, Date.now())
        .check(entry.key, entry.versionstamp)
        .putRecord("session", entry.value, before, new Set());
      if ((await commit(writes.operation(kv))).ok) break;
      entry = await kv.get<StoredSession>(entry.key);
    }
  }
}

/**
 * Refuses `other` unless it is a handle on `kv`'s database: a probe of its
 * own key (so instances starting together do not meet), written through
 * `kv`, must read back through `other`; it is deleted either way.
 * Versionstamps cannot tell: two new databases number their first commits
 * alike.
 */
export async function sameDatabase(
  kv: Deno.Kv,
  other: Deno.Kv,
  k: RecordKeys,
): Promise<void> {
  const probe = k.handleProbe(crypto.randomUUID());
  // Through `commit`, which rides out another instance's write lock.
  const written = await commit(kv.atomic().set(probe, true));
  try {
    const read = await other.get(probe);
    if (!written.ok || read.versionstamp !== written.versionstamp) {
      throw new Error(
        "Cannot read through `readKv`: it is not a handle on the same Deno KV database as the store's (open the same file again; `:memory:` opens a new database each time)",
      );
    }
  } finally {
    await commit(kv.atomic().delete(probe));
  }
}

function refuse(version: unknown, prefix: Deno.KvKey): never {
  const where = `the Deno KV database under the prefix ${
    JSON.stringify(prefix)
  }`;
  if (typeof version === "number" && version > RECORDS_SCHEMA_VERSION) {
    throw new Error(
      `Cannot use ${where}: its schema version ${version} is newer than this Gatehouse's (${RECORDS_SCHEMA_VERSION}); upgrade Gatehouse`,
    );
  }
  throw new Error(
    `Cannot use ${where}: it was written by an unreleased earlier version of Gatehouse (schema version ${
      String(version)
    }), whose key layout is not upgraded to version ${RECORDS_SCHEMA_VERSION}. Start from a new store: open a new KV file, or pass another \`prefix\` to KvRecords`,
  );
}
