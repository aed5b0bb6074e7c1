// The single sign-on lists the signed-in screens read from the query
// cache: the server's providers (fixed by its configuration: read once)
// and the account's linked identities (read only where there are
// providers: a server without single sign-on is asked nothing more).

import { useQuery } from "@tanstack/preact-query";
import { listSsoIdentities, listSsoProviders } from "../sso_calls.ts";
import type { SsoIdentity, SsoProvider } from "../sso_types.ts";
import { SSO_IDENTITIES_KEY, SSO_PROVIDERS_KEY } from "./_security_keys.ts";

const NONE: readonly never[] = Object.freeze([]);

/**
 * The server's providers; none while loading, and none from a server
 * older than single sign-on or out of reach.
 */
export function useSsoProviders(): readonly SsoProvider[] {
  const query = useQuery({
    queryKey: SSO_PROVIDERS_KEY,
    queryFn: listSsoProviders,
    staleTime: Infinity,
    retry: false,
  });
  return query.data ?? NONE;
}

/** The account's linked identities, asked for only when `enabled`. */
export function useSsoIdentities(enabled: boolean) {
  return useQuery<SsoIdentity[]>({
    queryKey: SSO_IDENTITIES_KEY,
    queryFn: listSsoIdentities,
    enabled,
  });
}

/** The name of the provider `id`, or the id itself for one no longer offered. */
export function providerName(
  providers: readonly SsoProvider[],
  id: string,
): string {
  return providers.find((provider) => provider.id === id)?.name ?? id;
}
