// The screens' stylesheet, from @gatehouse/client/screens, served under its
// content hash.

import { stylesheet } from "@gatehouse/client/screens";
import { type HashedAsset, hashedAsset } from "./hash.ts";

/** The stylesheet text and the path it is served at. */
export const SCREENS_CSS: Promise<HashedAsset> = hashedAsset(
  "/styles/screens",
  "css",
  stylesheet,
);
