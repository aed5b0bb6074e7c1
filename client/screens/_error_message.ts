// Words for failures: which field a failure concerns and what to tell the
// person, translated. The screens keep the failure itself (an error, or the
// form's own FormProblems) and describe it while rendering, so a change of
// language also changes the messages on screen.

import {
  AuthClientError,
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
} from "../errors.ts";
import {
  LastPrivilegedError,
  RoleBeyondReachError,
  RoleChangedError,
  RoleRefusedError,
  SelfRoleError,
} from "../role_errors.ts";
import {
  PasskeyInvalidError,
  PasskeyNotFoundError,
  PasswordIncorrectError,
  ReauthenticationRequiredError,
  SecondFactorEnabledError,
  SecondFactorRequiredError,
  SessionNotFoundError,
  TotpNotEnabledError,
} from "../security_errors.ts";
import {
  IdentityNotFoundError,
  LastSignInMethodError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  SsoRequiredError,
} from "../sso_errors.ts";
import {
  InvitationFailedError,
  NetworkError,
  ServerError,
  ServerTooOldError,
} from "../service_errors.ts";
import {
  DEFAULT_LIMITS,
  type FieldLimits,
  type Problem,
} from "./_validation.ts";
import { formatMoment } from "./_format.ts";
import { PasskeyRequestExpired } from "./_webauthn.ts";
import { __, _n, DOMAIN, sprintf } from "./i18n.ts";

/**
 * A sign-in proof the server refused (401 `credentials_invalid`), named by
 * what the screen sent. The server answers a wrong password, a wrong code
 * of the second step and a passkey it did not accept with the same code,
 * so the step that asked says which it was; without this, each of them
 * read "Email or password is incorrect".
 */
export class ProofRefused extends Error {
  override name = "ProofRefused";
  /**
   * @param proof What was refused: a code (of the app or a recovery code)
   *   or a passkey.
   * @param cause The server's refusal.
   */
  constructor(readonly proof: "code" | "passkey", cause: unknown) {
    super(`The ${proof} was not accepted`, { cause });
  }
}

/** Problems found by the form, per field. */
export class FormProblems {
  constructor(readonly fields: Readonly<Record<string, Problem>>) {}
}

/** What to show for a failure: messages next to fields, and one for the form. */
export interface Described {
  /** Messages per field name. */
  readonly fields: Readonly<Record<string, string>>;
  /** The message for the form as a whole, if any. */
  readonly alert: string | undefined;
}

const NOTHING: Described = Object.freeze({ fields: {}, alert: undefined });

function problemText(problem: Problem): string {
  if (problem === "required") return __("This field is required.", DOMAIN);
  if (problem === "mismatch") {
    return __("The passwords do not match.", DOMAIN);
  }
  if (problem === "email") {
    return __("Enter an email address like name@example.com.", DOMAIN);
  }
  if ("max" in problem) {
    return sprintf(
      _n(
        "Use at most %d character.",
        "Use at most %d characters.",
        problem.max,
        DOMAIN,
      ),
      problem.max,
    );
  }
  return sprintf(
    _n(
      "Use at least %d character.",
      "Use at least %d characters.",
      problem.min,
      DOMAIN,
    ),
    problem.min,
  );
}

/** A limit the server named in `meta` (`max`, `min`), or the one the form knows. */
function limitOf(error: ValidationError, key: string, known: number): number {
  const named = Number(error.meta?.[key]);
  return Number.isInteger(named) && named > 0 ? named : known;
}

/** How long to wait, in words: seconds under a minute, whole minutes above. */
export function retryText(seconds: number | null): string {
  if (seconds === null) {
    return __("Too many attempts. Try again later.", DOMAIN);
  }
  if (seconds < 60) {
    const n = Math.max(1, Math.ceil(seconds));
    return sprintf(
      _n(
        "Too many attempts. Try again in %d second.",
        "Too many attempts. Try again in %d seconds.",
        n,
        DOMAIN,
      ),
      n,
    );
  }
  const minutes = Math.ceil(seconds / 60);
  return sprintf(
    _n(
      "Too many attempts. Try again in %d minute.",
      "Too many attempts. Try again in %d minutes.",
      minutes,
      DOMAIN,
    ),
    minutes,
  );
}

/**
 * Words for the account lock (DESIGN.md §15): sign-in to this account is
 * paused, whoever tries, and until when; apart from the address limiter's
 * "too many attempts", which concerns this browser's address alone.
 */
function accountLockText(error: RateLimitedError): string {
  if (error.meta?.until === "reset") {
    return __(
      "Sign-in to this account is paused after too many failed attempts. Reset your password to sign in again, or ask an administrator to unlock the account.",
      DOMAIN,
    );
  }
  if (error.retryAt === null) {
    return __(
      "Sign-in to this account is paused after too many failed attempts. Try again later.",
      DOMAIN,
    );
  }
  return sprintf(
    /* translators: %s: a time of day, or a day and a time ("2:05 PM"). */
    __(
      "Sign-in to this account is paused after too many failed attempts. You can try again at %s.",
      DOMAIN,
    ),
    formatMoment(error.retryAt),
  );
}

