// The REST transport's invitation and reset operations against the
// package's own fake server: the "Must do" cells of SPEC.md's transport
// table for invite, acceptInvite, requestPasswordReset and resetPassword,
// and the request each sends (DESIGN.md §4).

import assert from "node:assert/strict";
import {
  InvalidTokenError,
  RateLimitedError,
  restTransport,
  ValidationError,
} from "@gatehouse/client";
import {
  acceptInvite,
  EmailTakenError,
  InvitationFailedError,
  invite,
  requestPasswordReset,
  resetPassword,
} from "@gatehouse/client/admin";
import {
  acceptInviteInvalidToken,
  acceptInviteOk,
  installTestEnvironment,
  inviteDelivered,
  inviteUndelivered,
  refuse,
  requestPasswordResetOk,
  resetPasswordInvalidToken,
  resetPasswordOk,
  userWithRole,
} from "@gatehouse/client/testing";
import { http, HttpResponse } from "msw";
import {
  recordRequests,
  refuseOutsideContract,
  rejection,
} from "./_support.ts";

const env = installTestEnvironment();

// invite: same shape for taken and fresh addresses; ValidationError for bad
// input, never EmailTakenError; delivered false without a link fails.

Deno.test("invite() posts {email, name, role} and answers {delivered: true}", async () => {
  env.use(inviteDelivered());
  const recorder = recordRequests(env);
  assert.deepEqual(
    await invite({ email: "a@example.com", name: "A", role: "member" }),
    { delivered: true },
  );
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "POST");
  assert.equal(sent?.url.pathname, "/api/users/invite");
  assert.deepEqual(sent?.body, {
    email: "a@example.com",
    name: "A",
    role: "member",
  });
});

Deno.test("invite() answers {delivered: false, activationLink} when the server hands the link back", async () => {
  env.use(inviteUndelivered("http://localhost/invite#token=t1"));
  assert.deepEqual(await invite({ email: "a@example.com", name: "A" }), {
    delivered: false,
    activationLink: "http://localhost/invite#token=t1",
  });
});

Deno.test("invite() treats {delivered: false} without a link as a failed invitation", async () => {
  env.use(
    http.post(
      "*/api/users/invite",
      () => HttpResponse.json({ delivered: false }),
    ),
  );
  assert.ok(
    await rejection(invite({ email: "a@example.com", name: "A" })) instanceof
      InvitationFailedError,
  );
  env.use(
    http.post(
      "*/api/users/invite",
      () => HttpResponse.json({ delivered: false, activation_link: "" }),
    ),
  );
  assert.ok(
    await rejection(invite({ email: "a@example.com", name: "A" })) instanceof
      InvitationFailedError,
  );
});

Deno.test("invite() throws ValidationError for bad input and never EmailTakenError", async () => {
  env.use(refuse("invite", "email_invalid", { meta: { field: "email" } }));
  const invalid = await rejection(invite({ email: "nope", name: "A" }));
  assert.ok(invalid instanceof ValidationError);
  assert.equal(invalid.field, "email");
  // The contract's invite never answers email_taken; a server that did
  // would still not make the client tell.
  env.use(refuseOutsideContract("invite", "email_taken"));
  const taken = await rejection(invite({ email: "a@example.com", name: "A" }));
  assert.ok(
    !(taken instanceof EmailTakenError),
    "an invitation never reveals a taken address",
  );
  assert.ok(taken instanceof InvitationFailedError);
});

Deno.test("restTransport().invite() itself never throws EmailTakenError", async () => {
  env.use(refuseOutsideContract("invite", "email_taken"));
  const taken = await rejection(
    restTransport().invite({ email: "a@example.com", name: "A" }),
  );
  assert.ok(taken instanceof InvitationFailedError);
});

// acceptInvite: "Return the signed-in user. Throw InvalidTokenError for a
// spent, expired or unknown link."

Deno.test("acceptInvite() posts {token, password} and answers the signed-in account", async () => {
  const member = userWithRole("member");
  env.use(acceptInviteOk(member));
  const recorder = recordRequests(env);
  assert.deepEqual(await acceptInvite("tok", "a long new password"), member);
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.url.pathname, "/api/auth/invite/accept");
  assert.deepEqual(sent?.body, {
    token: "tok",
    password: "a long new password",
  });
});

Deno.test("acceptInvite() throws InvalidTokenError for a dead link", async () => {
  env.use(acceptInviteInvalidToken());
  const error = await rejection(acceptInvite("spent", "a long new password"));
  assert.ok(error instanceof InvalidTokenError);
  assert.equal(error.status, 410);
});

// requestPasswordReset: "Answer nothing about the address. Throw
// RateLimitedError when the limiter refuses."

Deno.test("requestPasswordReset() posts {email} and answers nothing", async () => {
  env.use(requestPasswordResetOk());
  const recorder = recordRequests(env);
  assert.equal(await requestPasswordReset("anyone@example.com"), undefined);
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.url.pathname, "/api/auth/password-reset");
  assert.deepEqual(sent?.body, { email: "anyone@example.com" });
});

Deno.test("requestPasswordReset() throws RateLimitedError when the limiter refuses", async () => {
  env.use(
    refuse("requestPasswordReset", "login_rate_limited", {
      retryAfter: 30,
    }),
  );
  const error = await rejection(requestPasswordReset("anyone@example.com"));
  assert.ok(error instanceof RateLimitedError);
  assert.equal(error.retryAfter, 30);
});

// resetPassword: "Throw InvalidTokenError for a dead link; ValidationError
// for a refused password."

Deno.test("resetPassword() posts {token, password} and resolves on 204", async () => {
  env.use(resetPasswordOk());
  const recorder = recordRequests(env);
  assert.equal(await resetPassword("tok", "a long new password"), undefined);
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.url.pathname, "/api/auth/password-reset/confirm");
  assert.deepEqual(sent?.body, {
    token: "tok",
    password: "a long new password",
  });
});

Deno.test("resetPassword() throws InvalidTokenError for a dead link and ValidationError for a refused password", async () => {
  env.use(resetPasswordInvalidToken());
  assert.ok(
    await rejection(resetPassword("dead", "a long new password")) instanceof
      InvalidTokenError,
  );
  env.use(refuse("resetPassword", "password_too_short"));
  const refused = await rejection(resetPassword("tok", "short"));
  assert.ok(refused instanceof ValidationError);
  assert.equal(refused.code, "password_too_short");
});
