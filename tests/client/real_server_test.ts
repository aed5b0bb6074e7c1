// The REST transport against the real server handlers (not the fake), on a
// real `Deno.serve` with a KV store in memory: proof that the client's
// contract and the server's match. It mounts the routes of createGatehouse,
// every route the server has; a new route needs only its test here.

import assert from "node:assert/strict";
import {
  configureAuthTransport,
  CrossOriginError,
  fetchSession,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  isSecondFactorChallenge,
  login,
  logout,
  RateLimitedError,
  resetAuthTransport,
  restTransport,
  UnauthorizedError,
  ValidationError,
} from "@gatehouse/client";
import {
  acceptInvite,
  createUser,
  EmailTakenError,
  invite,
  listUsers,
  requestPasswordReset,
  resetPassword,
  RoleChangedError,
  RoleRefusedError,
  RoleUnknownError,
  SelfDisableError,
  SelfRoleError,
  setUserDisabled,
  setUserRole,
} from "@gatehouse/client/admin";
import {
  createAuth,
  createGatehouse,
  crossOriginGuard,
  USERS_MANAGE,
} from "../../mod.ts";
import { developmentMailer } from "../../server/mail.ts";
import { until } from "../fixtures/api.ts";
import { mount, routesFor } from "../fixtures/app.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  PASSWORD,
  serve,
} from "../fixtures/kv.ts";

const ROLES = {
  admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] },
  member: {},
};
const NEW_PASSWORD = "another long password";

/** A browser's cookie jar, reduced to what a same-origin page needs. */
function cookieJarFetch(extraHeaders: () => HeadersInit) {
  const jar = new Map<string, string>();
  const jarFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of new Headers(extraHeaders())) {
      headers.set(name, value);
    }
    if (jar.size > 0) {
      headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const [name = "", value = ""] = pair.trim().split("=");
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return { jar, fetch: jarFetch };
}

interface Context {
  jar: Map<string, string>;
  adminId: string;
  memberId: string;
  logged: ReturnType<typeof memoryLogger>["lines"];
  setHeaders(headers: HeadersInit): void;
}

/** Serves the real handlers and points the REST transport at them. */
async function withServer(
  test: (ctx: Context) => Promise<void>,
  options: { registry?: boolean } = {},
): Promise<void> {
  const { store, close } = await memoryStore();
  const admin = await addUser(store, {
    email: "ada@example.com",
    name: "Ada",
    role: "admin",
  });
  const member = await addUser(store, {
    email: "max@example.com",
    name: "Max",
    role: "member",
  });
  const logger = memoryLogger();
  // The routes of createGatehouse as an application mounts them; without a
  // registry (composed by hand: createGatehouse always has one) only the
  // session routes. Every answer is checked against the contract.
  const app = options.registry === false
    ? (() => {
      const auth = createAuth({ store, hasher, logger, privileged: ["admin"] });
      return crossOriginGuard({ logger })(mount(routesFor({
        login: auth.login,
        logout: auth.logout,
        fetchSession: auth.fetchSession,
      })));
    })()
    : mount(
      createGatehouse({
        store,
        hasher,
        logger,
        roles: ROLES,
        rateLimit: { maxFailures: 3, window: 60_000 },
        // Reset links reach the log (the test reads them there); invitation
        // links come back in the answer.
        publicUrl: "http://localhost",
        mailer: developmentMailer({ logger, kinds: ["password_reset"] }),
      }).routes,
    );
  const server = serve((req, info) => app(req, undefined, info));
  let headers: HeadersInit = {};
  const { jar, fetch } = cookieJarFetch(() => headers);
  configureAuthTransport(restTransport({ baseUrl: server.url, fetch }));
  try {
    await test({
      jar,
      adminId: admin.id,
      memberId: member.id,
      logged: logger.lines,
      setHeaders: (h) => (headers = h),
    });
  } finally {
    resetAuthTransport();
    await server.close();
    await close();
  }
}

