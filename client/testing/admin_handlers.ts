/**
 * Canned answers of the user-administration endpoints: list, create,
 * disable or enable, change role.
 *
 * @module
 */

import { HttpResponse } from "msw";
import type { HttpHandler } from "../_peer_types.ts";
import { writeUser, writeUserPage } from "../_wire.ts";
import type { User } from "../types.ts";
import { jsonBody, route, text } from "./_routes.ts";
import { accountOf, userWithRole } from "./users.ts";

/**
 * The account list answers one page.
 *
 * @param users The accounts; an administrator and a member by default.
 * @param nextCursor The cursor of the next page; null (last page) by default.
 * @returns The handler.
 *
 * @example A page with a next one
 * ```ts
 * import { fetchUsers } from "@gatehouse/client/admin";
 * import { installTestEnvironment, usersOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("fetchUsers() answers the page", async () => {
 *   env.use(usersOk(undefined, "next"));
 *   const page = await fetchUsers();
 *   if (page.users.length !== 2 || page.nextCursor !== "next") throw new Error("unexpected page");
 * });
 * ```
 */
export function usersOk(
  users: readonly User[] = [
    accountOf(userWithRole("admin")),
    accountOf(userWithRole("member")),
  ],
  nextCursor: string | null = null,
): HttpHandler {
  const body = writeUserPage({ users, nextCursor });
  return route("fetchUsers", () => HttpResponse.json(body));
}

/**
 * Account creation succeeds: 201 with the account built from the request
 * (email, name and role echoed, a stable id from the email).
 *
 * @returns The handler.
 *
 * @example Creating a member
 * ```ts
 * import { createUser } from "@gatehouse/client/admin";
 * import { createUserOk, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("createUser() answers the account", async () => {
 *   env.use(createUserOk());
 *   const user = await createUser({ email: "g@example.com", name: "G", password: "long enough password", role: "member" });
 *   if (user.role !== "member" || user.email !== "g@example.com") throw new Error("unexpected account");
 * });
 * ```
 */
export function createUserOk(): HttpHandler {
  return route("createUser", async ({ request }) => {
    const body = await jsonBody(request);
    const email = text(body.email, "new@example.com");
    const base = userWithRole(`created:${email}`);
    const user = accountOf(base, {
      email,
      name: text(body.name, "New user"),
      role: text(body.role, ""),
    });
    return HttpResponse.json(writeUser(user), { status: 201 });
  });
}

/** The account a PATCH or PUT on `/api/users/{id}` answers, before its changes. */
function accountWithId(id: string, user: User | undefined): User {
  return accountOf(user ?? userWithRole(`account:${id}`), { id });
}

/**
 * Disabling or enabling succeeds: the account with the requested `disabled`
 * (and the id of the path).
 *
 * @param user The account before the change; a generated one by default.
 * @returns The handler.
 *
 * @example Disabling
 * ```ts
 * import { setUserDisabled } from "@gatehouse/client/admin";
 * import { installTestEnvironment, setDisabledOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("setUserDisabled() answers the disabled account", async () => {
 *   env.use(setDisabledOk());
 *   const user = await setUserDisabled("0190f0a0-0000-7000-8000-000000000009", true);
 *   if (!user.disabled) throw new Error("expected disabled");
 * });
 * ```
 */
export function setDisabledOk(user?: User): HttpHandler {
  return route("setUserDisabled", async ({ request, params }) => {
    const body = await jsonBody(request);
    const before = accountWithId(String(params.id), user);
    const after = { ...before, disabled: body.disabled === true };
    return HttpResponse.json(writeUser(after));
  });
}

/**
 * The role change succeeds: the account with the requested role (and the id
 * of the path).
 *
 * @param user The account before the change; a generated one by default.
 * @returns The handler.
 *
 * @example Promoting
 * ```ts
 * import { setUserRole } from "@gatehouse/client/admin";
 * import { installTestEnvironment, roleOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("setUserRole() answers the promoted account", async () => {
 *   env.use(roleOk());
 *   const user = await setUserRole("0190f0a0-0000-7000-8000-000000000009", "admin");
 *   if (user.role !== "admin") throw new Error("expected admin");
 * });
 * ```
 */
export function roleOk(user?: User): HttpHandler {
  return route("setUserRole", async ({ request, params }) => {
    const body = await jsonBody(request);
    const before = accountWithId(String(params.id), user);
    const after = { ...before, role: text(body.role, before.role) };
    return HttpResponse.json(writeUser(after));
  });
}
