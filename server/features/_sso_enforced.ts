// Enforcement of single sign-on on the link routes (DESIGN.md §13): an
// address an enforcing provider speaks for neither accepts an invitation
// nor confirms a reset with a password; it signs in through the provider.

import type { GatehouseContext } from "../core/context.ts";
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
