// The rules, composed: today's `Store` (the operations the features call),
// written once over any narrow `RecordStore`. A store implementation is a
// `RecordStore`; `KvStore`, `PostgresStore` and `SqliteStore` are this class
// over theirs.

import type { RecordStore } from "../records.ts";
import type { Store } from "../store.ts";

import { accountRules } from "./accounts.ts";
import { sessionRules } from "./sessions.ts";
import { linkRules } from "./links.ts";
import { auditRules } from "./audit.ts";
import { factorRules } from "./factors.ts";
import { passkeyRules } from "./passkeys.ts";
import { ssoRules } from "./sso.ts";

/**
 * Every operation of {@linkcode Store}, decided in TypeScript over the
 * reads and the checked commit of a {@linkcode RecordStore}.
 *
 * @example Any record store becomes a Store
 * ```ts
 * import { RuleStore } from "@gatehouse/server/store";
 * import { SqliteRecords } from "@gatehouse/server/sqlite";
 *
 * const store = new RuleStore(new SqliteRecords({ path: ":memory:" }));
 * await store.migrate();
 * console.log(await store.hasUsers()); // false
 * ```
 */
export class RuleStore implements Store {
  /** The narrow store underneath. */
  readonly records: RecordStore;

  #accounts: ReturnType<typeof accountRules>;
  #sessions: ReturnType<typeof sessionRules>;
  #links: ReturnType<typeof linkRules>;
  #audit: ReturnType<typeof auditRules>;
  #factors: ReturnType<typeof factorRules>;
  #passkeys: ReturnType<typeof passkeyRules>;
  #sso: ReturnType<typeof ssoRules>;

  /** Builds the operations over `records`. */
  constructor(records: RecordStore) {
    this.records = records;
    this.#accounts = accountRules(records);
    this.#sessions = sessionRules(records);
    this.#links = linkRules(records);
    this.#audit = auditRules(records);
    this.#factors = factorRules(records);
    this.#passkeys = passkeyRules(records);
    this.#sso = ssoRules(records);
  }

  /** {@inheritDoc Store.migrate} */
  migrate(): Promise<void> {
    return this.records.migrate();
  }

  /** {@inheritDoc Store.createUser} */
  createUser(
    ...args: Parameters<Store["createUser"]>
  ): ReturnType<Store["createUser"]> {
    return this.#accounts.createUser(...args);
  }

  /** {@inheritDoc Store.userById} */
  userById(
    ...args: Parameters<Store["userById"]>
  ): ReturnType<Store["userById"]> {
    return this.#accounts.userById(...args);
  }

  /** {@inheritDoc Store.credentialsByEmail} */
  credentialsByEmail(
    ...args: Parameters<Store["credentialsByEmail"]>
  ): ReturnType<Store["credentialsByEmail"]> {
    return this.#accounts.credentialsByEmail(...args);
  }

  /** {@inheritDoc Store.listUsers} */
  listUsers(
    ...args: Parameters<Store["listUsers"]>
  ): ReturnType<Store["listUsers"]> {
    return this.#accounts.listUsers(...args);
  }

  /** {@inheritDoc Store.hasUsers} */
  hasUsers(
    ...args: Parameters<Store["hasUsers"]>
  ): ReturnType<Store["hasUsers"]> {
    return this.#accounts.hasUsers(...args);
  }

  /** {@inheritDoc Store.updateUser} */
  updateUser(
    ...args: Parameters<Store["updateUser"]>
  ): ReturnType<Store["updateUser"]> {
    return this.#accounts.updateUser(...args);
  }

  /** {@inheritDoc Store.replacePasswordHash} */
  replacePasswordHash(
    ...args: Parameters<Store["replacePasswordHash"]>
  ): ReturnType<Store["replacePasswordHash"]> {
    return this.#accounts.replacePasswordHash(...args);
  }

