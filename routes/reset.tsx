// /reset#token=…: a new password from a reset link. The token stays in the
// fragment, which the island reads in the browser.

import { Island } from "../components/Island.tsx";

export const title = "Reset your password";

export default function Page() {
  return <Island name="ResetPassword" props={{}} />;
}
