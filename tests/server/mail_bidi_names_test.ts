// Names in the shipped mail cannot reorder its sentences (DESIGN.md §14).
// The name rule admits format characters, so an inviter who names
// themselves "Grace" followed by U+202E (RIGHT-TO-LEFT OVERRIDE) turned the
// rest of the invitation's sentence around in the invitee's mail ("…
// invited you to …" shown backwards), and an invitee's name did the same
// to the greeting's own words; a stray PDI (U+2069) closed what the mail
// put around the name. Each message is sent through the real HTTP API to a
// real SMTP server and read back with mailparser, on every store: the
// template's own words after a name must stand outside any embedding,
// override or isolate the name opened.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { mailSite, partsOf } from "../fixtures/mail.ts";
import { startSmtpServer } from "../fixtures/smtp.ts";
import { testEachStore } from "../fixtures/stores.ts";

const RLO = "\u202E";
const RLI = "\u2067";
const PDI = "\u2069";

// Paragraph separators (Unicode bidi class B) end every embedding,
// override and isolate.
// deno-lint-ignore no-control-regex
const PARAGRAPH = /[\n\r\u001C-\u001E\u0085\u2029]/;

/**
 * How many embeddings, overrides and isolates are open at `index` of
 * `text`, counted as the Unicode bidirectional algorithm does (X1–X8): a
 * PDF closes the last embedding or override unless an isolate is open
 * after it, a PDI closes the last isolate and all opened inside it.
 */
function openAt(text: string, index: number): number {
  const stack: ("embedding" | "isolate")[] = [];
  for (const ch of text.slice(0, index)) {
    if (PARAGRAPH.test(ch)) stack.length = 0;
    else if (/[\u202A-\u202E]/.test(ch)) stack.push("embedding");
    else if (/[\u2066-\u2068]/.test(ch)) stack.push("isolate");
    else if (ch === "\u202C") {
      if (stack.at(-1) === "embedding") stack.pop();
    } else if (ch === PDI) {
      const last = stack.lastIndexOf("isolate");
      if (last >= 0) stack.length = last;
    }
  }
  return stack.length;
}

/** Asserts that `words` stand at the top level wherever they appear. */
function assertOutside(text: string, words: string, where: string): void {
  let found = 0;
  for (
    let at = text.indexOf(words);
    at >= 0;
    at = text.indexOf(words, at + 1)
  ) {
    found++;
    assertEquals(
      openAt(text, at),
      0,
      `${where}: "${words}" is under a name's bidi control`,
    );
  }
  assert(found > 0, `${where}: "${words}" not found`);
}

// The HTML part's paragraph holding `words`, as text (each paragraph is a
// block of its own: a control in one does not reach the next).
function paragraphOf(html: string, words: string): string {
  const found = [...html.matchAll(/<p [^>]*>(.*?)<\/p>/g)]
    .map((match) => match[1]!)
    .find((inner) => inner.includes(words));
  assert(found !== undefined, `no paragraph with "${words}"`);
  return found.replace(/<[^>]*>/g, "");
}

for (
  const [label, inviter, invitee] of [
    ["an override", `Grace${RLO}`, `Ada${RLO}`],
    ["an isolate left open", `Grace${RLI}`, `Ada${RLI}`],
    [
      "a stray PDI before an override",
      `Grace${PDI}${RLO}`,
      `Ada${PDI}${RLO}`,
    ],
  ] as const
) {
  testEachStore(
    `an inviter's and an invitee's name ending with ${label} reorder none of the invitation's words`,
    async (store) => {
      const smtp = await startSmtpServer();
      const site = await mailSite({ smtpPort: smtp.port, store });
      try {
        await site.account("root@example.com", { role: "admin" });
        const cookie = await site.signIn("root@example.com");
        // The inviter names themselves through the API: the rule admits it.
        const renamed = await site.call("PATCH", "/api/auth/account", {
          name: inviter,
        }, { cookie });
        assertEquals(renamed.status, 200, await renamed.text());
        const invited = await site.call("POST", "/api/users/invite", {
          email: "ada@example.com",
          name: invitee,
          role: "member",
        }, { cookie });
        assertEquals(invited.status, 200, await invited.text());
        const [mail] = await smtp.waitFor(1);
        const { text, html } = partsOf(mail!);
        assert(text.includes(`Grace${inviter.at(-1)}`), "the name is kept");
        assertOutside(text, " invited you to ", "text");
        assertOutside(text, "Choose your password to open", "text");
        assertOutside(text, "Hello ", "text");
        assertOutside(
          paragraphOf(html, " invited you to "),
          " invited you to ",
          "html",
        );
        // The greeting's comma is the template's too.
        const greeting = text.split("\n").find((l) => l.startsWith("Hello "));
        assert(greeting !== undefined, "a greeting");
        assertEquals(
          openAt(greeting, greeting.length - 1),
          0,
          `the greeting's comma is under the invitee's name: ${
            JSON.stringify(greeting)
          }`,
        );
      } finally {
        await site.close();
        await smtp.close();
      }
    },
  );
}
