// Every server error code (DESIGN.md §4, as server/errors.ts writes them)
// arrives as its client class through the REST transport; the rules that
// depend on the call (401 on login, refusals of the role right, invite and
// email_taken, 404 from an old server) hold.

import assert from "node:assert/strict";
import {
  type AuthClientError,
  CodeInvalidError,
  CrossOriginError,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  listSessions,
  login,
  PasskeyInvalidError,
  PasskeyNotFoundError,
  PasswordIncorrectError,
  RateLimitedError,
  ReauthenticationRequiredError,
  SecondFactorEnabledError,
  SecondFactorRequiredError,
  ServerError,
  SessionNotFoundError,
  setupTotp,
  TotpNotEnabledError,
  UnauthorizedError,
  UnexpectedResponseError,
  ValidationError,
} from "@gatehouse/client";
import {
  IdentityNotFoundError,
  LastSignInMethodError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  SsoRequiredError,
} from "@gatehouse/client/sso";
import { ServerTooOldError } from "../../client/service_errors.ts";
import {
  acceptInvite,
  createUser,
  EmailTakenError,
  InvitationFailedError,
  InvitationNotFoundError,
  invite,
  LastPrivilegedError,
  listInvitations,
  listUsers,
  requestPasswordReset,
  resetPassword,
  revokeInvitation,
  RoleBeyondReachError,
  RoleChangedError,
  RoleRefusedError,
  RoleUnknownError,
  SelfDisableError,
  SelfRoleError,
  setUserDisabled,
  setUserRole,
  UserNotFoundError,
} from "@gatehouse/client/admin";
import {
  type Endpoint,
  fetchSessionAnonymous,
  installTestEnvironment,
  listUsersOk,
  logoutOk,
  refuse,
  requestPasswordResetOk,
  serverTooOld,
} from "@gatehouse/client/testing";
import { http, HttpResponse } from "msw";
import { ERROR_STATUS } from "../../server/http/errors.ts";
import { refuseOutsideContract, rejection } from "./_support.ts";

const env = installTestEnvironment();
const ID = "0190f0a0-0000-7000-8000-00000000abcd";
const PASSWORD = "long enough password";

type ErrorClass = abstract new (...args: never[]) => AuthClientError;

/** The class each server code becomes on a call that hands out no role. */
const CLASS_OF: Record<keyof typeof ERROR_STATUS, ErrorClass> = {
  body_malformed: ValidationError,
  body_field_required: ValidationError,
  email_invalid: ValidationError,
  name_required: ValidationError,
  name_too_long: ValidationError,
  password_too_short: ValidationError,
  password_too_long: ValidationError,
  password_too_common: ValidationError,
  invitation_id_malformed: ValidationError,
  user_id_malformed: ValidationError,
  role_unknown: RoleUnknownError,
  locale_unknown: ValidationError,
  credentials_invalid: UnauthorizedError, // a 401 outside login
  session_absent: UnauthorizedError,
  role_insufficient: ForbiddenError,
  capability_missing: ForbiddenError,
  role_beyond_reach: RoleBeyondReachError,
  self_disable_refused: SelfDisableError,
  self_role_refused: SelfRoleError,
  request_cross_origin: CrossOriginError,
  user_not_found: UserNotFoundError,
  invitation_not_found: InvitationNotFoundError,
  email_taken: EmailTakenError,
  role_changed: RoleChangedError,
  last_privileged_refused: LastPrivilegedError,
  token_invalid: InvalidTokenError,
  body_too_large: ValidationError,
  login_rate_limited: RateLimitedError,
  internal: ServerError,
  mail_failed: InvitationFailedError,
  // DESIGN.md §8–§10 codes: by status until their classes land.
  session_id_malformed: ValidationError,
  passkey_id_malformed: ValidationError,
  code_invalid: CodeInvalidError,
  passkey_invalid: PasskeyInvalidError,
  password_incorrect: PasswordIncorrectError,
  reauthentication_required: ReauthenticationRequiredError,
  second_factor_required: SecondFactorRequiredError,
  session_not_found: SessionNotFoundError,
  passkey_not_found: PasskeyNotFoundError,
  second_factor_enabled: SecondFactorEnabledError,
  totp_not_enabled: TotpNotEnabledError,
  // Single sign-on (DESIGN.md §13).
  identity_id_malformed: ValidationError,
  logout_token_invalid: ValidationError,
  sso_required: SsoRequiredError,
  provider_not_found: ProviderNotFoundError,
  identity_not_found: IdentityNotFoundError,
  last_sign_in_method: LastSignInMethodError,
  provider_unavailable: ProviderUnavailableError,
};

