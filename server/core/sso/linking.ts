// The checks before an identity is linked for the first time (DESIGN.md
// §13, "Linking rules"), in their order: the provider's domains first, then
// whether the provider vouches for the address. They apply only at the
// first sign-in with an identity: after the link, (iss, sub) alone decides
// and the address is never matched again.

import { emailDomain, type SsoIdentity } from "./claims.ts";
import { refuse, type SsoRefusal } from "./errors.ts";
import type { SsoProvider } from "./provider_config.ts";

/**
 * Why `identity` may not be linked to an account, create one or spend an
 * invitation, or null when it may: `sso_domain_refused` when the provider
 * has `domains` and the address is outside them (or absent), else
 * `sso_email_unverified` when the provider does not vouch for the address.
 *
 * @param provider The provider the identity signed in with.
 * @param identity The identity from the callback.
 * @returns The refusal, or null.
 *
 * @example
 * ```ts
 * import { firstLinkRefusal } from "./linking.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [acme] = resolveSsoProviders({ providers: [{
 *   id: "acme", name: "Acme", issuer: "https://idp.acme.example",
 *   clientId: "a", clientSecret: "s", domains: ["acme.example"],
 * }] });
 * const person = {
 *   issuer: "https://idp.acme.example", subject: "1", name: null,
 *   roleValues: null, sid: null, authTime: null,
 *   email: "ada@elsewhere.example", emailVerified: true,
 * };
 * console.assert(firstLinkRefusal(acme!, person)?.code === "sso_domain_refused");
 * ```
 */
export function firstLinkRefusal(
  provider: SsoProvider,
  identity: SsoIdentity,
): SsoRefusal | null {
  if (provider.domains.length > 0) {
    const domain = emailDomain(identity.email);
    if (domain === null || !provider.domains.includes(domain)) {
      return refuse(
        "sso_domain_refused",
        domain === null
          ? "The ID token carries no address, and the provider has domains"
          : `The address's domain "${domain}" is not among the provider's domains`,
      );
    }
  }
  if (identity.email === null || !identity.emailVerified) {
    return refuse(
      "sso_email_unverified",
      identity.email === null
        ? "The provider gives no address"
        : "The provider does not vouch for the address (email_verified is not true)",
    );
  }
  return null;
}
