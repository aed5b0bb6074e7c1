// An invitation link (`/invite#token=…`, the first administrator's too):
// the invited person chooses a password and is signed in. Then the page
// gives way to the account page, leaving the spent link out of the history.

import { SetPasswordScreen } from "@gatehouse/client/screens";
import { __, DEMO } from "./_i18n.ts";
import { BRAND, Loading, Main, useFragmentToken } from "./_shell.tsx";

/** The set-password screen for the link's token. */
export default function SetPassword() {
  const token = useFragmentToken();
  return (
    <Main center>
      {token === null
        ? <Loading title={__("Set your password", DEMO)} />
        : (
          <SetPasswordScreen
            brand={BRAND}
            token={token}
            signInHref="/"
            forgotPasswordHref="/forgot"
            onAccepted={() => location.replace("/")}
          />
        )}
    </Main>
  );
}
