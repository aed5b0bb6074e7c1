// The client derives its paths, methods and statuses from the contract
// (`@gatehouse/contract`); these tests are the derivation's own: the REST
// transport sends each operation's method and path, the test harness
// answers at the same routes with the contract's statuses, and every canned
// answer matches the OpenAPI description.

import assert from "node:assert/strict";
import {
  ERROR_STATUS,
  errorsOf,
  OPERATION_NAMES,
  type OperationName,
  OPERATIONS,
  pathOf,
} from "@gatehouse/contract";
import {
  type AuthTransport,
  configureAuthTransport,
  resetAuthTransport,
  restTransport,
} from "@gatehouse/client";
import { listUsers } from "@gatehouse/client/admin";
import * as testing from "@gatehouse/client/testing";
import { contractProblems } from "../fixtures/contract.ts";

const env = testing.installTestEnvironment();
const ID = "0190f0a0-0000-7000-8000-00000000abcd";

// What a call of each transport operation looks like, and the body its
// success carries (so the transport's reading succeeds).
const USER = {
  id: ID,
  email: "a@example.com",
  name: "A",
  role: "",
  disabled: false,
  created_at: "2026-01-01T00:00:00.000Z",
};
const IDENTITY = { id: ID, email: "a@example.com", name: "A", role: "" };
const TIME = "2026-01-01T00:00:00.000Z";
const SESSION = {
  id: ID,
  created_at: TIME,
  last_seen_at: TIME,
  expires_at: TIME,
  idle_expires_at: TIME,
  ip: "",
  user_agent: "",
  current: true,
};
const CODES = { recovery_codes: Array.from({ length: 10 }, (_, i) => `c${i}`) };
const PASSKEY = {
  id: ID,
  name: "Laptop",
  created_at: TIME,
  last_used_at: null,
};
const CALLS: {
  [Name in Exclude<keyof AuthTransport, "isSessionRevoked">]: [
    (t: AuthTransport) => Promise<unknown>,
    unknown,
  ];
} = {
  fetchSession: [(t) => t.fetchSession(), IDENTITY],
  login: [(t) => t.login("a@example.com", "pw"), IDENTITY],
  logout: [(t) => t.logout(), undefined],
  listUsers: [(t) => t.listUsers({ limit: 5 }), {
    users: [USER],
    next_cursor: null,
  }],
  createUser: [
    (t) => t.createUser({ email: "a@example.com", name: "A", password: "pw" }),
    USER,
  ],
  setUserDisabled: [(t) => t.setUserDisabled(ID, true), USER],
  setUserRole: [(t) => t.setUserRole(ID, "admin"), USER],
  invite: [(t) => t.invite({ email: "a@example.com", name: "A" }), {
    delivered: true,
  }],
  listInvitations: [(t) => t.listInvitations(), { invitations: [] }],
  revokeInvitation: [(t) => t.revokeInvitation(ID), undefined],
  acceptInvite: [(t) => t.acceptInvite("token", "pw"), IDENTITY],
  requestPasswordReset: [
    (t) => t.requestPasswordReset("a@example.com"),
    undefined,
  ],
  resetPassword: [(t) => t.resetPassword("token", "pw"), undefined],
  checkLink: [(t) => t.checkLink("token", "invitation"), { status: "ready" }],
  changePassword: [
    (t) => t.changePassword({ currentPassword: "a", newPassword: "b" }),
    undefined,
  ],
  reauthenticate: [(t) => t.reauthenticate({ password: "pw" }), undefined],
  updateAccount: [(t) => t.updateAccount({ locale: "es" }), {
    ...IDENTITY,
    locale: "es",
  }],
  listSessions: [(t) => t.listSessions(), { sessions: [SESSION] }],
  revokeSession: [(t) => t.revokeSession(ID), undefined],
  revokeOtherSessions: [(t) => t.revokeOtherSessions(), undefined],
  revokeUserSessions: [(t) => t.revokeUserSessions(ID), undefined],
  setupTotp: [(t) => t.setupTotp(), {
    secret: "JBSWY3DP",
    otpauth_url: "otpauth://totp/x",
    qr_svg: "<svg/>",
  }],
  confirmTotp: [(t) => t.confirmTotp("123456"), CODES],
  disableTotp: [(t) => t.disableTotp(), undefined],
  regenerateRecoveryCodes: [(t) => t.regenerateRecoveryCodes(), CODES],
  countRecoveryCodes: [
    (t) => t.countRecoveryCodes(),
    { recovery_codes_left: 3 },
  ],
  verifySecondFactor: [(t) => t.verifySecondFactor({ code: "1" }), IDENTITY],
  removeUserSecondFactor: [(t) => t.removeUserSecondFactor(ID), undefined],
  unlockUser: [(t) => t.unlockUser(ID), undefined],
  passkeyRegistrationOptions: [
    (t) => t.passkeyRegistrationOptions(),
    { challenge: "c" },
  ],
  registerPasskey: [(t) => t.registerPasskey({}, "Laptop"), PASSKEY],
  listPasskeys: [(t) => t.listPasskeys(), { passkeys: [PASSKEY] }],
  renamePasskey: [(t) => t.renamePasskey(ID, "Phone"), PASSKEY],
  removePasskey: [(t) => t.removePasskey(ID), undefined],
  passkeyLoginOptions: [(t) => t.passkeyLoginOptions(), { challenge: "c" }],
  loginWithPasskey: [(t) => t.loginWithPasskey({}), IDENTITY],
  listAuditEvents: [
    (t) => t.listAuditEvents({ userId: ID, type: "logout" }),
    { events: [], next_cursor: null },
  ],
  listActivity: [(t) => t.listActivity({ limit: 5 }), {
    events: [],
    next_cursor: null,
  }],
  listSsoProviders: [(t) => t.listSsoProviders(), {
    providers: [{ id: "acme", name: "Acme", domains: [], enforce: false }],
  }],
  // A navigation, not a fetch: the test's `navigate` records it.
  startSso: [
    (t) => t.startSso("acme", { returnTo: "/users", reauthenticate: true }),
    undefined,
  ],
  listSsoIdentities: [(t) => t.listSsoIdentities(), {
    identities: [{
      id: ID,
      provider: "acme",
      name: "A",
      email: "a@acme.example",
      linked_at: TIME,
    }],
  }],
  unlinkSsoIdentity: [(t) => t.unlinkSsoIdentity(ID), undefined],
};

