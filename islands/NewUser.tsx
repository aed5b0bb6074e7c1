// An administrator creates an account with a first password; the
// confirmation links to the new account in the list.

import { NewUserScreen } from "@gatehouse/client/screens";
import { Shell } from "./_shell.tsx";

/** The list, searched for one account. */
const inList = (user: { email: string }) =>
  `/users?q=${encodeURIComponent(user.email)}`;

/** The new-account form behind the gate. */
export default function NewUser() {
  return (
    <Shell current="users">
      <NewUserScreen
        onCreated={() => {}}
        accountHref={inList}
        cancelHref="/users"
      />
    </Shell>
  );
}
