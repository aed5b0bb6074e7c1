// Enforcement of single sign-on outside the provider's own routes (DESIGN.md
// §13): an address an enforcing provider speaks for neither accepts an
// invitation, confirms a reset with a password, nor finishes a passkey
// sign-in or a second step; it signs in through the provider.

import { fold } from "../core/_fold.ts";
import type { EventParts } from "../core/_audit.ts";
import type { GatehouseContext } from "../core/context.ts";
import type { UserRecord } from "../core/store.ts";
import { AuthError } from "../http/errors.ts";

/** Throws 403 `sso_required` (`meta.provider`) for an enforced address. */
export function refuseEnforced(
  context: Pick<GatehouseContext, "sso">,
  emailKey: string,
): void {
  const provider = context.sso.enforcedBy(emailKey);
  if (provider !== null) {
    throw new AuthError("sso_required", { meta: { provider: provider.id } });
  }
}

/**
 * For a sign-in of `user` whose address an enforcing provider speaks for:
 * records its `login.failed` (`reason: "sso_required"`, the provider, and
 * `detail` first) and throws `refusal`, 403 `sso_required` by default.
 */
export function refuseEnforcedSignIn(
  context: Pick<GatehouseContext, "sso" | "trail">,
  user: UserRecord,
  attempt: Pick<EventParts, "client"> & { detail: Record<string, unknown> },
  refusal?: AuthError,
): void {
  const provider = context.sso.enforcedBy(fold(user.email));
  if (provider === null) return;
  context.trail.refused([context.trail.event("login.failed", {
    actor: user,
    client: attempt.client,
    detail: {
      ...attempt.detail,
      reason: "sso_required",
      provider: provider.id,
    },
  })]);
  throw refusal ??
    new AuthError("sso_required", { meta: { provider: provider.id } });
}

/**
 * {@linkcode refuseEnforcedSignIn} for a sign-in that outlives its answer (a
 * pending second step): `end` ends it first (true: this call ended it), so
 * a retry finds it gone. Only the call that ended it records its
 * `login.failed`; one that finds it ended already throws `refusal` alone.
 */
export async function endEnforcedSignIn(
  context: Pick<GatehouseContext, "sso" | "trail">,
  user: UserRecord,
  attempt: Pick<EventParts, "client"> & { detail: Record<string, unknown> },
  end: () => Promise<boolean>,
  refusal: AuthError,
): Promise<void> {
  if (context.sso.enforcedBy(fold(user.email)) === null) return;
  if (!(await end())) throw refusal;
  refuseEnforcedSignIn(context, user, attempt, refusal);
}
