// /invite#token=…: an invited person (or the first administrator) sets a
// password. The token stays in the fragment, which the island reads in the
// browser, so it never reaches the server or its logs.

import { Island } from "../components/Island.tsx";
import type { PageProps } from "../demo/render.tsx";
import { __, DEMO } from "../islands/_i18n.ts";

export const title = () => __("Set your password", DEMO);

export default function Page(props: PageProps) {
  return <Island name="SetPassword" props={{}} session={props.session} />;
}
