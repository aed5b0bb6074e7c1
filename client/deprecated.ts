/**
 * The deprecated names of `@gatehouse/client`, all in one place, each kept
 * only because SPEC.md spells it: `fetchUsers` (a transport operation of
 * SPEC's list), and `acceptInvite`, `requestPasswordReset` and
 * `resetPassword` where they first lived, in `@gatehouse/client/admin`.
 * `DeprecatedTransportNames` is the type of the transport's old `fetchUsers`
 * member (`configureAuthTransport` still accepts it). `client/admin.ts`
 * re-exports them all; they go with the next breaking release. The canned
 * handlers of `@gatehouse/client/testing` under SPEC.md's earlier names are
 * in `testing/deprecated.ts`, so that no other entry loads the harness.
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
