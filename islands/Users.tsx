// The accounts, with links to create an account or invite someone; only
// for those who may manage users (the screen tells others so).

import { UsersScreen } from "@gatehouse/client/screens";
import { __, DEMO } from "./_i18n.ts";
import { Shell } from "./_shell.tsx";

/** The users screen behind the gate; `search` starts a search (`/users?q=`). */
export default function Users(props: { search?: string }) {
  return (
    <Shell current="users">
      <UsersScreen
        initialSearch={props.search ?? ""}
        onShowActivity={(account) =>
          location.assign(
            `/users/audit?email=${encodeURIComponent(account.email)}`,
          )}
        newUserRender={
          <span class="demo-actions">
            <a class="gh-button gh-button-secondary" href="/users/audit">
              {__("Audit log", DEMO)}
            </a>
            <a class="gh-button gh-button-secondary" href="/users/invite">
              {__("Invite someone", DEMO)}
            </a>
            <a class="gh-button gh-button-primary" href="/users/new">
              {__("New user", DEMO)}
            </a>
          </span>
        }
      />
    </Shell>
  );
}
