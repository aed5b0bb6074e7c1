/**
 * `LoginScreen`: email and password, made to be the gate's login screen.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useEffect, useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import {
  loginWithPasskey,
  passkeyLoginOptions,
} from "../second_factor_calls.ts";
import {
  isSecondFactorChallenge,
  type SecondFactorChallenge,
} from "../security_types.ts";
import { login } from "../session_calls.ts";
import { listSsoProviders, startSso } from "../sso_calls.ts";
import { SsoRequiredError } from "../sso_errors.ts";
import type { SsoProvider } from "../sso_types.ts";
import type { SessionUser } from "../types.ts";
import { InvalidCredentialsError, InvalidTokenError } from "../errors.ts";
import { describeFailure, ProofRefused } from "./_error_message.ts";
import { FormAlert, TextField } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  ActionButton,
  ActionLink,
  Brand,
  type HeadingLevel,
  ScreenForm,
  SubmitButton,
  Title,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { useSessionEnded } from "./_session_ended.ts";
import { SecondFactorStep } from "./_second_factor_step.tsx";
import { ssoErrorText, useSsoError } from "./_sso_error.ts";
import { SsoSignIn } from "./_sso_sign_in.tsx";
import { problemsOf, requiredProblem } from "./_validation.ts";
import { PasskeyRequestExpired, webauthn } from "./_webauthn.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/**
 * Props of {@linkcode LoginScreen}.
 *
 * @example Props with a "Forgot password?" link
 * ```ts
 * import type { LoginScreenProps } from "@gatehouse/client/screens";
 *
 * const props: LoginScreenProps = {
 *   brand: "Acme",
 *   onLogin: (user) => console.log(`signed in as ${user.name}`),
 *   forgotPasswordHref: "/forgot",
 * };
 * ```
 */
