// The account panel's "Language of your emails" (DESIGN.md §14): shown
// when the server reports the account's language, preset to it, saved with
// `PATCH /api/auth/account {locale}` (the session in the cache takes the
// answer), a refusal shown next to the menu.

import assert from "node:assert/strict";
import { AuthGate, sessionQueryKey, type SessionUser } from "@gatehouse/client";
import { AccountPanel } from "@gatehouse/client/screens";
import {
  installTestEnvironment,
  listActivityOk,
  listSessionsOk,
  updateAccountOk,
  updateAccountRefused,
} from "@gatehouse/client/testing";
import { fireEvent, waitFor } from "@testing-library/preact";
import { OPERATIONS } from "@gatehouse/contract";
import { http, HttpResponse } from "msw";
import { TAB_CHANNEL } from "../../../client/_tabs.ts";
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

Deno.test("a language saved as another tab signs another account in leaves that account's session in the cache", async () => {
  // Ada's save went out before the other tab signed her out and Bea in;
  // its answer (Ada's account) arrives after this tab followed Bea.
  const ada = withLanguage("en");
  const bea: SessionUser = {
    ...ada,
    id: "0190f0a0-0000-7000-8000-0000000000be",
    email: "bea@example.com",
    name: "Bea",
  };
  const held = Promise.withResolvers<void>();
  let sent = 0;
  let reads = 0;
  env.use(
    http.patch(`*${OPERATIONS.updateAccount.path}`, async () => {
      sent += 1;
      await held.promise;
      return HttpResponse.json({
        id: ada.id,
        email: ada.email,
        name: ada.name,
        role: ada.role,
        locale: "es",
      });
    }),
    http.get(`*${OPERATIONS.fetchSession.path}`, () => {
      reads += 1;
      return HttpResponse.json({
        id: bea.id,
        email: bea.email,
        name: bea.name,
        role: bea.role,
      });
    }),
    ...quiet(),
  );
  const view = renderWith(
    <AuthGate loginScreen={() => <p>Please sign in</p>}>
      <AccountPanel />
    </AuthGate>,
    ada,
  );
  fireEvent.change(view.getByLabelText("Language"), {
    target: { value: "es" },
  });
  fireEvent.click(view.getByRole("button", { name: "Save language" }));
  await waitFor(() => assert.equal(sent, 1));
  const another = new BroadcastChannel(TAB_CHANNEL);
  another.postMessage({ type: "signed-in", userId: bea.id, tab: "another" });
  another.close();
  await waitFor(() =>
    assert.equal(
      view.client.getQueryData<SessionUser>(sessionQueryKey)?.id,
      bea.id,
    )
  );
  assert.equal(reads, 1);
  held.resolve();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(
    view.client.getQueryData<SessionUser>(sessionQueryKey)?.id,
    bea.id,
    "the cache holds the account signed in now, not Ada's",
  );
});