// The operations no call of the client makes: the OpenAPI document, and
// the two routes only a single sign-on provider reaches.
const NOT_CALLED = new Set<OperationName>([
  "describeApi",
  "ssoCallback",
  "ssoBackchannelLogout",
]);

Deno.test("the transport has one operation per operation of the contract (but those only a provider or a tool calls), plus isSessionRevoked", () => {
  const rest = Object.keys(restTransport()).sort();
  const expected = [
    ...OPERATION_NAMES.filter((name) => !NOT_CALLED.has(name)),
    "isSessionRevoked",
  ].sort();
  assert.ok(
    expected.includes("startSso") && expected.includes("listSsoIdentities"),
  );
  assert.deepEqual(rest, expected);
  assert.deepEqual(
    Object.keys(CALLS).sort(),
    expected.filter((n) => n !== "isSessionRevoked"),
  );
});

for (const [name, [call, body]] of Object.entries(CALLS)) {
  const operation = name as keyof typeof CALLS;
  Deno.test(`REST sends ${operation} with the contract's method and path`, async () => {
    const sent: Request[] = [];
    const spec = OPERATIONS[operation];
    const transport = restTransport({
      baseUrl: "http://app.example",
      fetch: (input, init) => {
        sent.push(new Request(input, init));
        return Promise.resolve(
          new Response(body === undefined ? null : JSON.stringify(body), {
            status: spec.success,
          }),
        );
      },
      // A navigation is a GET of the page.
      navigate: (url) => sent.push(new Request(url)),
    });
    await call(transport);
    assert.equal(sent.length, 1);
    const request = sent[0]!;
    assert.equal(request.method, spec.method);
    const pattern = new URLPattern({ pathname: spec.path });
    assert.ok(
      pattern.test(request.url),
      `${request.url} is not ${spec.method} ${spec.path}`,
    );
  });
}

