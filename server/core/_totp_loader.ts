// ./totp.ts wraps npm:otpauth and npm:uqr in synchronous functions (what
// tests and tools call). The server reaches it through this loader, so the
// two libraries are imported by the first enrolment or code check, not at
// start-up: a session check never needs them.

import { lazyImport } from "../http/_lazy_import.ts";

/** The TOTP module, imported once by the first call. */
export const loadTotp = lazyImport(() => import("./totp.ts"));
