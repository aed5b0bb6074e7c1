// SHA-256 (FIPS 180-4), HMAC-SHA-256 (RFC 2104) and a constant-time
// comparison, synchronous and in plain JavaScript.
//
// Why by hand (DEVELOPERS.md, "Written by hand"): a session check hashes its
// token before it can read the store, and it must do so synchronously and
// cheaply. `crypto.subtle.digest` is asynchronous (a hop to another thread,
// about 45 µs). node:crypto is synchronous, but importing it costs about
// 20 ms of a cold start, more than the rest of a session check's modules
// (issue 31). These functions cost nothing to load, hash a session token in
// 1–3 µs (node:crypto: about 2), and are checked against node:crypto and the
// FIPS 180-4 and RFC 4231 examples (tests/server/sha256_test.ts).
//
// Nothing here branches on the data or indexes memory by it, so timing
// reveals only the message's length, like any SHA-256.

// The first 32 bits of the fractional parts of the square roots of the
// first 8 primes (H0) and of the cube roots of the first 64 (K), FIPS
// 180-4 §5.3.3 and §4.2.2. Computed rather than listed; the tests compare
// the digests with node:crypto's, so a wrong bit cannot pass.
const PRIMES = firstPrimes(64);
const H0 = Int32Array.from(PRIMES.slice(0, 8), (p) => fraction(Math.sqrt(p)));
const K = Int32Array.from(PRIMES, (p) => fraction(Math.cbrt(p)));

// The message schedule, reused: hashing is synchronous, so no two calls
// ever share it at once.
const W = new Int32Array(64);

// deno-lint-ignore no-control-regex
const NOT_ASCII = /[^\x00-\x7f]/;
const encoder = new TextEncoder();

/**
 * SHA-256 of `message` (a string is hashed as its UTF-8 bytes): 32 bytes.
 * An ASCII string, like every token, is copied straight into the padded
 * message rather than encoded first.
 */
export function sha256(message: Uint8Array | string): Uint8Array {
  if (typeof message === "string" && NOT_ASCII.test(message)) {
    message = encoder.encode(message);
  }
  // The message, then 0x80, zeros, and its length in bits (64 bits, big
  // endian), to a whole number of 64-byte blocks.
  const padded = new Uint8Array((((message.length + 8) >>> 6) + 1) * 64);
  if (typeof message === "string") {
    for (let i = 0; i < message.length; i++) padded[i] = message.charCodeAt(i);
  } else {
    padded.set(message);
  }
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = message.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 0x1_0000_0000));
  view.setUint32(padded.length - 4, bits >>> 0);

  const state = H0.slice();
  for (let offset = 0; offset < padded.length; offset += 64) {
    compress(state, padded, offset);
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  for (let i = 0; i < 8; i++) out.setInt32(i * 4, state[i]!);
  return digest;
}

/** HMAC-SHA-256 of `message` under `key` (RFC 2104): 32 bytes. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/**
 * Whether `a` and `b` hold the same bytes, in time that depends only on
 * their lengths (which are not secret where it is used: MACs and digests
 * of a fixed size).
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

// One 64-byte block into `state` (FIPS 180-4 §6.2.2).
function compress(state: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let t = 0, i = offset; t < 16; t++, i += 4) {
    W[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) |
      bytes[i + 3]!;
  }
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15]!;
    const w2 = W[t - 2]!;
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let t = 0; t < 64; t++) {
    const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + K[t]! + W[t]!) | 0;
    const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

// The first 32 bits of the fractional part of `root`.
function fraction(root: number): number {
  return ((root - Math.floor(root)) * 0x1_0000_0000) | 0;
}

function firstPrimes(count: number): number[] {
  const primes: number[] = [];
  for (let n = 2; primes.length < count; n++) {
    if (primes.every((p) => n % p !== 0)) primes.push(n);
  }
  return primes;
}
