// The calls of account security, second factors, passkeys and the audit
// trail through the REST transport and the canned handlers: typed outcomes
// (the 202 challenge), typed errors, camelCase shapes, and the cross-tab
// messages that keep every tab's gate in step.

import assert from "node:assert/strict";
import {
  adoptSession,
  AuthGate,
  changePassword,
  CodeInvalidError,
  confirmTotp,
  createAuthQueryClient,
  InvalidCredentialsError,
  InvalidTokenError,
  isSecondFactorChallenge,
  listActivity,
  listSessions,
  login,
  loginWithPasskey,
  PasswordIncorrectError,
  reauthenticate,
  ReauthenticationRequiredError,
  revokeSession,
  SessionNotFoundError,
  sessionQueryKey,
  setupTotp,
  UnauthorizedError,
  UnexpectedResponseError,
  verifySecondFactor,
} from "@gatehouse/client";
import { ServerTooOldError } from "../../client/service_errors.ts";
import { listAuditEvents, revokeUserSessions } from "@gatehouse/client/admin";
import * as testing from "@gatehouse/client/testing";
import { MutationObserver, QueryClientProvider } from "@tanstack/preact-query";
import { render, waitFor } from "@testing-library/preact";
import {
  TAB_CHANNEL,
  type TabMessage,
  tellOtherTabs,
} from "../../client/_tabs.ts";
import { followOtherTabs } from "../../client/_session_cache.ts";

/** Posts as another tab of the origin would. */
function fromAnotherTab(message: TabMessage): void {
  const channel = new BroadcastChannel(TAB_CHANNEL);
  channel.postMessage({ ...message, tab: "another-tab" });
  channel.close();
}
import { sessionEndedKey, sessionQuery } from "../../client/_session_cache.ts";
import { rejection } from "./_support.ts";
import { OPERATIONS } from "@gatehouse/contract";
import { http, HttpResponse } from "msw";

const env = testing.installTestEnvironment();
const ID = "0190f0a0-0000-7000-8000-00000000abcd";

Deno.test("login() answers a SecondFactorChallenge on 202 and the account on 200", async () => {
  env.use(testing.loginSecondFactor(["totp", "recovery_code", "passkey"]));
  const waiting = await login("a@example.com", "pw");
  assert.ok(isSecondFactorChallenge(waiting));
  assert.deepEqual(waiting.methods, ["totp", "recovery_code", "passkey"]);
  env.server.resetHandlers();
  env.use(testing.loginOk());
  const user = await login("a@example.com", "pw");
  assert.ok(!isSecondFactorChallenge(user));
  assert.equal(user.id, testing.defaultUser.id);
});

Deno.test("verifySecondFactor(): the account, a wrong code, an ended pending sign-in", async () => {
  env.use(testing.verifySecondFactorOk());
  assert.equal(
    (await verifySecondFactor({ code: "123456" })).email,
    testing.defaultUser.email,
  );
  env.use(testing.verifySecondFactorInvalid());
  assert.ok(
    await rejection(verifySecondFactor({ code: "1" })) instanceof
      InvalidCredentialsError,
  );
  env.use(testing.verifySecondFactorExpired());
  assert.ok(
    await rejection(verifySecondFactor({ recoveryCode: "x" })) instanceof
      InvalidTokenError,
  );
  env.use(testing.loginWithPasskeyRefused());
  assert.ok(
    await rejection(loginWithPasskey({})) instanceof InvalidCredentialsError,
  );
});

Deno.test("the proof goes on the wire under its contract name", async () => {
  const bodies: unknown[] = [];
  env.use(testing.refuse("reauthenticate", "internal"));
  env.server.events.on("request:start", ({ request }) => {
    void request.clone().json().then((b) => bodies.push(b)).catch(() => {});
  });
  await rejection(reauthenticate({ recoveryCode: "abc" }));
  await rejection(reauthenticate({ password: "pw" }));
  env.server.events.removeAllListeners();
  await waitFor(() => assert.equal(bodies.length, 2));
  assert.deepEqual(bodies, [{ recovery_code: "abc" }, { password: "pw" }]);
});

Deno.test("the new codes arrive as their classes", async () => {
  env.use(testing.changePasswordIncorrect());
  const wrong = await rejection(
    changePassword({ currentPassword: "a", newPassword: "b" }),
  );
  assert.ok(wrong instanceof PasswordIncorrectError);
  assert.equal(wrong.field, "current_password");
  env.use(testing.confirmTotpRefused());
  assert.ok(await rejection(confirmTotp("000000")) instanceof CodeInvalidError);
  env.use(testing.revokeSessionNotFound());
  assert.ok(await rejection(revokeSession(ID)) instanceof SessionNotFoundError);
  env.use(testing.revokeUserSessionsRefused("reauthentication_required"));
  assert.ok(
    await rejection(revokeUserSessions(ID)) instanceof
      ReauthenticationRequiredError,
  );
  env.use(testing.refuse("listSessions", "session_absent"));
  assert.ok(await rejection(listSessions()) instanceof UnauthorizedError);
  // No "server too old" outside SPEC.md's routes: the ordinary error.
  env.use(testing.serverTooOld("setupTotp"));
  const old = await rejection(setupTotp());
  assert.ok(old instanceof UnexpectedResponseError);
  assert.ok(!(old instanceof ServerTooOldError));
});

