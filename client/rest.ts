/**
 * The REST transport: every operation over the HTTP contract, its method
 * and path read from `@gatehouse/contract` (never written here), with
 * relative `/api/...` URLs and the page's cookies. It is
 * the default; build your own with other options when the API is not on the
 * page's origin (a test server, server-side rendering).
 *
 * @module
 */

import { discard, type HttpCall, readJson, send } from "./_http.ts";
import { reportFailure } from "./_report.ts";
import { securityOperations } from "./_rest_security.ts";
import {
  readInvitations,
  readInviteResult,
  readLinkState,
  readSessionUser,
  readUser,
  readUserPage,
} from "./_wire.ts";
import { readChallenge } from "./_wire_security.ts";
import { UnauthorizedError } from "./errors.ts";
import { InvitationFailedError } from "./service_errors.ts";
import type { AuthTransport } from "./auth_transport.ts";
import type { User } from "./types.ts";

/**
 * Options of {@linkcode restTransport}.
 *
 * @example Counting requests
 * ```ts
 * import { restTransport, type RestTransportOptions } from "@gatehouse/client";
 *
 * let requests = 0;
 * const options: RestTransportOptions = {
 *   baseUrl: "http://127.0.0.1:8000",
 *   fetch: (input, init) => {
 *     requests += 1;
 *     return fetch(input, init);
 *   },
 * };
 * const transport = restTransport(options);
 * ```
 */
export interface RestTransportOptions {
  /**
   * Base URL the `/api/...` paths resolve against. By default they resolve
   * against the page's `location` (and stay relative without one).
   */
  readonly baseUrl?: string | URL;
  /** The fetch to use; `globalThis.fetch` at call time by default. */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * Builds every operation on REST.
 *
 * @param options Base URL and fetch; both optional.
 * @returns A complete transport.
 *
 * @example Talking to an API on another base URL
 * ```ts
 * import { configureAuthTransport, resetAuthTransport, restTransport } from "@gatehouse/client";
 *
 * configureAuthTransport(restTransport({ baseUrl: "http://127.0.0.1:8000" }));
 * resetAuthTransport();
 * ```
 */
export function restTransport(
  options: RestTransportOptions = {},
): AuthTransport {
  const http = { ...options };
  const call = (spec: HttpCall) => send(http, spec);

  async function user(spec: HttpCall): Promise<User> {
    const response = await call(spec);
    return readUser(await readJson(response), response.status);
  }

  return {
    async fetchSession(fetchOptions = {}) {
      try {
        const response = await call({ operation: "fetchSession" });
        return readSessionUser(await readJson(response), response.status);
      } catch (error) {
        if (error instanceof UnauthorizedError) return null;
        reportFailure(fetchOptions.onFailure, error);
        return null;
      }
    },

    async login(email, password) {
      const response = await call({
        operation: "login",
        body: { email, password },
      });
      // 202: the password is right, the second factor comes next.
      return response.status === 202
        ? readChallenge(await readJson(response), response.status)
        : readSessionUser(await readJson(response), response.status);
    },

    async logout() {
      await discard(await call({ operation: "logout" }));
    },

    isSessionRevoked(error) {
      return error instanceof UnauthorizedError;
    },

    async listUsers(query = {}) {
      const response = await call({
        operation: "listUsers",
        query: {
          limit: query.limit,
          cursor: query.cursor,
          q: query.q,
          sort: query.sort,
        },
      });
      return readUserPage(await readJson(response), response.status);
    },

    createUser(input) {
      const { email, name, password, role } = input;
      return user({
        operation: "createUser",
        body: role === undefined
          ? { email, name, password }
          : { email, name, password, role },
        grantsRole: Boolean(role),
      });
    },

    setUserDisabled(id, disabled, setOptions = {}) {
      const { seenRole } = setOptions;
      return user({
        operation: "setUserDisabled",
        params: { id },
        body: seenRole === undefined
          ? { disabled }
          : { disabled, role: seenRole },
      });
    },

    setUserRole(id, role) {
      return user({
        operation: "setUserRole",
        params: { id },
        body: { role },
        feature: "roleChanges",
        grantsRole: true,
      });
    },

    async invite(invitation) {
      const { email, name, role } = invitation;
      const response = await call({
        operation: "invite",
        body: role === undefined ? { email, name } : { email, name, role },
        feature: "invitations",
        grantsRole: Boolean(role),
      });
      const result = readInviteResult(
        await readJson(response),
        response.status,
      );
      if (!result.delivered && result.activationLink === "") {
        throw new InvitationFailedError(undefined, { status: response.status });
      }
      return result;
    },

    async listInvitations() {
      const response = await call({
        operation: "listInvitations",
        feature: "invitationAdministration",
      });
      return readInvitations(await readJson(response), response.status);
    },

    async revokeInvitation(id) {
      await discard(
        await call({
          operation: "revokeInvitation",
          params: { id },
          feature: "invitationAdministration",
        }),
      );
    },

    async acceptInvite(token, password) {
      const response = await call({
        operation: "acceptInvite",
        body: { token, password },
        feature: "invitations",
      });
      return readSessionUser(await readJson(response), response.status);
    },

    async requestPasswordReset(email) {
      await discard(
        await call({
          operation: "requestPasswordReset",
          body: { email },
          feature: "passwordResets",
        }),
      );
    },

    async resetPassword(token, password) {
      await discard(
        await call({
          operation: "resetPassword",
          body: { token, password },
          feature: "passwordResets",
        }),
      );
    },

    async checkLink(token, kind) {
      const response = await call({
        operation: "checkLink",
        body: { token, kind },
        feature: kind === "invitation" ? "invitations" : "passwordResets",
      });
      return readLinkState(await readJson(response), response.status);
    },

    ...securityOperations(call),
  };
}
