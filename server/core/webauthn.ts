// Passkeys (WebAuthn) through npm:@simplewebauthn/server: the relying party
// derived once from configuration (never from a request's Host), creation
// and request options, and the verification of what the browser answers.
// Every ceremony requires user verification, so a verified passkey counts
// as both factors. Challenges are kept by the store (`createChallenge`,
// `spendChallenge`): single use, bound to a use, five minutes.
//
// The library (and its ASN.1 and COSE stack) is the heaviest thing
// Gatehouse could load: about 130 ms of a cold start that a session check
// does not need. It is imported by the first ceremony that uses it
// (`simpleWebAuthn()`), never at start-up.

import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import type { PasskeyRecord } from "./store_factors.ts";
import { lazyImport } from "../http/_lazy_import.ts";

export type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
};

/** How long a challenge lives, ms (also the browser's timeout). */
export const CHALLENGE_TTL = 5 * 60_000;

/** Who passkeys are registered to: the site, as the browser checks it. */
export interface RelyingParty {
  /** The RP ID: the site's host name, e.g. `app.example.com`. */
  id: string;
  /** The name an authenticator shows. */
  name: string;
  /** The origin a response must come from, e.g. `https://app.example.com`. */
  origin: string;
}

/** Options of {@linkcode relyingParty}. */
export interface RelyingPartyOptions {
  /** The site's public base URL (Gatehouse's `publicUrl`). */
  publicUrl?: string;
  /**
   * Without `publicUrl`: the port of a development server on localhost
   * (RP ID `localhost`, origin `http://localhost:PORT`).
   */
  developmentPort?: number;
  /** The name authenticators show; the host name by default. */
  name?: string;
}

/**
 * The relying party of a site, from its configuration once at start-up;
 * throws a `TypeError` for one a browser would refuse (no `publicUrl` and
 * no development port, or plain http anywhere but localhost).
 *
 * @param options The public URL, or a development port.
 * @returns The RP ID, name and expected origin.
 *
 * @example A public site, and the demo on localhost
 * ```ts
 * import { relyingParty } from "./webauthn.ts";
 *
 * const site = relyingParty({ publicUrl: "https://app.example.com/" });
 * console.assert(site.id === "app.example.com");
 * console.assert(site.origin === "https://app.example.com");
 * const demo = relyingParty({ developmentPort: 8000, name: "Gatehouse" });
 * console.assert(demo.origin === "http://localhost:8000");
 * ```
 */
export function relyingParty(options: RelyingPartyOptions): RelyingParty {
  const { publicUrl, developmentPort } = options;
  let url: URL;
  if (publicUrl !== undefined) {
    if (!URL.canParse(publicUrl)) {
      throw new TypeError(`Invalid publicUrl: "${publicUrl}" is not a URL`);
    }
    url = new URL(publicUrl);
  } else if (
    developmentPort !== undefined && Number.isInteger(developmentPort) &&
    developmentPort > 0 && developmentPort < 65536
  ) {
    url = new URL(`http://localhost:${developmentPort}`);
  } else {
    throw new TypeError(
      "Cannot use passkeys: set publicUrl (or a development port on localhost)",
    );
  }
  const local = url.hostname === "localhost";
  if (url.protocol !== "https:" && !(local && url.protocol === "http:")) {
    throw new TypeError(
      `Invalid publicUrl for passkeys: "${url.origin}" must be https (http only on localhost)`,
    );
  }
  return {
    id: url.hostname,
    name: options.name ?? url.hostname,
    origin: url.origin,
  };
}

/** The account a passkey is registered for. */
export interface PasskeyAccount {
  /** Its id (a UUID): the WebAuthn user handle, never the email. */
  id: string;
  /** Its email, the name an authenticator lists. */
  email: string;
  /** Its display name. */
  name: string;
}

/**
 * Creation options for a new passkey of `account`: a fresh challenge, user
 * verification and a discoverable credential required, its existing
 * passkeys excluded. Keep `options.challenge` with the store's
 * `createChallenge` (use `"register"`).
 *
 * @param rp The relying party.
 * @param account The account; its id (not its email) is the user handle.
 * @param existing The account's passkeys, so one is not registered twice.
 * @returns The options for `navigator.credentials.create()`.
 *
 * @example Options for a first passkey
 * ```ts
 * import { passkeyRegistrationOptions, relyingParty } from "./webauthn.ts";
 *
 * const rp = relyingParty({ developmentPort: 8000 });
 * const options = await passkeyRegistrationOptions(rp, {
 *   id: crypto.randomUUID(),
 *   email: "ada@example.com",
 *   name: "Ada",
 * }, []);
 * console.assert(options.authenticatorSelection?.userVerification === "required");
 * ```
 */
