import { assertEquals } from "../fixtures/assert.ts";
import { memoryLogger } from "../fixtures/kv.ts";
import {
  AuthError,
  type ErrorCode,
  errorResponseForAuthError,
} from "../../mod.ts";
import { ERROR_STATUS } from "../../server/http/errors.ts";
import { answerError } from "../../server/http/respond.ts";

// DESIGN.md §4, one row per code.
const CONTRACT: Array<[ErrorCode, number]> = [
  ["body_malformed", 400],
  ["body_field_required", 400],
  ["email_invalid", 400],
  ["name_required", 400],
  ["name_too_long", 400],
  ["password_too_short", 400],
  ["password_too_long", 400],
  ["password_too_common", 400],
  ["user_id_malformed", 400],
  ["invitation_id_malformed", 400],
  ["role_unknown", 400],
  ["locale_unknown", 400],
  ["credentials_invalid", 401],
  ["session_absent", 401],
  ["role_insufficient", 403],
  ["capability_missing", 403],
  ["role_beyond_reach", 403],
  ["self_disable_refused", 403],
  ["self_role_refused", 403],
  ["request_cross_origin", 403],
  ["user_not_found", 404],
  ["invitation_not_found", 404],
  ["email_taken", 409],
  ["role_changed", 409],
  ["last_privileged_refused", 409],
  ["token_invalid", 410],
  ["body_too_large", 413],
  ["login_rate_limited", 429],
  ["internal", 500],
  ["mail_failed", 502],
  // §8–§10
  ["session_id_malformed", 400],
  ["passkey_id_malformed", 400],
  ["code_invalid", 400],
  ["passkey_invalid", 400],
  ["password_incorrect", 403],
  ["reauthentication_required", 403],
  ["second_factor_required", 403],
  ["session_not_found", 404],
  ["passkey_not_found", 404],
  ["second_factor_enabled", 409],
  ["totp_not_enabled", 409],
  // §13
  ["identity_id_malformed", 400],
  ["logout_token_invalid", 400],
  ["sso_required", 403],
  ["provider_not_found", 404],
  ["identity_not_found", 404],
  ["last_sign_in_method", 409],
  ["provider_unavailable", 503],
];

Deno.test("ERROR_STATUS holds exactly the contract's codes and statuses", () => {
  assertEquals<Array<[string, number]>>(
    Object.entries(ERROR_STATUS).sort(),
    [...CONTRACT].sort(),
  );
});

for (const [code, status] of CONTRACT) {
  Deno.test(`errorResponseForAuthError() answers ${code} with ${status}`, () => {
    const [gotStatus, body, ok] = errorResponseForAuthError(
      new AuthError(code),
    );
    assertEquals(gotStatus, status);
    assertEquals(body.code, code);
    assertEquals(typeof body.error, "string");
    assertEquals(Object.keys(body).sort(), ["code", "error"]);
    assertEquals(ok, true);
  });
}

Deno.test("errorResponseForAuthError() keeps meta when present", () => {
  const [, body] = errorResponseForAuthError(
    new AuthError("capability_missing", {
      meta: { capability: "users.manage" },
    }),
  );
  assertEquals(body.meta, { capability: "users.manage" });
});

Deno.test("an unrecognised error answers internal, leaks nothing and is logged", async () => {
  const logger = memoryLogger();
  const secret = new Error(
    'relation "users" does not exist at /srv/app/db.ts:42',
  );
  const res = answerError(secret, logger);
  assertEquals(res.status, 500);
  const text = await res.text();
  assertEquals(JSON.parse(text), {
    error: "Internal server error",
    code: "internal",
  });
  assertEquals(text.includes("relation"), false);
  assertEquals(logger.lines.length, 1);
  assertEquals(logger.lines[0]!.level, "error");
  assertEquals(logger.lines[0]!.fields?.error, secret);
  for (
    const thrown of ["string", 42, null, undefined, {
      code: "credentials_invalid",
    }]
  ) {
    const [status, body, ok] = errorResponseForAuthError(thrown);
    assertEquals([status, body.code, ok], [500, "internal", false]);
  }
});
