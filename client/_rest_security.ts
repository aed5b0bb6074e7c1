// The REST side of the operations of DESIGN.md §8–§10 (account security,
// second factors, passkeys, the audit trail), beside rest.ts's.

import type { Ask } from "./_call.ts";
import type {
  AccountSession,
  AuditEventPage,
  Passkey,
  PasskeyOptions,
  Proof,
  TotpSetup,
} from "./security_types.ts";
import type { AuthTransport } from "./auth_transport.ts";
import type { SessionUser } from "./types.ts";

/** The operations this file builds. */
export type SecurityOperations = Pick<
  AuthTransport,
  | "changePassword"
  | "reauthenticate"
  | "updateAccount"
  | "listSessions"
  | "revokeSession"
  | "revokeOtherSessions"
  | "revokeUserSessions"
  | "setupTotp"
  | "confirmTotp"
  | "disableTotp"
  | "regenerateRecoveryCodes"
  | "countRecoveryCodes"
  | "verifySecondFactor"
  | "removeUserSecondFactor"
  | "unlockUser"
  | "passkeyRegistrationOptions"
  | "registerPasskey"
  | "listPasskeys"
  | "renamePasskey"
  | "removePasskey"
  | "passkeyLoginOptions"
  | "loginWithPasskey"
  | "listAuditEvents"
  | "listActivity"
>;

/** A proof as the wire names it: exactly one field. */
export function proofBody(proof: Proof): Record<string, unknown> {
  if ("password" in proof) return { password: proof.password };
  if ("code" in proof) return { code: proof.code };
  if ("recoveryCode" in proof) return { recovery_code: proof.recoveryCode };
  return { passkey: proof.passkey };
}

/** Builds the operations over `ask` (rest.ts's generic call). */
export function securityOperations(ask: Ask): SecurityOperations {
  const none: (...call: Parameters<Ask>) => Promise<void> = ask;
  const json = ask;

  return {
    changePassword: ({ currentPassword, newPassword }) =>
      none("changePassword", {
        body: { current_password: currentPassword, new_password: newPassword },
      }),
    reauthenticate: (proof) =>
      none("reauthenticate", { body: proofBody(proof) }),
    updateAccount: ({ name, locale }) =>
      json<SessionUser>("updateAccount", {
        body: {
          ...(name === undefined ? {} : { name }),
          ...(locale === undefined ? {} : { locale }),
        },
      }),
    listSessions: async () =>
      (await json<{ sessions: AccountSession[] }>("listSessions")).sessions,
    revokeSession: (id) => none("revokeSession", { params: { id } }),
    revokeOtherSessions: () => none("revokeOtherSessions"),
    revokeUserSessions: (id) => none("revokeUserSessions", { params: { id } }),
    setupTotp: () => json<TotpSetup>("setupTotp"),
    confirmTotp: async (code) =>
      (await json<{ recoveryCodes: string[] }>("confirmTotp", {
        body: { code },
      })).recoveryCodes,
    disableTotp: () => none("disableTotp"),
    regenerateRecoveryCodes: async () =>
      (await json<{ recoveryCodes: string[] }>("regenerateRecoveryCodes"))
        .recoveryCodes,
    countRecoveryCodes: async () =>
      (await json<{ recoveryCodesLeft: number }>("countRecoveryCodes"))
        .recoveryCodesLeft,
    verifySecondFactor: (proof) =>
      json<SessionUser>("verifySecondFactor", { body: proofBody(proof) }),
    removeUserSecondFactor: (id) =>
      none("removeUserSecondFactor", { params: { id } }),
    unlockUser: (id) => none("unlockUser", { params: { id } }),
    passkeyRegistrationOptions: () =>
      json<PasskeyOptions>("passkeyRegistrationOptions"),
    registerPasskey: (response, name) =>
      json<Passkey>("registerPasskey", {
        body: name === undefined ? { response } : { response, name },
      }),
    listPasskeys: async () =>
      (await json<{ passkeys: Passkey[] }>("listPasskeys")).passkeys,
    renamePasskey: (id, name) =>
      json<Passkey>("renamePasskey", { params: { id }, body: { name } }),
    removePasskey: (id) => none("removePasskey", { params: { id } }),
    passkeyLoginOptions: () => json<PasskeyOptions>("passkeyLoginOptions"),
    loginWithPasskey: (response) =>
      json<SessionUser>("loginWithPasskey", { body: { response } }),
    listAuditEvents: (query = {}) =>
      json<AuditEventPage>("listAuditEvents", {
        query: {
          limit: query.limit,
          cursor: query.cursor,
          user_id: query.userId,
          email: query.email,
          type: query.type,
        },
      }),
    listActivity: (query = {}) =>
      json<AuditEventPage>("listActivity", {
        query: { limit: query.limit, cursor: query.cursor },
      }),
  };
}
