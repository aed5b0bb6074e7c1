// /users/new: an administrator creates an account with a password.

import { Island } from "../../components/Island.tsx";

export const title = "New user";

export default function Page() {
  return <Island name="NewUser" props={{}} />;
}
