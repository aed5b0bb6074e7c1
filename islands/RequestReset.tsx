// "Forgot password?": asks for a reset link. The answer is the same
// sentence whatever the address; the demo has no mailer, so the link goes
// to the server's log.

import { RequestResetScreen } from "@gatehouse/client/screens";
import { BRAND, Main } from "./_shell.tsx";

/** The reset-request screen. */
export default function RequestReset() {
  return (
    <Main center>
      <RequestResetScreen brand={BRAND} signInHref="/" />
    </Main>
  );
}
