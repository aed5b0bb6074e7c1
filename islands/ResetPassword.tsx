// A reset link (`/reset#token=…`): a new password, then a way back to the
// sign-in page. A dead link offers to request a new one.

import { ResetPasswordScreen } from "@gatehouse/client/screens";
import { __ } from "@wordpress/i18n";
import { useState } from "preact/hooks";
import { DEMO } from "./_i18n.ts";
import { Loading, useFragmentToken } from "./_shell.tsx";

/** The reset screen for the link's token. */
export default function ResetPassword() {
  const token = useFragmentToken();
  const [done, setDone] = useState(false);
  const finish = () => {
    // The token is spent: keep it out of the history.
    history.replaceState(null, "", location.pathname);
    setDone(true);
  };
  return (
    <main class="demo-center">
      {token === null ? <Loading /> : (
        <ResetPasswordScreen
          token={token}
          onDone={finish}
          onRequestNew={() => location.assign("/forgot")}
        />
      )}
      {done && (
        <p class="demo-after">
          <a class="demo-link" href="/">{__("Back to sign in", DEMO)}</a>
        </p>
      )}
    </main>
  );
}
