// Back-channel logout over the narrow store (OpenID Connect Back-Channel
// Logout 1.0, DESIGN.md §13): the provider names a sign-in (`sid`) or a
// person (`sub`), and exactly the sessions that sign-in, or that person's
// sign-ins through this provider, made here end. A token is acted on once:
// its `jti` is remembered while a replay could still pass, so a replayed
// `sub` token cannot end a session signed in after the logout.

import { hashToken } from "../_crypto.ts";
import type {
  AuditEvent,
  RecordStore,
  StoredIdentity,
  StoredLogoutToken,
  StoredSession,
} from "../records.ts";
import type { SsoLogoutOutcome, SsoLogoutRequest } from "../store_sso.ts";
import { readRecord, readRecords, unchanged } from "./_commit.ts";
import { endSessionsOnce } from "./_session_sweep.ts";
import { ssoAccountOf, subjectKeyOf } from "./_sso_accounts.ts";

/** Ends the sessions a logout token names (`SsoStore.endSsoSessions`). */
export async function endSsoSessions(
  records: RecordStore,
  logout: SsoLogoutRequest,
): Promise<SsoLogoutOutcome | null> {
  const key = hashToken(JSON.stringify([logout.issuer, logout.jti]));
  const seen = await readRecord(records, "logout_token", key);
  if (seen !== null) return null;
  const accounts = new Set(
    (await namedSessions(records, logout)).map((s) => s.userId),
  );
  let sessions = 0;
  const events: AuditEvent[] = [];
  for (const userId of accounts) {
    const ended = await endAccountSessions(records, logout, userId);
    sessions += ended.sessions;
    events.push(...ended.events);
  }
  // Remembered after the sessions ended: a provider that retries a logout
  // we failed half-way through is served again. Of two deliveries at once,
  // one records the token (and one, not always the same, the logout).
  const token: StoredLogoutToken = { key, expiresAt: logout.replayUntil };
  await records.commit({
    checks: [unchanged("logout_token", key, null)],
    puts: [{ kind: "logout_token", value: token, before: null }],
  });
  return { sessions, events };
}

// Ends the sessions of `userId` the token names, with the logout's events,
// once (`endSessionsOnce`): of deliveries of one token at once (a
// provider's retry, one token reaching two instances), the one whose
// commit lands ends them and records the logout, and the others find none.
// (Each wrote its own `logout` event before.)
async function endAccountSessions(
  records: RecordStore,
  logout: SsoLogoutRequest,
  userId: string,
): Promise<SsoLogoutOutcome> {
  const owner = await readRecord(records, "account", userId);
  const ended = await endSessionsOnce(
    records,
    userId,
    async () =>
      (await namedSessions(records, logout)).filter((s) => s.userId === userId),
    (sessions) =>
      owner === null
        ? []
        : logout.events?.(ssoAccountOf(owner.value), sessions.length) ?? [],
  );
  return { sessions: ended.sessions.length, events: ended.events };
}

// The sessions the token names: by `sid` (of the identity of `sub` too,
// when given), or every session the identity of `sub` made through the
// provider — not those of another identity of the same account at the same
// provider. A session records the identity that made it, and is that
// identity's whichever account the identity is linked to now: an identity
// no longer linked here (unlinked since: unlinking ends no session), or
// linked to another account since, still names the sessions it made, with
// a `sid` or without. A session made before sessions recorded their
// identity (`ssoSubjectKey` absent) is told apart by its account only: the
// identity's current one.
async function namedSessions(
  records: RecordStore,
  logout: SsoLogoutRequest,
): Promise<StoredSession[]> {
  let owner: string | null = null;
  let subjectKey: string | null = null;
  if (logout.subject !== null) {
    subjectKey = subjectKeyOf(logout.issuer, logout.subject);
    const [identity] = await readRecords<[StoredIdentity]>(records, [{
      kind: "identity",
      unique: "subjectKey",
      value: subjectKey,
    }]);
    owner = identity?.value.userId ?? null;
  }
  let listed: StoredSession[];
  if (logout.sid !== null) {
    listed = (await records.list("session", "ssoSid", logout.sid))
      .map(({ value }) => value);
  } else {
    // By the identity, and by its current account for the sessions that
    // did not record it (or that an older instance still running wrote
    // to a KV store without the entry: its current account's are found).
    const [made, owned] = await Promise.all([
      records.list("session", "ssoSubjectKey", subjectKey!),
      owner === null ? [] : records.list("session", "userId", owner),
    ]);
    const byToken = new Map<string, StoredSession>();
    for (const { value } of [...made, ...owned]) {
      byToken.set(value.tokenHash, value);
    }
    listed = [...byToken.values()];
  }
  return listed.filter((session) =>
    session.ssoProvider === logout.providerId &&
    (logout.sid === null || session.ssoSid === logout.sid) &&
    (subjectKey === null ||
      (session.ssoSubjectKey === undefined
        ? owner !== null && session.userId === owner
        : session.ssoSubjectKey === subjectKey))
  );
}