  /** {@inheritDoc Store.revokeUserSessions} */
  revokeUserSessions(
    ...args: Parameters<Store["revokeUserSessions"]>
  ): ReturnType<Store["revokeUserSessions"]> {
    return this.#accounts.revokeUserSessions(...args);
  }

  /** {@inheritDoc Store.createSession} */
  createSession(
    ...args: Parameters<Store["createSession"]>
  ): ReturnType<Store["createSession"]> {
    return this.#sessions.createSession(...args);
  }

  /** {@inheritDoc Store.anticipateSession} */
  anticipateSession(
    ...args: Parameters<NonNullable<Store["anticipateSession"]>>
  ): ReturnType<NonNullable<Store["anticipateSession"]>> {
    return this.#sessions.anticipateSession(...args);
  }

  /** {@inheritDoc Store.findSession} */
  findSession(
    ...args: Parameters<Store["findSession"]>
  ): ReturnType<Store["findSession"]> {
    return this.#sessions.findSession(...args);
  }

  /** {@inheritDoc Store.touchSession} */
  touchSession(
    ...args: Parameters<Store["touchSession"]>
  ): ReturnType<Store["touchSession"]> {
    return this.#sessions.touchSession(...args);
  }

  /** {@inheritDoc Store.listSessions} */
  listSessions(
    ...args: Parameters<Store["listSessions"]>
  ): ReturnType<Store["listSessions"]> {
    return this.#sessions.listSessions(...args);
  }

  /** {@inheritDoc Store.deleteSession} */
  deleteSession(
    ...args: Parameters<Store["deleteSession"]>
  ): ReturnType<Store["deleteSession"]> {
    return this.#sessions.deleteSession(...args);
  }

  /** {@inheritDoc Store.deleteSessionById} */
  deleteSessionById(
    ...args: Parameters<Store["deleteSessionById"]>
  ): ReturnType<Store["deleteSessionById"]> {
    return this.#sessions.deleteSessionById(...args);
  }

  /** {@inheritDoc Store.deleteOtherSessions} */
  deleteOtherSessions(
    ...args: Parameters<Store["deleteOtherSessions"]>
  ): ReturnType<Store["deleteOtherSessions"]> {
    return this.#sessions.deleteOtherSessions(...args);
  }

  /** {@inheritDoc Store.renewAuthentication} */
  renewAuthentication(
    ...args: Parameters<Store["renewAuthentication"]>
  ): ReturnType<Store["renewAuthentication"]> {
    return this.#sessions.renewAuthentication(...args);
  }

  /** {@inheritDoc Store.changePassword} */
  changePassword(
    ...args: Parameters<Store["changePassword"]>
  ): ReturnType<Store["changePassword"]> {
    return this.#sessions.changePassword(...args);
  }

  /** {@inheritDoc Store.deleteExpiredSessions} */
  deleteExpiredSessions(
    ...args: Parameters<Store["deleteExpiredSessions"]>
  ): ReturnType<Store["deleteExpiredSessions"]> {
    return this.#sessions.deleteExpiredSessions(...args);
  }

  /** {@inheritDoc Store.createLink} */
  createLink(
    ...args: Parameters<Store["createLink"]>
  ): ReturnType<Store["createLink"]> {
    return this.#links.createLink(...args);
  }

  /** {@inheritDoc Store.invitationsFor} */
  invitationsFor(
    ...args: Parameters<Store["invitationsFor"]>
  ): ReturnType<Store["invitationsFor"]> {
    return this.#links.invitationsFor(...args);
  }

  /** {@inheritDoc Store.findLink} */
  findLink(
    ...args: Parameters<Store["findLink"]>
  ): ReturnType<Store["findLink"]> {
    return this.#links.findLink(...args);
  }

  /** {@inheritDoc Store.acceptInvitation} */
  acceptInvitation(
    ...args: Parameters<Store["acceptInvitation"]>
  ): ReturnType<Store["acceptInvitation"]> {
    return this.#links.acceptInvitation(...args);
  }

