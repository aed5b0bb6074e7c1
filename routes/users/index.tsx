// /users: the accounts, for those who may manage them.

import { Island } from "../../components/Island.tsx";

export const title = "Users";

export default function Page() {
  return <Island name="Users" props={{}} />;
}