function tokenOf(link: string): string {
  const token = new URL(link).hash.match(/^#token=(.+)$/)?.[1];
  assert.ok(token, `no token in ${link}`);
  return token;
}

Deno.test("REST against the real server: login, session and logout", async () => {
  await withServer(async ({ jar, adminId }) => {
    assert.equal(
      await fetchSession(),
      null,
      "no cookie yet: session_absent is null",
    );
    const user = await login("ada@example.com", PASSWORD);
    assert.deepEqual(user, {
      id: adminId,
      email: "ada@example.com",
      name: "Ada",
      role: "admin",
      capabilities: ["users.manage"],
      grantable: ["admin", "member"],
      secondFactor: { totp: false, passkeys: 0 },
      secondFactorRequired: false,
      hasPassword: true,
      // No Accept-Language sent and none chosen yet (DESIGN.md §14).
      locale: "",
    });
    assert.ok(jar.has("__Host-session"), "the session cookie was set");
    // And the trusted-device cookie, which outlives the session (§15).
    assert.deepEqual([...jar.keys()].sort(), [
      "__Host-gatehouse-device",
      "__Host-session",
    ]);
    assert.deepEqual(await fetchSession(), user);
    await logout();
    assert.ok(!jar.has("__Host-session"), "the cookie was cleared");
    assert.ok(jar.has("__Host-gatehouse-device"), "the device stays trusted");
    assert.equal(await fetchSession(), null);
    await logout(); // twice is not an error
  });
});

Deno.test("REST against the real server: an identity without a registry has no lists", async () => {
  await withServer(async () => {
    const user = await login("ada@example.com", PASSWORD);
    assert.ok(!isSecondFactorChallenge(user));
    assert.equal(user.capabilities, undefined);
    assert.equal(user.grantable, undefined);
  }, { registry: false });
});

Deno.test("REST against the real server: a wrong password is InvalidCredentialsError", async () => {
  await withServer(async () => {
    await assert.rejects(
      login("ada@example.com", "not the password at all"),
      (error) => {
        assert.ok(error instanceof InvalidCredentialsError);
        assert.equal(error.code, "credentials_invalid");
        assert.equal(error.status, 401);
        return true;
      },
    );
    await assert.rejects(
      login("nobody@example.com", PASSWORD),
      InvalidCredentialsError,
    );
  });
});

Deno.test("REST against the real server: the login limiter is RateLimitedError with Retry-After", async () => {
  await withServer(async () => {
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        login("ada@example.com", "wrong password!"),
        InvalidCredentialsError,
      );
    }
    await assert.rejects(login("ada@example.com", PASSWORD), (error) => {
      assert.ok(error instanceof RateLimitedError);
      assert.equal(error.status, 429);
      assert.ok(
        error.retryAfter !== null && error.retryAfter > 0 &&
          error.retryAfter <= 60,
        `${error.retryAfter}`,
      );
      return true;
    });
  });
});

Deno.test("REST against the real server: a missing field is ValidationError naming it", async () => {
  await withServer(async () => {
    await assert.rejects(
      login("ada@example.com", undefined as never),
      (error) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(error.code, "body_field_required");
        assert.equal(error.field, "password");
        return true;
      },
    );
  });
});

Deno.test("REST against the real server: session_absent is UnauthorizedError, and null from fetchSession", async () => {
  await withServer(async ({ jar }) => {
    await assert.rejects(listUsers(), UnauthorizedError);
    await login("ada@example.com", PASSWORD);
    jar.set("__Host-session", "A".repeat(43)); // well-formed, unknown: revoked
    const failures: unknown[] = [];
    assert.equal(
      await fetchSession({ onFailure: (e) => failures.push(e) }),
      null,
    );
    assert.deepEqual(failures, [], "signed out is not a failure");
    await assert.rejects(
      setUserDisabled("0190f0a0-0000-7000-8000-000000000001", true),
      UnauthorizedError,
    );
  });
});

Deno.test("REST against the real server: a cross-origin write is CrossOriginError", async () => {
  await withServer(async ({ setHeaders }) => {
    setHeaders({ "sec-fetch-site": "cross-site" });
    await assert.rejects(login("ada@example.com", PASSWORD), (error) => {
      assert.ok(error instanceof CrossOriginError);
      assert.equal(error.code, "request_cross_origin");
      assert.equal(error.status, 403);
      return true;
    });
  });
});

