/**
 * Canned answers of the user-administration endpoints: list, create,
 * disable or enable, change role, and the pending invitations.
 *
 * @module
 */

import type { HttpHandler } from "../_peer_types.ts";
import type { PendingInvitation, User } from "../types.ts";
import { jsonBody, text } from "./_routes.ts";
import { answer, refuse } from "./answers.ts";
import { accountOf, userWithRole } from "./users.ts";

/**
 * The account list answers one page.
 *
 * @param users The accounts; an administrator and a member by default.
 * @param nextCursor The cursor of the next page; null (last page) by default.
 * @param total The count of matches over every page, as a server that
 *   counts (and sorts) answers it; absent by default, as an older server.
 * @returns The handler.
 *
 * @example A page with a next one
 * ```ts
 * import { listUsers } from "@gatehouse/client/admin";
 * import { installTestEnvironment, listUsersOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("listUsers() answers the page", async () => {
 *   env.use(listUsersOk(undefined, "next"));
 *   const page = await listUsers();
 *   if (page.users.length !== 2 || page.nextCursor !== "next") throw new Error("unexpected page");
 * });
 * ```
 */
export function listUsersOk(
  users: readonly User[] = [
    accountOf(userWithRole("admin")),
    accountOf(userWithRole("member")),
  ],
  nextCursor: string | null = null,
  total?: number,
): HttpHandler {
  return answer("listUsers", { users, nextCursor, total });
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
  return answer("createUser", async (request) => {
    const body = await jsonBody(request);
    const email = text(body.email, "new@example.com");
    return accountOf(userWithRole(`created:${email}`), {
      email,
      name: text(body.name, "New user"),
      role: text(body.role, ""),
    });
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
 * import { installTestEnvironment, setUserDisabledOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("setUserDisabled() answers the disabled account", async () => {
 *   env.use(setUserDisabledOk());
 *   const user = await setUserDisabled("0190f0a0-0000-7000-8000-000000000009", true);
 *   if (!user.disabled) throw new Error("expected disabled");
 * });
 * ```
 */
export function setUserDisabledOk(user?: User): HttpHandler {
  return answer("setUserDisabled", async (request, { id }) => ({
    ...accountWithId(String(id), user),
    disabled: (await jsonBody(request)).disabled === true,
  }));
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
 * import { installTestEnvironment, setUserRoleOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("setUserRole() answers the promoted account", async () => {
 *   env.use(setUserRoleOk());
 *   const user = await setUserRole("0190f0a0-0000-7000-8000-000000000009", "admin");
 *   if (user.role !== "admin") throw new Error("expected admin");
 * });
 * ```
 */
export function setUserRoleOk(user?: User): HttpHandler {
  return answer("setUserRole", async (request, { id }) => {
    const before = accountWithId(String(id), user);
    return {
      ...before,
      role: text((await jsonBody(request)).role, before.role),
    };
  });
}

/** A pending invitation for tests: sent a day ago by the `admin` test account. */
function invitationOf(email: string, role: string): PendingInvitation {
  const admin = userWithRole("admin");
  return {
    id: accountOf(userWithRole(`invitation:${email}`)).id,
    email,
    name: email.split("@")[0]!,
    role,
    invitedBy: { id: admin.id, email: admin.email, name: admin.name },
    createdAt: "2026-01-01T00:00:00.000Z",
    expiresAt: "2026-01-08T00:00:00.000Z",
  };
}

/**
 * The pending invitations answer a list.
 *
 * @param invitations The invitations; two sent by the `admin` test account by default.
 * @returns The handler.
 *
 * @example Two pending invitations
 * ```ts
 * import { listInvitations } from "@gatehouse/client/admin";
 * import { installTestEnvironment, listInvitationsOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("listInvitations() answers the list", async () => {
 *   env.use(listInvitationsOk());
 *   const invitations = await listInvitations();
 *   if (invitations.length !== 2 || invitations[0]?.invitedBy === null) throw new Error("unexpected list");
 * });
 * ```
 */
export function listInvitationsOk(
  invitations: readonly PendingInvitation[] = [
    invitationOf("ada@example.com", "member"),
    invitationOf("grace@example.com", ""),
  ],
): HttpHandler {
  return answer("listInvitations", { invitations });
}

/**
 * Revoking succeeds: 204.
 *
 * @returns The handler.
 *
 * @example Revoking
 * ```ts
 * import { revokeInvitation } from "@gatehouse/client/admin";
 * import { installTestEnvironment, revokeInvitationOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("revokeInvitation() resolves", async () => {
 *   env.use(revokeInvitationOk());
 *   await revokeInvitation("0190f0a0-0000-7000-8000-00000000000a");
 * });
 * ```
 */
export function revokeInvitationOk(): HttpHandler {
  return answer("revokeInvitation");
}

/**
 * The invitation is no longer pending: 404 `invitation_not_found`.
 *
 * @returns The handler.
 *
 * @example Revoking one already accepted
 * ```ts
 * import { InvitationNotFoundError, revokeInvitation } from "@gatehouse/client/admin";
 * import { installTestEnvironment, revokeInvitationNotFound } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("revokeInvitation() throws InvitationNotFoundError", async () => {
 *   env.use(revokeInvitationNotFound());
 *   const error = await revokeInvitation("0190f0a0-0000-7000-8000-00000000000a").catch((e) => e);
 *   if (!(error instanceof InvitationNotFoundError)) throw error;
 * });
 * ```
 */
export function revokeInvitationNotFound(): HttpHandler {
  return refuse("revokeInvitation", "invitation_not_found");
}

/**
 * The signed-in account could not have sent that invitation: 403
 * `role_beyond_reach`.
 *
 * @returns The handler.
 *
 * @example Revoking an invitation for a higher role
 * ```ts
 * import { revokeInvitation, RoleBeyondReachError } from "@gatehouse/client/admin";
 * import { installTestEnvironment, revokeInvitationBeyondReach } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("revokeInvitation() throws RoleBeyondReachError", async () => {
 *   env.use(revokeInvitationBeyondReach());
 *   const error = await revokeInvitation("0190f0a0-0000-7000-8000-00000000000a").catch((e) => e);
 *   if (!(error instanceof RoleBeyondReachError)) throw error;
 * });
 * ```
 */
export function revokeInvitationBeyondReach(): HttpHandler {
  return refuse("revokeInvitation", "role_beyond_reach");
}
