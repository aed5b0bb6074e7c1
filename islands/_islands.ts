// Every island by name: the server renders them by this name
// (components/Island.tsx) and the browser entry (_hydrate.tsx) finds them
// by the same name, so the two sides cannot disagree.

import AppGate from "./AppGate.tsx";
import Audit from "./Audit.tsx";
import Invite from "./Invite.tsx";
import NewUser from "./NewUser.tsx";
import RequestReset from "./RequestReset.tsx";
import ResetPassword from "./ResetPassword.tsx";
import SetPassword from "./SetPassword.tsx";
import Users from "./Users.tsx";

/** The islands, by the name their markers carry. */
export const ISLANDS = {
  AppGate,
  Audit,
  Invite,
  NewUser,
  RequestReset,
  ResetPassword,
  SetPassword,
  Users,
} as const;

/** The name of an island. */
export type IslandName = keyof typeof ISLANDS;
