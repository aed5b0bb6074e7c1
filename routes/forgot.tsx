// /forgot: asks for a reset link; the answer is the same for every address.

import { Island } from "../components/Island.tsx";
import type { PageProps } from "../demo/render.tsx";
import { __, DEMO } from "../islands/_i18n.ts";

export const title = () => __("Forgot your password", DEMO);

export default function Page(props: PageProps) {
  return <Island name="RequestReset" props={{}} session={props.session} />;
}
