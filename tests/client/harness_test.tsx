// The test harness itself: accounts, seeding, the canned handlers' wire
// format (DESIGN.md §4, snake_case) and the cleanup between tests.

import assert from "node:assert/strict";
import {
  configureAuthTransport,
  createAuthQueryClient,
  fetchSession,
  sessionQueryKey,
} from "@gatehouse/client";
import { listUsers } from "@gatehouse/client/admin";
import {
  acceptInviteOk,
  accountOf,
  answer,
  defaultUser,
  fetchSessionOk,
  installTestEnvironment,
  inviteDelivered,
  inviteUndelivered,
  listUsersOk,
  loginRateLimited,
  refuse,
  seedSession,
  userWithCapabilities,
  userWithRole,
} from "@gatehouse/client/testing";
import { type OperationName, OPERATIONS, pathOf } from "@gatehouse/contract";
import { render } from "@testing-library/preact";

const env = installTestEnvironment({ url: "http://app.localhost/start" });
const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("userWithRole() gives a stable, distinct UUID per role", () => {
  const admin = userWithRole("admin");
  assert.match(admin.id, UUID);
  assert.equal(userWithRole("admin").id, admin.id);
  assert.deepEqual(userWithRole("admin"), admin);
  const ids = new Set(
    ["admin", "member", "Admin", "", "x"].map((r) => userWithRole(r).id),
  );
  assert.equal(ids.size, 5);
  assert.equal(admin.role, "admin");
  assert.equal(admin.email, "admin@example.com");
});

Deno.test("defaultUser holds no role and no capability lists", () => {
  assert.equal(defaultUser.role, "");
  assert.equal(defaultUser.capabilities, undefined);
  assert.equal(defaultUser.grantable, undefined);
  assert.match(defaultUser.id, UUID);
});

Deno.test("userWithCapabilities() adds both lists to the role's account", () => {
  const caps = ["users.manage"];
  const admin = userWithCapabilities("admin", caps, ["admin", "member"]);
  caps.push("later");
  assert.equal(admin.id, userWithRole("admin").id);
  assert.deepEqual(
    admin.capabilities,
    ["users.manage"],
    "a copy of the caller's list",
  );
  assert.deepEqual(admin.grantable, ["admin", "member"]);
  assert.deepEqual(userWithCapabilities("member", []).grantable, []);
});

Deno.test("seedSession() puts the account under the session key", () => {
  const client = createAuthQueryClient();
  seedSession(client, defaultUser);
  assert.equal(client.getQueryData(sessionQueryKey), defaultUser);
});

Deno.test("the canned handlers answer in the wire format", async (t) => {
  const member = accountOf(userWithRole("member"), { disabled: true });
  const rows: Array<
    [
      string,
      Parameters<typeof env.use>[0],
      string,
      RequestInit,
      number,
      unknown,
    ]
  > = [
    ["listUsersOk", listUsersOk([member], "c2"), "/api/users", {}, 200, {
      users: [{
        id: member.id,
        email: member.email,
        name: member.name,
        role: "member",
        disabled: true,
        created_at: member.createdAt,
      }],
      next_cursor: "c2",
    }],
    [
      "inviteDelivered",
      inviteDelivered(),
      "/api/users/invite",
      { method: "POST", body: "{}" },
      200,
      { delivered: true },
    ],
    [
      "inviteUndelivered",
      inviteUndelivered("http://x/invite#token=1"),
      "/api/users/invite",
      { method: "POST", body: "{}" },
      200,
      {
        delivered: false,
        activation_link: "http://x/invite#token=1",
      },
    ],
    [
      "acceptInviteOk",
      acceptInviteOk(),
      "/api/auth/invite/accept",
      { method: "POST", body: "{}" },
      200,
      { ...defaultUser },
    ],
    [
      "loginRateLimited()",
      loginRateLimited(),
      "/api/auth/login",
      { method: "POST", body: "{}" },
      429,
      {
        error: "Refused: login_rate_limited",
        code: "login_rate_limited",
      },
    ],
  ];
  for (const [name, handler, path, init, status, body] of rows) {
    await t.step(name, async () => {
      env.use(handler);
      const response = await fetch(new URL(path, location.href), init);
      assert.equal(response.status, status);
      assert.deepEqual(await response.json(), body);
      if (name === "loginRateLimited()") {
        assert.equal(response.headers.get("retry-after"), "60");
      }
    });
  }
});