Deno.test("refuse() answers every code an operation declares, with the contract's status", async () => {
  for (const operation of OPERATION_NAMES) {
    const { method } = OPERATIONS[operation];
    const url = `http://localhost${pathOf(operation, { id: ID })}`;
    for (const code of errorsOf(operation)) {
      env.use(testing.refuse(operation, code));
      const res = await fetch(url, method === "GET" ? {} : { method });
      const where = `${operation} ${code}`;
      assert.equal(res.status, ERROR_STATUS[code], where);
      assert.deepEqual(await contractProblems(method, url, res.clone()), []);
      assert.equal((await res.json()).code, code, where);
      env.server.resetHandlers();
    }
  }
});

// Every canned handler: the operation it answers and what it is called with.
const CANNED: Array<
  [string, () => ReturnType<typeof testing.loginOk>, OperationName]
> = [
  ["loginOk", () => testing.loginOk(), "login"],
  ["loginInvalid", () => testing.loginInvalid(), "login"],
  ["loginAccountLocked", () => testing.loginAccountLocked(), "login"],
  ["loginRateLimited", () => testing.loginRateLimited(), "login"],
  ["logoutOk", () => testing.logoutOk(), "logout"],
  ["fetchSessionOk", () => testing.fetchSessionOk(), "fetchSession"],
  [
    "fetchSessionAnonymous",
    () => testing.fetchSessionAnonymous(),
    "fetchSession",
  ],
  [
    "fetchSessionUnavailable",
    () => testing.fetchSessionUnavailable(),
    "fetchSession",
  ],
  ["listUsersOk", () => testing.listUsersOk(), "listUsers"],
  ["createUserOk", () => testing.createUserOk(), "createUser"],
  ["setUserDisabledOk", () => testing.setUserDisabledOk(), "setUserDisabled"],
  ["setUserRoleOk", () => testing.setUserRoleOk(), "setUserRole"],
  ["inviteDelivered", () => testing.inviteDelivered(), "invite"],
  ["inviteUndelivered", () => testing.inviteUndelivered(), "invite"],
  ["listInvitationsOk", () => testing.listInvitationsOk(), "listInvitations"],
  [
    "revokeInvitationOk",
    () => testing.revokeInvitationOk(),
    "revokeInvitation",
  ],
  [
    "revokeInvitationNotFound",
    () => testing.revokeInvitationNotFound(),
    "revokeInvitation",
  ],
  [
    "revokeInvitationBeyondReach",
    () => testing.revokeInvitationBeyondReach(),
    "revokeInvitation",
  ],
  ["acceptInviteOk", () => testing.acceptInviteOk(), "acceptInvite"],
  [
    "acceptInviteInvalidToken",
    () => testing.acceptInviteInvalidToken(),
    "acceptInvite",
  ],
  [
    "requestPasswordResetOk",
    () => testing.requestPasswordResetOk(),
    "requestPasswordReset",
  ],
  ["resetPasswordOk", () => testing.resetPasswordOk(), "resetPassword"],
  ["checkLinkReady", () => testing.checkLinkReady(), "checkLink"],
  [
    "checkLinkAccountExists",
    () => testing.checkLinkAccountExists(),
    "checkLink",
  ],
  ["checkLinkInvalidToken", () => testing.checkLinkInvalidToken(), "checkLink"],
  [
    "resetPasswordInvalidToken",
    () => testing.resetPasswordInvalidToken(),
    "resetPassword",
  ],
  ["loginSecondFactor", () => testing.loginSecondFactor(), "login"],
  ["changePasswordOk", () => testing.changePasswordOk(), "changePassword"],
  [
    "updateAccountOk",
    () => testing.updateAccountOk({ ...testing.defaultUser, locale: "" }),
    "updateAccount",
  ],
  ...(["locale_unknown", "name_required", "name_too_long"] as const).map((
    code,
  ): [string, () => ReturnType<typeof testing.loginOk>, keyof typeof CALLS] => [
    `updateAccountRefused(${code})`,
    () => testing.updateAccountRefused(code),
    "updateAccount",
  ]),
  [
    "changePasswordIncorrect",
    () => testing.changePasswordIncorrect(),
    "changePassword",
  ],
  [
    "changePasswordRefused",
    () => testing.changePasswordRefused(),
    "changePassword",
  ],
  [
    "changePasswordRateLimited",
    () => testing.changePasswordRateLimited(),
    "changePassword",
  ],
  ["reauthenticateOk", () => testing.reauthenticateOk(), "reauthenticate"],
  ...([
    "password_incorrect",
    "code_invalid",
    "passkey_invalid",
    "totp_not_enabled",
  ] as const).map((
    code,
  ): [string, () => ReturnType<typeof testing.loginOk>, keyof typeof CALLS] => [
    `reauthenticateRefused(${code})`,
    () => testing.reauthenticateRefused(code),
    "reauthenticate",
  ]),
  [
    "reauthenticateRateLimited",
    () => testing.reauthenticateRateLimited(),
    "reauthenticate",
  ],
  ["listSessionsOk", () => testing.listSessionsOk(), "listSessions"],
  ["revokeSessionOk", () => testing.revokeSessionOk(), "revokeSession"],
  [
    "revokeSessionNotFound",
    () => testing.revokeSessionNotFound(),
    "revokeSession",
  ],
  [
    "revokeOtherSessionsOk",
    () => testing.revokeOtherSessionsOk(),
    "revokeOtherSessions",
  ],
  [
    "revokeUserSessionsOk",
    () => testing.revokeUserSessionsOk(),
    "revokeUserSessions",
  ],
  ...([
    "user_not_found",
    "role_beyond_reach",
    "reauthentication_required",
  ] as const)
    .flatMap((
      code,
    ): Array<
      [string, () => ReturnType<typeof testing.loginOk>, keyof typeof CALLS]
    > => [
      [
        `revokeUserSessionsRefused(${code})`,
        () => testing.revokeUserSessionsRefused(code),
        "revokeUserSessions",
      ],
      [
        `removeUserSecondFactorRefused(${code})`,
        () => testing.removeUserSecondFactorRefused(code),
        "removeUserSecondFactor",
      ],
      [
        `unlockUserRefused(${code})`,
        () => testing.unlockUserRefused(code),
        "unlockUser",
      ],
    ]),
  ["unlockUserOk", () => testing.unlockUserOk(), "unlockUser"],
  [
    "removeUserSecondFactorOk",
    () => testing.removeUserSecondFactorOk(),
    "removeUserSecondFactor",
  ],
  ["setupTotpOk", () => testing.setupTotpOk(), "setupTotp"],
  [
    "setupTotpRefused(second_factor_enabled)",
    () => testing.setupTotpRefused("second_factor_enabled"),
    "setupTotp",
  ],
  [
    "setupTotpRefused(reauthentication_required)",
    () => testing.setupTotpRefused("reauthentication_required"),
    "setupTotp",
  ],
  ["confirmTotpOk", () => testing.confirmTotpOk(), "confirmTotp"],
  ["confirmTotpRefused", () => testing.confirmTotpRefused(), "confirmTotp"],
  [
    "confirmTotpRefused(second_factor_enabled)",
    () => testing.confirmTotpRefused("second_factor_enabled"),
    "confirmTotp",
  ],
  ["disableTotpOk", () => testing.disableTotpOk(), "disableTotp"],
  [
    "disableTotpReauthenticationRequired",
    () => testing.disableTotpReauthenticationRequired(),
    "disableTotp",
  ],
  [
    "regenerateRecoveryCodesOk",
    () => testing.regenerateRecoveryCodesOk(),
    "regenerateRecoveryCodes",
  ],
  [
    "regenerateRecoveryCodesRefused(totp_not_enabled)",
    () => testing.regenerateRecoveryCodesRefused("totp_not_enabled"),
    "regenerateRecoveryCodes",
  ],
  [
    "regenerateRecoveryCodesRefused(reauthentication_required)",
    () => testing.regenerateRecoveryCodesRefused("reauthentication_required"),
    "regenerateRecoveryCodes",
  ],
  [
    "countRecoveryCodesOk",
    () => testing.countRecoveryCodesOk(),
    "countRecoveryCodes",
  ],
  [
    "countRecoveryCodesOk(0)",
    () => testing.countRecoveryCodesOk(0),
    "countRecoveryCodes",
  ],
  [
    "countRecoveryCodesUnauthorized",
    () => testing.countRecoveryCodesUnauthorized(),
    "countRecoveryCodes",
  ],
  [
    "verifySecondFactorOk",
    () => testing.verifySecondFactorOk(),
    "verifySecondFactor",
  ],
  [
    "verifySecondFactorInvalid",
    () => testing.verifySecondFactorInvalid(),
    "verifySecondFactor",
  ],
  [
    "verifySecondFactorExpired",
    () => testing.verifySecondFactorExpired(),
    "verifySecondFactor",
  ],
  [
    "verifySecondFactorRateLimited",
    () => testing.verifySecondFactorRateLimited(),
    "verifySecondFactor",
  ],
  [
    "passkeyRegistrationOptionsOk",
    () => testing.passkeyRegistrationOptionsOk(),
    "passkeyRegistrationOptions",
  ],
  [
    "passkeyRegistrationOptionsReauthenticationRequired",
    () => testing.passkeyRegistrationOptionsReauthenticationRequired(),
    "passkeyRegistrationOptions",
  ],
  ["registerPasskeyOk", () => testing.registerPasskeyOk(), "registerPasskey"],
  [
    "registerPasskeyRefused",
    () => testing.registerPasskeyRefused(),
    "registerPasskey",
  ],
  [
    "registerPasskeyRefused(name_too_long)",
    () => testing.registerPasskeyRefused("name_too_long"),
    "registerPasskey",
  ],
  ["listPasskeysOk", () => testing.listPasskeysOk(), "listPasskeys"],
  ["renamePasskeyOk", () => testing.renamePasskeyOk(), "renamePasskey"],
  ...(["passkey_not_found", "name_required", "name_too_long"] as const).map((
    code,
  ): [string, () => ReturnType<typeof testing.loginOk>, keyof typeof CALLS] => [
    `renamePasskeyRefused(${code})`,
    () => testing.renamePasskeyRefused(code),
    "renamePasskey",
  ]),
  ["removePasskeyOk", () => testing.removePasskeyOk(), "removePasskey"],
  [
    "removePasskeyRefused(passkey_not_found)",
    () => testing.removePasskeyRefused("passkey_not_found"),
    "removePasskey",
  ],
  [
    "removePasskeyRefused(reauthentication_required)",
    () => testing.removePasskeyRefused("reauthentication_required"),
    "removePasskey",
  ],
  [
    "passkeyLoginOptionsOk",
    () => testing.passkeyLoginOptionsOk(),
    "passkeyLoginOptions",
  ],
  [
    "passkeyLoginOptionsRateLimited",
    () => testing.passkeyLoginOptionsRateLimited(),
    "passkeyLoginOptions",
  ],
  [
    "loginWithPasskeyOk",
    () => testing.loginWithPasskeyOk(),
    "loginWithPasskey",
  ],
  [
    "loginWithPasskeyRefused",
    () => testing.loginWithPasskeyRefused(),
    "loginWithPasskey",
  ],
  [
    "loginWithPasskeyRefused(token_invalid)",
    () => testing.loginWithPasskeyRefused("token_invalid"),
    "loginWithPasskey",
  ],
  ["listAuditEventsOk", () => testing.listAuditEventsOk(), "listAuditEvents"],
  ["listActivityOk", () => testing.listActivityOk(), "listActivity"],
  [
    "listSsoProvidersOk",
    () => testing.listSsoProvidersOk(),
    "listSsoProviders",
  ],
  [
    "listSsoProvidersOk([])",
    () => testing.listSsoProvidersOk([]),
    "listSsoProviders",
  ],
  ["startSsoOk", () => testing.startSsoOk(), "startSso"],
  ...(["provider_not_found", "provider_unavailable", "session_absent"] as const)
    .map((
      code,
    ): [string, () => ReturnType<typeof testing.loginOk>, OperationName] => [
      `startSsoRefused(${code})`,
      () => testing.startSsoRefused(code),
      "startSso",
    ]),
  ["ssoCallbackOk", () => testing.ssoCallbackOk("/users"), "ssoCallback"],
  [
    "ssoCallbackError",
    () => testing.ssoCallbackError("sso_account_unknown"),
    "ssoCallback",
  ],
  [
    "ssoBackchannelLogoutOk",
    () => testing.ssoBackchannelLogoutOk(),
    "ssoBackchannelLogout",
  ],
  [
    "ssoBackchannelLogoutRefused",
    () => testing.ssoBackchannelLogoutRefused(),
    "ssoBackchannelLogout",
  ],
  [
    "listSsoIdentitiesOk",
    () => testing.listSsoIdentitiesOk(),
    "listSsoIdentities",
  ],
  [
    "unlinkSsoIdentityOk",
    () => testing.unlinkSsoIdentityOk(),
    "unlinkSsoIdentity",
  ],
  ...([
    "last_sign_in_method",
    "identity_not_found",
    "reauthentication_required",
  ] as const).map((
    code,
  ): [string, () => ReturnType<typeof testing.loginOk>, OperationName] => [
    `unlinkSsoIdentityRefused(${code})`,
    () => testing.unlinkSsoIdentityRefused(code),
    "unlinkSsoIdentity",
  ]),
];

