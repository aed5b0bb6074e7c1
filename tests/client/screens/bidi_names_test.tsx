// A name from the server holding right-to-left text or a bidirectional
// control (any account may name itself so: U+202E, RIGHT-TO-LEFT OVERRIDE,
// is a format character, which the name rule admits) cannot reorder the
// screens' own words: in a sentence that names it, whatever the name opens
// is closed again before the sentence goes on. Without that, "Mallory‮ is
// signed out everywhere." shows its own words backwards after the name,
// and an inviter's name turns the invitation's expiry date around.

import assert from "node:assert/strict";
import type { PendingInvitation, User } from "../../../client/types.ts";
import { UsersScreen } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { fireEvent, waitFor, within } from "@testing-library/preact";
import { admin, renderWith } from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [testing.listInvitationsOk([])],
});

const RLO = "\u202E"; // RIGHT-TO-LEFT OVERRIDE
const RLI = "\u2067"; // RIGHT-TO-LEFT ISOLATE
const PDI = "\u2069"; // POP DIRECTIONAL ISOLATE

/**
 * The explicit embeddings, overrides and isolates still open at `index` of
 * `text` (UAX #9: PDF closes the last embedding or override, PDI the last
 * isolate and whatever opened inside it).
 */
function openAt(text: string, index: number): string[] {
  const stack: string[] = [];
  for (const ch of text.slice(0, index)) {
    if ("\u202A\u202B\u202D\u202E\u2066\u2067\u2068".includes(ch)) {
      stack.push(ch);
    } else if (ch === "\u202C") {
      if (stack.length > 0 && !"\u2066\u2067\u2068".includes(stack.at(-1)!)) {
        stack.pop();
      }
    } else if (ch === "\u2069") {
      const isolate = stack.findLastIndex((c) =>
        "\u2066\u2067\u2068".includes(c)
      );
      if (isolate !== -1) stack.length = isolate;
    }
  }
  return stack;
}

/** Asserts that `words` of `text` are read with nothing the name opened. */
function assertUnaffected(text: string, words: string): void {
  const at = text.indexOf(words);
  assert.notEqual(at, -1, `"${words}" in ${JSON.stringify(text)}`);
  assert.deepEqual(
    openAt(text, at).map((c) => `U+${c.codePointAt(0)!.toString(16)}`),
    [],
    `"${words}" follows an override the name left open: ${
      JSON.stringify(text)
    }`,
  );
}

for (
  const [what, name] of [
    ["an override", `Mallory${RLO}`],
    ["an isolate", `Mallory${RLI}`],
    // A pop directional isolate with nothing of the name's to close would
    // close the screens' own isolate around the name, and the override
    // after it would then be left open on the sentence.
    ["an override after a stray isolate close", `${PDI}Mallory${RLO}`],
  ]
) {
  Deno.test(`UsersScreen's outcome for an account whose name leaves ${what} open reads in order`, async () => {
    const mallory: User = testing.accountOf(testing.userWithRole("member"), {
      id: "0190f0a0-0000-7000-8000-00000000000d",
      name,
      email: "mallory@example.com",
    });
    env.use(testing.listUsersOk([mallory]));
    const view = renderWith(<UsersScreen />, admin);
    await view.findByText("mallory@example.com");
    const row = view.container.querySelector<HTMLElement>(
      `[data-user-id="${mallory.id}"]`,
    )!;
    env.use(testing.revokeUserSessionsOk());
    fireEvent.click(row.querySelector("button")!);
    fireEvent.click(
      within(row).getByRole("menuitem", { name: "Sign out everywhere…" }),
    );
    const dialog = document.querySelector<HTMLDialogElement>(
      'dialog[data-gh-dialog="sessions"]',
    )!;
    assertUnaffected(
      dialog.querySelector("h2, h3")!.textContent!,
      " out everywhere?",
    );
    fireEvent.click(
      within(dialog).getByRole("button", { name: "Sign out everywhere" }),
    );
    const status = await waitFor(() => {
      const found = [...view.container.querySelectorAll(".gh-status")]
        .map((e) => e.textContent ?? "")
        .find((text) => text.includes("everywhere"));
      assert.ok(found);
      return found;
    });
    assertUnaffected(status, " is signed out everywhere.");
  });
}

Deno.test("UsersScreen's pending invitation by an inviter whose name leaves an override open reads in order", async () => {
  const kate: PendingInvitation = {
    id: "0190f0a0-0000-7000-8000-0000000000aa",
    email: "kate@example.com",
    name: "Kate",
    role: "member",
    invitedBy: { id: admin.id, email: admin.email, name: `Root${RLO}` },
    createdAt: "2026-03-01T10:00:00.000Z",
    expiresAt: "2026-03-08T10:00:00.000Z",
  };
  env.use(testing.listUsersOk([]), testing.listInvitationsOk([kate]));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("kate@example.com");
  const facts = view.container.querySelector(".gh-invitation-facts")!;
  assertUnaffected(facts.textContent!, "Expires");
});
