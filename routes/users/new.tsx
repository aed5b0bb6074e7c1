// /users/new: an administrator creates an account with a password.

import { Island } from "../../components/Island.tsx";
import type { PageProps } from "../../demo/render.tsx";
import { __, DEMO } from "../../islands/_i18n.ts";

export const title = () => __("New user", DEMO);

export default function Page(props: PageProps) {
  return <Island name="NewUser" props={{}} session={props.session} />;
}