Deno.test("every canned handler factory of ./testing is checked above", () => {
  const names = new Set(CANNED.map(([name]) => name.replace(/\(.*$/, "")));
  const operations = new Set<string>(OPERATION_NAMES);
  const factories = Object.keys(testing).filter((name) =>
    [...operations].some((op) => name.startsWith(op) && name !== op) &&
    typeof (testing as Record<string, unknown>)[name] === "function"
  );
  assert.deepEqual(factories.filter((name) => !names.has(name)), []);
});

Deno.test("every canned handler answers at its operation's route, within the OpenAPI description", async () => {
  for (const [name, make, operation] of CANNED) {
    env.use(make());
    const { method } = OPERATIONS[operation];
    const url = `http://localhost${pathOf(operation, { id: ID })}`;
    const res = await fetch(url, {
      method,
      // The start and the callback answer redirects: look at them.
      redirect: "manual",
      ...(method === "GET" ? {} : {
        body: JSON.stringify({
          role: "admin",
          disabled: true,
          email: "a@example.com",
          name: "A",
        }),
      }),
    });
    // msw sets no cookie: the harness does not play the cookie jar.
    const problems = (await contractProblems(method, url, res)).filter(
      (problem) => !problem.endsWith("no Set-Cookie"),
    );
    assert.deepEqual(problems, [], name);
    env.server.resetHandlers();
  }
});

Deno.test("the earlier names still work: transport, calls and canned handlers", async () => {
  configureAuthTransport({
    fetchUsers: () => Promise.resolve({ users: [], nextCursor: null }),
  });
  assert.deepEqual(await listUsers(), { users: [], nextCursor: null });
  resetAuthTransport();
  assert.equal(testing.roleOk, testing.setUserRoleOk);
  assert.equal(testing.activateOk, testing.acceptInviteOk);
  assert.equal(testing.resetRequestOk, testing.requestPasswordResetOk);
  assert.equal(testing.resetOk, testing.resetPasswordOk);
  env.use(testing.sessionAnonymous);
  const res = await fetch("http://localhost/api/auth/session");
  assert.equal(res.status, 401);
  await res.body?.cancel();
});