  /** {@inheritDoc Store.listInvitations} */
  listInvitations(
    ...args: Parameters<Store["listInvitations"]>
  ): ReturnType<Store["listInvitations"]> {
    return this.#links.listInvitations(...args);
  }

  /** {@inheritDoc Store.revokeInvitation} */
  revokeInvitation(
    ...args: Parameters<Store["revokeInvitation"]>
  ): ReturnType<Store["revokeInvitation"]> {
    return this.#links.revokeInvitation(...args);
  }

  /** {@inheritDoc Store.confirmReset} */
  confirmReset(
    ...args: Parameters<Store["confirmReset"]>
  ): ReturnType<Store["confirmReset"]> {
    return this.#links.confirmReset(...args);
  }

  /** {@inheritDoc Store.deleteExpiredLinks} */
  deleteExpiredLinks(
    ...args: Parameters<Store["deleteExpiredLinks"]>
  ): ReturnType<Store["deleteExpiredLinks"]> {
    return this.#links.deleteExpiredLinks(...args);
  }

  /** {@inheritDoc Store.reserveAttempt} */
  reserveAttempt(
    ...args: Parameters<Store["reserveAttempt"]>
  ): ReturnType<Store["reserveAttempt"]> {
    return this.records.reserveAttempt(...args);
  }

  /** {@inheritDoc Store.releaseAttempt} */
  releaseAttempt(
    ...args: Parameters<Store["releaseAttempt"]>
  ): ReturnType<Store["releaseAttempt"]> {
    return this.records.releaseAttempt(...args);
  }

  /** {@inheritDoc Store.readCounter} */
  readCounter(
    ...args: Parameters<Store["readCounter"]>
  ): ReturnType<Store["readCounter"]> {
    return this.records.readCounter(...args);
  }

  /** {@inheritDoc Store.deleteExpiredCounters} */
  deleteExpiredCounters(
    ...args: Parameters<Store["deleteExpiredCounters"]>
  ): ReturnType<Store["deleteExpiredCounters"]> {
    return this.records.deleteExpiredCounters(...args);
  }

  /** {@inheritDoc Store.recordEvents} */
  recordEvents(
    ...args: Parameters<Store["recordEvents"]>
  ): ReturnType<Store["recordEvents"]> {
    return this.#audit.recordEvents(...args);
  }

  /** {@inheritDoc Store.listAuditEvents} */
  listAuditEvents(
    ...args: Parameters<Store["listAuditEvents"]>
  ): ReturnType<Store["listAuditEvents"]> {
    return this.#audit.listAuditEvents(...args);
  }

  /** {@inheritDoc Store.deleteExpiredEvents} */
  deleteExpiredEvents(
    ...args: Parameters<Store["deleteExpiredEvents"]>
  ): ReturnType<Store["deleteExpiredEvents"]> {
    return this.#audit.deleteExpiredEvents(...args);
  }

  /** {@inheritDoc Store.accountFactors} */
  accountFactors(
    ...args: Parameters<Store["accountFactors"]>
  ): ReturnType<Store["accountFactors"]> {
    return this.#factors.accountFactors(...args);
  }

  /** {@inheritDoc Store.startTotpEnrolment} */
  startTotpEnrolment(
    ...args: Parameters<Store["startTotpEnrolment"]>
  ): ReturnType<Store["startTotpEnrolment"]> {
    return this.#factors.startTotpEnrolment(...args);
  }

  /** {@inheritDoc Store.totpEnrolment} */
  totpEnrolment(
    ...args: Parameters<Store["totpEnrolment"]>
  ): ReturnType<Store["totpEnrolment"]> {
    return this.#factors.totpEnrolment(...args);
  }

  /** {@inheritDoc Store.confirmTotp} */
  confirmTotp(
    ...args: Parameters<Store["confirmTotp"]>
  ): ReturnType<Store["confirmTotp"]> {
    return this.#factors.confirmTotp(...args);
  }

