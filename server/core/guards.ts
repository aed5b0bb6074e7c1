/**
 * The route guards: `requireSession` resolves the session cookie into an
 * Identity on the request; `requirePrivilege` and `requireCapability` sit
 * behind it. Each is a factory that fixes its options once and returns
 * Middleware. `createAuth` hands them out bound to its store and config.
 *
 * @module
 */

import { AuthError } from "../http/errors.ts";
import { answerError, type Middleware } from "../http/respond.ts";
import {
  type Identity,
  identityFromContext,
  sessionFromContext,
} from "./identity.ts";
import type { Logger } from "../http/logger.ts";

/**
 * Resolves the identity behind a request's cookie and attaches it (with
 * its session) to the request; null when there is no live session.
 */
export type IdentityResolver = (req: Request) => Promise<Identity | null>;

const SESSION_ABSENT = new AuthError("session_absent");

/**
 * Admits requests with a live session and attaches their identity. It
 * answers errors itself, like `answeringErrors` (one async frame on the
 * path every guarded request takes, not two).
 */
export function sessionGuard(
  resolve: IdentityResolver,
  logger: Logger,
): Middleware {
  return (next) =>
    async function sessionRequired(req, params, info) {
      try {
        if (await resolve(req) === null) {
          return answerError(SESSION_ABSENT, logger);
        }
        return await next(req, params, info);
      } catch (err) {
        return answerError(err, logger);
      }
    };
}

/**
 * Admits identities whose role is in `privileged` (copied here); an empty
 * list admits everyone. An account with no role passes only then.
 */
export function privilegeGuard(
  privileged: readonly string[],
  logger: Logger,
): Middleware {
  const roles = new Set(privileged);
  const refusal = new AuthError("role_insufficient");
  return (next) =>
    function privilegeRequired(req, params, info) {
      const identity = identityFromContext(req);
      if (identity === null) return answerError(SESSION_ABSENT, logger);
      if (roles.size > 0 && !roles.has(identity.role)) {
        return answerError(refusal, logger);
      }
      return next(req, params, info);
    };
}

/**
 * Admits identities carrying `capability`; refuses with
 * `capability_missing` and `meta.capability` otherwise. Without a registry
 * no identity carries any capability, so every request is refused.
 */
export function capabilityGuard(
  capability: string,
  logger: Logger,
): Middleware {
  if (capability.trim() === "") {
    throw new TypeError("Invalid capability: the name is empty");
  }
  const refusal = new AuthError("capability_missing", {
    message: `Your role lacks the capability "${capability}"`,
    meta: { capability },
  });
  return (next) =>
    function capabilityRequired(req, params, info) {
      const identity = identityFromContext(req);
      if (identity === null) return answerError(SESSION_ABSENT, logger);
      if (!identity.capabilities?.includes(capability)) {
        return answerError(refusal, logger);
      }
      return next(req, params, info);
    };
}

/**
 * Behind `requireSession`: admits a session whose holder proved who they
 * are less than `window` ms ago (sign-in or re-authentication); refuses
 * with `reauthentication_required` otherwise (DESIGN.md §8).
 */
export function freshGuard(
  window: number,
  now: () => number,
  logger: Logger,
): Middleware {
  const refusal = new AuthError("reauthentication_required");
  return (next) =>
    function freshRequired(req, params, info) {
      const session = sessionFromContext(req);
      if (session === null) return answerError(SESSION_ABSENT, logger);
      if (now() - session.authenticatedAt >= window) {
        return answerError(refusal, logger);
      }
      return next(req, params, info);
    };
}

/**
 * Behind `requireSession`: refuses with `second_factor_required` an
 * account whose role requires a second factor it has not enrolled
 * (`requireSecondFactor`; its Identity says `second_factor_required`).
 */
export function secondFactorGuard(logger: Logger): Middleware {
  const refusal = new AuthError("second_factor_required");
  return (next) =>
    function secondFactorRequired(req, params, info) {
      const identity = identityFromContext(req);
      if (identity === null) return answerError(SESSION_ABSENT, logger);
      if (identity.second_factor_required === true) {
        return answerError(refusal, logger);
      }
      return next(req, params, info);
    };
}
