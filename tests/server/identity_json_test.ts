// The session check's text of an identity: reused only while every field
// is the same, in the same order; always what JSON.stringify would write.

import { assertEquals } from "../fixtures/assert.ts";
import { identityJson } from "../../server/core/_identity_json.ts";
import type { Identity } from "../../server/core/identity.ts";

const CAPABILITIES = Object.freeze(["users:manage"]);

const ada = (fields: Partial<Identity> = {}): Identity =>
  Object.freeze({
    id: "a1",
    email: "ada@example.com",
    name: "Ada",
    role: "admin",
    locale: "",
    capabilities: CAPABILITIES,
    ...fields,
  });

Deno.test("identityJson answers JSON.stringify's text for every change of a field", () => {
  const text = identityJson();
  const cases: Identity[] = [
    ada(),
    ada(),
    ada({ name: "Ada L." }),
    ada({ name: "Ada L." }),
    ada({ email: "ada@example.org" }),
    ada({ role: "member" }),
    ada({ locale: "es" }),
    // A list with the same items but another object: made again.
    ada({ capabilities: Object.freeze(["users:manage"]) }),
    ada({ capabilities: Object.freeze(["users:manage", "audit:read"]) }),
    ada({ second_factor: Object.freeze({ totp: true, passkeys: 0 }) }),
    ada({ second_factor_required: true }),
    ada({ has_password: false }),
    ada({ has_password: true }),
    ada(),
  ];
  for (const identity of cases) {
    assertEquals(text(identity), JSON.stringify(identity));
  }
});

Deno.test("identityJson keeps the order of the fields as written", () => {
  const text = identityJson();
  const first = ada();
  assertEquals(text(first), JSON.stringify(first));
  // The same fields and values in another order: another text.
  const { capabilities, ...rest } = first;
  const reordered = Object.freeze({ capabilities, ...rest });
  assertEquals(text(reordered), JSON.stringify(reordered));
  // A field more, or a field less.
  const more = Object.freeze({ ...first, grantable: CAPABILITIES });
  assertEquals(text(more), JSON.stringify(more));
  const fewer = Object.freeze({ ...rest });
  assertEquals(text(fewer as Identity), JSON.stringify(fewer));
});

Deno.test("identityJson keeps accounts apart and stays bounded", () => {
  const text = identityJson();
  for (let i = 0; i < 3000; i++) {
    const identity = ada({ id: `u${i % 1500}`, name: `n${i}` });
    assertEquals(text(identity), JSON.stringify(identity));
  }
});
