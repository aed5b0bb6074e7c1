// /reset#token=…: a new password from a reset link. The token stays in the
// fragment, which the island reads in the browser.

import { Island } from "../components/Island.tsx";
import type { PageProps } from "../demo/render.tsx";
import { __, DEMO } from "../islands/_i18n.ts";

export const title = () => __("Reset your password", DEMO);

export default function Page(props: PageProps) {
  return <Island name="ResetPassword" props={{}} session={props.session} />;
}
