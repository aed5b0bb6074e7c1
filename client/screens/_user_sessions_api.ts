// What the users table does to another account's security: end every
// session (`revokeUserSessions`), remove its second factor
// (`removeUserSecondFactor`) and clear its lock (`unlockUser`). One object, so a test (or an app that hides
// these actions) can replace a member; a refusal is shown in the action's
// dialog.

import {
  removeUserSecondFactor,
  revokeUserSessions,
  unlockUser,
} from "../admin_security_calls.ts";

/** Whether the row actions show, and the calls. */
export const userSessions: {
  available: boolean;
  revoke(id: string): Promise<void>;
  removeSecondFactor(id: string): Promise<void>;
  unlock(id: string): Promise<void>;
} = {
  available: true,
  revoke: (id) => revokeUserSessions(id),
  removeSecondFactor: (id) => removeUserSecondFactor(id),
  unlock: (id) => unlockUser(id),
};
