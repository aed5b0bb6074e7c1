// /forgot: asks for a reset link; the answer is the same for every address.

import { Island } from "../components/Island.tsx";

export const title = "Forgot your password";

export default function Page() {
  return <Island name="RequestReset" props={{}} />;
}