/** The server-too-old words for each feature. */
function tooOldText(error: ServerTooOldError): string {
  switch (error.feature) {
    case "invitations":
      return __(
        "This server is too old for invitations. Ask its administrator to upgrade Gatehouse.",
        DOMAIN,
      );
    case "passwordResets":
      return __(
        "This server is too old for password resets. Ask its administrator to upgrade Gatehouse.",
        DOMAIN,
      );
    case "roleChanges":
      return __(
        "This server is too old to change roles. Ask its administrator to upgrade Gatehouse.",
        DOMAIN,
      );
  }
}

/**
 * Words for a refused input, by code; the field comes from `meta.field`.
 * RoleUnknownError is a ValidationError (`role_unknown`, field `role`).
 */
function validationText(error: ValidationError, limits: FieldLimits): string {
  // `password_too_common` comes from newer servers (DESIGN.md §4).
  if ((error.code as string) === "password_too_common") {
    return __(
      "This password is too common. Choose one that is harder to guess.",
      DOMAIN,
    );
  }
  switch (error.code) {
    case "email_invalid":
      return problemText("email");
    case "name_required":
      return problemText("required");
    case "name_too_long":
      return problemText({ max: limitOf(error, "max", limits.name) });
    case "password_too_short":
      return problemText({ min: limitOf(error, "min", limits.passwordMin) });
    case "password_too_long":
      return problemText({ max: limitOf(error, "max", limits.passwordMax) });
    case "body_field_required":
      return __("This field is required.", DOMAIN);
    case "role_unknown":
      return __("The server does not know this role.", DOMAIN);
    case "locale_unknown":
      return __(
        "The server's emails are not written in this language.",
        DOMAIN,
      );
    case "code_invalid":
      return __("This code is not valid. Check it and try again.", DOMAIN);
    case "body_too_large":
      return __("What you entered is too long.", DOMAIN);
    default:
      return error.field === undefined
        ? __(
          "The server could not read the request. Reload the page and try again.",
          DOMAIN,
        )
        : __("This value is not valid.", DOMAIN);
  }
}

/** The field a failure concerns, when the server or the class says. */
function fieldOf(error: unknown): string | undefined {
  if (error instanceof ValidationError) return error.field;
  if (error instanceof ProofRefused && error.proof === "code") return "code";
  if (error instanceof PasswordIncorrectError) return error.field;
  if (error instanceof EmailTakenError) return "email";
  if (
    error instanceof RoleBeyondReachError || error instanceof RoleRefusedError
  ) {
    return "role";
  }
  return undefined;
}

/** Words for the failures of account security, second factors and passkeys. */
function securityText(error: unknown): string | undefined {
  if (error instanceof PasswordIncorrectError) {
    return __("The password is incorrect.", DOMAIN);
  }
  if (error instanceof ReauthenticationRequiredError) {
    return __("Confirm it is you to continue.", DOMAIN);
  }
  if (error instanceof SecondFactorRequiredError) {
    return __(
      "Your role needs two-step verification. Set it up in your account first.",
      DOMAIN,
    );
  }
  if (error instanceof PasskeyInvalidError) {
    return __("The passkey could not be verified.", DOMAIN);
  }
  if (error instanceof ProofRefused) {
    return error.proof === "code"
      ? __("This code is not valid. Check it and try again.", DOMAIN)
      : __(
        "This passkey was not accepted. Try again, or sign in another way.",
        DOMAIN,
      );
  }
  if (error instanceof PasskeyRequestExpired) {
    return __("The passkey request expired. Try again.", DOMAIN);
  }
  if (error instanceof Error && error.name === "NotAllowedError") {
    // The browser's own refusal of a passkey ceremony (WebAuthn): the
    // person closed the prompt, it timed out, or the authenticator could
    // not verify them. Not a fault of the page or the server.
    return __(
      "The passkey was not used: the request was cancelled or timed out, or your device could not confirm it is you. Try again.",
      DOMAIN,
    );
  }
  if (error instanceof SessionNotFoundError) {
    return __("This session has already ended. Reload the list.", DOMAIN);
  }
  if (error instanceof PasskeyNotFoundError) {
    return __("This passkey no longer exists. Reload the list.", DOMAIN);
  }
  if (error instanceof SecondFactorEnabledError) {
    return __("An authenticator app is already set up.", DOMAIN);
  }
  if (error instanceof TotpNotEnabledError) {
    return __("No authenticator app is set up for this account.", DOMAIN);
  }
  return undefined;
}