  /** {@inheritDoc Store.totp} */
  totp(...args: Parameters<Store["totp"]>): ReturnType<Store["totp"]> {
    return this.#factors.totp(...args);
  }

  /** {@inheritDoc Store.disableTotp} */
  disableTotp(
    ...args: Parameters<Store["disableTotp"]>
  ): ReturnType<Store["disableTotp"]> {
    return this.#factors.disableTotp(...args);
  }

  /** {@inheritDoc Store.replaceRecoveryCodes} */
  replaceRecoveryCodes(
    ...args: Parameters<Store["replaceRecoveryCodes"]>
  ): ReturnType<Store["replaceRecoveryCodes"]> {
    return this.#factors.replaceRecoveryCodes(...args);
  }

  /** {@inheritDoc Store.useTotpStep} */
  useTotpStep(
    ...args: Parameters<Store["useTotpStep"]>
  ): ReturnType<Store["useTotpStep"]> {
    return this.#factors.useTotpStep(...args);
  }

  /** {@inheritDoc Store.replaceTotpSecret} */
  replaceTotpSecret(
    ...args: Parameters<NonNullable<Store["replaceTotpSecret"]>>
  ): ReturnType<NonNullable<Store["replaceTotpSecret"]>> {
    return this.#factors.replaceTotpSecret(...args);
  }

  /** {@inheritDoc Store.useRecoveryCode} */
  useRecoveryCode(
    ...args: Parameters<Store["useRecoveryCode"]>
  ): ReturnType<Store["useRecoveryCode"]> {
    return this.#factors.useRecoveryCode(...args);
  }

  /** {@inheritDoc Store.createPendingSignIn} */
  createPendingSignIn(
    ...args: Parameters<Store["createPendingSignIn"]>
  ): ReturnType<Store["createPendingSignIn"]> {
    return this.#factors.createPendingSignIn(...args);
  }

  /** {@inheritDoc Store.findPendingSignIn} */
  findPendingSignIn(
    ...args: Parameters<Store["findPendingSignIn"]>
  ): ReturnType<Store["findPendingSignIn"]> {
    return this.#factors.findPendingSignIn(...args);
  }

  /** {@inheritDoc Store.failPendingSignIn} */
  failPendingSignIn(
    ...args: Parameters<Store["failPendingSignIn"]>
  ): ReturnType<Store["failPendingSignIn"]> {
    return this.#factors.failPendingSignIn(...args);
  }

  /** {@inheritDoc Store.spendPendingSignIn} */
  spendPendingSignIn(
    ...args: Parameters<Store["spendPendingSignIn"]>
  ): ReturnType<Store["spendPendingSignIn"]> {
    return this.#factors.spendPendingSignIn(...args);
  }

  /** {@inheritDoc Store.createChallenge} */
  createChallenge(
    ...args: Parameters<Store["createChallenge"]>
  ): ReturnType<Store["createChallenge"]> {
    return this.#factors.createChallenge(...args);
  }

  /** {@inheritDoc Store.findChallenge} */
  findChallenge(
    ...args: Parameters<Store["findChallenge"]>
  ): ReturnType<Store["findChallenge"]> {
    return this.#factors.findChallenge(...args);
  }

  /** {@inheritDoc Store.spendChallenge} */
  spendChallenge(
    ...args: Parameters<Store["spendChallenge"]>
  ): ReturnType<Store["spendChallenge"]> {
    return this.#factors.spendChallenge(...args);
  }

  /** {@inheritDoc Store.removeUserSecondFactor} */
  removeUserSecondFactor(
    ...args: Parameters<Store["removeUserSecondFactor"]>
  ): ReturnType<Store["removeUserSecondFactor"]> {
    return this.#factors.removeUserSecondFactor(...args);
  }

  /** {@inheritDoc Store.deleteExpiredFactorRecords} */
  deleteExpiredFactorRecords(
    ...args: Parameters<Store["deleteExpiredFactorRecords"]>
  ): ReturnType<Store["deleteExpiredFactorRecords"]> {
    return this.#factors.deleteExpiredFactorRecords(...args);
  }

