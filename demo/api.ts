// The auth API under /api (DESIGN.md §4), as a route table: the session
// routes, user administration (and pending invitations) behind
// `requireSession`, and the public invitation and reset routes. Sign-ins and
// reset requests pass the login limiter, each with its own counts; so do
// attempts with dead links, counted by their 410.

import {
  type AccountLinks,
  type Admin,
  type Auth,
  type Handler,
  type Logger,
  loginRateLimiter,
  respond,
  type Store,
} from "@gatehouse/server";
import { type Route, route } from "./router.ts";

/** The services the API table mounts. */
export interface ApiServices {
  /** Sessions. */
  auth: Auth;
  /** User administration and `invite`. */
  admin: Admin;
  /** Accepting invitations, password resets. */
  links: AccountLinks;
  /** Where the limiters keep their counts. */
  store: Store;
  /** Where refusals and failures are logged. */
  logger: Logger;
  /** Overrides of the limiters' threshold and clock (tests). */
  limits?: { maxFailures?: number; now?: () => number };
}

/** The API routes, each path under `/api`. */
export function apiRoutes(services: ApiServices): Route[] {
  const { auth, admin, links, store, logger } = services;
  const common = { store, logger, ...services.limits };
  const signIns = loginRateLimiter({ ...common, namespace: "login" });
  const resets = loginRateLimiter({ ...common, namespace: "reset" });
  const deadLinks = loginRateLimiter({
    ...common,
    namespace: "link",
    counts: (res) => res.status === 410,
  });
  const session = auth.requireSession;
  return [
    route("POST", "/api/auth/login", signIns(auth.login)),
    route("POST", "/api/auth/logout", auth.logout),
    route("GET", "/api/auth/session", auth.session),
    route("GET", "/api/users", session(admin.listUsers)),
    route("POST", "/api/users", session(admin.createUser)),
    route("POST", "/api/users/invite", session(admin.invite)),
    route("GET", "/api/users/invitations", session(admin.listInvitations)),
    route(
      "DELETE",
      "/api/users/invitations/:id",
      session(admin.revokeInvitation),
    ),
    route("PATCH", "/api/users/:id", session(admin.setUserDisabled)),
    route("PUT", "/api/users/:id/role", session(admin.setUserRole)),
    route("POST", "/api/auth/invite/accept", deadLinks(links.acceptInvite)),
    route("POST", "/api/auth/password-reset", resets(links.requestReset)),
    route(
      "POST",
      "/api/auth/password-reset/confirm",
      deadLinks(links.confirmReset),
    ),
  ];
}

/** What an unknown `/api/...` path answers: JSON, like every API answer. */
export const apiNotFound: Handler = () =>
  respond({ error: "Not found", code: "not_found" }, { status: 404 });
