// "Forgot password?": asks for a reset link. The answer is the same
// sentence whatever the address; the demo has no mailer, so the link goes
// to the server's log.

import { RequestResetScreen } from "@gatehouse/client/screens";

/** The reset-request screen. */
export default function RequestReset() {
  return (
    <main class="demo-center">
      <RequestResetScreen onBack={() => location.assign("/")} />
    </main>
  );
}
