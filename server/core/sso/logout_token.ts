// Back-channel logout (OpenID Connect Back-Channel Logout 1.0, §2.6): the
// provider posts a logout token, a JWT it signs, naming a session (`sid`)
// or a person (`sub`) whose sessions at this site must end. Verified with
// npm:jose against the provider's JWKS (fetched without redirects), for
// this client, recently issued, and shaped as a logout token and nothing
// else — so an ID token (or any other JWT the provider signs for us) can
// never be replayed here as a logout.

import { isKeptText, isUsableSid } from "./claims.ts";
import { SSO_CLOCK_TOLERANCE, type SsoClient } from "./discovery.ts";
import { refuse, type SsoRefusal } from "./errors.ts";
import { jose } from "./_libraries.ts";

/** The event a logout token's `events` claim must hold. */
export const BACKCHANNEL_LOGOUT_EVENT =
  "http://schemas.openid.net/event/backchannel-logout";

/** How old a logout token may be, seconds (from its `iat`). */
export const LOGOUT_TOKEN_MAX_AGE = 300;

/** The refusal code of a logout token that fails (400 on the route). */
export type LogoutTokenErrorCode = "logout_token_invalid";

/** The longest logout token read, characters. */
const MAX_TOKEN = 16_384;
const MAX_TEXT = 1024;

/** What a valid logout token asks: end these sessions. */
export interface SsoLogout {
  /** The issuer (the provider's). */
  issuer: string;
  /** The person (`sub`) whose sessions end, or null when only `sid` is given. */
  subject: string | null;
  /**
   * The provider's session (`sid`) whose sessions end, or null: then every
   * session of `subject` made through this provider ends.
   */
  sid: string | null;
  /** The token's id (`jti`): remember it until `replayUntil` to refuse a replay. */
  jti: string;
  /** When it was issued (`iat`), ms since the epoch. */
  issuedAt: number;
  /** Until when a replay of this `jti` could still pass, ms since the epoch. */
  replayUntil: number;
}

/** A logout token that passed. */
export interface SsoLogoutAccepted {
  /** Always true. */
  ok: true;
  /** The sessions to end. */
  logout: SsoLogout;
}

/** What {@linkcode verifyLogoutToken} answers. */
export type SsoLogoutResult =
  | SsoLogoutAccepted
  | SsoRefusal<LogoutTokenErrorCode>;

/** Options of {@linkcode verifyLogoutToken}. */
export interface VerifyLogoutOptions {
  /** The current time, ms since the epoch. */
  now: number;
}

/**
 * Verifies a logout token: signature by one of the provider's keys with an
 * algorithm it signs with (never `none`), `iss` the provider's, `aud` this
 * client, `iat` present and at most {@linkcode LOGOUT_TOKEN_MAX_AGE} old
 * (and not in the future), `exp` not passed when present, `typ` (when
 * present and not the generic `JWT`) `logout+jwt`, the back-channel logout
 * event in `events`, no `nonce`, a `sid` or a `sub`, and a `jti`.
 *
 * @param client The discovered provider the logout route belongs to.
 * @param token The `logout_token` form field.
 * @param options The clock.
 * @returns The sessions to end, or a `logout_token_invalid` refusal.
 *
 * @example In the back-channel logout route
 * ```ts
 * import type { SsoClient } from "./discovery.ts";
 * import { verifyLogoutToken } from "./logout_token.ts";
 *
 * async function logout(client: SsoClient, form: FormData) {
 *   const token = form.get("logout_token");
 *   const result = await verifyLogoutToken(
 *     client,
 *     typeof token === "string" ? token : "",
 *     { now: Date.now() },
 *   );
 *   if (!result.ok) return 400;
 *   // refuse a seen result.logout.jti, then end the sessions it names
 *   return 200;
 * }
 * ```
 */
export async function verifyLogoutToken(
  client: SsoClient,
  token: string,
  options: VerifyLogoutOptions,
): Promise<SsoLogoutResult> {
  const invalid = (reason: string) => refuse("logout_token_invalid", reason);
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN) {
    return invalid("No logout token, or one too long");
  }
  // Loaded already: the client's discovery imported it.
  const { decodeProtectedHeader, jwtVerify } = await jose();
  let typ: unknown;
  try {
    typ = decodeProtectedHeader(token).typ;
  } catch {
    return invalid("The logout token is not a JWS");
  }
  if (typ !== undefined && !isLogoutTyp(typ)) {
    return invalid(`The logout token's typ is "${String(typ).slice(0, 64)}"`);
  }
  const issuer = client.configuration.serverMetadata().issuer;
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, client.keys, {
      issuer,
      audience: client.provider.clientId,
      algorithms: [...client.signingAlgorithms],
      currentDate: new Date(options.now),
      clockTolerance: SSO_CLOCK_TOLERANCE,
      maxTokenAge: LOGOUT_TOKEN_MAX_AGE,
      requiredClaims: ["iat", "jti"],
    }));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return invalid(
      `The logout token failed verification: ${
        typeof code === "string" ? code : "error"
      }: ${error instanceof Error ? error.message.slice(0, 200) : ""}`,
    );
  }
  const iat = claims.iat as number;
  if (iat * 1000 > options.now + SSO_CLOCK_TOLERANCE * 1000) {
    return invalid("The logout token was issued in the future");
  }
  const events = claims.events;
  if (
    !isObject(events) || !Object.hasOwn(events, BACKCHANNEL_LOGOUT_EVENT) ||
    !isObject(events[BACKCHANNEL_LOGOUT_EVENT])
  ) {
    return invalid("The logout token has no back-channel logout event");
  }
  if (Object.hasOwn(claims, "nonce")) {
    return invalid("The logout token has a nonce (an ID token, perhaps)");
  }
  const sub = readText(claims.sub);
  const sid = readText(claims.sid);
  if (sub === undefined || sid === undefined) {
    return invalid("The logout token's sub or sid is not a string");
  }
  if (sid !== null && !isUsableSid(sid)) {
    return invalid("The logout token's sid is longer than any session's");
  }
  if (sub === null && sid === null) {
    return invalid("The logout token names neither sub nor sid");
  }
  const jti = readText(claims.jti);
  if (typeof jti !== "string") {
    return invalid("The logout token's jti is not a string");
  }
  return {
    ok: true,
    logout: {
      issuer,
      subject: sub,
      sid,
      jti,
      issuedAt: iat * 1000,
      replayUntil: (iat + LOGOUT_TOKEN_MAX_AGE + SSO_CLOCK_TOLERANCE) * 1000,
    },
  };
}

// `logout+jwt`, with or without `application/`, in any case (RFC 7515
// §4.1.9). The generic `JWT` counts as untyped: some providers send it.
function isLogoutTyp(typ: unknown): boolean {
  if (typeof typ !== "string") return false;
  const folded = typ.toLowerCase().replace(/^application\//, "");
  return folded === "logout+jwt" || folded === "jwt";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// null when absent, undefined when present but not a usable string (an
// unpaired surrogate or a NUL names nothing a store keeps: isKeptText).
function readText(value: unknown): string | null | undefined {
  if (value === undefined) return null;
  if (
    typeof value !== "string" || value === "" || value.length > MAX_TEXT ||
    !isKeptText(value)
  ) {
    return undefined;
  }
  return value;
}
