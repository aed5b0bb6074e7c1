// /invite#token=…: an invited person (or the first administrator) sets a
// password. The token stays in the fragment, which the island reads in the
// browser, so it never reaches the server or its logs.

import { Island } from "../components/Island.tsx";

export const title = "Set your password";

export default function Page() {
  return <Island name="SetPassword" props={{}} />;
}
