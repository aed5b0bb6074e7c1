// A reset link (`/reset#token=…`): a new password, then a way back to the
// sign-in page. A dead link offers to request a new one.

import { ResetPasswordScreen } from "@gatehouse/client/screens";
import { __, DEMO } from "./_i18n.ts";
import { BRAND, Loading, Main, useFragmentToken } from "./_shell.tsx";

// The token is spent: keep it out of the history.
const forget = () => history.replaceState(null, "", location.pathname);

/** The reset screen for the link's token. */
export default function ResetPassword() {
  const token = useFragmentToken();
  return (
    <Main center>
      {token === null
        ? <Loading title={__("Reset your password", DEMO)} />
        : (
          <ResetPasswordScreen
            brand={BRAND}
            token={token}
            onDone={forget}
            requestNewHref="/forgot"
            signInHref="/"
          />
        )}
    </Main>
  );
}
