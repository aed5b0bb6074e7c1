// /users/audit: the audit log (`?user=` starts it filtered by an account).

import { __ } from "@wordpress/i18n";
import { Island } from "../../components/Island.tsx";
import type { PageProps } from "../../demo/render.tsx";
import { DEMO } from "../../islands/_i18n.ts";

export const title = () => __("Audit log", DEMO);

export default function Page(props: PageProps) {
  return (
    <Island
      name="Audit"
      props={{ userId: props.url.searchParams.get("user") ?? "" }}
      session={props.session}
    />
  );
}
