// An administrator creates an account with a first password, then is taken
// back to the list.

import { NewUserScreen } from "@gatehouse/client/screens";
import { Shell } from "./_shell.tsx";

const toUsers = () => location.assign("/users");

/** The new-account form behind the gate. */
export default function NewUser() {
  return (
    <Shell current="users">
      <NewUserScreen onCreated={toUsers} onCancel={toUsers} />
    </Shell>
  );
}