Deno.test("answer() and refuse() answer any operation in the wire format", async (t) => {
  const id = userWithRole("member").id;
  const rows: Array<
    [OperationName, Parameters<typeof env.use>[0], number, unknown]
  > = [
    [
      "countRecoveryCodes",
      answer("countRecoveryCodes", { recoveryCodesLeft: 3 }),
      200,
      { recovery_codes_left: 3 },
    ],
    // The other success of an operation answers its own shape.
    [
      "login",
      answer("login", { secondFactor: ["totp"] }, { status: 202 }),
      202,
      { second_factor: ["totp"] },
    ],
    // The operation's own success status; the body from the request.
    [
      "setUserRole",
      answer("setUserRole", (_request, params) => ({
        ...accountOf(userWithRole("member")),
        id: params.id,
        createdAt: "2026-01-01T00:00:00.000Z",
      })),
      200,
      {
        id,
        email: userWithRole("member").email,
        name: userWithRole("member").name,
        role: "member",
        disabled: false,
        created_at: "2026-01-01T00:00:00.000Z",
      },
    ],
    ["logout", answer("logout"), 204, null],
    ["requestPasswordReset", answer("requestPasswordReset"), 202, null],
    [
      "setUserRole",
      refuse("setUserRole", "role_beyond_reach"),
      403,
      { error: "Refused: role_beyond_reach", code: "role_beyond_reach" },
    ],
    // A status given explicitly, when it is the contract's.
    [
      "createUser",
      refuse("createUser", "email_taken", { status: 409 }),
      409,
      { error: "Refused: email_taken", code: "email_taken" },
    ],
  ];
  for (const [operation, handler, status, body] of rows) {
    await t.step(`${operation} answers ${status}`, async () => {
      env.use(handler);
      const { method } = OPERATIONS[operation];
      const response = await fetch(
        new URL(pathOf(operation, { id }), location.href),
        method === "GET" ? { method } : { method, body: "{}" },
      );
      assert.equal(response.status, status);
      assert.deepEqual(
        body === null ? await response.text() : await response.json(),
        body ?? "",
      );
    });
  }
});

// The harness answers only what the contract lets the real server answer.

Deno.test("refuse() throws when built with a code the operation never answers", () => {
  assert.throws(() => refuse("listUsers", "email_taken"), {
    name: "TypeError",
    message:
      'Cannot refuse listUsers with "email_taken": not one of errorsOf("listUsers")',
  });
  // Not a code of the contract at all.
  assert.throws(() => refuse("createUser", "from_a_newer_server"), TypeError);
  // A code its guard, limiter or method adds is declared.
  refuse("listUsers", "role_insufficient");
  refuse("login", "login_rate_limited");
  refuse("createUser", "request_cross_origin");
});

Deno.test("refuse() throws when built with a status other than the code's", () => {
  assert.throws(
    () => refuse("createUser", "email_taken", { status: 400 }),
    {
      name: "TypeError",
      message:
        'Cannot refuse createUser with "email_taken" and status 400: the contract answers it with 409',
    },
  );
});

Deno.test("answer() throws when built with a status that is no success of the operation", () => {
  assert.throws(
    () => answer("createUser", accountOf(defaultUser), { status: 200 }),
    {
      name: "TypeError",
      message:
        "Cannot answer createUser with status 200: its successes are 201",
    },
  );
  assert.throws(() => answer("logout", undefined, { status: 200 }), {
    message: "Cannot answer logout with status 200: its successes are 204",
  });
  assert.throws(() => answer("login", defaultUser, { status: 201 }), {
    message:
      "Cannot answer login with status 201: its successes are 200 and 202",
  });
  answer("createUser", accountOf(defaultUser), { status: 201 });
});

