// Random tokens, their SHA-256 digests and time-ordered UUIDs.
// Tokens travel to the browser; only their digests are stored, so a leaked
// database holds nothing a browser could present.

import { sha256 } from "./_sha256.ts";

/** 32 random bytes as base64url (43 characters). */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether `token` has the shape {@linkcode randomToken} produces. */
export function isTokenShaped(token: string): boolean {
  return TOKEN.test(token);
}

// A session token: the account's id, a dot, then 32 random bytes. The id
// is not a secret (the API hands ids out); it lets a store read the
// session and its account at once (one KV round trip instead of two). The
// store keys the session by the digest of the whole token, so the id
// cannot be swapped without the digest missing, and a store refuses a
// session whose account is not the one the token names. Tokens issued
// before this format (the random part alone) stay valid until they expire.
const SESSION_TOKEN =
  /^(?:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.)?[A-Za-z0-9_-]{43}$/;

/** A new session token for the account `userId` (a canonical UUID). */
export function sessionToken(userId: string): string {
  return `${userId.toLowerCase()}.${randomToken()}`;
}

/**
 * The account a session token names: its id, `""` for a token of the
 * older form (the random part alone), or null when `token` cannot be a
 * session token at all (then no store is read).
 */
export function sessionTokenAccount(token: string): string | null {
  const match = SESSION_TOKEN.exec(token);
  return match === null ? null : (match[1] ?? "");
}

/**
 * SHA-256 of a token, base64url: the only form a store ever sees.
 * Synchronous on purpose: `crypto.subtle.digest` hops to another thread and
 * costs about 45 µs, a sizeable share of a session check; ./_sha256.ts says
 * why it is not node:crypto's.
 */
export function hashToken(token: string): string {
  return sha256(token).toBase64({ alphabet: "base64url", omitPadding: true });
}

const HEX = Array.from(
  { length: 256 },
  (_, i) => i.toString(16).padStart(2, "0"),
);

// The last timestamp and counter handed out, so ids made in one process
// never go backwards, even within one millisecond (RFC 9562 §6.2, method 1:
// the 12 bits of rand_a are a counter, started at a random value below 2^11
// each new millisecond so it has room to count).
let lastMs = -1;
let counter = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, a 12-bit counter,
 * then randomness. Ids made by one process sort in the order they were made,
 * so stores page users in creation order.
 */
export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = crypto.getRandomValues(new Uint16Array(1))[0]! & 0x7ff;
  } else if (++counter > 0xfff) {
    lastMs++; // 4096 ids in one millisecond: borrow the next one.
    counter = 0;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let ms = lastMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const h = Array.from(bytes, (b) => HEX[b]).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${
    h.slice(16, 20)
  }-${h.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` is a UUID in its canonical text form. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}
