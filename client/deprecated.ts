/**
 * The deprecated names of `@gatehouse/client`, all in one place, each kept
 * only because SPEC.md spells it: `fetchUsers` (a transport operation of
 * SPEC's list), and `acceptInvite`, `requestPasswordReset` and
 * `resetPassword` where they first lived, in `@gatehouse/client/admin`.
 * `DeprecatedTransportNames` is the type of the transport's old `fetchUsers`
 * member. `client/mod.ts` and `client/admin.ts` re-export them; they go with
 * the next breaking release.
 *
 * @module
 */

export { fetchUsers } from "./admin_calls.ts";
export {
  acceptInvite,
  requestPasswordReset,
  resetPassword,
} from "./_moved_link_calls.ts";
export type { DeprecatedTransportNames } from "./transport.ts";