/** Words for the refusals of single sign-on (DESIGN.md §13). */
function ssoText(error: unknown): string | undefined {
  if (error instanceof SsoRequiredError) {
    return __(
      "This address must sign in with its organisation's single sign-on.",
      DOMAIN,
    );
  }
  if (error instanceof LastSignInMethodError) {
    return __(
      "This is the only way left to sign in to your account, so it stays linked. Add a passkey or a password first.",
      DOMAIN,
    );
  }
  if (error instanceof IdentityNotFoundError) {
    return __("This identity is no longer linked. Reload the list.", DOMAIN);
  }
  if (error instanceof ProviderNotFoundError) {
    return __(
      "This sign-in provider is no longer offered. Reload the page.",
      DOMAIN,
    );
  }
  if (error instanceof ProviderUnavailableError) {
    return __(
      "Your organisation's sign-in cannot be reached. Try again later, or sign in another way.",
      DOMAIN,
    );
  }
  return undefined;
}

/** Words for any failure, whatever field it concerns. */
export function failureText(
  error: unknown,
  limits: FieldLimits = DEFAULT_LIMITS,
): string {
  if (error instanceof RateLimitedError) {
    return error.meta?.scope === "account"
      ? accountLockText(error)
      : retryText(error.retryAfter);
  }
  if (error instanceof InvalidCredentialsError) {
    return __("Email or password is incorrect.", DOMAIN);
  }
  if (error instanceof InvalidTokenError) {
    return __("This link is no longer valid.", DOMAIN);
  }
  if (error instanceof ValidationError) return validationText(error, limits);
  if (error instanceof EmailTakenError) {
    return __("An account with this email address already exists.", DOMAIN);
  }
  if (error instanceof UnauthorizedError) {
    return __("Your session has ended. Sign in again.", DOMAIN);
  }
  if (error instanceof RoleRefusedError) {
    return __("Your account may not change roles.", DOMAIN);
  }
  const security = securityText(error) ?? ssoText(error);
  if (security !== undefined) return security;
  if (error instanceof SelfRoleError) {
    return __("You cannot change your own role.", DOMAIN);
  }
  if (error instanceof SelfDisableError) {
    return __("You cannot disable your own account.", DOMAIN);
  }
  if (error instanceof RoleBeyondReachError) {
    return __("You may not give this role or change this account.", DOMAIN);
  }
  if (error instanceof CrossOriginError) {
    return __(
      "The server refused a request from this page because it comes from another site.",
      DOMAIN,
    );
  }
  if (error instanceof ForbiddenError) {
    return __("Your account may not do this.", DOMAIN);
  }
  if (error instanceof LastPrivilegedError) {
    return __(
      "This is the last account that can manage users, so it must keep that right.",
      DOMAIN,
    );
  }
  if (error instanceof RoleChangedError) {
    return __(
      "This account changed since the list was loaded. Reload the list and try again.",
      DOMAIN,
    );
  }
  if (error instanceof UserNotFoundError) {
    return __("This account no longer exists. Reload the list.", DOMAIN);
  }
  if (error instanceof InvitationNotFoundError) {
    return __(
      "This invitation is no longer pending. Reload the list.",
      DOMAIN,
    );
  }
  if (error instanceof ServerTooOldError) return tooOldText(error);
  if (error instanceof InvitationFailedError && error.code === "mail_failed") {
    return __(
      "The invitation email could not be sent, so no invitation was made. Try again later.",
      DOMAIN,
    );
  }
  if (error instanceof InvitationFailedError) {
    return __(
      "The invitation could not be delivered. Try again later.",
      DOMAIN,
    );
  }
  if (error instanceof NetworkError) {
    return __(
      "Cannot reach the server. Check your connection and try again.",
      DOMAIN,
    );
  }
  if (error instanceof ServerError) {
    return __("Something went wrong on the server. Try again later.", DOMAIN);
  }
  if (error instanceof AuthClientError) {
    return __("The server gave an unexpected answer. Try again later.", DOMAIN);
  }
  return __("Something went wrong. Try again.", DOMAIN);
}

/**
 * What to show for `failure` in a form with `fields`: a failure about one
 * of them goes next to it; anything else is a message for the form.
 */
export function describeFailure(
  failure: unknown,
  fields: readonly string[],
  limits: FieldLimits = DEFAULT_LIMITS,
): Described {
  if (failure === null || failure === undefined) return NOTHING;
  if (failure instanceof FormProblems) {
    const messages: Record<string, string> = {};
    for (const [field, problem] of Object.entries(failure.fields)) {
      messages[field] = problemText(problem);
    }
    return { fields: messages, alert: undefined };
  }
  const field = fieldOf(failure);
  const message = failureText(failure, limits);
  if (field !== undefined && fields.includes(field)) {
    return { fields: { [field]: message }, alert: undefined };
  }
  return { fields: {}, alert: message };
}

export type { Problem };
