// The hand-written SHA-256, HMAC-SHA-256 and constant-time comparison
// (server/core/_sha256.ts) against the FIPS 180-4 and RFC 4231 examples and,
// for random input, against node:crypto: a single wrong bit of a constant
// or a padding off by one fails here.

import { assertEquals } from "../fixtures/assert.ts";
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import {
  hmacSha256,
  sha256,
  timingSafeEqual,
} from "../../server/core/_sha256.ts";
import { hashToken, sessionToken, uuidv7 } from "../../server/core/_crypto.ts";

const hex = (bytes: Uint8Array) => bytes.toHex();

Deno.test("sha256: the FIPS 180-4 examples", () => {
  assertEquals(
    hex(sha256("abc")),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assertEquals(
    hex(sha256("")),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assertEquals(
    hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assertEquals(
    hex(sha256(new Uint8Array(1_000_000).fill(0x61))),
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  );
});

Deno.test("sha256: every length around the block boundaries, as node:crypto", () => {
  for (let length = 0; length <= 200; length++) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    assertEquals(
      hex(sha256(bytes)),
      createHash("sha256").update(bytes).digest("hex"),
      `length ${length}`,
    );
  }
});

Deno.test("sha256: random bytes and strings (UTF-8, lone surrogates, NUL), as node:crypto", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
      assertEquals(
        hex(sha256(bytes)),
        createHash("sha256").update(bytes).digest("hex"),
      );
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
      // node:crypto hashes a string as UTF-8 too, a lone surrogate as
      // U+FFFD, as TextEncoder does.
      assertEquals(
        hex(sha256(text)),
        createHash("sha256").update(text, "utf8").digest("hex"),
      );
    }),
    { numRuns: 500 },
  );
  assertEquals(
    hex(sha256("a\0b")),
    createHash("sha256").update("a\0b").digest("hex"),
  );
});

Deno.test("hmacSha256: RFC 4231 test cases 1, 2 and 6 (a key longer than a block)", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  assertEquals(
    hex(hmacSha256(new Uint8Array(20).fill(0x0b), bytes("Hi There"))),
    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
  );
  assertEquals(
    hex(hmacSha256(bytes("Jefe"), bytes("what do ya want for nothing?"))),
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  );
  assertEquals(
    hex(
      hmacSha256(
        new Uint8Array(131).fill(0xaa),
        bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
      ),
    ),
    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
  );
});

Deno.test("hmacSha256: random keys (0–200 bytes) and messages, as node:crypto", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 200 }),
      fc.uint8Array({ maxLength: 300 }),
      (key, message) => {
        assertEquals(
          hex(hmacSha256(key, message)),
          createHmac("sha256", key).update(message).digest("hex"),
        );
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("timingSafeEqual: equal bytes only, any difference or length refused", () => {
  const a = crypto.getRandomValues(new Uint8Array(32));
  assertEquals(timingSafeEqual(a, a.slice()), true);
  assertEquals(timingSafeEqual(new Uint8Array(0), new Uint8Array(0)), true);
  for (let i = 0; i < a.length; i++) {
    const b = a.slice();
    b[i] = b[i]! ^ (1 << (i % 8));
    assertEquals(timingSafeEqual(a, b), false, `byte ${i}`);
  }
  assertEquals(timingSafeEqual(a, a.subarray(0, 31)), false);
});

Deno.test("hashToken: the base64url SHA-256 stores have always held", () => {
  for (let i = 0; i < 50; i++) {
    const token = sessionToken(uuidv7());
    assertEquals(
      hashToken(token),
      createHash("sha256").update(token).digest("base64url"),
    );
  }
});
