// Operations of the contract whose handlers are still being built (the
// account-security, second-factor, passkey and audit work of DESIGN.md
// §8–§10). They get no route until their name leaves this list; the tests
// read the same list (tests/fixtures/pending.ts). Empty when that work is
// done, and then this file goes.

import type { OperationName } from "@gatehouse/contract";

/** The operations without a handler yet. */
export const PENDING_OPERATIONS = [
  "setupTotp",
  "confirmTotp",
  "disableTotp",
  "regenerateRecoveryCodes",
  "verifySecondFactor",
  "removeUserSecondFactor",
  "passkeyRegistrationOptions",
  "registerPasskey",
  "listPasskeys",
  "renamePasskey",
  "removePasskey",
  "passkeyLoginOptions",
  "loginWithPasskey",
] as const satisfies readonly OperationName[];

/** An operation without a handler yet. */
export type PendingOperation = (typeof PENDING_OPERATIONS)[number];
