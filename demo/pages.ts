// The page table (what Fresh generates from routes/): each path and the
// module under routes/ that renders it.

import type { PageModule } from "./render.tsx";
import * as Forgot from "../routes/forgot.tsx";
import * as Home from "../routes/index.tsx";
import * as Invite from "../routes/invite.tsx";
import * as NotFound from "../routes/_404.tsx";
import * as Reset from "../routes/reset.tsx";
import * as UsersAudit from "../routes/users/audit.tsx";
import * as UsersIndex from "../routes/users/index.tsx";
import * as UsersInvite from "../routes/users/invite.tsx";
import * as UsersNew from "../routes/users/new.tsx";

/** Pathname → page. */
export const PAGES: ReadonlyArray<readonly [string, PageModule]> = [
  ["/", Home],
  ["/forgot", Forgot],
  ["/invite", Invite],
  ["/reset", Reset],
  ["/users", UsersIndex],
  ["/users/new", UsersNew],
  ["/users/invite", UsersInvite],
  ["/users/audit", UsersAudit],
];

/** The page for paths no route matches. */
export const NOT_FOUND: PageModule = NotFound;
