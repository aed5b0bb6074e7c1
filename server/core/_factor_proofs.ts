// Checking a second-factor proof where it is spent, shared by the
// second-factor step of a sign-in, a re-authentication and a passwordless
// sign-in: a TOTP code (its time step accepted once per account), a
// recovery code (single use) and a passkey assertion (its challenge single
// use, bound to a use and kept server-side under a cookie; its counter
// checked; spent with the pending sign-in it finishes, or bound to the
// session it re-authenticates, as a code is).
// Each answers whether the proof holds; the callers say why not.

import { hashToken, isTokenShaped, randomToken } from "./_crypto.ts";
import { readCookie, serializeCookie } from "../http/cookie.ts";
import { type JsonObject, requiredString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { hashRecoveryCode } from "./recovery_codes.ts";
import type { AuditEvent, Store } from "./store.ts";
import type { ByActor } from "./actor.ts";
import type {
  ChallengeUse,
  PasskeyRecord,
  PasskeyUse,
  PendingSpend,
} from "./store_factors.ts";
import { loadTotp } from "./_totp_loader.ts";
import type { TotpSealing } from "./_totp_sealing.ts";
import { inBackground } from "../http/_background.ts";
import type { Logger } from "../http/logger.ts";
import type { AuditTrail, EventAccount } from "./_audit.ts";
import type { ClientMeta } from "../http/_client_meta.ts";
import {
  CHALLENGE_TTL,
  credentialIdOf,
  type RelyingParty,
  relyingParty,
  verifyPasskeyAuthentication,
} from "./webauthn.ts";

/** The cookie that names a WebAuthn challenge kept by the store. */
export const CHALLENGE_COOKIE = "__Host-gatehouse-webauthn";

/** Clears the challenge cookie once its challenge is spent. */
export const CLEAR_CHALLENGE: string = serializeCookie(CHALLENGE_COOKIE, "", {
  maxAge: 0,
});

// Codes and recovery codes are short; anything longer is not one.
const MAX_CODE_LENGTH = 64;

/** What checking a TOTP code needs (a SessionIssuer has each). */
export interface TotpChecking {
  store: Store;
  /** Opens the stored secret, and seals it again with the current key. */
  totpSealing: TotpSealing;
  /** Told when a secret could not be sealed again. */
  logger: Logger;
}

/**
 * Spends the time step of `code` for the account: true once per step. The
 * stored secret is opened with the sealing (a secret that does not open
 * throws: the configuration's fault, never the code's). Once a code is
 * accepted, a secret not sealed with the current key is sealed again, after
 * the answer (`Gatehouse.settled()` waits for it).
 */
export async function spendTotpCode(
  { store, totpSealing, logger }: TotpChecking,
  userId: string,
  code: string,
  now: number,
  binding: CodeBinding = {},
): Promise<boolean> {
  if (code.length > MAX_CODE_LENGTH) return false;
  const totp = await store.totp(userId);
  if (totp === null) return false;
  const secret = await totpSealing.open(totp.secret, userId);
  const { totpStepOf } = await loadTotp();
  const step = totpStepOf(secret, code, now);
  if (
    step === null ||
    !(await store.useTotpStep(userId, step, binding))
  ) return false;
  if (
    !totpSealing.isCurrent(totp.secret) &&
    store.replaceTotpSecret !== undefined
  ) {
    const replace = store.replaceTotpSecret.bind(store);
    inBackground(
      store,
      totpSealing.seal(secret, userId).then((sealed) =>
        replace(userId, totp.secret, sealed)
      ),
      (error) => logger.error("TOTP secret not sealed again", { error }),
    );
  }
  return true;
}

/** Spends one recovery code of the account, writing `events` with it. */
export async function spendRecoveryCode(
  store: Store,
  userId: string,
  code: string,
  events: readonly AuditEvent[],
  binding: CodeBinding = {},
): Promise<boolean> {
  if (code.length > MAX_CODE_LENGTH) return false;
  const hash = hashRecoveryCode(code);
  if (hash === null) return false;
  return (await store.useRecoveryCode(userId, hash, { events, ...binding })) !==
    null;
}

/**
 * The pending sign-in a code finishes, spent with it in one commit (see
 * `CodeSpend`): a code is then accepted only while that sign-in is live.
 */
export type PendingBinding = NonNullable<PendingSpend["pending"]>;

/**
 * What a code is spent for: the pending sign-in it finishes, or the
 * session it re-authenticates (`actor`: spent only while that account
 * still stands, else `session_absent` and the code stays unspent).
 */
export interface CodeBinding extends ByActor {
  /** The pending sign-in the code finishes, spent with it. */
  pending?: PendingBinding;
}

/** What spending a code needs (a SessionIssuer has each). */
export interface CodeSpending extends TotpChecking {
  /** Makes the `recovery_code.used` event written with the spend. */
  trail: AuditTrail;
}

/**
 * Spends a TOTP or recovery code of `account`, as the second step of a
 * sign-in and a re-authentication both do: true once per code (a recovery
 * code's `recovery_code.used` event lands with its spend). With `pending`
 * (the second step), only while that pending sign-in is live, which the
 * same commit ends.
 */
export function spendCode(
  context: CodeSpending,
  account: EventAccount,
  client: ClientMeta,
  proof: { kind: "totp" | "recovery_code"; value: string },
  now: number,
  binding: CodeBinding = {},
): Promise<boolean> {
  return proof.kind === "totp"
    ? spendTotpCode(context, account.id, proof.value, now, binding)
    : spendRecoveryCode(context.store, account.id, proof.value, [
      context.trail.event("recovery_code.used", { actor: account, client }),
    ], binding);
}

/**
 * Keeps a new challenge for `use` (and the account, or "" when none is
 * known yet) and answers the cookie that names it. With `options.actor`,
 * only while the session asking for it stands.
 */
export async function keepChallenge(
  store: Store,
  challenge: string,
  use: ChallengeUse,
  userId: string,
  now: number,
  options: ByActor = {},
): Promise<string> {
  const token = randomToken();
  await store.createChallenge({
    tokenHash: hashToken(token),
    challenge,
    use,
    userId,
    createdAt: now,
    expiresAt: now + CHALLENGE_TTL,
  }, options);
  return serializeCookie(CHALLENGE_COOKIE, token, {
    maxAge: CHALLENGE_TTL / 1000,
  });
}

/**
 * Spends the challenge the request's cookie names, issued for `use`:
 * the challenge and the account it was issued to, or null.
 */
export async function spendChallenge(
  store: Store,
  req: Request,
  use: ChallengeUse,
  now: number,
): Promise<{ challenge: string; userId: string } | null> {
  const tokenHash = challengeOf(req);
  return tokenHash === null
    ? null
    : await store.spendChallenge(tokenHash, use, now);
}

// The digest of the challenge cookie's token, or null without one.
function challengeOf(req: Request): string | null {
  const token = readCookie(req.headers.get("cookie"), CHALLENGE_COOKIE);
  return token === null || !isTokenShaped(token) ? null : hashToken(token);
}

/**
 * Proves a passkey assertion for what `binding` names, against the
 * challenge the request's cookie names (issued for `use`, for the account
 * `userId`): true once. As the second step of a sign-in (`pending`) or a
 * re-authentication (`actor`). The challenge is read, not spent, before
 * the assertion is verified; the challenge and the passkey's use are then
 * spent in one commit with the pending sign-in, or checked against the
 * session's account (see `PasskeyUse`): of second steps sent at once with
 * one assertion, the later ones find the sign-in gone, not the challenge
 * spent, and are no guess; a re-authentication whose session ended in
 * flight spends nothing (`session_absent`). A refused assertion spends its
 * challenge all the same: a challenge is single use.
 */
export async function spendPasskey(
  store: Store,
  rp: RelyingParty,
  req: Request,
  use: ChallengeUse,
  { userId, response, now, binding }: BoundPasskeyProof,
): Promise<boolean> {
  const tokenHash = challengeOf(req);
  if (tokenHash === null) return false;
  const challenge = await store.findChallenge(tokenHash, use, now);
  if (challenge === null) return false;
  const passkey = await provePasskey(store, rp, challenge, {
    userId,
    response,
    now,
    spending: { challenge: { tokenHash, use }, ...binding },
  });
  if (passkey === null) await store.spendChallenge(tokenHash, use, now);
  return passkey !== null;
}

/** What {@linkcode spendPasskey} checks, and what it is spent for. */
export interface BoundPasskeyProof {
  /** The account proving itself: only its passkeys count. */
  userId: string;
  /** The browser's assertion. */
  response: unknown;
  /** Now, ms. */
  now: number;
  /** The pending sign-in it finishes, or the session it re-authenticates. */
  binding: CodeBinding;
}

/** What {@linkcode provePasskey} checks an assertion with. */
export interface PasskeyProof {
  /** Only this account's passkeys count; null: any account's. */
  userId: string | null;
  /** The browser's assertion. */
  response: unknown;
  /** Now, ms. */
  now: number;
  /** Read before the use is recorded: the caller binds its session to it. */
  before?: (passkey: PasskeyRecord) => Promise<boolean>;
  /** Spent with the use, or bound to it, in its commit (see `PasskeyUse`). */
  spending?: Pick<PasskeyUse, "challenge" | "pending" | "actor">;
}

/**
 * The second half of {@linkcode spendPasskey}, for a caller that spent the
 * challenge itself (a passwordless sign-in, to tell a dead one apart): verifies the assertion
 * against `challenge` and records the passkey's use. The passkey, or null.
 */
export async function provePasskey(
  store: Store,
  rp: RelyingParty,
  challenge: { challenge: string; userId: string },
  { userId, response, now, before, spending }: PasskeyProof,
): Promise<PasskeyRecord | null> {
  const credentialId = credentialIdOf(response);
  if (credentialId === null) return null;
  const passkey = await store.passkeyByCredentialId(credentialId);
  if (
    passkey === null || (userId !== null && passkey.userId !== userId) ||
    (challenge.userId !== "" && challenge.userId !== passkey.userId)
  ) {
    return null;
  }
  const verified = await verifyPasskeyAuthentication(
    rp,
    response,
    challenge.challenge,
    passkey,
  );
  if (verified === null) return null;
  if (before !== undefined && !(await before(passkey))) return null;
  const used = await store.usePasskey(passkey.id, {
    counter: verified.counter,
    now,
    ...spending,
  });
  return used ? passkey : null;
}

/**
 * The relying party of `publicUrl`, made on first use: an application
 * without passkeys needs no `publicUrl`, and one whose `publicUrl` a
 * browser would refuse for passkeys learns it from the first passkey call
 * (an `internal` answer with the reason in the log).
 */
export function lazyRelyingParty(
  publicUrl: string | undefined,
  name?: string,
): () => RelyingParty {
  let rp: RelyingParty | undefined;
  return () =>
    rp ??= relyingParty({
      ...(publicUrl === undefined ? {} : { publicUrl }),
      ...(name === undefined ? {} : { name }),
    });
}

/** A proof of identity from a request body, by its field. */
export type Proof =
  | { kind: "password"; value: string }
  | { kind: "totp"; value: string }
  | { kind: "recovery_code"; value: string }
  | { kind: "passkey"; value: object };

/**
 * The one proof field of a body (`password` only where `password` is
 * allowed, then `code`, `recovery_code`, `passkey`): `body_field_required`
 * naming the first when none is there, `body_malformed` for a wrong type.
 */
export function readProof(body: JsonObject, password: boolean): Proof {
  if (password && body.password !== undefined && body.password !== null) {
    return { kind: "password", value: requiredString(body, "password") };
  }
  if (body.code !== undefined && body.code !== null) {
    return { kind: "totp", value: requiredString(body, "code") };
  }
  if (body.recovery_code !== undefined && body.recovery_code !== null) {
    return {
      kind: "recovery_code",
      value: requiredString(body, "recovery_code"),
    };
  }
  if (body.passkey !== undefined && body.passkey !== null) {
    const value = body.passkey;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw new AuthError("body_malformed", {
        message: 'Field "passkey" must be an object',
        meta: { field: "passkey" },
      });
    }
    return { kind: "passkey", value };
  }
  const field = password ? "password" : "code";
  throw new AuthError("body_field_required", {
    message: `Request body is missing a required field: "${field}"`,
    meta: { field },
  });
}