Deno.test("each server code maps to its class, keeping code, status, meta and message", async (t) => {
  // The client's table goes by code, whatever the route: every code is
  // answered on one route, most of them outside the contract (which routes
  // answer which codes is the contract's, checked in contract_test.ts).
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    await t.step(`${code} (${status})`, async () => {
      const meta = { field: "email" };
      env.use(
        refuseOutsideContract("createUser", code as keyof typeof ERROR_STATUS, {
          meta,
          message: `Server says ${code}`,
        }),
      );
      const error = await rejection(
        createUser({ email: "a@example.com", name: "A", password: PASSWORD }),
      );
      const expected = CLASS_OF[code as keyof typeof ERROR_STATUS];
      assert.ok(
        error instanceof expected,
        `${code}: expected ${expected.name}, got ${error}`,
      );
      assert.equal(
        error.constructor,
        expected,
        `${code}: exactly ${expected.name}`,
      );
      assert.equal(error.code, code);
      assert.equal(error.status, status);
      assert.deepEqual(error.meta, meta);
      assert.equal(error.message, `Server says ${code}`);
    });
  }
});

Deno.test("the code table of the test covers every code the server writes", () => {
  assert.deepEqual(
    Object.keys(CLASS_OF).sort(),
    Object.keys(ERROR_STATUS).sort(),
  );
});

Deno.test("a 401 on login is InvalidCredentialsError, anywhere else UnauthorizedError", async () => {
  env.use(refuse("login", "credentials_invalid"));
  assert.ok(
    await rejection(login("a@example.com", "wrong")) instanceof
      InvalidCredentialsError,
  );
  env.use(refuse("listUsers", "session_absent"));
  assert.ok(await rejection(listUsers()) instanceof UnauthorizedError);
  // Any 401, whatever its body says.
  env.use(
    http.get("*/api/users", () => new HttpResponse("no", { status: 401 })),
  );
  const bare = await rejection(listUsers());
  assert.ok(bare instanceof UnauthorizedError);
  assert.equal(bare.status, 401);
});

Deno.test("role_insufficient and capability_missing become RoleRefusedError on calls that hand out a role", async (t) => {
  const roleCalls: Array<[Endpoint, () => Promise<unknown>]> = [
    ["setUserRole", () => setUserRole(ID, "admin")],
    [
      "createUser",
      () =>
        createUser({
          email: "a@example.com",
          name: "A",
          password: PASSWORD,
          role: "admin",
        }),
    ],
    [
      "invite",
      () => invite({ email: "a@example.com", name: "A", role: "admin" }),
    ],
  ];
  for (const [endpoint, call] of roleCalls) {
    for (const code of ["role_insufficient", "capability_missing"] as const) {
      await t.step(`${endpoint} ${code}`, async () => {
        // No Gatehouse route answers capability_missing: an application's
        // own requireCapability() in front of the route does.
        env.use(
          code === "role_insufficient"
            ? refuse(endpoint, code)
            : refuseOutsideContract(endpoint, code, {
              meta: { capability: "users.manage" },
            }),
        );
        const error = await rejection(call());
        assert.ok(
          error instanceof RoleRefusedError,
          `${endpoint}/${code}: ${error}`,
        );
        assert.ok(error instanceof ForbiddenError);
        assert.equal(error.code, code);
      });
    }
  }
});

Deno.test("role_insufficient stays ForbiddenError on calls that hand out no role", async () => {
  // From an application's own requireCapability(), as above.
  env.use(
    refuseOutsideContract("listUsers", "capability_missing", {
      meta: { capability: "users.manage" },
    }),
  );
  const listing = await rejection(listUsers());
  assert.ok(
    listing instanceof ForbiddenError && !(listing instanceof RoleRefusedError),
  );
  assert.equal(listing.capability, "users.manage");
  env.use(refuse("createUser", "role_insufficient"));
  const noRole = await rejection(
    createUser({ email: "a@example.com", name: "A", password: PASSWORD }),
  );
  assert.ok(
    noRole instanceof ForbiddenError && !(noRole instanceof RoleRefusedError),
  );
  env.use(refuse("setUserDisabled", "role_insufficient"));
  const disabling = await rejection(
    setUserDisabled(ID, true, { seenRole: "member" }),
  );
  assert.ok(
    disabling instanceof ForbiddenError &&
      !(disabling instanceof RoleRefusedError),
  );
});

Deno.test("a 404 from an old server on invitation, reset and role routes is ServerTooOldError", async (t) => {
  const rows: Array<[Endpoint, () => Promise<unknown>, string, string]> = [
    [
      "invite",
      () => invite({ email: "a@example.com", name: "A" }),
      "invitations",
      ">=0.12.0",
    ],
    [
      "acceptInvite",
      () => acceptInvite("t", PASSWORD),
      "invitations",
      ">=0.12.0",
    ],
    [
      "requestPasswordReset",
      () => requestPasswordReset("a@example.com"),
      "passwordResets",
      ">=0.12.0",
    ],
    [
      "resetPassword",
      () => resetPassword("t", PASSWORD),
      "passwordResets",
      ">=0.12.0",
    ],
    ["setUserRole", () => setUserRole(ID, "admin"), "roleChanges", ">0.8.0"],
  ];
  for (const [endpoint, call, feature, server] of rows) {
    await t.step(endpoint, async () => {
      env.use(serverTooOld(endpoint));
      const error = await rejection(call());
      assert.ok(error instanceof ServerTooOldError, `${endpoint}: ${error}`);
      assert.equal(error.feature, feature);
      assert.equal(error.requiredServer, server);
      assert.equal(error.code, "server_too_old");
      assert.equal(error.status, 404);
      assert.match(
        error.message,
        /^Server too old for .+: they need @gatehouse\/server ">?=?0\.\d+\.0"$/,
      );
    });
  }
});

