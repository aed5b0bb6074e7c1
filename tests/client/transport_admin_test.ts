// The REST transport's administration operations against the package's
// own fake server: the "Must do" cells of SPEC.md's transport table for
// listUsers, createUser and setUserDisabled, the role errors of the
// role-checked calls, and the request each sends (DESIGN.md §4).

import assert from "node:assert/strict";
import {
  isSessionRevoked,
  UnauthorizedError,
  UnexpectedResponseError,
  ValidationError,
} from "@gatehouse/client";
import {
  createUser,
  EmailTakenError,
  invite,
  listUsers,
  RoleBeyondReachError,
  RoleChangedError,
  RoleUnknownError,
  setUserDisabled,
  setUserRole,
} from "@gatehouse/client/admin";
import {
  accountOf,
  createUserOk,
  installTestEnvironment,
  listUsersOk,
  refuse,
  setUserDisabledOk,
  setUserRoleOk,
  userWithRole,
} from "@gatehouse/client/testing";
import { http, HttpResponse } from "msw";
import { recordRequests, rejection } from "./_support.ts";

const env = installTestEnvironment();
const ID = "0190f0a0-0000-7000-8000-00000000abcd";

// listUsers: "Throw UnauthorizedError when the session is gone."

Deno.test("listUsers() sends limit, cursor and q and converts the page to camelCase", async () => {
  const users = [
    accountOf(userWithRole("admin")),
    accountOf(userWithRole("member"), { disabled: true }),
  ];
  env.use(listUsersOk(users, "cursor-2"));
  const recorder = recordRequests(env);
  const page = await listUsers({ limit: 2, cursor: "cursor-1", q: "a b" });
  recorder.stop();
  assert.deepEqual(page, { users, nextCursor: "cursor-2" });
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "GET");
  assert.equal(sent?.url.pathname, "/api/users");
  assert.deepEqual(Object.fromEntries(sent!.url.searchParams), {
    limit: "2",
    cursor: "cursor-1",
    q: "a b",
  });
});

Deno.test("listUsers() sends sort and reads the total", async () => {
  const users = [accountOf(userWithRole("member"))];
  env.use(listUsersOk(users, null, 41));
  const recorder = recordRequests(env);
  const page = await listUsers({ limit: 1, sort: "-name" });
  recorder.stop();
  assert.deepEqual(page, { users, nextCursor: null, total: 41 });
  const [sent] = await recorder.requests();
  assert.deepEqual(Object.fromEntries(sent!.url.searchParams), {
    limit: "1",
    sort: "-name",
  });
});

Deno.test("listUsers() answers no total when the server does not count", async () => {
  env.use(listUsersOk([]));
  assert.equal("total" in await listUsers({ sort: "email" }), false);
});

for (const total of [-1, 1.5, "3", null, true]) {
  Deno.test(`listUsers() refuses a page whose total is ${JSON.stringify(total)}`, async () => {
    env.use(
      http.get(
        "*/api/users",
        () => HttpResponse.json({ users: [], next_cursor: null, total }),
      ),
    );
    const error = await rejection(listUsers());
    assert.ok(error instanceof UnexpectedResponseError, String(error));
  });
}

Deno.test("listUsers() reads created_at given as epoch milliseconds", async () => {
  env.use(http.get("*/api/users", () =>
    HttpResponse.json({
      users: [{
        id: ID,
        email: "a@example.com",
        name: "A",
        role: "",
        disabled: false,
        created_at: 0,
      }],
      next_cursor: null,
    })));
  const page = await listUsers();
  assert.equal(page.users[0]?.createdAt, "1970-01-01T00:00:00.000Z");
  assert.equal(page.nextCursor, null);
});

Deno.test("listUsers() throws UnauthorizedError when the session is gone", async () => {
  env.use(refuse("listUsers", "session_absent"));
  const error = await rejection(listUsers());
  assert.ok(error instanceof UnauthorizedError);
  assert.equal(isSessionRevoked(error), true);
});

// createUser: "Throw UnauthorizedError; EmailTakenError for a duplicate
// email; ValidationError for bad input."

Deno.test("createUser() posts the account and answers it", async () => {
  env.use(createUserOk());
  const recorder = recordRequests(env);
  const user = await createUser({
    email: "g@example.com",
    name: "G",
    password: "long enough password",
    role: "member",
  });
  recorder.stop();
  assert.equal(user.email, "g@example.com");
  assert.equal(user.role, "member");
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "POST");
  assert.equal(sent?.url.pathname, "/api/users");
  assert.deepEqual(sent?.body, {
    email: "g@example.com",
    name: "G",
    password: "long enough password",
    role: "member",
  });
});

