// Which account a single sign-on signs in to (DESIGN.md §13, "Linking
// rules"), decided once over the narrow store. An identity is its exact
// (iss, sub): once linked, that key alone finds the account, whatever
// address the provider sends later. Only a first sign-in looks at the
// address, in the order §13 fixes: the account of the address (linked), a
// pending invitation for it (spent: the account made from it), just-in-time
// creation, else unknown. Each outcome is one commit, checked against what
// it was decided on: a racing sign-in with the same identity or address
// fails the unique key of the identity or the account, and the retry reads
// what the winner wrote.

import { subjectKeyOf } from "../sso/claims.ts";
import { fold } from "../_fold.ts";
import type {
  AccountRecord,
  Check,
  RecordStore,
  StoredIdentity,
  StoredLink,
  StoredTally,
  Versioned,
} from "../records.ts";
import type {
  SsoAccount,
  SsoAccountOutcome,
  SsoAccountRefusal,
  SsoAccountRequest,
  SsoResolved,
} from "../store_sso.ts";
import { type Attempt, committing, readRecords, unchanged } from "./_commit.ts";
import { enabledMoves } from "./_account_update.ts";
import { inviterMayGrant } from "./_link_invitations.ts";
import { tally } from "./_records.ts";

type Outcome = Attempt<SsoAccountOutcome>;

export { subjectKeyOf };

/** The account as single sign-on answers it. */
export function ssoAccountOf(account: AccountRecord): SsoAccount {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    disabled: account.disabled,
    createdAt: account.createdAt,
  };
}

/** Resolves the account of an SSO sign-in (`SsoStore.resolveSsoAccount`). */
export function resolveSsoAccount(
  records: RecordStore,
  request: SsoAccountRequest,
): Promise<SsoAccountOutcome> {
  const subjectKey = subjectKeyOf(request.issuer, request.subject);
  return committing(records, async (): Promise<Outcome> => {
    const [linked] = await readRecords<[StoredIdentity]>(records, [
      { kind: "identity", unique: "subjectKey", value: subjectKey },
    ]);
    if (linked !== null) return await signInLinked(records, linked, request);
    if (request.firstLinkRefusal !== null) {
      return refused(request.firstLinkRefusal, null);
    }
    const { email, emailKey } = request;
    if (email === null || emailKey === null) {
      return refused("sso_email_unverified", null);
    }
    const [taken] = await readRecords<[AccountRecord]>(records, [
      { kind: "account", unique: "emailKey", value: emailKey },
    ]);
    const identity = newIdentity(request, subjectKey);
    if (taken !== null) return linkToAddress(taken, identity, request);
    const invited = await fromInvitation(records, request, identity);
    if (invited !== null) return invited;
    if (request.create === undefined) {
      return refused("sso_account_unknown", null);
    }
    const account = newAccount(request.userId, request.now, {
      email,
      emailKey,
      name: request.create.name,
      role: request.create.role,
    });
    return made("created", account, identity, null, request, {
      checks: [unchanged("account", account.id, null)],
      deletes: [],
    });
  });
}

// A linked identity: its account, unless disabled; the name and address
// it shows refreshed when the provider changed them (the key never is).
async function signInLinked(
  records: RecordStore,
  linked: Versioned<StoredIdentity>,
  request: SsoAccountRequest,
): Promise<Outcome> {
  const [owner] = await readRecords<[AccountRecord]>(records, [
    { kind: "account", key: linked.value.userId },
  ]);
  if (owner === null) return refused("sso_account_unknown", null);
  const account = owner.value;
  if (account.disabled) {
    return refused("sso_account_disabled", ssoAccountOf(account));
  }
  const before = linked.value;
  const identity: StoredIdentity = {
    ...before,
    email: request.email ?? before.email,
    name: request.name ?? before.name,
  };
  const result: SsoAccountOutcome = {
    ok: true,
    how: "found",
    account: ssoAccountOf(account),
    generation: account.generation,
    identity,
    invitation: null,
  };
  if (identity.email === before.email && identity.name === before.name) {
    return { commit: null, result };
  }
  return {
    commit: {
      checks: [unchanged("identity", before.id, linked)],
      puts: [{ kind: "identity", value: identity, before }],
    },
    result,
  };
}