Deno.test("an old server's 404 on one feature leaves the others working", async () => {
  env.use(
    serverTooOld("invite"),
    serverTooOld("setUserRole"),
    listUsersOk(),
    fetchSessionAnonymous(),
    logoutOk(),
    requestPasswordResetOk(),
  );
  assert.ok(
    await rejection(invite({ email: "a@example.com", name: "A" })) instanceof
      ServerTooOldError,
  );
  assert.equal((await listUsers()).users.length, 2);
  await requestPasswordReset("a@example.com");
});

Deno.test("user_not_found on the role route is UserNotFoundError, not ServerTooOldError", async () => {
  env.use(refuse("setUserRole", "user_not_found"));
  const error = await rejection(setUserRole(ID, "admin"));
  assert.ok(error instanceof UserNotFoundError);
});

Deno.test("a 404 outside the invitation, reset and role routes is not taken for an old server", async (t) => {
  // Only SPEC.md's routes have a "server too old": listing and revoking
  // invitations and account security ship with the same server.
  const rows: Array<[Endpoint, () => Promise<unknown>]> = [
    ["listUsers", () => listUsers()],
    ["listInvitations", () => listInvitations()],
    ["revokeInvitation", () => revokeInvitation(ID)],
    ["setupTotp", () => setupTotp()],
    ["listSessions", () => listSessions()],
  ];
  for (const [endpoint, call] of rows) {
    await t.step(endpoint, async () => {
      env.use(serverTooOld(endpoint));
      const error = await rejection(call());
      assert.ok(error instanceof UnexpectedResponseError, `${error}`);
      assert.ok(!(error instanceof ServerTooOldError));
      assert.equal(error.status, 404);
    });
  }
});

Deno.test("answers outside the contract become the nearest class by status", async (t) => {
  const rows: Array<[number, string | undefined, ErrorClass, string]> = [
    [502, undefined, ServerError, "internal"],
    [503, "maintenance", ServerError, "maintenance"],
    [400, "a_newer_code", ValidationError, "a_newer_code"],
    [403, "a_newer_refusal", ForbiddenError, "a_newer_refusal"],
    [418, undefined, UnexpectedResponseError, "response_malformed"],
  ];
  for (const [status, code, kind, expectedCode] of rows) {
    await t.step(`${status} ${code ?? "(no JSON)"}`, async () => {
      env.use(
        http.get(
          "*/api/users",
          () =>
            code === undefined
              ? new HttpResponse("<html>proxy</html>", { status })
              : HttpResponse.json({ error: "x", code }, { status }),
        ),
      );
      const error = await rejection(listUsers());
      assert.ok(error instanceof kind, `${status}: ${error}`);
      assert.equal(error.code, expectedCode);
      assert.equal(error.status, status);
    });
  }
});

Deno.test("RateLimitedError reads Retry-After as seconds or as an HTTP date", async () => {
  const inNinetySeconds = new Date(Date.now() + 90_000).toUTCString();
  env.use(
    http.post(
      "*/api/auth/login",
      () =>
        HttpResponse.json({ error: "x", code: "login_rate_limited" }, {
          status: 429,
          headers: { "retry-after": inNinetySeconds },
        }),
    ),
  );
  const dated = await rejection(login("a@example.com", "p"));
  assert.ok(dated instanceof RateLimitedError);
  assert.ok(
    dated.retryAfter !== null && dated.retryAfter >= 88 &&
      dated.retryAfter <= 90,
    `${dated.retryAfter}`,
  );
  env.use(
    http.post(
      "*/api/auth/login",
      () =>
        HttpResponse.json({ error: "x", code: "login_rate_limited" }, {
          status: 429,
        }),
    ),
  );
  const unsaid = await rejection(login("a@example.com", "p"));
  assert.ok(unsaid instanceof RateLimitedError);
  assert.equal(unsaid.retryAfter, null);
});

Deno.test("RateLimitedError reads a Retry-After no date can hold as unsaid", async () => {
  for (
    const header of ["9".repeat(400), "9007199254740993", "10000000000000"]
  ) {
    env.use(
      http.post(
        "*/api/auth/login",
        () =>
          HttpResponse.json({ error: "x", code: "login_rate_limited" }, {
            status: 429,
            headers: { "retry-after": header },
          }),
      ),
    );
    const error = await rejection(login("a@example.com", "p"));
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.retryAfter, null, header);
    assert.equal(error.retryAt, null, header);
  }
});
