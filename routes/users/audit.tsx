// /users/audit: the audit log (`?email=` starts it filtered by the account
// that has that address; `?user=`, by an account id).

import { Island } from "../../components/Island.tsx";
import type { PageProps } from "../../demo/render.tsx";
import { __, DEMO } from "../../islands/_i18n.ts";

export const title = () => __("Audit log", DEMO);

export default function Page(props: PageProps) {
  const query = props.url.searchParams;
  return (
    <Island
      name="Audit"
      props={{
        email: query.get("email") ?? "",
        userId: query.get("user") ?? "",
      }}
      session={props.session}
    />
  );
}