// The account of the address: linked, unless it is disabled (which links
// nothing). The commit checks the account as read, so a disable racing the
// link wins.
function linkToAddress(
  taken: Versioned<AccountRecord>,
  identity: StoredIdentity,
  request: SsoAccountRequest,
): Outcome {
  const account = taken.value;
  if (account.disabled) {
    return refused("sso_account_disabled", ssoAccountOf(account));
  }
  const linked = { ...identity, userId: account.id };
  const resolved: SsoResolved = {
    how: "linked",
    account: ssoAccountOf(account),
    generation: account.generation,
    identity: linked,
    invitation: null,
  };
  return {
    commit: {
      checks: [
        unchanged("account", account.id, taken),
        unchanged("identity", linked.id, null),
      ],
      puts: [{ kind: "identity", value: linked, before: null }],
      tallies: [{ key: tally.identities(account.id), by: 1 }],
      events: request.events?.(resolved) ?? [],
    },
    result: { ok: true, ...resolved },
  };
}

// The pending invitation of the address, spent under its inviter's
// authority as acceptance spends it (the first-run one only into an empty
// store): the account is made from it, its name and role. Null when there
// is none that may still create an account.
async function fromInvitation(
  records: RecordStore,
  request: SsoAccountRequest,
  identity: StoredIdentity,
): Promise<Outcome | null> {
  const found = (await records.list("link", "emailKey", request.emailKey!))
    .find(({ value }) =>
      value.kind === "invitation" && value.expiresAt > request.now
    );
  if (found === undefined) return null;
  const invitation = found.value;
  const firstRun = invitation.invitedBy === "";
  const [authority] = await readRecords<[AccountRecord | StoredTally]>(
    records,
    [
      firstRun
        ? { kind: "tally", key: tally.enabled() }
        : { kind: "account", key: invitation.invitedBy },
    ],
  );
  const authorised = firstRun ? !await records.hasAccounts() : inviterMayGrant(
    authority as Versioned<AccountRecord> | null,
    await request.granters(invitation.role),
  );
  if (!authorised) return null;
  const account = newAccount(request.userId, request.now, {
    email: invitation.email,
    emailKey: invitation.emailKey,
    name: invitation.name,
    role: invitation.role,
  });
  return made("invited", account, identity, invitation, request, {
    checks: [
      unchanged("link", invitation.tokenHash, found),
      unchanged("account", account.id, null),
      firstRun
        ? unchanged("tally", tally.enabled(), authority)
        : unchanged("account", invitation.invitedBy, authority),
    ],
    deletes: [{ kind: "link", value: invitation }],
  });
}

// An account made now (from an invitation, or for the identity) with its
// identity, in one commit.
function made(
  how: "invited" | "created",
  account: AccountRecord,
  identity: StoredIdentity,
  invitation: StoredLink | null,
  request: SsoAccountRequest,
  spend: { checks: Check[]; deletes: { kind: "link"; value: StoredLink }[] },
): Outcome {
  const linked = { ...identity, userId: account.id };
  const resolved: SsoResolved = {
    how,
    account: ssoAccountOf(account),
    generation: account.generation,
    identity: linked,
    invitation,
  };
  return {
    commit: {
      checks: [...spend.checks, unchanged("identity", linked.id, null)],
      puts: [
        { kind: "account", value: account, before: null },
        { kind: "identity", value: linked, before: null },
      ],
      deletes: spend.deletes,
      tallies: [
        ...enabledMoves({ role: account.role, disabled: true }, account),
        { key: tally.identities(account.id), by: 1 },
      ],
      events: request.events?.(resolved) ?? [],
    },
    result: { ok: true, ...resolved },
  };
}

// An account with no password (single sign-on is its way in): enabled,
// generation 0, no factors. An empty hash matches no password.
function newAccount(
  id: string,
  now: number,
  person: { email: string; emailKey: string; name: string; role: string },
): AccountRecord {
  return {
    id,
    email: person.email,
    emailKey: person.emailKey,
    name: person.name,
    nameKey: fold(person.name),
    role: person.role,
    disabled: false,
    passwordHash: "",
    generation: 0,
    createdAt: now,
    factorVersion: 0,
    totpEnabled: false,
    passkeyCount: 0,
    // Set from the browser by the sign-in that follows (DESIGN.md §14).
    locale: "",
    localeChosen: false,
  };
}

function newIdentity(
  request: SsoAccountRequest,
  subjectKey: string,
): StoredIdentity {
  return {
    id: request.identityId,
    userId: "",
    providerId: request.providerId,
    issuer: request.issuer,
    subject: request.subject,
    subjectKey,
    email: request.email ?? "",
    name: request.name ?? "",
    linkedAt: request.now,
  };
}

function refused(code: SsoAccountRefusal, account: SsoAccount | null): Outcome {
  return { commit: null, result: { ok: false, code, account } };
}
