// Single-use links: their tokens, their records and their URLs. The token
// rides in the URL fragment (`/invite#token=…`) so it never reaches server
// logs or Referer headers, and the origin of a mailed link comes from
// configuration only: a link built from the request's Host header could be
// poisoned by a forged Host ("password reset poisoning"). An invitation
// replaces its address's others, but only those its inviter could revoke.

import { AuthError } from "../http/errors.ts";
import { hashToken, randomToken } from "./_crypto.ts";
import { withinReach } from "./_roles.ts";
import type { Mailer, MailKind } from "./mailer.ts";
import type { LinkKind, LinkRecord } from "./store.ts";

/** Paths of the two pages a link opens. */
export const LINK_PATHS: Record<LinkKind, string> = {
  invitation: "/invite",
  reset: "/reset",
};

/** Checks and normalises `publicUrl`: an http(s) URL without query or fragment. */
export function parsePublicUrl(
  publicUrl: string | undefined,
): string | undefined {
  if (publicUrl === undefined) return undefined;
  if (!URL.canParse(publicUrl)) {
    throw new TypeError(`Invalid publicUrl: "${publicUrl}" is not a URL`);
  }
  const url = new URL(publicUrl);
  if (
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.search !== "" ||
    url.hash !== "" || url.username !== "" || url.password !== ""
  ) {
    throw new TypeError(
      `Invalid publicUrl: "${publicUrl}" must be http(s) with no query, fragment or credentials`,
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/**
 * The base of every link: `publicUrl` checked and normalised, required when
 * links are mailed, since a mailed link is never built from the request's
 * Host.
 */
export function linkBase(
  publicUrl: string | undefined,
  mailer: unknown,
): string | undefined {
  const base = parsePublicUrl(publicUrl);
  if (mailer !== undefined && base === undefined) {
    throw new TypeError(
      "Invalid config: a mailer needs publicUrl, since mailed links are never built from the request's Host",
    );
  }
  return base;
}

/** The mailer if it delivers mail of `kind` (`Mailer.kinds`), else undefined. */
export function mailerFor(
  mailer: Mailer | undefined,
  kind: MailKind,
): Mailer | undefined {
  return mailer?.kinds === undefined || mailer.kinds.includes(kind)
    ? mailer
    : undefined;
}

/** The URL of a link: `{base}{path}#token=…`; base may be "" (a relative link). */
export function linkUrl(base: string, kind: LinkKind, token: string): string {
  return `${base}${LINK_PATHS[kind]}#token=${token}`;
}

/** A new token and the record a store keeps for it. */
export function newLink(
  fields: Omit<LinkRecord, "tokenHash">,
): { token: string; record: LinkRecord } {
  const token = randomToken();
  return { token, record: { ...fields, tokenHash: hashToken(token) } };
}

/**
 * Refuses (`role_beyond_reach`) a new invitation that would replace one of
 * `replaced` its inviter could not revoke (DESIGN.md §8): one still
 * pending at `now` whose role is beyond `reachableRoles` (absent: every
 * role is within reach). An expired one is dead already, anyone's to
 * replace. A decoy (its address has an account) counts like any other, so
 * the answer does not tell whether the address has an account.
 */
export function refuseReplacing(
  replaced: readonly LinkRecord[],
  reachableRoles: readonly string[] | undefined,
  now: number,
): void {
  const beyond = replaced.find((link) =>
    link.expiresAt > now && !withinReach(reachableRoles, link.role)
  );
  if (beyond === undefined) return;
  throw new AuthError("role_beyond_reach", {
    message: `You may not replace an invitation for the role "${beyond.role}"`,
  });
}
