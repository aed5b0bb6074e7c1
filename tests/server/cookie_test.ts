import { assertEquals, assertThrows } from "../fixtures/assert.ts";
import { readCookie, serializeCookie } from "../../server/http/cookie.ts";

Deno.test("serializeCookie() writes the secure defaults in a fixed order", () => {
  assertEquals(
    serializeCookie("__Host-session", "tok", { maxAge: 604800 }),
    "__Host-session=tok; Max-Age=604800; Path=/; HttpOnly; Secure; SameSite=Lax",
  );
});

Deno.test("serializeCookie() refuses to weaken a __Host- cookie", () => {
  for (
    const options of [
      { domain: "example.com" },
      { secure: false },
      { path: "/api" },
    ]
  ) {
    assertThrows(() => serializeCookie("__Host-s", "v", options), TypeError);
  }
  assertThrows(
    () => serializeCookie("__Secure-s", "v", { secure: false }),
    TypeError,
  );
  assertThrows(
    () => serializeCookie("s", "v", { sameSite: "None", secure: false }),
    TypeError,
  );
});

Deno.test("serializeCookie() refuses header splitting in name, value and attributes", () => {
  assertThrows(() => serializeCookie("a\r\nb", "v"), TypeError);
  assertThrows(() => serializeCookie("a", "v\r\nSet-Cookie: x=y"), TypeError);
  assertThrows(() => serializeCookie("a", "v;Domain=evil"), TypeError);
  assertThrows(() => serializeCookie("a", "v", { path: "/\nx" }), TypeError);
  assertThrows(() => serializeCookie("a", "v", { domain: "a;b" }), TypeError);
  assertThrows(() => serializeCookie("a", "v", { maxAge: 1.5 }), TypeError);
  assertThrows(() => serializeCookie("a", "v", { maxAge: -1 }), TypeError);
});

Deno.test("readCookie() finds a cookie among others and nowhere else", () => {
  const header = "theme=dark; __Host-session=abc123; x=1";
  assertEquals(readCookie(header, "__Host-session"), "abc123");
  assertEquals(readCookie(header, "theme"), "dark");
  assertEquals(readCookie(header, "x"), "1");
  assertEquals(readCookie(header, "session"), null);
  assertEquals(readCookie("my__Host-session=zzz", "__Host-session"), null);
  assertEquals(readCookie("a=1;b=2", "b"), "2");
  assertEquals(readCookie('q="quoted"', "q"), "quoted");
  assertEquals(readCookie("", "a"), null);
  assertEquals(readCookie(null, "a"), null);
  assertEquals(readCookie("a=first; a=second", "a"), "first");
});
