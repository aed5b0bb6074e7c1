// An invitation link (`/invite#token=…`, the first administrator's too):
// the invited person chooses a password and is signed in. Then the page
// gives way to the account page, leaving the spent link out of the history.

import { SetPasswordScreen } from "@gatehouse/client/screens";
import { BRAND, Loading, useFragmentToken } from "./_shell.tsx";

/** The set-password screen for the link's token. */
export default function SetPassword() {
  const token = useFragmentToken();
  return (
    <main class="demo-center">
      {token === null ? <Loading /> : (
        <SetPasswordScreen
          brand={BRAND}
          token={token}
          onAccepted={() => location.replace("/")}
        />
      )}
    </main>
  );
}
