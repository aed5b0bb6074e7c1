// The OpenID Connect libraries (npm:openid-client, and npm:jose under it),
// imported by the first discovery of a provider, not at start-up: a site
// without single sign-on never loads them, and one with it loads them while
// discovering, before any start, callback or logout token needs them.

import { lazyImport } from "../../http/_lazy_import.ts";

/** npm:openid-client, imported once by the first call. */
export const openidClient = lazyImport(() => import("openid-client"));

/** npm:jose, imported once by the first call. */
export const jose = lazyImport(() => import("jose"));
