// /: the login screen when signed out, the account panel when signed in.

import { Island } from "../components/Island.tsx";
import type { PageProps } from "../demo/render.tsx";
import { __, DEMO } from "../islands/_i18n.ts";

export const title = () => __("Account", DEMO);

export default function Page(props: PageProps) {
  return <Island name="AppGate" props={{}} session={props.session} />;
}