Deno.test("sessions, the setup and events come back in camelCase", async () => {
  env.use(
    testing.listSessionsOk(),
    testing.setupTotpOk(),
    testing.listActivityOk(),
  );
  const [here, there] = await listSessions();
  assert.deepEqual(here, testing.currentSession);
  assert.equal(there?.userAgent, "Safari on iOS");
  assert.deepEqual(await setupTotp(), testing.sampleTotpSetup);
  const page = await listActivity({ limit: 5 });
  assert.equal(page.events[0]?.type, "login.succeeded");
  assert.equal(page.nextCursor, null);
});

Deno.test("listAuditEvents() sends its filters; the canned log filters as the server does", async () => {
  const ada = {
    id: "0190f0a0-0000-7000-8000-0000000000a1",
    email: "ada@example.com",
  };
  env.use(testing.listAuditEventsOk([
    testing.auditEventOf("user.role_changed", { target: ada }),
    testing.auditEventOf("user.disabled", { target: ada }),
    testing.auditEventOf("login.succeeded"),
  ]));
  const page = await listAuditEvents({
    userId: ada.id,
    type: "user.role_changed",
  });
  assert.deepEqual(page.events.map((e) => e.type), ["user.role_changed"]);
  assert.equal((await listAuditEvents()).events.length, 3);
});

Deno.test("a sign-out in another tab ends this tab's session, with the mark", async () => {
  const here = createAuthQueryClient();
  here.setQueryData(sessionQueryKey, testing.defaultUser);
  const stop = followOtherTabs(here);
  try {
    tellOtherTabs({ type: "signed-out" }); // its own: ignored
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(here.getQueryData(sessionQueryKey));
    fromAnotherTab({ type: "signed-out" });
    await waitFor(() => assert.equal(here.getQueryData(sessionQueryKey), null));
    assert.equal(here.getQueryData(sessionEndedKey), true);
  } finally {
    stop();
  }
});

Deno.test("a sign-in in another tab makes this tab read the session again", async () => {
  env.use(testing.fetchSessionOk(testing.userWithRole("admin")));
  const here = createAuthQueryClient();
  const view = render(
    <QueryClientProvider client={here}>
      <AuthGate loginScreen={() => <p>Please sign in</p>}>
        <p>The app</p>
      </AuthGate>
    </QueryClientProvider>,
  );
  await view.findByText("The app");
  here.setQueryData(sessionQueryKey, null);
  await view.findByText("Please sign in");
  fromAnotherTab({ type: "signed-in", userId: testing.defaultUser.id });
  await view.findByText("The app");
});

// The session check, answered by `answers` in turn; the first answer waits
// for `held`.
function sessionReads(answers: Array<"signed-in" | "signed-out">) {
  const held = Promise.withResolvers<void>();
  let reads = 0;
  const user = testing.defaultUser;
  const handler = http.get(`*${OPERATIONS.fetchSession.path}`, async () => {
    const answer = answers[Math.min(reads++, answers.length - 1)];
    if (reads === 1) await held.promise;
    return answer === "signed-in"
      ? HttpResponse.json({
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role,
      })
      : HttpResponse.json({ error: "Not signed in", code: "session_absent" }, {
        status: 401,
      });
  });
  return { handler, release: () => held.resolve(), reads: () => reads };
}

function gated(client: ReturnType<typeof createAuthQueryClient>) {
  return render(
    <QueryClientProvider client={client}>
      <AuthGate loginScreen={() => <p>Please sign in</p>}>
        <p>The app</p>
      </AuthGate>
    </QueryClientProvider>,
  );
}

Deno.test("a sign-out in another tab while this tab reads its session leaves this tab signed out", async () => {
  // The read left before the other tab's sign-out reached the server.
  const reads = sessionReads(["signed-in", "signed-out"]);
  env.use(reads.handler);
  const view = gated(createAuthQueryClient());
  await waitFor(() => assert.equal(reads.reads(), 1));
  fromAnotherTab({ type: "signed-out" });
  // The tab reads again (the first read is given up), then the first ends.
  await waitFor(() => assert.equal(reads.reads(), 2));
  reads.release();
  await view.findByText("Please sign in");
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(view.queryByText("The app"), null);
});

