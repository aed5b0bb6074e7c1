// The screens check an address before sending it, and the server decides:
// both test it against the contract's EMAIL_SHAPE, so an address the form
// lets through is one the server takes, and the other way round. Before,
// the screens kept a copy of the rule that let format characters through
// (a zero-width space, a soft hyphen), which the server refused.

import { assertEquals } from "../../fixtures/assert.ts";
import { emailProblem } from "../../../client/screens/_validation.ts";
import { DEFAULT_LIMITS as FIELD_LIMITS } from "../../../client/screens/_validation.ts";
import { readEmail } from "../../../server/core/_input.ts";
import { DEFAULT_LIMITS } from "../../../server/http/limits.ts";

const ADDRESSES = [
  "ada@example.com",
  "  ada@example.com  ",
  "ada.lovelace+tag@sub.example.org",
  "ada@bücher.example",
  "ada@@example.com",
  "@example.com",
  "ada@",
  "ada example@example.com",
  "ada\u200b@example.com",
  "ada@exam\u00adple.com",
  "ada\u2066@example.com",
  "ada@example.com\u0000",
  "ada\t@example.com",
  "ada@exa\u0085mple.com",
];

Deno.test("the screens refuse exactly the addresses the server refuses as email_invalid", () => {
  for (const address of ADDRESSES) {
    let server: string;
    try {
      readEmail(address, DEFAULT_LIMITS);
      server = "taken";
    } catch (error) {
      server = (error as { code?: string }).code ?? "threw";
    }
    const screen = emailProblem(address, FIELD_LIMITS) === null
      ? "taken"
      : "email_invalid";
    assertEquals(screen, server, JSON.stringify(address));
  }
});