export async function passkeyRegistrationOptions(
  rp: RelyingParty,
  account: PasskeyAccount,
  existing: readonly PasskeyRecord[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await simpleWebAuthn();
  return await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: uuidBytes(account.id),
    userName: account.email,
    userDisplayName: account.name,
    timeout: CHALLENGE_TTL,
    attestationType: "none",
    excludeCredentials: existing.map(descriptorOf),
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "required",
    },
  });
}

/**
 * The longest credential id Gatehouse registers or signs in with, in bytes:
 * WebAuthn's limit (§5.8.3: at most 1023 bytes; §7.1 asks the relying party
 * to refuse a registration with a longer one). One limit for both
 * ceremonies, so nothing registers that could never sign in; its base64url
 * form (at most 1364 characters) also fits the stores' keys and indexes
 * (a KV key holds 2 KiB, a Postgres index row about 2.7 KB).
 *
 * @example Sizing a credential id
 * ```ts
 * import { MAX_CREDENTIAL_ID_BYTES } from "./webauthn.ts";
 *
 * const id = new Uint8Array(32); // what most authenticators make
 * console.assert(id.length <= MAX_CREDENTIAL_ID_BYTES);
 * ```
 */
export const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * The transports a registration may report (WebAuthn Level 3's
 * `AuthenticatorTransport`: usb, nfc, ble, smart-card, hybrid, internal),
 * and "cable", hybrid's name in Chromium before it was standardised; the
 * same seven that @simplewebauthn's `AuthenticatorTransportFuture` lists.
 *
 * @example Knowing a transport
 * ```ts
 * import { PASSKEY_TRANSPORTS } from "./webauthn.ts";
 *
 * console.assert(PASSKEY_TRANSPORTS.has("hybrid"));
 * console.assert(!PASSKEY_TRANSPORTS.has("carrier-pigeon"));
 * ```
 */
export const PASSKEY_TRANSPORTS: ReadonlySet<string> = new Set([
  "usb",
  "nfc",
  "ble",
  "smart-card",
  "hybrid",
  "internal",
  "cable",
]);

/** A credential that passed registration, ready for the store's `addPasskey`. */
export interface VerifiedCredential {
  /** The credential id, base64url. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** Its signature counter at registration. */
  counter: number;
  /**
   * Transports the browser reported: only known ones
   * ({@linkcode PASSKEY_TRANSPORTS}), each once.
   */
  transports: string[];
}

/**
 * Verifies a registration response against the challenge that was spent
 * for it: origin, RP ID, challenge, user presence and verification,
 * attestation ("none" or a verifiable one), a credential id of at most
 * {@linkcode MAX_CREDENTIAL_ID_BYTES} that is the one the response names,
 * and transports that are a list of strings. Null when anything is wrong,
 * including a response that is not one. Transports WebAuthn does not name
 * are dropped, not refused: Level 3 (§5.8.4) asks relying parties to ignore
 * values they do not know, so a browser newer than this list still
 * registers; anything but a string is no transport of any version, and
 * refused.
 *
 * @param rp The relying party.
 * @param response The browser's `PublicKeyCredential` as JSON.
 * @param challenge The challenge the store's `spendChallenge` gave back.
 * @returns The credential to store, or null.
 *
 * @example Refusing a response that is not one
 * ```ts
 * import { relyingParty, verifyPasskeyRegistration } from "./webauthn.ts";
 *
 * const rp = relyingParty({ developmentPort: 8000 });
 * console.assert(await verifyPasskeyRegistration(rp, {}, "abc") === null);
 * ```
 */
