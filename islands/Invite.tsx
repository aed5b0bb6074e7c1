// An administrator invites someone by name and email. The demo has no
// mailer, so the screen shows the activation link to pass on.

import { InviteScreen } from "@gatehouse/client/screens";
import { Shell } from "./_shell.tsx";

/** The invitation form behind the gate. */
export default function Invite() {
  return (
    <Shell current="users">
      <InviteScreen cancelHref="/users" invitationsHref="/users" />
    </Shell>
  );
}
