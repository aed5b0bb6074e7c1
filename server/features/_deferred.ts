// The features' operations as `createGatehouse` mounts them: each feature
// module (administration, one's account, the link routes, the second
// factor, passkeys, single sign-on) is imported, and its operations built
// on the context, by the first call of one of its operations, not at
// start-up (issue 31): a cold start answering a session check loads and
// builds none of them. The routes in front of them (guard, limiter,
// checks) are built at once from the contract, so a feature's first call
// is refused or admitted exactly as any later one.
//
// The imports are written with literal specifiers, so that `deno info`,
// `deno bundle --code-splitting` (a chunk per feature), `deno publish` and
// Deno Deploy see every module.

import type { OperationName } from "@gatehouse/contract";
import type { GatehouseContext } from "../core/context.ts";
import { deferredOperations, type Operations } from "../core/operation.ts";
import { lazyImport } from "../http/_lazy_import.ts";
import type { accountOperations } from "./account.ts";
import type { accountLinkOperations } from "./account_links.ts";
import type { adminOperations } from "./_admin_operations.ts";
import type { passkeyOperations } from "./passkeys.ts";
import type { secondFactorOperations } from "./second_factor.ts";
import type { ssoOperations } from "./sso.ts";

// The names of the operations a feature's factory makes.
type NamesOf<F extends (context: GatehouseContext) => object> =
  & keyof ReturnType<F>
  & OperationName;

/** Each feature's operations on `context`, each built by its first call. */
export interface FeatureOperations {
  readonly admin: Operations<NamesOf<typeof adminOperations>>;
  readonly account: Operations<NamesOf<typeof accountOperations>>;
  readonly links: Operations<NamesOf<typeof accountLinkOperations>>;
  readonly secondFactor: Operations<NamesOf<typeof secondFactorOperations>>;
  readonly passkeys: Operations<NamesOf<typeof passkeyOperations>>;
  readonly sso: Operations<NamesOf<typeof ssoOperations>>;
}

/**
 * The operations of every feature on `context`, each feature imported and
 * built once, by the first call of any of its operations.
 */
export function featureOperations(
  context: GatehouseContext,
): FeatureOperations {
  return {
    admin: deferredAdmin(context),
    account: deferredOperations(
      context,
      {
        changePassword: true,
        reauthenticate: true,
        listSessions: true,
        revokeSession: true,
        revokeOtherSessions: true,
        listActivity: true,
        updateAccount: true,
      },
      lazyImport(() =>
        import("./account.ts").then((m) => m.accountOperations(context))
      ),
    ),
    links: deferredOperations(
      context,
      {
        acceptInvite: true,
        requestPasswordReset: true,
        resetPassword: true,
        checkLink: true,
      },
      lazyImport(() =>
        import("./account_links.ts").then((m) =>
          m.accountLinkOperations(context)
        )
      ),
    ),
    secondFactor: deferredOperations(
      context,
      {
        setupTotp: true,
        confirmTotp: true,
        disableTotp: true,
        regenerateRecoveryCodes: true,
        countRecoveryCodes: true,
        verifySecondFactor: true,
      },
      lazyImport(() =>
        import("./second_factor.ts").then((m) =>
          m.secondFactorOperations(context)
        )
      ),
    ),
    passkeys: deferredOperations(
      context,
      {
        passkeyRegistrationOptions: true,
        registerPasskey: true,
        listPasskeys: true,
        renamePasskey: true,
        removePasskey: true,
        passkeyLoginOptions: true,
        loginWithPasskey: true,
      },
      lazyImport(() =>
        import("./passkeys.ts").then((m) => m.passkeyOperations(context))
      ),
    ),
    sso: deferredOperations(
      context,
      {
        listSsoProviders: true,
        startSso: true,
        ssoCallback: true,
        ssoBackchannelLogout: true,
        listSsoIdentities: true,
        unlinkSsoIdentity: true,
      },
      lazyImport(() =>
        import("./sso.ts").then((m) => m.ssoOperations(context))
      ),
    ),
  };
}

/**
 * The administration operations on `context`, imported and built by the
 * first call of one (`createAdmin` hands them out too).
 */
export function deferredAdmin(
  context: GatehouseContext,
): FeatureOperations["admin"] {
  return deferredOperations(
    context,
    {
      listUsers: true,
      createUser: true,
      setUserDisabled: true,
      setUserRole: true,
      invite: true,
      listInvitations: true,
      revokeInvitation: true,
      revokeUserSessions: true,
      removeUserSecondFactor: true,
      unlockUser: true,
      listAuditEvents: true,
    },
    lazyImport(() =>
      import("./_admin_operations.ts").then((m) => m.adminOperations(context))
    ),
  );
}
