// /: the login screen when signed out, the account panel when signed in.

import { Island } from "../components/Island.tsx";

export const title = "Account";

export default function Page() {
  return <Island name="AppGate" props={{}} />;
}
