/**
 * The REST transport: every operation over the HTTP contract through one
 * generic call, its method, path and answer read from `@gatehouse/contract`
 * (never written here), with relative `/api/...` URLs and the page's
 * cookies. It is the default; build your own with other options when the
 * API is not on the page's origin (a test server, server-side rendering).
 *
 * @module
 */

import { type Ask, call } from "./_call.ts";
import { reportFailure } from "./_report.ts";
import { securityOperations } from "./_rest_security.ts";
import { ssoOperations } from "./_rest_sso.ts";
import { UnauthorizedError } from "./errors.ts";
import { InvitationFailedError } from "./service_errors.ts";
import type { AuthTransport } from "./auth_transport.ts";
import type { LinkState } from "@gatehouse/contract";
import type {
  InviteResult,
  PendingInvitation,
  SessionUser,
  User,
  UserPage,
} from "./types.ts";
import type {
  SecondFactorChallenge,
  SecondFactorMethod,
} from "./security_types.ts";

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
  /**
   * How an operation that is a navigation, not a fetch, leaves the page
   * (`startSso`, to the single sign-on provider): `location.assign` by
   * default.
   */
  readonly navigate?: (url: string) => void;
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
  const ask: Ask = async (operation, input) =>
    (await call(http, operation, input)).body as never;

  return {
    async fetchSession(fetchOptions = {}) {
      try {
        return await ask<SessionUser>("fetchSession");
      } catch (error) {
        if (error instanceof UnauthorizedError) return null;
        reportFailure(fetchOptions.onFailure, error);
        return null;
      }
    },

    async login(email, password) {
      const { status, body } = await call<
        SessionUser | { secondFactor: SecondFactorMethod[] }
      >(http, "login", { body: { email, password } });
      // 202: the password is right, the second factor comes next.
      return status === 202 && "secondFactor" in body
        ? challenge(body.secondFactor as SecondFactorMethod[])
        : body as SessionUser;
    },

    logout: () => ask("logout"),

    isSessionRevoked(error) {
      return error instanceof UnauthorizedError;
    },

    listUsers: (query = {}) =>
      ask<UserPage>("listUsers", {
        query: {
          limit: query.limit,
          cursor: query.cursor,
          q: query.q,
          sort: query.sort,
        },
      }),

    createUser: ({ email, name, password, role }) =>
      ask<User>("createUser", {
        body: role === undefined
          ? { email, name, password }
          : { email, name, password, role },
        grantsRole: Boolean(role),
      }),

    setUserDisabled: (id, disabled, { seenRole } = {}) =>
      ask<User>("setUserDisabled", {
        params: { id },
        body: seenRole === undefined
          ? { disabled }
          : { disabled, role: seenRole },
      }),

    setUserRole: (id, role) =>
      ask<User>("setUserRole", {
        params: { id },
        body: { role },
        feature: "roleChanges",
        grantsRole: true,
      }),

    invite: async ({ email, name, role }) =>
      (await call<InviteResult>(http, "invite", {
        body: role === undefined ? { email, name } : { email, name, role },
        feature: "invitations",
        grantsRole: Boolean(role),
        // Not mailed and no link to hand back: the invitation failed.
        check: (json, status) => {
          const answer = json as {
            delivered?: unknown;
            activation_link?: unknown;
          };
          if (answer?.delivered === false && !answer.activation_link) {
            throw new InvitationFailedError(undefined, { status });
          }
        },
      })).body,

    listInvitations: async () =>
      (await ask<{ invitations: PendingInvitation[] }>("listInvitations"))
        .invitations,

    revokeInvitation: (id) => ask("revokeInvitation", { params: { id } }),

    acceptInvite: (token, password) =>
      ask<SessionUser>("acceptInvite", {
        body: { token, password },
        feature: "invitations",
      }),

    requestPasswordReset: (email) =>
      ask("requestPasswordReset", {
        body: { email },
        feature: "passwordResets",
      }),

    resetPassword: (token, password) =>
      ask("resetPassword", {
        body: { token, password },
        feature: "passwordResets",
      }),

    checkLink: async (token, kind) =>
      (await ask<{ status: LinkState }>("checkLink", {
        body: { token, kind },
        feature: kind === "invitation" ? "invitations" : "passwordResets",
      })).status,

    ...securityOperations(ask),
    ...ssoOperations(ask, options),
  };
}

function challenge(
  methods: readonly SecondFactorMethod[],
): SecondFactorChallenge {
  return { kind: "secondFactor", methods: Object.freeze([...methods]) };
}
