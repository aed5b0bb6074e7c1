// "Sign in with {name}" on the login screen (DESIGN.md §13): a button per
// single sign-on provider. When the typed address's domain belongs to a
// provider that enforces single sign-on, only that provider is offered, and
// a hint says why; after a password sign-in refused with `sso_required`,
// only the provider the server named.

import { emailDomain } from "@gatehouse/contract/shapes";
import type { VNode } from "../_peer_types.ts";
import type { SsoProvider } from "../sso_types.ts";
import { ActionButton } from "./_form_parts.tsx";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** The domain of a typed address as typed, lower-cased (for the hint); "" while there is none. */
export function domainOf(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf("@");
  return at === -1 ? "" : trimmed.slice(at + 1).toLowerCase();
}

/** The provider that must sign in addresses of `email`'s domain, if any. */
export function enforcingProvider(
  providers: readonly SsoProvider[],
  email: string,
): SsoProvider | undefined {
  // As the server compares: in the domain's ASCII form (the contract's).
  const domain = emailDomain(email.trim());
  if (domain === null) return undefined;
  return providers.find((provider) =>
    provider.enforce === true && provider.domains.includes(domain)
  );
}

/** The single sign-on part of the login screen; nothing without providers. */
export function SsoSignIn(
  props: {
    readonly id: string;
    readonly providers: readonly SsoProvider[];
    /** The address typed so far. */
    readonly email: string;
    /** The provider a refusal (`sso_required`) named, if any. */
    readonly required: string | undefined;
    readonly pending: boolean;
    readonly onStart: (provider: SsoProvider) => void;
  },
): VNode | null {
  const { providers } = props;
  const enforcing = enforcingProvider(providers, props.email);
  const named = providers.find((provider) => provider.id === props.required);
  const offered = enforcing !== undefined
    ? [enforcing]
    : named !== undefined
    ? [named]
    : providers;
  if (offered.length === 0) return null;
  const hintId = `${props.id}-sso-hint`;
  return (
    <div class="gh-sso-sign-in">
      {enforcing !== undefined && (
        <p id={hintId} class="gh-hint">
          {sprintf(
            /* translators: 1: an email domain ("acme.example"), 2: a sign-in provider's name. */
            __("Addresses at %1$s sign in with %2$s.", DOMAIN),
            domainOf(props.email),
            enforcing.name,
          )}
        </p>
      )}
      <div class="gh-actions">
        {offered.map((provider) => (
          <ActionButton
            key={provider.id}
            pending={props.pending}
            describedBy={enforcing === undefined ? undefined : hintId}
            onClick={() => props.onStart(provider)}
          >
            {sprintf(__("Sign in with %s", DOMAIN), provider.name)}
          </ActionButton>
        ))}
      </div>
    </div>
  );
}
