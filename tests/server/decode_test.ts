import { assert, assertEquals, assertRejects } from "../fixtures/assert.ts";
import { AuthError, decode } from "../../mod.ts";
import {
  decodeForm,
  optionalString,
  requiredBoolean,
  requiredString,
} from "../../server/http/decode.ts";

function post(body: BodyInit | null, headers: HeadersInit = {}): Request {
  return new Request("http://localhost/", { method: "POST", body, headers });
}

async function codeOf(promise: () => Promise<unknown>): Promise<string> {
  const err = await assertRejects(promise, AuthError);
  return (err as AuthError).code;
}

Deno.test("decode() returns the JSON object of the body", async () => {
  assertEquals(await decode(post('{"a":1,"b":"x"}')), { a: 1, b: "x" });
  assertEquals(await decode(post(' {"a":1} \n')), { a: 1 });
});

Deno.test("decode() answers body_malformed for invalid JSON, trailing content and non-objects", async () => {
  for (
    const body of [
      "",
      "{",
      "{}{}",
      '{"a":1} x',
      "[1]",
      "null",
      "3",
      '"s"',
      "\xff",
    ]
  ) {
    assertEquals(
      await codeOf(() => decode(post(body))),
      "body_malformed",
      body,
    );
  }
  assertEquals(await codeOf(() => decode(post(null))), "body_malformed");
  const invalidUtf8 = new Uint8Array([
    0x7b,
    0x22,
    0xff,
    0x22,
    0x3a,
    0x31,
    0x7d,
  ]);
  assertEquals(await codeOf(() => decode(post(invalidUtf8))), "body_malformed");
});

Deno.test("decode() answers body_too_large over the cap, declared or streamed", async () => {
  const big = JSON.stringify({ a: "x".repeat(100) });
  assertEquals(
    await codeOf(() => decode(post(big), { maxBytes: 50 })),
    "body_too_large",
  );
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 10; i++) {
        controller.enqueue(new TextEncoder().encode("          "));
      }
      controller.close();
    },
  });
  const err = await assertRejects(
    () => decode(post(stream), { maxBytes: 50 }),
    AuthError,
  );
  assertEquals((err as AuthError).status, 413);
  assertEquals(
    await codeOf(() => decode(post("{}", { "content-length": "999999" }))),
    "body_too_large",
  );
  // Exactly at the cap is accepted.
  const exact = JSON.stringify({ a: "x".repeat(42) });
  assertEquals(exact.length, 50);
  assertEquals(await decode(post(exact), { maxBytes: 50 }), {
    a: "x".repeat(42),
  });
});

Deno.test("field readers name the missing or mistyped field", () => {
  const body = { email: "a@b.c", n: 3, flag: true, nothing: null };
  assertEquals(requiredString(body, "email"), "a@b.c");
  assertEquals(optionalString(body, "role"), undefined);
  assertEquals(optionalString(body, "nothing"), undefined);
  assertEquals(requiredBoolean(body, "flag"), true);
  const cases: Array<[() => unknown, string, string]> = [
    [() => requiredString(body, "password"), "body_field_required", "password"],
    [() => requiredString(body, "nothing"), "body_field_required", "nothing"],
    [() => requiredString(body, "n"), "body_malformed", "n"],
    [() => optionalString(body, "n"), "body_malformed", "n"],
    [() => requiredBoolean(body, "email"), "body_malformed", "email"],
    [
      () => requiredBoolean(body, "disabled"),
      "body_field_required",
      "disabled",
    ],
  ];
  for (const [read, code, field] of cases) {
    try {
      read();
      assert(false, `expected ${code}`);
    } catch (err) {
      assert(err instanceof AuthError);
      assertEquals([err.code, err.status, err.meta?.field], [code, 400, field]);
    }
  }
});

Deno.test("decode() answers body_malformed for a body the client stopped sending", async () => {
  // What Deno hands a handler whose client hung up mid-body: a stream that
  // fails once the bytes that came are read.
  const cut = () =>
    post(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"email":"a@'));
        },
        pull(controller) {
          controller.error(new Deno.errors.BadResource("Bad resource ID"));
        },
      }),
      { "content-type": "application/x-www-form-urlencoded" },
    );
  assertEquals(await codeOf(() => decode(cut())), "body_malformed");
  assertEquals(await codeOf(() => decodeForm(cut())), "body_malformed");
});
