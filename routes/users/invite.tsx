// /users/invite: an administrator invites someone by email; without a
// mailer the screen shows the activation link.

import { Island } from "../../components/Island.tsx";

export const title = "Invite";

export default function Page() {
  return <Island name="Invite" props={{}} />;
}
