// Why a single sign-on failed (DESIGN.md §13): the callback sends the
// browser to `/?sso_error=CODE`; the screen there reads the code once
// mounted, takes it out of the address (a reload, a bookmark or a shared
// link does not repeat an old failure), and says it in a sentence of the
// reader's language. A code this client does not know (a newer server)
// still gets a sentence.

import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { SSO_ERROR_PARAM } from "../_rest_sso.ts";
import type { SsoErrorCode } from "../sso_types.ts";
import { __, DOMAIN } from "./i18n.ts";

/** The sentence for a failure's code. */
export function ssoErrorText(code: SsoErrorCode | string): string {
  switch (code as SsoErrorCode) {
    case "sso_state_invalid":
      return __(
        "Signing in with your organisation took too long or was interrupted. Try again.",
        DOMAIN,
      );
    case "sso_denied":
      return __(
        "Your organisation's sign-in was cancelled or refused. Try again, or ask your administrator.",
        DOMAIN,
      );
    case "sso_token_invalid":
      return __(
        "The answer from your organisation's sign-in could not be verified. Try again; if it keeps happening, tell your administrator.",
        DOMAIN,
      );
    case "sso_email_unverified":
      return __(
        "Your organisation's sign-in has not confirmed your email address, so it cannot sign you in here. Confirm it there, or ask your administrator.",
        DOMAIN,
      );
    case "sso_account_unknown":
      return __(
        "No account here belongs to the identity you used. Ask an administrator to invite you, or use the identity linked to your account.",
        DOMAIN,
      );
    case "sso_account_disabled":
      return __(
        "This account is disabled. Ask an administrator to enable it.",
        DOMAIN,
      );
    case "sso_domain_refused":
      return __(
        "This sign-in provider may not sign in addresses of your email's domain here. Sign in another way, or ask your administrator.",
        DOMAIN,
      );
    default:
      return __(
        "Signing in with your organisation did not work. Try again.",
        DOMAIN,
      );
  }
}

/**
 * The `sso_error` code of the page's address, read once the screen is
 * mounted (the server's markup has none) and taken out of the address;
 * null when there is none.
 */
export function useSsoError(): string | null {
  const code = useSignal<string | null>(null);
  useEffect(() => {
    if (typeof location === "undefined" || location === null) return;
    const url = new URL(location.href);
    const found = url.searchParams.get(SSO_ERROR_PARAM);
    if (found === null) return;
    code.value = found;
    url.searchParams.delete(SSO_ERROR_PARAM);
    try {
      history.replaceState(history.state, "", url.href);
    } catch {
      // A page whose history refuses (a sandboxed frame): the code stays
      // in the address; it is shown all the same.
    }
  }, []);
  return code.value;
}
