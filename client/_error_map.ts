// The one table from each server error code (DESIGN.md §4) to its client
// class, and the few rules that depend on the call: a 401 is
// InvalidCredentialsError on the sign-in steps (password, second factor,
// passkey) and UnauthorizedError everywhere else; a
// refusal of the role right on a call that hands out a role is
// RoleRefusedError; `invite` never reveals `email_taken`; a 404 without a
// 404 code of the contract on a feature route means the server is too old.
// The codes and their statuses come from the contract (`ERROR_STATUS`).

import {
  ERROR_STATUS,
  type ErrorCode as ServerCode,
} from "@gatehouse/contract/errors";
import {
  type AuthClientError,
  type AuthClientErrorOptions,
  CrossOriginError,
  EmailTakenError,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  InvitationNotFoundError,
  RateLimitedError,
  SelfDisableError,
  UnauthorizedError,
  UserNotFoundError,
  ValidationError,
} from "./errors.ts";
import {
  LastPrivilegedError,
  RoleBeyondReachError,
  RoleChangedError,
  RoleRefusedError,
  RoleUnknownError,
  SelfRoleError,
} from "./role_errors.ts";
import {
  CodeInvalidError,
  PasskeyInvalidError,
  PasskeyNotFoundError,
  PasswordIncorrectError,
  ReauthenticationRequiredError,
  SecondFactorEnabledError,
  SecondFactorRequiredError,
  SessionNotFoundError,
  TotpNotEnabledError,
} from "./security_errors.ts";
import {
  IdentityNotFoundError,
  LastSignInMethodError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  SsoRequiredError,
} from "./sso_errors.ts";
import {
  InvitationFailedError,
  ServerError,
  type ServerFeature,
  ServerTooOldError,
  UnexpectedResponseError,
} from "./service_errors.ts";

type ErrorClass = new (
  message?: string,
  options?: AuthClientErrorOptions,
) => AuthClientError;

/** The class of every server code. `login_rate_limited` is built apart (it reads a header). */
export const CLASS_OF_CODE: Readonly<Record<ServerCode, ErrorClass>> = {
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
  body_too_large: ValidationError,
  role_unknown: RoleUnknownError,
  // A language the server's mail is not written in (DESIGN.md §14).
  locale_unknown: ValidationError,
  credentials_invalid: InvalidCredentialsError,
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
  login_rate_limited: RateLimitedError,
  internal: ServerError,
  // The invitation's mail failed: nothing was made (DESIGN.md §14).
  mail_failed: InvitationFailedError,
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

// The operations whose 401 is a refused proof, not a session gone: the
// password step, the second-factor step and the passkey sign-in.
const SIGN_IN_STEPS: ReadonlySet<string> = new Set([
  "login",
  "verifySecondFactor",
  "loginWithPasskey",
]);

/** The class for a code the table does not know (a newer server), by status. */
function classOfStatus(status: number): ErrorClass {
  if (status === 400 || status === 413 || status === 422) {
    return ValidationError;
  }
  if (status === 401) return UnauthorizedError;
  if (status === 403) return ForbiddenError;
  if (status === 410) return InvalidTokenError;
  if (status === 429) return RateLimitedError;
  if (status >= 500) return ServerError;
  return UnexpectedResponseError;
}

/** The call an answer belongs to, as far as error mapping cares. */
export interface CallContext {
  /** The transport operation. */
  operation: string;
  /** Set on routes a server may be too old for. */
  feature?: ServerFeature;
  /** True when the call hands out a role. */
  grantsRole?: boolean;
}

/** A refused answer, read off the response. */
export interface RefusedAnswer {
  status: number;
  /** The body's `code`, when the body was a JSON error. */
  code?: string;
  /** The body's `error`. */
  message?: string;
  meta?: Record<string, string>;
  /** The `Retry-After` header. */
  retryAfter?: string | null;
}

const ROLE_RIGHT_CODES = new Set(["role_insufficient", "capability_missing"]);

/** The client error for a refused answer to `call`. */
export function errorFromAnswer(
  answer: RefusedAnswer,
  call: CallContext,
): AuthClientError {
  const { status } = answer;
  const code = answer.code ??
    (status >= 500 ? "internal" : "response_malformed");
  const options: AuthClientErrorOptions = {
    code,
    status,
    ...(answer.meta === undefined ? {} : { meta: answer.meta }),
  };
  const message = answer.message;

  if (
    status === 404 && call.feature !== undefined &&
    !(Object.hasOwn(ERROR_STATUS, code) &&
      ERROR_STATUS[code as ServerCode] === 404)
  ) {
    return new ServerTooOldError(call.feature, { status });
  }
  if (status === 401) {
    return SIGN_IN_STEPS.has(call.operation)
      ? new InvalidCredentialsError(message, options)
      : new UnauthorizedError(message, options);
  }
  if (call.grantsRole === true && ROLE_RIGHT_CODES.has(code)) {
    return new RoleRefusedError(message, options);
  }
  if (call.operation === "invite" && code === "email_taken") {
    // An invitation answers alike for every address; never reveal this one.
    return new InvitationFailedError(undefined, { status });
  }
  const known = Object.hasOwn(CLASS_OF_CODE, code)
    ? CLASS_OF_CODE[code as ServerCode]
    : undefined;
  const Class = known ?? classOfStatus(status);
  if (Class === RateLimitedError) {
    return new RateLimitedError(message, {
      ...options,
      retryAfter: parseRetryAfter(answer.retryAfter ?? null),
    });
  }
  return new Class(message, options);
}

/**
 * Seconds from a `Retry-After` value (delta-seconds or an HTTP date), or null.
 * A delay no date can hold (past the year 275760, or digits beyond a safe
 * integer) is null too, as if unsaid: the screens would otherwise say "try
 * again in 0 minutes" or "at ." (`formatMoment` of an invalid date).
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    const seconds = Number(trimmed);
    const datable = Number.isSafeInteger(seconds) &&
      !Number.isNaN(new Date(now + seconds * 1000).getTime());
    return datable ? seconds : null;
  }
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
