// The home page's island: the login screen when signed out, the account
// panel (name, email, role, "Sign out") when signed in.

import { AccountPanel } from "@gatehouse/client/screens";
import { Shell } from "./_shell.tsx";

/** The gate, the login screen and the account panel. */
export default function AppGate() {
  return (
    <Shell current="account">
      <AccountPanel />
    </Shell>
  );
}