export async function verifyPasskeyRegistration(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
): Promise<VerifiedCredential | null> {
  if (!isCredentialJson(response)) return null;
  // Read from the input, not from the library's answer, which hands back
  // whatever the browser sent.
  const transports = knownTransports(
    (response.response as Record<string, unknown>).transports,
  );
  if (transports === null) return null;
  const { verifyRegistrationResponse } = await simpleWebAuthn();
  try {
    const result = await verifyRegistrationResponse({
      // deno-lint-ignore no-explicit-any
      response: response as any,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserPresence: true,
      requireUserVerification: true,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    // The id stored is the one inside the authenticator data, which the
    // library does not compare with the one the response names: a
    // different one there would register an id no sign-in names, and a
    // long one would reach a store's key (KV) or index (Postgres) limit.
    // Sign-in looks passkeys up by the response's id, under the same limit.
    if (credential.id !== response.id || !CREDENTIAL_ID.test(credential.id)) {
      return null;
    }
    return {
      credentialId: credential.id,
      publicKey: toBase64Url(credential.publicKey),
      counter: credential.counter,
      transports,
    };
  } catch {
    // The library throws for every kind of mismatch; each is a refusal.
    return null;
  }
}

/**
 * Request options for signing in with a passkey: a fresh challenge, user
 * verification required; `allowed` names the account's passkeys when the
 * account is known (second factor, re-authentication) and is empty for a
 * passwordless sign-in, where the browser offers its discoverable ones.
 *
 * @param rp The relying party.
 * @param allowed The passkeys that may answer, or none.
 * @returns The options for `navigator.credentials.get()`.
 *
 * @example Options for a passwordless sign-in
 * ```ts
 * import { passkeyAuthenticationOptions, relyingParty } from "./webauthn.ts";
 *
 * const rp = relyingParty({ developmentPort: 8000 });
 * const options = await passkeyAuthenticationOptions(rp, []);
 * console.assert(options.userVerification === "required");
 * ```
 */
export async function passkeyAuthenticationOptions(
  rp: RelyingParty,
  allowed: readonly PasskeyRecord[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await simpleWebAuthn();
  return await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allowed.map(descriptorOf),
    userVerification: "required",
    timeout: CHALLENGE_TTL,
  });
}

/**
 * The credential id an authentication response names (to find its passkey
 * with the store's `passkeyByCredentialId` before verifying), or null.
 *
 * @param response The browser's `PublicKeyCredential` as JSON.
 * @returns The credential id, base64url, or null.
 *
 * @example Reading the id
 * ```ts
 * import { credentialIdOf } from "./webauthn.ts";
 *
 * console.assert(credentialIdOf({ id: "AAEC", response: {} }) === "AAEC");
 * console.assert(credentialIdOf("nope") === null);
 * ```
 */
export function credentialIdOf(response: unknown): string | null {
  return isCredentialJson(response) ? response.id : null;
}

/**
 * Verifies an authentication response made with `passkey` against the
 * challenge spent for it: origin, RP ID, challenge, signature, user
 * verification, and the counter rule (a non-zero counter must grow; zero
 * from a non-counting authenticator is accepted), and the user handle when
 * the response has one: it must be the passkey's owner's (WebAuthn §7.2
 * step 6), so an authenticator cannot speak for one account with another
 * account's credential. (A passwordless sign-in, where no account was named
 * before, also needs one: see {@linkcode hasUserHandle}.) The new counter is what
 * to hand to the store's `usePasskey`, which applies the same rule
 * atomically. Null when anything is wrong.
 *
 * @param rp The relying party.
 * @param response The browser's `PublicKeyCredential` as JSON.
 * @param challenge The challenge the store's `spendChallenge` gave back.
 * @param passkey The stored passkey of the response's credential id.
 * @returns The new counter, or null.
 *
 * @example Refusing a response that is not one
 * ```ts
 * import { relyingParty, verifyPasskeyAuthentication } from "./webauthn.ts";
 *
 * const rp = relyingParty({ developmentPort: 8000 });
 * const passkey = {
 *   id: crypto.randomUUID(),
 *   userId: crypto.randomUUID(),
 *   credentialId: "AAEC",
 *   publicKey: "AAEC",
 *   counter: 0,
 *   transports: [],
 *   name: "Laptop",
 *   createdAt: 0,
 *   lastUsedAt: null,
 * };
 * console.assert(
 *   await verifyPasskeyAuthentication(rp, { id: "AAEC" }, "abc", passkey) === null,
 * );
 * ```
 */
export async function verifyPasskeyAuthentication(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  passkey: PasskeyRecord,
): Promise<{ counter: number } | null> {
  if (!isCredentialJson(response) || response.id !== passkey.credentialId) {
    return null;
  }
  const handle = (response.response as Record<string, unknown>).userHandle;
  if (!isAbsent(handle) && !isUserHandleOf(handle, passkey.userId)) {
    return null;
  }
  const { verifyAuthenticationResponse } = await simpleWebAuthn();
  try {
    const result = await verifyAuthenticationResponse({
      // deno-lint-ignore no-explicit-any
      response: response as any,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: Uint8Array.fromBase64(passkey.publicKey, {
          alphabet: "base64url",
        }),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    if (!result.verified || !result.authenticationInfo.userVerified) {
      return null;
    }
    return { counter: result.authenticationInfo.newCounter };
  } catch {
    return null;
  }
}

/**
 * Whether an authentication response carries a user handle. A passwordless
 * sign-in names no account before the ceremony, so WebAuthn (§7.2 step 6)
 * requires one there: it names the account the credential must belong to
 * ({@linkcode verifyPasskeyAuthentication} checks that it does).
 * Discoverable credentials, the only kind Gatehouse registers, always
 * return it.
 *
 * @param response The browser's `PublicKeyCredential` as JSON.
 * @returns True when `response.userHandle` is there (not null).
 *
 * @example With and without
 * ```ts
 * import { hasUserHandle } from "./webauthn.ts";
 *
 * console.assert(hasUserHandle({ id: "AAEC", response: { userHandle: "AAEC" } }));
 * console.assert(!hasUserHandle({ id: "AAEC", response: {} }));
 * console.assert(!hasUserHandle({ id: "AAEC", response: { userHandle: null } }));
 * ```
 */
export function hasUserHandle(response: unknown): boolean {
  return isCredentialJson(response) &&
    !isAbsent((response.response as Record<string, unknown>).userHandle);
}

// The library, imported by the first ceremony. A failed import reaches the
// caller (a 500, as a missing module was a failed start), never a refusal.
const simpleWebAuthn = lazyImport(() => import("@simplewebauthn/server"));

// Browsers send `null` (or leave it out) when an authenticator gave none.
function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

// The handle is base64url of the account id's 16 bytes, as the creation
// options gave it (`uuidBytes`); compared as bytes, so padding or not is
// the same handle.
function isUserHandleOf(handle: unknown, userId: string): boolean {
  if (typeof handle !== "string") return false;
  try {
    return Uint8Array.fromBase64(handle, { alphabet: "base64url" }).toHex() ===
      userId.replaceAll("-", "").toLowerCase();
  } catch {
    return false;
  }
}

// The known transports of a registration, each once; null when the field
// is not a list of strings. Absent is none (`getTransports()` is optional).
function knownTransports(value: unknown): string[] | null {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value) || !value.every((t) => typeof t === "string")) {
    return null;
  }
  return [...new Set(value.filter((t) => PASSKEY_TRANSPORTS.has(t)))];
}

// The shape every WebAuthn response shares; the library checks the rest.
function isCredentialJson(
  value: unknown,
): value is { id: string; response: object } {
  if (typeof value !== "object" || value === null) return false;
  const { id, response } = value as Record<string, unknown>;
  // A credential id travels as base64url, at most MAX_CREDENTIAL_ID_BYTES;
  // anything else is no credential's, and never reaches a store (Postgres
  // refuses NUL in text, for one).
  return typeof id === "string" && CREDENTIAL_ID.test(id) &&
    typeof response === "object" && response !== null;
}

// Unpadded base64url of 1 to MAX_CREDENTIAL_ID_BYTES bytes (1023 bytes:
// 1364 characters).
const CREDENTIAL_ID = new RegExp(
  `^[A-Za-z0-9_-]{1,${Math.ceil(MAX_CREDENTIAL_ID_BYTES * 4 / 3)}}$`,
);

// Transports are filtered again on the way out: a passkey registered before
// they were checked may hold anything (KV kept numbers and objects as sent).
function descriptorOf(passkey: PasskeyRecord) {
  return {
    id: passkey.credentialId,
    transports: passkey.transports.filter((t) =>
      typeof t === "string" && PASSKEY_TRANSPORTS.has(t)
    ),
  };
}

function uuidBytes(id: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.fromHex(id.replaceAll("-", ""));
}

function toBase64Url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}
