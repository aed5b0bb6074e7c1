// The account panel's "Language of your emails" (DESIGN.md §14): shown
// when the server reports the account's language, preset to it, saved with
// `PATCH /api/auth/account {locale}` (the session in the cache takes the
// answer), a refusal shown next to the menu.

import assert from "node:assert/strict";
import { sessionQueryKey, type SessionUser } from "@gatehouse/client";
import { AccountPanel } from "@gatehouse/client/screens";
import {
  installTestEnvironment,
  listActivityOk,
  listSessionsOk,
  updateAccountOk,
  updateAccountRefused,
} from "@gatehouse/client/testing";
import { fireEvent, waitFor } from "@testing-library/preact";
import {
  admin,
  assertAccessible,
  findFieldError,
  renderWith,
} from "./_screens.tsx";

const env = installTestEnvironment();
// The panel's other sections read these.
const quiet = () => [listSessionsOk(), listActivityOk()];

const withLanguage = (locale: string): SessionUser => ({ ...admin, locale });

Deno.test("the language of one's emails: preset to the account's, saved, and the session takes the answer", async () => {
  const user = withLanguage("en");
  env.use(updateAccountOk(user), ...quiet());
  const view = renderWith(<AccountPanel />, user);
  view.getByRole("heading", { name: "Language of your emails" });
  const menu = view.getByLabelText("Language") as HTMLSelectElement;
  assert.equal(menu.value, "en");
  assert.deepEqual(
    [...menu.options].map((o) => [o.value, o.textContent]),
    [["en", "English"], ["es", "Español"]],
  );
  fireEvent.change(menu, { target: { value: "es" } });
  fireEvent.click(view.getByRole("button", { name: "Save language" }));
  await view.findByText("Language saved.");
  assert.equal(
    view.client.getQueryData<SessionUser>(sessionQueryKey)?.locale,
    "es",
  );
  assertAccessible(view.container);
});

Deno.test("the language of one's emails: an account with none yet starts on English; a refusal shows next to the menu", async () => {
  env.use(updateAccountRefused("locale_unknown"), ...quiet());
  const view = renderWith(<AccountPanel />, withLanguage(""));
  assert.equal(
    (view.getByLabelText("Language") as HTMLSelectElement).value,
    "en",
  );
  fireEvent.click(view.getByRole("button", { name: "Save language" }));
  await findFieldError(
    view,
    "Language",
    "The server's emails are not written in this language.",
  );
  await waitFor(() =>
    assert.equal(
      view.client.getQueryData<SessionUser>(sessionQueryKey)?.locale,
      "",
    )
  );
});

Deno.test("the language of one's emails is not offered by a server that does not report it", () => {
  env.use(...quiet());
  const view = renderWith(<AccountPanel />, admin);
  assert.equal(
    view.queryByRole("heading", { name: "Language of your emails" }),
    null,
  );
});
