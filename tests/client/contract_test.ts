// The client derives its paths, methods and statuses from the contract
// (`@gatehouse/contract`); these tests are the derivation's own: the REST
// transport sends each operation's method and path, the test harness
// answers at the same routes with the contract's statuses, and every canned
// answer matches the OpenAPI description.

import assert from "node:assert/strict";
import {
  ERROR_STATUS,
  OPERATION_NAMES,
  OPERATIONS,
  pathOf,
} from "@gatehouse/contract";
import {
  type AuthTransport,
  configureAuthTransport,
  resetAuthTransport,
  restTransport,
} from "@gatehouse/client";
import { listUsers } from "@gatehouse/client/admin";
import { PENDING_CLIENT } from "../fixtures/pending.ts";
import * as testing from "@gatehouse/client/testing";
import { contractProblems } from "../fixtures/contract.ts";

const env = testing.installTestEnvironment();
const ID = "0190f0a0-0000-7000-8000-00000000abcd";

// What a call of each transport operation looks like, and the body its
// success carries (so the transport's reading succeeds).
const USER = {
  id: ID,
  email: "a@example.com",
  name: "A",
  role: "",
  disabled: false,
  created_at: "2026-01-01T00:00:00.000Z",
};
const IDENTITY = { id: ID, email: "a@example.com", name: "A", role: "" };
const CALLS: {
  [Name in Exclude<keyof AuthTransport, "isSessionRevoked">]: [
    (t: AuthTransport) => Promise<unknown>,
    unknown,
  ];
} = {
  fetchSession: [(t) => t.fetchSession(), IDENTITY],
  login: [(t) => t.login("a@example.com", "pw"), IDENTITY],
  logout: [(t) => t.logout(), undefined],
  listUsers: [(t) => t.listUsers({ limit: 5 }), {
    users: [USER],
    next_cursor: null,
  }],
  createUser: [
    (t) => t.createUser({ email: "a@example.com", name: "A", password: "pw" }),
    USER,
  ],
  setUserDisabled: [(t) => t.setUserDisabled(ID, true), USER],
  setUserRole: [(t) => t.setUserRole(ID, "admin"), USER],
  invite: [(t) => t.invite({ email: "a@example.com", name: "A" }), {
    delivered: true,
  }],
  listInvitations: [(t) => t.listInvitations(), { invitations: [] }],
  revokeInvitation: [(t) => t.revokeInvitation(ID), undefined],
  acceptInvite: [(t) => t.acceptInvite("token", "pw"), IDENTITY],
  requestPasswordReset: [
    (t) => t.requestPasswordReset("a@example.com"),
    undefined,
  ],
  resetPassword: [(t) => t.resetPassword("token", "pw"), undefined],
};

Deno.test("the transport has one operation per operation of the contract (but describeApi), plus isSessionRevoked", () => {
  const rest = Object.keys(restTransport()).sort();
  const expected = [
    ...OPERATION_NAMES.filter((name) =>
      name !== "describeApi" && !PENDING_CLIENT.has(name)
    ),
    "isSessionRevoked",
  ].sort();
  assert.deepEqual(rest, expected);
  assert.deepEqual(
    Object.keys(CALLS).sort(),
    expected.filter((n) => n !== "isSessionRevoked"),
  );
});

for (const [name, [call, body]] of Object.entries(CALLS)) {
  const operation = name as keyof typeof CALLS;
  Deno.test(`REST sends ${operation} with the contract's method and path`, async () => {
    const sent: Request[] = [];
    const spec = OPERATIONS[operation];
    const transport = restTransport({
      baseUrl: "http://app.example",
      fetch: (input, init) => {
        sent.push(new Request(input, init));
        return Promise.resolve(
          new Response(body === undefined ? null : JSON.stringify(body), {
            status: spec.success,
          }),
        );
      },
    });
    await call(transport);
    assert.equal(sent.length, 1);
    const request = sent[0]!;
    assert.equal(request.method, spec.method);
    const pattern = new URLPattern({ pathname: spec.path });
    assert.ok(
      pattern.test(request.url),
      `${request.url} is not ${spec.method} ${spec.path}`,
    );
  });
}

