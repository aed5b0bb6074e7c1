// How many recovery codes are left, on the client: countRecoveryCodes()
// through the REST transport (the count, a malformed answer, a gone
// session) and through a replaced transport; useRecoveryCodeCount() asking
// only while the app is on, refreshing after the calls that change the
// count (whoever makes them) and not after those that do not, and dropping
// the session on a 401.

import assert from "node:assert/strict";
import {
  configureAuthTransport,
  createAuthQueryClient,
  disableTotp,
  reauthenticate,
  regenerateRecoveryCodes,
  resetAuthTransport,
  sessionQueryKey,
  type SessionUser,
  UnauthorizedError,
  UnexpectedResponseError,
  useRecoveryCodeCount,
  verifySecondFactor,
} from "@gatehouse/client";
import { countRecoveryCodes } from "../../client/second_factor_calls.ts";
import * as testing from "@gatehouse/client/testing";
import { QueryClientProvider } from "@tanstack/preact-query";
import { http, HttpResponse } from "msw";
import { render, waitFor } from "@testing-library/preact";
import { recordRequests, rejection } from "./_support.ts";

const env = testing.installTestEnvironment();

const withApp: SessionUser = {
  ...testing.defaultUser,
  secondFactor: { totp: true, passkeys: 0 },
};

function Count() {
  const left = useRecoveryCodeCount();
  return <p data-testid="left">{left === null ? "unknown" : String(left)}</p>;
}

/** Renders the hook signed in as `user`; the view and its query client. */
function renderCount(user: SessionUser) {
  const client = createAuthQueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  testing.seedSession(client, user);
  const view = render(
    <QueryClientProvider client={client}>
      <Count />
    </QueryClientProvider>,
  );
  const shows = (text: string) =>
    waitFor(() => assert.equal(view.getByTestId("left").textContent, text));
  return { view, client, shows };
}

Deno.test("countRecoveryCodes() answers the count; a malformed answer and a gone session are typed errors", async () => {
  env.use(testing.countRecoveryCodesOk(7));
  assert.equal(await countRecoveryCodes(), 7);
  env.use(testing.countRecoveryCodesOk(0));
  assert.equal(await countRecoveryCodes(), 0);
  for (
    const body of [
      {},
      { recovery_codes_left: -1 },
      { recovery_codes_left: "3" },
      { recovery_codes_left: 1.5 },
    ]
  ) {
    env.use(
      http.get("*/api/auth/recovery-codes", () => HttpResponse.json(body)),
    );
    assert.ok(
      await rejection(countRecoveryCodes()) instanceof UnexpectedResponseError,
      JSON.stringify(body),
    );
  }
  env.server.resetHandlers();
  env.use(testing.countRecoveryCodesUnauthorized());
  assert.ok(await rejection(countRecoveryCodes()) instanceof UnauthorizedError);
});

Deno.test("useRecoveryCodeCount() answers 0 without asking while the app is off, null while the session does not say", async () => {
  const recorder = recordRequests(env);
  const off = renderCount({
    ...testing.defaultUser,
    secondFactor: { totp: false, passkeys: 1 },
  });
  await off.shows("0");
  off.view.unmount();
  const unsaid = renderCount(testing.defaultUser);
  await unsaid.shows("unknown");
  unsaid.view.unmount();
  recorder.stop();
  assert.deepEqual(await recorder.requests(), []);
});

Deno.test("useRecoveryCodeCount() refreshes after new codes, a removal, and a sign-in or re-authentication with a recovery code", async () => {
  env.use(testing.countRecoveryCodesOk(3));
  const { view, shows } = renderCount(withApp);
  await shows("3");

  env.use(
    testing.regenerateRecoveryCodesOk(),
    testing.countRecoveryCodesOk(10),
  );
  await regenerateRecoveryCodes();
  await shows("10");

  env.use(testing.verifySecondFactorOk(), testing.countRecoveryCodesOk(9));
  await verifySecondFactor({ recoveryCode: "abcd-efgh" });
  await shows("9");

  env.use(testing.reauthenticateOk(), testing.countRecoveryCodesOk(8));
  await reauthenticate({ recoveryCode: "abcd-efgh" });
  await shows("8");

  // Calls that leave the count alone do not ask again, nor do failures.
  const recorder = recordRequests(env);
  env.use(testing.countRecoveryCodesOk(1));
  await reauthenticate({ password: "pw" });
  await verifySecondFactor({ code: "123456" });
  env.use(testing.reauthenticateRefused("code_invalid"));
  await rejection(reauthenticate({ recoveryCode: "wrong" }));
  await new Promise((resolve) => setTimeout(resolve, 30));
  recorder.stop();
  assert.deepEqual(
    (await recorder.requests()).filter((r) => r.method === "GET"),
    [],
  );
  await shows("8");

  env.use(testing.disableTotpOk(), testing.countRecoveryCodesOk(0));
  await disableTotp();
  await shows("0");
  view.unmount();
});

Deno.test("useRecoveryCodeCount() refreshes after the calls of a replaced transport too", async () => {
  let left = 4;
  configureAuthTransport({
    countRecoveryCodes: () => Promise.resolve(left),
    regenerateRecoveryCodes: () => {
      left = 10;
      return Promise.resolve(testing.sampleRecoveryCodes.slice());
    },
  });
  try {
    const { view, shows } = renderCount(withApp);
    await shows("4");
    await regenerateRecoveryCodes();
    await shows("10");
    view.unmount();
  } finally {
    resetAuthTransport();
  }
});

Deno.test("useRecoveryCodeCount(): a 401 drops the session", async () => {
  env.use(testing.countRecoveryCodesUnauthorized());
  const { client, shows } = renderCount(withApp);
  await waitFor(() => assert.equal(client.getQueryData(sessionQueryKey), null));
  await shows("unknown");
});
