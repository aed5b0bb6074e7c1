// /users/invite: an administrator invites someone by email; without a
// mailer the screen shows the activation link.

import { Island } from "../../components/Island.tsx";
import type { PageProps } from "../../demo/render.tsx";
import { __, DEMO } from "../../islands/_i18n.ts";

export const title = () => __("Invite", DEMO);

export default function Page(props: PageProps) {
  return <Island name="Invite" props={{}} session={props.session} />;
}