Deno.test("the harness answers every code with the contract's status", async () => {
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    env.use(testing.answerError("createUser", code));
    const res = await fetch(`http://localhost${pathOf("createUser")}`, {
      method: "POST",
      body: "{}",
    });
    assert.equal(res.status, status, code);
    assert.equal((await res.json()).code, code);
    env.server.resetHandlers();
  }
});

// Every canned handler: the operation it answers and what it is called with.
const CANNED: Array<
  [string, () => ReturnType<typeof testing.loginOk>, keyof typeof CALLS]
> = [
  ["loginOk", () => testing.loginOk(), "login"],
  ["loginInvalid", () => testing.loginInvalid(), "login"],
  ["loginRateLimited", () => testing.loginRateLimited(), "login"],
  ["logoutOk", () => testing.logoutOk(), "logout"],
  ["fetchSessionOk", () => testing.fetchSessionOk(), "fetchSession"],
  [
    "fetchSessionAnonymous",
    () => testing.fetchSessionAnonymous(),
    "fetchSession",
  ],
  [
    "fetchSessionUnavailable",
    () => testing.fetchSessionUnavailable(),
    "fetchSession",
  ],
  ["listUsersOk", () => testing.listUsersOk(), "listUsers"],
  ["createUserOk", () => testing.createUserOk(), "createUser"],
  ["setUserDisabledOk", () => testing.setUserDisabledOk(), "setUserDisabled"],
  ["setUserRoleOk", () => testing.setUserRoleOk(), "setUserRole"],
  ["inviteDelivered", () => testing.inviteDelivered(), "invite"],
  ["inviteUndelivered", () => testing.inviteUndelivered(), "invite"],
  ["listInvitationsOk", () => testing.listInvitationsOk(), "listInvitations"],
  [
    "revokeInvitationOk",
    () => testing.revokeInvitationOk(),
    "revokeInvitation",
  ],
  [
    "revokeInvitationNotFound",
    () => testing.revokeInvitationNotFound(),
    "revokeInvitation",
  ],
  [
    "revokeInvitationBeyondReach",
    () => testing.revokeInvitationBeyondReach(),
    "revokeInvitation",
  ],
  ["acceptInviteOk", () => testing.acceptInviteOk(), "acceptInvite"],
  [
    "acceptInviteInvalidToken",
    () => testing.acceptInviteInvalidToken(),
    "acceptInvite",
  ],
  [
    "requestPasswordResetOk",
    () => testing.requestPasswordResetOk(),
    "requestPasswordReset",
  ],
  ["resetPasswordOk", () => testing.resetPasswordOk(), "resetPassword"],
  [
    "resetPasswordInvalidToken",
    () => testing.resetPasswordInvalidToken(),
    "resetPassword",
  ],
];

Deno.test("every canned handler answers at its operation's route, within the OpenAPI description", async () => {
  for (const [name, make, operation] of CANNED) {
    env.use(make());
    const { method } = OPERATIONS[operation];
    const url = `http://localhost${pathOf(operation, { id: ID })}`;
    const res = await fetch(url, {
      method,
      ...(method === "GET" ? {} : {
        body: JSON.stringify({
          role: "admin",
          disabled: true,
          email: "a@example.com",
          name: "A",
        }),
      }),
    });
    // msw sets no cookie: the harness does not play the cookie jar.
    const problems = (await contractProblems(method, url, res)).filter(
      (problem) => !problem.endsWith("no Set-Cookie"),
    );
    assert.deepEqual(problems, [], name);
    env.server.resetHandlers();
  }
});

Deno.test("the earlier names still work: transport, calls and canned handlers", async () => {
  configureAuthTransport({
    fetchUsers: () => Promise.resolve({ users: [], nextCursor: null }),
  });
  assert.deepEqual(await listUsers(), { users: [], nextCursor: null });
  resetAuthTransport();
  assert.equal(testing.usersOk, testing.listUsersOk);
  assert.equal(testing.roleOk, testing.setUserRoleOk);
  assert.equal(testing.activateOk, testing.acceptInviteOk);
  assert.equal(testing.resetRequestOk, testing.requestPasswordResetOk);
  assert.equal(testing.resetOk, testing.resetPasswordOk);
  env.use(testing.sessionAnonymous);
  const res = await fetch("http://localhost/api/auth/session");
  assert.equal(res.status, 401);
  await res.body?.cancel();
});
