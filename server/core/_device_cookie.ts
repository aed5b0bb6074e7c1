// The trusted-device cookie (DESIGN.md §15): a browser that completed a
// sign-in to an address gets an entry that names the address key and a
// random device id, signed with HMAC-SHA-256 under `deviceKeys`. The
// account lock counts such a browser's failures on their own, so failures
// from elsewhere (a botnet guessing the password) cannot lock the owner's
// browser out.
//
// An entry is `<key id>.<device id>.<issued>.<mac>`, the MAC over a fixed
// label, the address key, the device id and the time it was issued (whole
// seconds, base 36); the key id (the first 6 bytes of SHA-256 of the key,
// base64url) picks the key, so keys rotate like `totpKeys`: the first
// signs, every one verifies, and an entry signed with a key that was
// removed verifies no more. An entry vouches for a year from when it was
// issued, whatever the browser does with the cookie's `Max-Age`: a copy
// taken from a disk or a backup stops counting as the owner's browser, and
// each completed sign-in issues the entry again. A browser used for a few
// accounts keeps one entry per address, newest first, up to MAX_ENTRIES;
// the cookie holds no address in the clear.

import { serializeCookie } from "../http/cookie.ts";
import { hmacSha256, sha256, timingSafeEqual } from "./_sha256.ts";

/** The trusted-device cookie's name. */
export const DEVICE_COOKIE = "__Host-gatehouse-device";
/** Its lifetime: one year, in seconds (`Max-Age`). */
export const DEVICE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

// Addresses one browser is trusted for at once (the newest sign-ins).
const MAX_ENTRIES = 4;
const MIN_KEY_BYTES = 32;
const ID_BYTES = 16;
const ENTRY =
  /^([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]{22})\.([0-9a-z]{1,8})\.([A-Za-z0-9_-]{43})$/;
// What one cookie may hold at most before it is not read at all.
const MAX_COOKIE = MAX_ENTRIES * 92 + 16;
const LABEL = "gatehouse-device\n";
const BASE64URL = { alphabet: "base64url", omitPadding: true } as const;
const encoder = new TextEncoder();

interface DeviceKey {
  id: string;
  raw: Uint8Array;
}

// One entry of a cookie as read: `issued` as written (base 36 seconds),
// `text` the whole entry, kept as it was when issued again beside another.
interface Entry {
  key: DeviceKey;
  id: string;
  issued: string;
  mac: Uint8Array;
  text: string;
}

/** Signs and checks trusted-device entries with one set of keys. */
export interface DeviceKeys {
  /**
   * The device id the cookie value vouches for at `addressKey`, or null
   * (absent, forged, tampered, another address's, or signed with a key no
   * longer configured).
   */
  deviceOf(cookie: string | null, addressKey: string): string | null;
  /**
   * The `Set-Cookie` value after a completed sign-in to `addressKey`: its
   * entry first (the same device id when the browser had one for it, else
   * a new one), then the browser's other valid entries.
   */
  issue(cookie: string | null, addressKey: string): string;
}

/**
 * The device keys of `keys` (base64 or base64url of at least 32 random
 * bytes each, the signing one first), dating entries by `now` (ms). Without
 * keys, one random key made for this process: entries then verify only
 * here and until it restarts. Throws a `TypeError` for a key of any other
 * shape, so a typo fails at start-up.
 */
export function deviceKeys(
  keys?: readonly string[],
  now: () => number = Date.now,
): DeviceKeys {
  if (keys !== undefined && !Array.isArray(keys)) {
    throw new TypeError("Invalid deviceKeys: a list of keys expected");
  }
  const list = keys === undefined || keys.length === 0
    ? [processKey()]
    : keys.map(readKey);
  const signer = list[0]!;
  const byId = new Map(list.map((key) => [key.id, key]));

  const mac = (
    key: DeviceKey,
    addressKey: string,
    id: string,
    issued: string,
  ) =>
    hmacSha256(
      key.raw,
      encoder.encode(`${LABEL}${addressKey}\n${id}\n${issued}`),
    );

  // The entries of a cookie value signed with a configured key and issued
  // less than a year ago, with the address each is for unknown (the MAC
  // hides it): each as its key, id, issue time and MAC. A date is trusted
  // only once its MAC matches.
  const entries = (cookie: string | null) => {
    if (cookie === null || cookie.length > MAX_COOKIE) return [];
    const oldest = Math.floor(now() / 1000) - DEVICE_COOKIE_MAX_AGE;
    const found: Entry[] = [];
    for (const text of cookie.split("~").slice(0, MAX_ENTRIES)) {
      const match = ENTRY.exec(text);
      const key = match === null ? undefined : byId.get(match[1]!);
      if (
        match === null || key === undefined ||
        parseInt(match[3]!, 36) <= oldest
      ) continue;
      found.push({
        key,
        id: match[2]!,
        issued: match[3]!,
        mac: Uint8Array.fromBase64(match[4]!, { alphabet: "base64url" }),
        text,
      });
    }
    return found;
  };

  const matches = (entry: Entry, addressKey: string) =>
    timingSafeEqual(
      entry.mac,
      mac(entry.key, addressKey, entry.id, entry.issued),
    );

  return {
    deviceOf(cookie, addressKey) {
      for (const entry of entries(cookie)) {
        if (matches(entry, addressKey)) return entry.id;
      }
      return null;
    },
    issue(cookie, addressKey) {
      const all = entries(cookie);
      const own = all.find((entry) => matches(entry, addressKey));
      const id = own?.id ?? randomId();
      const issued = Math.floor(now() / 1000).toString(36);
      const fresh = `${signer.id}.${id}.${issued}.${
        mac(signer, addressKey, id, issued).toBase64(BASE64URL)
      }`;
      const others = all.filter((entry) => entry !== own)
        .map((entry) => entry.text);
      const value = [fresh, ...others].slice(0, MAX_ENTRIES).join("~");
      return serializeCookie(DEVICE_COOKIE, value, {
        maxAge: DEVICE_COOKIE_MAX_AGE,
      });
    },
  };
}

function randomId(): string {
  return crypto.getRandomValues(new Uint8Array(ID_BYTES))
    .toBase64(BASE64URL);
}

// The key of this process when none is configured: one per process (not
// per gatehouse), so every gatehouse of the process accepts the others'
// entries, as instances sharing configured keys do.
let shared: DeviceKey | undefined;
function processKey(): DeviceKey {
  shared ??= keyOf(crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES)));
  return shared;
}

function keyOf(raw: Uint8Array): DeviceKey {
  return { id: sha256(raw).subarray(0, 6).toBase64(BASE64URL), raw };
}

function readKey(text: unknown, index: number): DeviceKey {
  let raw: Uint8Array | null = null;
  if (typeof text === "string") {
    const alphabet = /[-_]/.test(text) ? "base64url" : "base64";
    try {
      raw = Uint8Array.fromBase64(text.trim(), { alphabet });
    } catch {
      raw = null;
    }
  }
  if (raw === null || raw.length < MIN_KEY_BYTES) {
    throw new TypeError(
      `Invalid deviceKeys[${index}]: base64 of at least ${MIN_KEY_BYTES} random bytes expected`,
    );
  }
  return keyOf(raw);
}
