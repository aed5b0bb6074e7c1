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
