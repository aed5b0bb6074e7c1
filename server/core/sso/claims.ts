// What Gatehouse takes from a provider's claims (DESIGN.md §13): the
// identity's key (`iss`, `sub`), the address and whether the provider
// vouches for it, the name, the role claim's values, the provider's session
// id. The ID token is the source; userinfo only fills what it lacks, and an
// address and its verification always come from the same source.

import { emailDomain } from "@gatehouse/contract";
import { hashToken } from "../_crypto.ts";
import type { SsoProvider } from "./provider_config.ts";

// The domain of an address as DNS spells it: the contract's, which the
// login screen uses too.
export { emailDomain };

/** Claims as a JSON object (an ID token's payload, a userinfo answer). */
export type SsoClaims = Readonly<Record<string, unknown>>;

/** The person a provider signed in, as the callback answers it. */
export interface SsoIdentity {
  /** The issuer (`iss`): with `subject`, the identity's exact key. */
  issuer: string;
  /** The subject (`sub`) at that issuer. */
  subject: string;
  /** The address the provider gives, or null when it gives none usable. */
  email: string | null;
  /**
   * Whether the provider vouches for `email`: `email_verified` exactly
   * `true` (absent is false), or Entra's `xms_edov: true`.
   */
  emailVerified: boolean;
  /** The person's name at the provider, or null. */
  name: string | null;
  /**
   * The values of the provider's `roleClaim` (a string becomes a list of
   * one), or null when the claim is absent: `syncRole` then fails closed.
   */
  roleValues: readonly string[] | null;
  /** The provider's session id (`sid`), for back-channel logout; or null. */
  sid: string | null;
  /** When the person authenticated at the provider (`auth_time`), ms; or null. */
  authTime: number | null;
}

const MAX_EMAIL = 320;
const MAX_NAME = 200;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The identity in validated ID token claims, with userinfo's claims (when
 * fetched) filling what the ID token lacks.
 *
 * @param provider The provider (its `roleClaim`).
 * @param idToken The ID token's claims, already verified.
 * @param userinfo The userinfo answer (its `sub` already checked), if any.
 * @returns The identity.
 *
 * @example Entra's verified-domain signal
 * ```ts
 * import { identityFromClaims } from "./claims.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [entra] = resolveSsoProviders({ providers: [{
 *   id: "entra", name: "Entra", issuer: "https://login.example/tenant/v2.0",
 *   clientId: "app", clientSecret: "s",
 * }] });
 * const person = identityFromClaims(entra!, {
 *   iss: "https://login.example/tenant/v2.0", sub: "x1",
 *   email: "ada@example.com", xms_edov: true, groups: "staff",
 * });
 * console.assert(person.emailVerified && person.roleValues?.[0] === "staff");
 * ```
 */
export function identityFromClaims(
  provider: SsoProvider,
  idToken: SsoClaims,
  userinfo: SsoClaims | null = null,
): SsoIdentity {
  const mail = idToken.email !== undefined || userinfo === null
    ? idToken
    : userinfo;
  const email = readEmail(mail.email);
  const authTime = idToken.auth_time;
  return {
    issuer: String(idToken.iss),
    subject: String(idToken.sub),
    email,
    emailVerified: email !== null &&
      (mail.email_verified === true || mail.xms_edov === true),
    name: readName(idToken.name) ?? readName(userinfo?.name),
    roleValues: readValues(
      idToken[provider.roleClaim] ?? userinfo?.[provider.roleClaim],
    ),
    sid: isUsableSid(idToken.sid) ? idToken.sid : null,
    authTime: typeof authTime === "number" && Number.isFinite(authTime)
      ? authTime * 1000
      : null,
  };
}

/**
 * Whether the ID token lacks something userinfo could give: an address, or
 * the role claim when the provider maps or syncs roles.
 *
 * @param provider The provider.
 * @param idToken The ID token's claims.
 * @returns True when userinfo is worth asking.
 *
 * @example
 * ```ts
 * import { needsUserinfo } from "./claims.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [p] = resolveSsoProviders({ providers: [{
 *   id: "p", name: "P", issuer: "https://idp.example", clientId: "a",
 *   clientSecret: "s",
 * }] });
 * console.assert(needsUserinfo(p!, { sub: "1" }));
 * console.assert(!needsUserinfo(p!, { sub: "1", email: "a@b.example" }));
 * ```
 */
export function needsUserinfo(
  provider: SsoProvider,
  idToken: SsoClaims,
): boolean {
  if (idToken.email === undefined) return true;
  const rolesMatter = provider.roleMap.length > 0 || provider.syncRole;
  return rolesMatter && idToken[provider.roleClaim] === undefined;
}

/**
 * The unique key of an identity: the digest of its exact issuer and
 * subject (JSON keeps the pair unambiguous; the digest keeps the key short
 * for any store). Identities are stored under it, and a session made by
 * single sign-on records it.
 *
 * @param issuer The provider's issuer, exactly.
 * @param subject The `sub` of the ID token.
 * @returns The key.
 *
 * @example
 * ```ts
 * import { subjectKeyOf } from "./claims.ts";
 *
 * const key = subjectKeyOf("https://idp.acme.example", "248289761001");
 * console.assert(key !== subjectKeyOf("https://idp.acme.example", "2482897610"));
 * ```
 */
export function subjectKeyOf(issuer: string, subject: string): string {
  return hashToken(JSON.stringify([issuer, subject]));
}

function readEmail(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const email = value.trim();
  if (email.length > MAX_EMAIL || CONTROL.test(email)) return null;
  return emailDomain(email) === null ? null : email;
}

function readName(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const name = value.trim();
  if (name === "" || name.length > MAX_NAME || CONTROL.test(name)) return null;
  return name;
}

/**
 * Whether `value` is text every store keeps and finds again alike:
 * well-formed (an unpaired surrogate is refused by Postgres, and kept by
 * SQLite as bytes no lookup matches) and free of NUL (which Postgres
 * refuses in text and jsonb alike; DESIGN.md §5). A provider's `sub` or
 * `sid` that is not is refused, or as good as none.
 *
 * @param value The text.
 * @returns True when every store keeps it.
 *
 * @example
 * ```ts
 * import { isKeptText } from "./claims.ts";
 *
 * console.assert(isKeptText("248289761001"));
 * console.assert(!isKeptText("ada\u0000") && !isKeptText("ada\ud800"));
 * ```
 */
export function isKeptText(value: string): boolean {
  return value.isWellFormed() && !value.includes("\u0000");
}

/** The longest provider session id (`sid`) kept or looked up, UTF-8 bytes. */
export const MAX_SID_BYTES = 1024;

/**
 * Whether `value` is a `sid` sessions can be kept and found by: a
 * non-empty, well-formed string of at most {@linkcode MAX_SID_BYTES} UTF-8
 * bytes. A longer one is past what a store indexes (a Deno KV key holds
 * 2048 bytes), and text that is not {@linkcode isKeptText} (an unpaired
 * surrogate, NUL) is not kept and found alike by every store: an ID
 * token's is as good as none, a logout token's is refused.
 */
export function isUsableSid(value: unknown): value is string {
  return typeof value === "string" && value !== "" && isKeptText(value) &&
    value.length <= MAX_SID_BYTES &&
    new TextEncoder().encode(value).length <= MAX_SID_BYTES;
}

function readValues(value: unknown): readonly string[] | null {
  if (typeof value === "string") return [value];
  if (!Array.isArray(value)) return null;
  return value.filter((each): each is string => typeof each === "string");
}