  /** {@inheritDoc Store.addPasskey} */
  addPasskey(
    ...args: Parameters<Store["addPasskey"]>
  ): ReturnType<Store["addPasskey"]> {
    return this.#passkeys.addPasskey(...args);
  }

  /** {@inheritDoc Store.listPasskeys} */
  listPasskeys(
    ...args: Parameters<Store["listPasskeys"]>
  ): ReturnType<Store["listPasskeys"]> {
    return this.#passkeys.listPasskeys(...args);
  }

  /** {@inheritDoc Store.passkeyByCredentialId} */
  passkeyByCredentialId(
    ...args: Parameters<Store["passkeyByCredentialId"]>
  ): ReturnType<Store["passkeyByCredentialId"]> {
    return this.#passkeys.passkeyByCredentialId(...args);
  }

  /** {@inheritDoc Store.renamePasskey} */
  renamePasskey(
    ...args: Parameters<Store["renamePasskey"]>
  ): ReturnType<Store["renamePasskey"]> {
    return this.#passkeys.renamePasskey(...args);
  }

  /** {@inheritDoc Store.removePasskey} */
  removePasskey(
    ...args: Parameters<Store["removePasskey"]>
  ): ReturnType<Store["removePasskey"]> {
    return this.#passkeys.removePasskey(...args);
  }

  /** {@inheritDoc Store.usePasskey} */
  usePasskey(
    ...args: Parameters<Store["usePasskey"]>
  ): ReturnType<Store["usePasskey"]> {
    return this.#passkeys.usePasskey(...args);
  }

  /** {@inheritDoc Store.saveSsoFlow} */
  saveSsoFlow(
    ...args: Parameters<Store["saveSsoFlow"]>
  ): ReturnType<Store["saveSsoFlow"]> {
    return this.#sso.saveSsoFlow(...args);
  }

  /** {@inheritDoc Store.spendSsoFlow} */
  spendSsoFlow(
    ...args: Parameters<Store["spendSsoFlow"]>
  ): ReturnType<Store["spendSsoFlow"]> {
    return this.#sso.spendSsoFlow(...args);
  }

  /** {@inheritDoc Store.identityBySubject} */
  identityBySubject(
    ...args: Parameters<Store["identityBySubject"]>
  ): ReturnType<Store["identityBySubject"]> {
    return this.#sso.identityBySubject(...args);
  }

  /** {@inheritDoc Store.listIdentities} */
  listIdentities(
    ...args: Parameters<Store["listIdentities"]>
  ): ReturnType<Store["listIdentities"]> {
    return this.#sso.listIdentities(...args);
  }

  /** {@inheritDoc Store.resolveSsoAccount} */
  resolveSsoAccount(
    ...args: Parameters<Store["resolveSsoAccount"]>
  ): ReturnType<Store["resolveSsoAccount"]> {
    return this.#sso.resolveSsoAccount(...args);
  }

  /** {@inheritDoc Store.unlinkIdentity} */
  unlinkIdentity(
    ...args: Parameters<Store["unlinkIdentity"]>
  ): ReturnType<Store["unlinkIdentity"]> {
    return this.#sso.unlinkIdentity(...args);
  }

  /** {@inheritDoc Store.endSsoSessions} */
  endSsoSessions(
    ...args: Parameters<Store["endSsoSessions"]>
  ): ReturnType<Store["endSsoSessions"]> {
    return this.#sso.endSsoSessions(...args);
  }

  /** {@inheritDoc Store.deleteExpiredSsoRecords} */
  deleteExpiredSsoRecords(
    ...args: Parameters<Store["deleteExpiredSsoRecords"]>
  ): ReturnType<Store["deleteExpiredSsoRecords"]> {
    return this.#sso.deleteExpiredSsoRecords(...args);
  }
}
