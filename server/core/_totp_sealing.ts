// TOTP secrets at rest. Checking a code needs the secret itself, so a
// store cannot keep a digest as it does for tokens and recovery codes;
// with `totpKeys` configured, the secret is sealed with AES-256-GCM (Web
// Crypto) before it reaches the store, and a copy of the database alone no
// longer yields anyone's codes. The account id is the associated data: a
// sealed secret copied onto another account does not open there.
//
// Stored form: `sealed1.<key id>.<base64url(iv ‖ ciphertext ‖ tag)>`. The
// key id (the first 6 bytes of SHA-256 of the key, base64url) picks the
// key, so keys can be rotated: the first seals, every one opens. A base32
// secret (A–Z, 2–7) never holds a dot, so a secret stored before keys were
// configured stays readable as it is; once its code is accepted, it is
// sealed with the first key (as is one sealed with an older key), where
// the store can replace a secret.

import { sha256 } from "./_sha256.ts";

/** Seals TOTP secrets for the store and opens them again. */
export interface TotpSealing {
  /** The stored form of `secret` for the account `userId`. */
  seal(secret: string, userId: string): Promise<string>;
  /**
   * The base32 secret of a stored form. Throws when it was sealed with a
   * key that is not configured, or does not open for `userId`.
   */
  open(stored: string, userId: string): Promise<string>;
  /**
   * Whether `stored` is as `seal` would store it now: sealed with the
   * first key, or any form when no key is configured (a sealed secret is
   * never unsealed).
   */
  isCurrent(stored: string): boolean;
}

const PREFIX = "sealed1.";
const KEY_BYTES = 32;
const IV_BYTES = 12;

interface SealingKey {
  id: string;
  key: Promise<CryptoKey>;
}

/**
 * The sealing of `keys` (base64 or base64url of 32 random bytes each).
 * Without keys, secrets are stored as they are. Throws a `TypeError` at
 * once for a key of any other shape, so a typo fails at start-up.
 */
export function totpSealing(keys: readonly string[] = []): TotpSealing {
  if (!Array.isArray(keys)) {
    throw new TypeError("Invalid totpKeys: a list of keys expected");
  }
  const sealing = keys.map(sealingKey);
  const byId = new Map(sealing.map((k) => [k.id, k]));
  const sealer = sealing[0];
  const encoder = new TextEncoder();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const current = sealer === undefined ? "" : `${PREFIX}${sealer.id}.`;
  return {
    isCurrent: (stored) => stored.startsWith(current),
    async seal(secret, userId) {
      if (sealer === undefined) return secret;
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(userId) },
        await sealer.key,
        encoder.encode(secret),
      );
      const body = new Uint8Array(IV_BYTES + sealed.byteLength);
      body.set(iv);
      body.set(new Uint8Array(sealed), IV_BYTES);
      return `${PREFIX}${sealer.id}.${base64url(body)}`;
    },
    async open(stored, userId) {
      if (!stored.startsWith(PREFIX)) return stored;
      const [id, text] = stored.slice(PREFIX.length).split(".");
      const key = byId.get(id ?? "");
      if (key === undefined) {
        throw new Error(
          `TOTP secret sealed with key ${id}, which is not among totpKeys`,
        );
      }
      try {
        const body = Uint8Array.fromBase64(text ?? "", {
          alphabet: "base64url",
        });
        const opened = await crypto.subtle.decrypt(
          {
            name: "AES-GCM",
            iv: body.subarray(0, IV_BYTES),
            additionalData: encoder.encode(userId),
          },
          await key.key,
          body.subarray(IV_BYTES),
        );
        return decoder.decode(opened);
      } catch {
        // No detail: a wrong account, a damaged record or a damaged key
        // are alike to the caller, and none of them is the client's.
        throw new Error(`TOTP secret sealed with key ${id} does not open`);
      }
    },
  };
}

function sealingKey(text: string, index: number): SealingKey {
  const raw = decodeKey(text);
  if (raw?.length !== KEY_BYTES) {
    throw new TypeError(
      `Invalid totpKeys[${index}]: base64 of ${KEY_BYTES} random bytes expected`,
    );
  }
  const id = sha256(raw).subarray(0, 6);
  return {
    id: base64url(id),
    key: crypto.subtle.importKey("raw", raw, "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]),
  };
}

function decodeKey(text: unknown): Uint8Array<ArrayBuffer> | null {
  if (typeof text !== "string") return null;
  const alphabet = /[-_]/.test(text) ? "base64url" : "base64";
  try {
    return Uint8Array.fromBase64(text.trim(), { alphabet });
  } catch {
    return null;
  }
}

function base64url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}
