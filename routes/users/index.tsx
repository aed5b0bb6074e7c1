// /users: the accounts, for those who may manage them (`?q=` starts with a
// search, as the new-account confirmation's link does).

import { Island } from "../../components/Island.tsx";
import type { PageProps } from "../../demo/render.tsx";
import { __, DEMO } from "../../islands/_i18n.ts";

export const title = () => __("Users", DEMO);

export default function Page(props: PageProps) {
  return (
    <Island
      name="Users"
      props={{ search: props.url.searchParams.get("q") ?? "" }}
      session={props.session}
    />
  );
}
