// The audit log, for those who may manage users; `email` (or `userId`)
// starts it filtered by one account (the users screen's "Activity").

import { AuditLogScreen } from "@gatehouse/client/screens";
import { Shell } from "./_shell.tsx";

/** The audit-log screen behind the gate. */
export default function Audit(props: { email?: string; userId?: string }) {
  return (
    <Shell current="users">
      <AuditLogScreen
        initialEmail={props.email ?? ""}
        initialUserId={props.userId ?? ""}
      />
    </Shell>
  );
}