Deno.test("answer() fails the test, naming the operation and the field, for a body outside the contract", async (t) => {
  const { id: _, ...withoutId } = accountOf(userWithRole("member"));
  const rows: Array<[string, OperationName, unknown, string]> = [
    [
      "a required field missing",
      "setUserRole",
      withoutId,
      'Cannot answer setUserRole: "id" is missing',
    ],
    [
      "a field of the wrong type",
      "countRecoveryCodes",
      { recoveryCodesLeft: "3" },
      'Cannot answer countRecoveryCodes: "recovery_codes_left" is not integer',
    ],
    [
      "a body made from the request, with a field of the wrong type",
      "listUsers",
      () => ({ users: [], nextCursor: 2 }),
      'Cannot answer listUsers: "next_cursor" is not string or null',
    ],
    [
      "no body where the success has one",
      "fetchSession",
      undefined,
      "Cannot answer fetchSession: the answer is not object",
    ],
    [
      "a body where the success has none",
      "logout",
      { done: true },
      "Cannot answer logout: its 204 has no body",
    ],
  ];
  const id = userWithRole("member").id;
  for (const [name, operation, body, message] of rows) {
    await t.step(name, async () => {
      env.use(answer(operation, body as object | undefined));
      const { method } = OPERATIONS[operation];
      const response = await fetch(
        new URL(pathOf(operation, { id }), location.href),
        method === "GET" ? { method } : { method, body: "{}" },
      );
      // msw answers a handler's error with a 500; the cleanup after the
      // test throws it, so the test fails with the harness's message.
      assert.equal(response.status, 500);
      await response.body?.cancel();
      assert.throws(() => env.cleanup(), { name: "TypeError", message });
    });
  }
});

Deno.test("a client call against an answer outside the contract fails the test, not only the call", async () => {
  env.use(answer("fetchSession", { ...defaultUser, email: undefined }));
  // The client takes the 500 in its stride (no session) ...
  assert.equal(await fetchSession(), null);
  // ... and the cleanup after the test fails it with the cause.
  assert.throws(() => env.cleanup(), {
    message: 'Cannot answer fetchSession: "email" is missing',
  });
});

Deno.test("installTestEnvironment() provides a DOM at the given URL", () => {
  assert.equal(location.href, "http://app.localhost/start");
  assert.equal(document.location.href, "http://app.localhost/start");
  assert.equal(typeof HTMLElement, "function");
  assert.ok(document.createElement("div") instanceof HTMLElement);
});

// The next two tests run in order: the first leaves things behind, the
// second finds them cleaned up.

let unmounted = false;
function Leftover() {
  return <p ref={() => () => (unmounted = true)}>Left behind</p>;
}

Deno.test("a test that leaves a tree, a handler, a transport and a new URL behind", async () => {
  render(<Leftover />);
  env.use(fetchSessionOk());
  configureAuthTransport({
    listUsers: () => Promise.resolve({ users: [], nextCursor: null }),
  });
  history.pushState(null, "", "/elsewhere");
  assert.equal(location.pathname, "/elsewhere");
  assert.deepEqual(await fetchSession(), defaultUser);
});

Deno.test("installTestEnvironment() cleans up between tests", async () => {
  assert.equal(unmounted, true, "the Preact tree was unmounted");
  assert.equal(document.body.innerHTML, "");
  assert.equal(location.href, "http://app.localhost/start");
  // What is left is the environment's own answers: to the link check and
  // to the login screen's list of single sign-on providers.
  assert.equal(
    env.server.listHandlers().length,
    2,
    "the per-test handler is gone",
  );
  // REST again: listUsers reaches the fake server, not the replacement.
  env.use(listUsersOk([accountOf(defaultUser)]));
  assert.equal((await listUsers()).users.length, 1);
});

Deno.test("the environment's tabs hear their own page's channels, never another test file's", async () => {
  const { TAB_CHANNEL, listenToOtherTabs } = await import(
    "../../client/_tabs.ts"
  );
  const heard: string[] = [];
  const stop = listenToOtherTabs((message) => heard.push(message.type));
  // Outside the environment: the channel every worker of the process shares.
  const shared: string[] = [];
  const native: typeof BroadcastChannel =
    BroadcastChannel.name === "ScopedBroadcastChannel"
      ? Object.getPrototypeOf(BroadcastChannel)
      : BroadcastChannel;
  const outside = new native(TAB_CHANNEL);
  outside.onmessage = (event) => shared.push(event.data.type);
  const worker = new Worker(
    new URL("../fixtures/other_file_tab.ts", import.meta.url),
    { type: "module" },
  );
  try {
    await new Promise((resolve) => (worker.onmessage = resolve));
    // A tab this test opens itself is heard.
    const here = new BroadcastChannel(TAB_CHANNEL);
    assert.equal(here.name, TAB_CHANNEL);
    here.postMessage({ type: "session-ended", tab: "a-tab-of-this-page" });
    here.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(shared.includes("signed-out"), "the other file did post");
    assert.deepEqual(heard, ["session-ended"]);
  } finally {
    worker.terminate();
    outside.close();
    stop();
  }
});