Deno.test("createUser() leaves role out when none is given", async () => {
  env.use(createUserOk());
  const recorder = recordRequests(env);
  await createUser({
    email: "g@example.com",
    name: "G",
    password: "long enough password",
  });
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.deepEqual(sent?.body, {
    email: "g@example.com",
    name: "G",
    password: "long enough password",
  });
});

Deno.test("createUser() throws UnauthorizedError, EmailTakenError and ValidationError", async () => {
  const input = {
    email: "g@example.com",
    name: "G",
    password: "long enough password",
  };
  env.use(refuse("createUser", "session_absent"));
  assert.ok(await rejection(createUser(input)) instanceof UnauthorizedError);
  env.use(refuse("createUser", "email_taken"));
  assert.ok(await rejection(createUser(input)) instanceof EmailTakenError);
  env.use(
    refuse("createUser", "email_invalid", { meta: { field: "email" } }),
  );
  const invalid = await rejection(createUser(input));
  assert.ok(invalid instanceof ValidationError);
  assert.equal(invalid.code, "email_invalid");
  assert.equal(invalid.field, "email");
});

// setUserDisabled: "Throw UnauthorizedError when the session is gone"; also
// RoleChangedError.

Deno.test("setUserDisabled() patches {disabled, role} with the role the actor saw", async () => {
  env.use(setUserDisabledOk());
  const recorder = recordRequests(env);
  const user = await setUserDisabled(ID, true, { seenRole: "member" });
  await setUserDisabled(ID, false);
  recorder.stop();
  assert.equal(user.id, ID);
  assert.equal(user.disabled, true);
  const [first, second] = await recorder.requests();
  assert.equal(first?.method, "PATCH");
  assert.equal(first?.url.pathname, `/api/users/${ID}`);
  assert.deepEqual(first?.body, { disabled: true, role: "member" });
  assert.deepEqual(second?.body, { disabled: false });
});

Deno.test("setUserDisabled() throws UnauthorizedError when the session is gone", async () => {
  env.use(refuse("setUserDisabled", "session_absent"));
  assert.ok(
    await rejection(setUserDisabled(ID, true)) instanceof UnauthorizedError,
  );
});

Deno.test("setUserDisabled() throws RoleChangedError when the role changed meanwhile", async () => {
  env.use(refuse("setUserDisabled", "role_changed"));
  const error = await rejection(
    setUserDisabled(ID, true, { seenRole: "member" }),
  );
  assert.ok(error instanceof RoleChangedError);
  assert.equal(error.status, 409);
});

// "When the server checks roles, createUser, invite, setUserDisabled and
// setUserRole throw RoleUnknownError and RoleBeyondReachError."

Deno.test("the role-checked calls throw RoleUnknownError and RoleBeyondReachError", async (t) => {
  const calls = {
    createUser: () =>
      createUser({
        email: "g@example.com",
        name: "G",
        password: "long enough password",
        role: "x",
      }),
    invite: () => invite({ email: "g@example.com", name: "G", role: "x" }),
    setUserDisabled: () => setUserDisabled(ID, true, { seenRole: "x" }),
    setUserRole: () => setUserRole(ID, "x"),
  } as const;
  for (const [endpoint, call] of Object.entries(calls)) {
    await t.step(endpoint, async () => {
      env.use(
        refuse(endpoint as keyof typeof calls, "role_unknown", {
          meta: { field: "role" },
        }),
      );
      const unknown = await rejection(call());
      assert.ok(unknown instanceof RoleUnknownError, `${endpoint}: ${unknown}`);
      assert.ok(
        unknown instanceof ValidationError,
        "RoleUnknownError is a ValidationError",
      );
      assert.equal(unknown.field, "role");
      env.use(refuse(endpoint as keyof typeof calls, "role_beyond_reach"));
      assert.ok(
        await rejection(call()) instanceof RoleBeyondReachError,
        endpoint,
      );
    });
  }
});

Deno.test("setUserRole(id, role) puts {role} to /api/users/{id}/role", async () => {
  env.use(setUserRoleOk());
  const recorder = recordRequests(env);
  const user = await setUserRole(ID, "admin");
  recorder.stop();
  assert.equal(user.id, ID);
  assert.equal(user.role, "admin");
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "PUT");
  assert.equal(sent?.url.pathname, `/api/users/${ID}/role`);
  assert.deepEqual(sent?.body, { role: "admin" });
});
