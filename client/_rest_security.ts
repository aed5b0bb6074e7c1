// The REST side of the operations of DESIGN.md §8–§10 (account security,
// second factors, passkeys, the audit trail), beside rest.ts's. All of them
// came in one server version: a 404 without a code from an older server is
// ServerTooOldError("accountSecurity").

import { discard, type HttpCall, readJson } from "./_http.ts";
import { readSessionUser } from "./_wire.ts";
import {
  readAuditPage,
  readOptions,
  readPasskey,
  readPasskeys,
  readRecoveryCodeCount,
  readRecoveryCodes,
  readSessions,
  readTotpSetup,
} from "./_wire_security.ts";
import type { Proof } from "./security_types.ts";
import type { AuthTransport } from "./auth_transport.ts";

/** The operations this file builds. */
export type SecurityOperations = Pick<
  AuthTransport,
  | "changePassword"
  | "reauthenticate"
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

/** Builds the operations over `call` (rest.ts's sender). */
export function securityOperations(
  call: (spec: HttpCall) => Promise<Response>,
): SecurityOperations {
  const feature = "accountSecurity" as const;
  const send = (spec: HttpCall) => call({ feature, ...spec });
  const json = async <T>(
    spec: HttpCall,
    read: (value: unknown, status: number) => T,
  ): Promise<T> => {
    const response = await send(spec);
    return read(await readJson(response), response.status);
  };
  const none = async (spec: HttpCall): Promise<void> =>
    discard(await send(spec));

  return {
    changePassword: ({ currentPassword, newPassword }) =>
      none({
        operation: "changePassword",
        body: { current_password: currentPassword, new_password: newPassword },
      }),
    reauthenticate: (proof) =>
      none({ operation: "reauthenticate", body: proofBody(proof) }),
    listSessions: () => json({ operation: "listSessions" }, readSessions),
    revokeSession: (id) => none({ operation: "revokeSession", params: { id } }),
    revokeOtherSessions: () => none({ operation: "revokeOtherSessions" }),
    revokeUserSessions: (id) =>
      none({ operation: "revokeUserSessions", params: { id } }),
    setupTotp: () => json({ operation: "setupTotp" }, readTotpSetup),
    confirmTotp: (code) =>
      json({ operation: "confirmTotp", body: { code } }, readRecoveryCodes),
    disableTotp: () => none({ operation: "disableTotp" }),
    regenerateRecoveryCodes: () =>
      json({ operation: "regenerateRecoveryCodes" }, readRecoveryCodes),
    countRecoveryCodes: () =>
      json({ operation: "countRecoveryCodes" }, readRecoveryCodeCount),
    verifySecondFactor: (proof) =>
      json(
        { operation: "verifySecondFactor", body: proofBody(proof) },
        readSessionUser,
      ),
    removeUserSecondFactor: (id) =>
      none({ operation: "removeUserSecondFactor", params: { id } }),
    passkeyRegistrationOptions: () =>
      json({ operation: "passkeyRegistrationOptions" }, readOptions),
    registerPasskey: (response, name) =>
      json({
        operation: "registerPasskey",
        body: name === undefined ? { response } : { response, name },
      }, readPasskey),
    listPasskeys: () => json({ operation: "listPasskeys" }, readPasskeys),
    renamePasskey: (id, name) =>
      json(
        { operation: "renamePasskey", params: { id }, body: { name } },
        readPasskey,
      ),
    removePasskey: (id) => none({ operation: "removePasskey", params: { id } }),
    passkeyLoginOptions: () =>
      json({ operation: "passkeyLoginOptions" }, readOptions),
    loginWithPasskey: (response) =>
      json(
        { operation: "loginWithPasskey", body: { response } },
        readSessionUser,
      ),
    listAuditEvents: (query = {}) =>
      json({
        operation: "listAuditEvents",
        query: {
          limit: query.limit,
          cursor: query.cursor,
          user_id: query.userId,
          email: query.email,
          type: query.type,
        },
      }, readAuditPage),
    listActivity: (query = {}) =>
      json({
        operation: "listActivity",
        query: { limit: query.limit, cursor: query.cursor },
      }, readAuditPage),
  };
}