Deno.test("REST against the real server: listing and creating accounts", async () => {
  await withServer(async ({ adminId, memberId }) => {
    await login("ada@example.com", PASSWORD);
    const first = await listUsers({ limit: 1 });
    assert.equal(first.users.length, 1);
    assert.equal(typeof first.nextCursor, "string");
    assert.ok(!Number.isNaN(Date.parse(first.users[0]!.createdAt)));
    const second = await listUsers({ limit: 1, cursor: first.nextCursor! });
    // Two accounts made in the same millisecond may come in either order.
    assert.deepEqual(
      [...first.users, ...second.users].map((u) => u.id).sort(),
      [adminId, memberId].sort(),
    );
    assert.deepEqual((await listUsers({ q: "MAX" })).users.map((u) => u.id), [
      memberId,
    ]);

    const created = await createUser({
      email: "grace@example.com",
      name: "Grace",
      password: PASSWORD,
      role: "member",
    });
    assert.deepEqual(
      { ...created, id: "", createdAt: "" },
      {
        id: "",
        email: "grace@example.com",
        name: "Grace",
        role: "member",
        disabled: false,
        createdAt: "",
        lockedUntil: null,
      },
    );
    await assert.rejects(
      createUser({
        email: "GRACE@example.com",
        name: "Grace",
        password: PASSWORD,
      }),
      EmailTakenError,
    );
    await assert.rejects(
      createUser({ email: "x@example.com", name: "X", password: "short" }),
      (error) =>
        error instanceof ValidationError && error.code === "password_too_short",
    );
    await assert.rejects(
      createUser({
        email: "x@example.com",
        name: "X",
        password: PASSWORD,
        role: "wizard",
      }),
      (error) => error instanceof RoleUnknownError && error.field === "role",
    );
  });
});

Deno.test("REST against the real server: disabling and role changes with their refusals", async () => {
  await withServer(async ({ adminId, memberId }) => {
    await login("ada@example.com", PASSWORD);
    await assert.rejects(
      setUserDisabled(memberId, true, { seenRole: "admin" }),
      RoleChangedError,
    );
    const disabled = await setUserDisabled(memberId, true, {
      seenRole: "member",
    });
    assert.equal(disabled.disabled, true);
    assert.equal((await setUserDisabled(memberId, false)).disabled, false);
    await assert.rejects(setUserDisabled(adminId, true), SelfDisableError);

    const promoted = await setUserRole(memberId, "admin");
    assert.equal(promoted.role, "admin");
    assert.equal((await setUserRole(memberId, "member")).role, "member");
    await assert.rejects(setUserRole(adminId, "member"), SelfRoleError);
    await assert.rejects(setUserRole(memberId, "wizard"), RoleUnknownError);
  });
});

Deno.test("REST against the real server: a member is refused administration", async () => {
  await withServer(async ({ adminId }) => {
    await login("max@example.com", PASSWORD);
    await assert.rejects(
      listUsers(),
      (error) =>
        error instanceof ForbiddenError && !(error instanceof RoleRefusedError),
    );
    await assert.rejects(setUserRole(adminId, "member"), RoleRefusedError);
  });
});

Deno.test("REST against the real server: an invitation without mail, accepted once", async () => {
  await withServer(async () => {
    await login("ada@example.com", PASSWORD);
    const result = await invite({
      email: "lin@example.com",
      name: "Lin",
      role: "member",
    });
    assert.equal(result.delivered, false);
    assert.ok(!result.delivered);
    const token = tokenOf(result.activationLink);
    const taken = await invite({ email: "max@example.com", name: "Max" });
    assert.equal(taken.delivered, false, "the same shape for a taken address");

    await logout();
    const user = await acceptInvite(token, NEW_PASSWORD);
    assert.equal(user.email, "lin@example.com");
    assert.equal(user.role, "member");
    assert.deepEqual(await fetchSession(), user, "signed in by the acceptance");
    await assert.rejects(acceptInvite(token, NEW_PASSWORD), InvalidTokenError);
  });
});

Deno.test("REST against the real server: a password reset, spent once", async () => {
  await withServer(async ({ logged }) => {
    await requestPasswordReset("nobody@example.com");
    await requestPasswordReset("max@example.com");
    const mailed = (l: (typeof logged)[number]) =>
      l.message.startsWith("development mailer") &&
      l.fields?.to === "max@example.com";
    await until(() => logged.some(mailed)); // sent after the answer
    const line = logged.find(mailed);
    const link = String(line?.fields?.link ?? "");
    const token = tokenOf(new URL(link, "http://localhost").href);
    await assert.rejects(
      resetPassword(token, "short"),
      (error) =>
        error instanceof ValidationError && error.code === "password_too_short",
    );
    await resetPassword(token, NEW_PASSWORD);
    await assert.rejects(resetPassword(token, NEW_PASSWORD), InvalidTokenError);
    const max = await login("max@example.com", NEW_PASSWORD);
    assert.ok(!isSecondFactorChallenge(max));
    assert.equal(max.name, "Max");
  });
});