export interface LoginScreenProps {
  /** The product name shown above the form ("Sign in to Acme"). */
  readonly brand: string;
  /**
   * Called with the account once login succeeds: pass the gate's handler
   * (`loginScreen={(onLogin) => <LoginScreen onLogin={onLogin} ... />}`).
   */
  readonly onLogin: (user: SessionUser) => void;
  /** Shows "Forgot password?" as a button that calls it (e.g. to show `RequestResetScreen` in place). */
  readonly onForgotPassword?: () => void;
  /** Shows "Forgot password?" as a link to this address (with `onForgotPassword`, a click calls that instead). */
  readonly forgotPasswordHref?: string;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const FIELDS = ["email", "password"] as const;

function either<T>(condition: boolean, yes: T, no: T): T {
  if (condition) return yes;
  return no;
}

function stepOf(challenge: SecondFactorChallenge | null): string | null {
  if (challenge === null) return "password";
  return null;
}

/**
 * The sign-in screen: email, password and a submit button, and "Sign in
 * with a passkey" where the browser has WebAuthn (offered in the email
 * field's autofill too, where the browser can), and "Sign in with {name}"
 * for each single sign-on provider of the server (only the provider that
 * enforces single sign-on for the typed address's domain, when one does).
 * Back from a single sign-on that failed (`?sso_error=CODE` in the
 * address, which it then takes out), it says why. When the account has a
 * second factor, a second step asks for a code of the authenticator app, a
 * recovery code or a passkey, with a way back. A wrong email or
 * password, the login limiter ("try again in 2 minutes") and a server that
 * cannot be reached each show a clear message; when the screen comes back
 * because the session ended (signed out in another tab, disabled), it says
 * so. The screen itself does no routing. Needs no query client: put it in `AuthGate`'s `loginScreen`, which
 * hands it the after-login handler.
 *
 * @param props `brand`, `onLogin` and optional `onForgotPassword`.
 * @returns The screen.
 *
 * @example Behind the gate
 * ```tsx
 * import { AuthGate, createAuthQueryClient } from "@gatehouse/client";
 * import { LoginScreen } from "@gatehouse/client/screens";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * const client = createAuthQueryClient();
 * export const App = () => (
 *   <QueryClientProvider client={client}>
 *     <AuthGate loginScreen={(onLogin) => <LoginScreen brand="Acme" onLogin={onLogin} />}>
 *       <main>The app</main>
 *     </AuthGate>
 *   </QueryClientProvider>
 * );
 * ```
 */
export function LoginScreen(props: LoginScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const email = useSignal("");
  const password = useSignal("");
  const form = useForm();
  const challenge = useSignal<SecondFactorChallenge | null>(null);
  const expired = useSignal(false);
  const passkeys = useSignal(false);
  const providers = useSignal<readonly SsoProvider[]>([]);
  // Until the person tries anything, the screen says why a single
  // sign-on came back here (`?sso_error=CODE`).
  const tried = useSignal(false);
  const ssoError = useSsoError();
  const ended = useSessionEnded();
  const title = useRef<HTMLHeadingElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const described = describeFailure(form.failure.value, FIELDS);
  const failure = form.failure.value;
  const required = failure instanceof SsoRequiredError
    ? failure.provider
    : undefined;
  const requiredBy = providers.value.find(({ id }) => id === required);
  // (Hook arguments picked by helpers: the linter's rules-of-hooks takes a
  // conditional expression before a hook for a conditional call.)
  useFocusWhenSwappedIn(either(ended, alert, title));
  // Back from the second step: to the title, or to why it ended.
  useFocusOnChange(
    either(expired.value, alert, title),
    stepOf(challenge.value),
  );
  const { onLogin } = props;

  // Passkeys: the button where WebAuthn is, and the email field's
  // autofill ("conditional UI") where the browser offers it.
  useEffect(() => {
    if (!webauthn.supported()) return;
    passkeys.value = true;
    let live = true;
    void webauthn.autofill().then(async (autofill) => {
      if (!autofill || !live) return;
      try {
        // Each step looks again: once the screen is gone, no prompt opens,
        // no answer of one still open signs in and no sign-in is handed on.
        const options = await passkeyLoginOptions();
        if (!live) return;
        const response = await webauthn.authenticate(options, true);
        if (!live) return;
        const user = await loginWithPasskey(response);
        if (live) onLogin(user);
      } catch {
        // The autofill is offered in the background: a closed prompt, a
        // newer ceremony, a server without passkeys or the limiter's 429
        // (too many options asked for from this address) is nothing to
        // show; the password form works as ever, and the button says what
        // went wrong when the person asks.
      }
    });
    return () => {
      live = false;
      webauthn.cancel();
    };
  }, []);

  // The single sign-on providers: a button each. A server without them,
  // or older than them, or out of reach: no buttons, the form works.
  useEffect(() => {
    let live = true;
    listSsoProviders().then((list) => {
      if (live) providers.value = list;
    }, () => {});
    return () => {
      live = false;
    };
  }, []);

  // Until the person tries again, the screen says why it came back.
  const quiet = form.failure.value === null && !form.pending.value;
  const ssoText = ssoError !== null && quiet && !tried.value
    ? ssoErrorText(ssoError)
    : undefined;
  const requiredText = requiredBy === undefined ? undefined : sprintf(
    /* translators: %s: a sign-in provider's name. */
    __("This address must sign in with %s.", DOMAIN),
    requiredBy.name,
  );
  const endedText = expired.value && quiet
    ? __(
      "Your sign-in took too long or had too many wrong codes. Sign in again.",
      DOMAIN,
    )
    : ended && quiet
    ? __("Your session has ended. Sign in again.", DOMAIN)
    : undefined;

  const signInWithProvider = (provider: SsoProvider) => {
    tried.value = true;
    void form.run(() => startSso(provider.id));
  };

  const signInWithPasskey = () =>
    void form.run(async () => {
      tried.value = true;
      webauthn.cancel();
      const options = await passkeyLoginOptions();
      const response = await webauthn.authenticate(options);
      try {
        onLogin(await loginWithPasskey(response));
      } catch (error) {
        // 410: the request's challenge ended (slow prompt, newer request);
        // this is no dead link, whatever the generic words for 410 say.
        // 401: the passkey was refused, not an email or a password.
        throw error instanceof InvalidTokenError
          ? new PasskeyRequestExpired()
          : error instanceof InvalidCredentialsError
          ? new ProofRefused("passkey", error)
          : error;
      }
    });

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = problemsOf({
      email: requiredProblem(email.value),
      password: requiredProblem(password.value),
    });
    tried.value = true;
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      expired.value = false;
      const result = await login(email.value.trim(), password.value);
      if (isSecondFactorChallenge(result)) {
        password.value = "";
        challenge.value = result;
      } else onLogin(result);
    });
  };

  if (challenge.value !== null) {
    return (
      <section
        class="gh gh-screen gh-login"
        data-gh-screen="login"
        data-gh-step="second-factor"
        aria-labelledby={`${id}-2fa-title`}
      >
        <div class="gh-card">
          <Brand brand={props.brand} />
          <SecondFactorStep
            id={id}
            methods={challenge.value.methods}
            headingLevel={props.headingLevel}
            onLogin={onLogin}
            onBack={(ended) => {
              expired.value = ended;
              challenge.value = null;
            }}
          />
        </div>
      </section>
    );
  }
  return (
    <section
      class="gh gh-screen gh-login"
      data-gh-screen="login"
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Brand brand={props.brand} />
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {sprintf(__("Sign in to %s", DOMAIN), props.brand)}
        </Title>
        <ScreenForm form={form} onSubmit={submit}>
          <FormAlert
            message={requiredText ?? described.alert ?? ssoText ?? endedText}
            target={alert}
          />
          <TextField
            id={`${id}-email`}
            name="email"
            type="email"
            autocomplete={passkeys.value ? "username webauthn" : "username"}
            label={__("Email", DOMAIN)}
            value={email}
            error={described.fields.email}
          />
          <TextField
            id={`${id}-password`}
            name="password"
            type="password"
            autocomplete="current-password"
            label={__("Password", DOMAIN)}
            value={password}
            error={described.fields.password}
          />
          <div class="gh-actions">
            <SubmitButton
              pending={form.pending.value}
              label={__("Sign in", DOMAIN)}
              busyLabel={__("Signing in…", DOMAIN)}
            />
            <ActionLink
              href={props.forgotPasswordHref}
              onClick={props.onForgotPassword}
            >
              {__("Forgot password?", DOMAIN)}
            </ActionLink>
          </div>
          {passkeys.value && (
            <div class="gh-actions gh-passkey-sign-in">
              <ActionButton
                pending={form.pending.value}
                onClick={signInWithPasskey}
              >
                {__("Sign in with a passkey", DOMAIN)}
              </ActionButton>
            </div>
          )}
          <SsoSignIn
            id={id}
            providers={providers.value}
            email={email.value}
            required={required}
            pending={form.pending.value}
            onStart={signInWithProvider}
          />
        </ScreenForm>
      </div>
    </section>
  );
}