Deno.test("a session read overtaken by a sign-in in another tab tells no tab the session ended", async () => {
  // This tab's read reached the server before the other tab's sign-in.
  const reads = sessionReads(["signed-out", "signed-in"]);
  env.use(reads.handler);
  const heard: unknown[] = [];
  const otherTab = new BroadcastChannel(TAB_CHANNEL);
  otherTab.onmessage = (event: MessageEvent) => heard.push(event.data?.type);
  try {
    const here = createAuthQueryClient();
    testing.seedSession(here, testing.defaultUser);
    const view = gated(here);
    view.getByText("The app");
    void here.refetchQueries({ queryKey: sessionQueryKey });
    await waitFor(() => assert.equal(reads.reads(), 1));
    fromAnotherTab({ type: "signed-in", userId: testing.defaultUser.id });
    await waitFor(() => assert.equal(reads.reads(), 2));
    reads.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      heard.filter((type) => type !== "signed-in"), // the other tab's own
      [],
      "no tab is told the session ended",
    );
    assert.equal(here.getQueryData(sessionEndedKey), undefined);
    view.getByText("The app");
  } finally {
    otherTab.close();
  }
});

Deno.test("a tab whose session read finds it gone marks it ended (idle or expired)", async () => {
  const here = createAuthQueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  testing.seedSession(here, testing.defaultUser);
  env.use(testing.fetchSessionAnonymous());
  await here.fetchQuery({ ...sessionQuery, staleTime: 0 });
  assert.equal(here.getQueryData(sessionQueryKey), null);
  assert.equal(here.getQueryData(sessionEndedKey), true);
});

Deno.test("a call answered 401 after another tab signed in does not end the new session", async () => {
  // The call left under the session that ended (another tab's sign-out, an
  // idle timeout); its answer arrives after the other tab signed in again.
  const held = Promise.withResolvers<void>();
  let sent = 0;
  const reads = sessionReads(["signed-in"]);
  reads.release();
  env.use(
    http.delete(
      `*${OPERATIONS.revokeSession.path.replace(":id", ID)}`,
      async () => {
        sent += 1;
        await held.promise;
        return HttpResponse.json({
          error: "Not signed in",
          code: "session_absent",
        }, {
          status: 401,
        });
      },
    ),
    reads.handler,
  );
  const heard: unknown[] = [];
  const otherTab = new BroadcastChannel(TAB_CHANNEL);
  otherTab.onmessage = (event: MessageEvent) => heard.push(event.data?.type);
  try {
    const here = createAuthQueryClient();
    testing.seedSession(here, testing.defaultUser);
    const view = gated(here);
    view.getByText("The app");
    const call = new MutationObserver(here, {
      mutationFn: () => revokeSession(ID),
    }).mutate().catch((error: unknown) => error);
    await waitFor(() => assert.equal(sent, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    fromAnotherTab({ type: "signed-in", userId: testing.defaultUser.id });
    // This tab reads its session again: signed in.
    await waitFor(() => assert.equal(reads.reads(), 1));
    await waitFor(() => assert.equal(here.isFetching(), 0));
    held.resolve();
    assert.ok(await call instanceof UnauthorizedError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      heard.filter((type) => type !== "signed-in"), // the other tab's own
      [],
      "no tab is told the session ended",
    );
    assert.deepEqual(here.getQueryData(sessionQueryKey), testing.defaultUser);
    assert.equal(here.getQueryData(sessionEndedKey), undefined);
    view.getByText("The app");
  } finally {
    otherTab.close();
  }
});

Deno.test("a call answered 401 after this tab's clock went back still ends the session", async () => {
  // The wall clock moved back an hour after this tab signed in (a clock
  // set right, a sync): the call goes out after the sign-in, under the
  // session it began, and the session truly ended (an administrator's
  // sign-out). Its 401 is this session's, whatever the clock says.
  const reads = sessionReads(["signed-in"]);
  reads.release();
  env.use(
    http.delete(
      `*${OPERATIONS.revokeSession.path.replace(":id", ID)}`,
      () =>
        HttpResponse.json({ error: "Not signed in", code: "session_absent" }, {
          status: 401,
        }),
    ),
    reads.handler,
  );
  const heard: unknown[] = [];
  const otherTab = new BroadcastChannel(TAB_CHANNEL);
  otherTab.onmessage = (event: MessageEvent) => heard.push(event.data?.type);
  const wallClock = Date.now;
  try {
    const here = createAuthQueryClient();
    const view = gated(here);
    adoptSession(here, testing.defaultUser);
    await view.findByText("The app");
    const back = wallClock() - 3_600_000;
    Date.now = () => back;
    const call = new MutationObserver(here, {
      mutationFn: () => revokeSession(ID),
    }).mutate().catch((error: unknown) => error);
    assert.ok(await call instanceof UnauthorizedError);
    await waitFor(() => assert.equal(here.getQueryData(sessionQueryKey), null));
    assert.equal(here.getQueryData(sessionEndedKey), true);
    await waitFor(() => assert.ok(heard.includes("session-ended")));
    await view.findByText("Please sign in");
  } finally {
    Date.now = wallClock;
    otherTab.close();
  }
});
