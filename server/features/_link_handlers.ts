// What accepting an invitation and confirming a reset share: read
// `{token, password}`; refuse a bad password before touching the link (so
// the person can retry with the same link); refuse a dead link with one
// cheap store read and no argon2 work (DESIGN.md §5); only then hash the new
// password. Spending the link re-checks everything in the store's commit.
//
// And what the page a link opens asks first (`checkLink`), so that a dead
// link says so before anyone types a password twice: the same rule for
// both kinds, behind the same dead-link limiter.

import type { LinkCheckJson, LinkState } from "@gatehouse/contract";
import type { GatehouseContext } from "../core/context.ts";
import { grantersOf } from "../core/_roles.ts";
import { linkTokenHash, readNewPassword } from "../core/_input.ts";
import { defineOperation, type Operation } from "../core/operation.ts";
import { decode, requiredString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { NO_STORE, respond } from "../http/respond.ts";
import type { LinkKind, LinkRecord } from "../core/store.ts";

/** What the link handlers read of the context. */
export type LinkSettings = Pick<
  GatehouseContext,
  "store" | "limits" | "hasher" | "now" | "capabilities" | "privileged"
>;

/** The 410 answer for a link that is unknown, spent or expired. */
export const DEAD_LINK: AuthError = new AuthError("token_invalid", {
  message: "This link is no longer valid: it was already used or has expired",
});

/** A live link, its token's digest and the hash of the new password. */
export interface SpendableLink {
  tokenHash: string;
  link: LinkRecord;
  passwordHash: string;
}

/** Reads and checks `{token, password}` for a link of `kind`. */
export async function spendableLink(
  req: Request,
  settings: LinkSettings,
  kind: LinkKind,
): Promise<SpendableLink> {
  const { store, limits, hasher } = settings;
  const body = await decode(req, { maxBytes: limits.maxBodyBytes });
  const token = requiredString(body, "token");
  const password = await readNewPassword(
    requiredString(body, "password"),
    limits,
  );
  const tokenHash = linkTokenHash(token);
  const link = tokenHash === null
    ? null
    : await store.findLink(tokenHash, kind, settings.now());
  if (link === null) throw DEAD_LINK;
  return {
    tokenHash: tokenHash!,
    link,
    passwordHash: await hasher.hash(password),
  };
}

const LINK_KINDS: readonly LinkKind[] = ["invitation", "reset"];

/**
 * `POST /api/auth/links/check` `{token, kind}`: 200 `{status}` for a link
 * that can still be spent, 410 `token_invalid` for one that cannot (unknown,
 * spent, expired, replaced, revoked; a reset link whose account was reset,
 * disabled or removed since; an invitation whose inviter lost the authority
 * to send it). Nothing is spent. The token rides in the body, like the
 * spends', never in a URL a log keeps.
 *
 * An invitation for an address that has an account answers
 * `account_exists`: the link can create nothing, and the person it was sent
 * to is better served by signing in or resetting their password than by
 * "used or expired". That is no more than the invited person knows, and no
 * more than the inviting administrator, who can list accounts, already
 * could learn; the invite answer itself stays the same for every address.
 */
export function checkLinkOperation(context: GatehouseContext): Operation {
  const { store, limits } = context;
  const settings: LinkSettings = context;
  return defineOperation(
    context,
    "checkLink",
    async function checkLink(req) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const token = requiredString(body, "token");
      const kind = requiredString(body, "kind");
      if (!(LINK_KINDS as readonly string[]).includes(kind)) {
        throw new AuthError("body_malformed", {
          message: 'kind must be "invitation" or "reset"',
          meta: { field: "kind" },
        });
      }
      const tokenHash = linkTokenHash(token);
      const link = tokenHash === null
        ? null
        : await store.findLink(tokenHash, kind as LinkKind, settings.now());
      const status = link === null ? null : await linkState(settings, link);
      if (status === null) throw DEAD_LINK;
      return respond({ status } satisfies LinkCheckJson, { headers: NO_STORE });
    },
  );
}

// What a live link record is good for, by what spending it would find now;
// null when spending it would fail whatever password is typed. The spend
// re-checks all of it in its commit.
async function linkState(
  settings: LinkSettings,
  link: LinkRecord,
): Promise<LinkState | null> {
  const { store } = settings;
  const account = await store.credentialsByEmail(link.emailKey);
  if (link.kind === "reset") {
    return account !== null && account.user.id === link.userId &&
        !account.user.disabled && account.generation === link.generation
      ? "ready"
      : null;
  }
  if (account !== null) return "account_exists";
  if (link.invitedBy === "") {
    // The first-run link creates an account only into an empty store.
    const { users } = await store.listUsers({ limit: 1 });
    return users.length === 0 ? "ready" : null;
  }
  const inviter = await store.userById(link.invitedBy);
  if (inviter === null || inviter.disabled) return null;
  const granters = await grantersOf(
    settings.capabilities,
    settings.privileged,
    link.role,
  );
  return granters === undefined || granters.includes(inviter.role)
    ? "ready"
    : null;
}
