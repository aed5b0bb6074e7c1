// Back-channel logout over the narrow store (OpenID Connect Back-Channel
// Logout 1.0, DESIGN.md §13): the provider names a sign-in (`sid`) or a
// person (`sub`), and exactly the sessions that sign-in, or that person's
// sign-ins through this provider, made here end. A token is acted on once:
// its `jti` is remembered while a replay could still pass, so a replayed
// `sub` token cannot end a session signed in after the logout.

import { hashToken } from "../_crypto.ts";
import type {
  AccountRecord,
  RecordStore,
  StoredIdentity,
  StoredLogoutToken,
  StoredSession,
} from "../records.ts";
import type { SsoLogoutRequest } from "../store_sso.ts";
import { readRecord, readRecords, unchanged } from "./_commit.ts";
import { endSessions } from "./_session_sweep.ts";
import { ssoAccountOf, subjectKeyOf } from "./_sso_accounts.ts";

/** Ends the sessions a logout token names (`SsoStore.endSsoSessions`). */
export async function endSsoSessions(
  records: RecordStore,
  logout: SsoLogoutRequest,
): Promise<number | null> {
  const key = hashToken(JSON.stringify([logout.issuer, logout.jti]));
  const seen = await readRecord(records, "logout_token", key);
  if (seen !== null) return null;
  const sessions = await namedSessions(records, logout);
  const byAccount = new Map<string, StoredSession[]>();
  for (const session of sessions) {
    const list = byAccount.get(session.userId) ?? [];
    list.push(session);
    byAccount.set(session.userId, list);
  }
  for (const [userId, ended] of byAccount) {
    const owner = await readRecord(records, "account", userId);
    const events = owner === null ? undefined : logout.events?.(
      ssoAccountOf(owner.value as AccountRecord),
      ended.length,
    );
    await endSessions(records, userId, ended, events);
  }
  // Remembered after the sessions ended: a provider that retries a logout
  // we failed half-way through is served again. Of two deliveries at once,
  // both end the same sessions; one records the token.
  const token: StoredLogoutToken = { key, expiresAt: logout.replayUntil };
  await records.commit({
    checks: [unchanged("logout_token", key, null)],
    puts: [{ kind: "logout_token", value: token, before: null }],
  });
  return sessions.length;
}

// The sessions the token names: by `sid` (of the identity of `sub` too,
// when given), or every session the identity of `sub` made through the
// provider — not those of another identity of the same account at the same
// provider. A session made before sessions recorded their identity
// (`ssoSubjectKey` absent) is told apart by its account only. An identity
// that is not linked here has no sessions here.
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
    if (identity === null) return [];
    owner = identity.value.userId;
  }
  const listed = logout.sid !== null
    ? await records.list("session", "ssoSid", logout.sid)
    : await records.list("session", "userId", owner!);
  return listed.map(({ value }) => value).filter((session) =>
    session.ssoProvider === logout.providerId &&
    (logout.sid === null || session.ssoSid === logout.sid) &&
    (owner === null || session.userId === owner) &&
    (subjectKey === null || session.ssoSubjectKey === undefined ||
      session.ssoSubjectKey === subjectKey)
  );
}
