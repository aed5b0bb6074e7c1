/**
 * `SetPasswordScreen`: the page an activation link opens; the invited person
 * chooses a password and is signed in.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { acceptInvite } from "../link_calls.ts";
import { adoptSession } from "../query.ts";
import type { SessionUser } from "../types.ts";
import { useEmailedLink } from "./_emailed_link.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  ActionLink,
  Brand,
  type HeadingLevel,
  NewPasswordFields,
  ScreenForm,
  SignInFooter,
  SubmitButton,
  Title,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DEFAULT_MIN_PASSWORD, passwordProblems } from "./_password.ts";
import { limitsWith } from "./_validation.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/**
 * Props of {@linkcode SetPasswordScreen}.
 *
 * @example The token from the link's fragment
 * ```ts
 * import type { SetPasswordScreenProps } from "@gatehouse/client/screens";
 *
 * function propsFor(hash: string): SetPasswordScreenProps {
 *   return {
 *     brand: "Acme",
 *     token: new URLSearchParams(hash.slice(1)).get("token") ?? "",
 *     onAccepted: () => location.assign("/"),
 *   };
 * }
 * console.assert(propsFor("#token=abc").token === "abc");
 * ```
 */
export interface SetPasswordScreenProps {
  /** The product name ("Welcome to Acme"). */
  readonly brand: string;
  /** The token of the activation link (`#token=...`); empty shows the dead-link message. */
  readonly token: string;
  /** Called with the signed-in account once the password is set (the session is already in the cache). */
  readonly onAccepted: (user: SessionUser) => void;
  /** The server's lower bound for passwords, for the hint; 12 by default. */
  readonly passwordMinLength?: number;
  /** Shows "Back to sign in" as a link to this address (for those whose link was already used), and "Sign in" for an address that has an account. */
  readonly signInHref?: string;
  /** For an invitation whose address has an account: shows "Reset your password" as a link to this address. */
  readonly forgotPasswordHref?: string;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const FIELDS = ["password", "confirm"] as const;

/**
 * The activation page: a new password, typed twice. On success the person
 * is signed in: the screen installs the account in the query client's cache
 * (`adoptSession`, which also clears anything a previous account left) and
 * calls `onAccepted(user)`. The screen checks the link when it opens
 * (`checkLink`, which spends nothing): a spent, expired, revoked or unknown
 * link says at once that the link is no longer valid and to ask for a new
 * invitation, and so does a spend that finds it dead. An invitation for an
 * address that already has an account says so and offers to sign in or
 * reset the password (`signInHref`, `forgotPasswordHref`). A check that
 * cannot answer (an older server, no connection) leaves the form, and the
 * spend tells. Any other failure of the spend (a
 * refused password, no answer, a server error) keeps the form with a "Try
 * again" button: the link's token is spent only when the server accepts it,
 * so a retry uses the same link. Needs a `QueryClientProvider` (a client
 * from `createAuthQueryClient()`); it does no routing itself.
 *
 * @param props `brand`, `token`, `onAccepted` and optional `passwordMinLength`.
 * @returns The screen.
 *
 * @example The invitation page of an app
 * ```tsx
 * import { createAuthQueryClient } from "@gatehouse/client";
 * import { SetPasswordScreen } from "@gatehouse/client/screens";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * const client = createAuthQueryClient();
 * export const InvitePage = (props: { token: string }) => (
 *   <QueryClientProvider client={client}>
 *     <SetPasswordScreen brand="Acme" token={props.token} onAccepted={() => location.assign("/")} />
 *   </QueryClientProvider>
 * );
 * ```
 */
export function SetPasswordScreen(props: SetPasswordScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const client = useQueryClient();
  const password = useSignal("");
  const confirm = useSignal("");
  const link = useEmailedLink(props.token, "invitation");
  const form = useForm();
  const title = useRef<HTMLHeadingElement>(null);
  const failure = form.failure.value;
  const limits = limitsWith(props.passwordMinLength ?? DEFAULT_MIN_PASSWORD);
  const described = describeFailure(failure, FIELDS, limits);
  const invalid = link.dead;
  const accountExists = link.accountExists;
  useFocusWhenSwappedIn(title);
  useFocusOnChange(title, invalid || accountExists);

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = passwordProblems(password.value, confirm.value, limits);
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      const spent = await link.spend(() =>
        acceptInvite(props.token, password.value)
      );
      if (spent === null) return;
      adoptSession(client, spent.answer);
      props.onAccepted(spent.answer);
    });
  };

  // After a failure that is not about the password, the same link is tried again.
  const retry = failure !== null && described.alert !== undefined;

  return (
    <section
      class="gh gh-screen gh-set-password"
      data-gh-screen="set-password"
      data-gh-state={invalid
        ? "invalid-link"
        : accountExists
        ? "account-exists"
        : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Brand brand={props.brand} />
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {invalid
            ? __("This invitation link is no longer valid", DOMAIN)
            : accountExists
            ? __("You already have an account", DOMAIN)
            : sprintf(__("Welcome to %s", DOMAIN), props.brand)}
        </Title>
        {accountExists && (
          <AccountExists
            signInHref={props.signInHref}
            forgotPasswordHref={props.forgotPasswordHref}
          />
        )}
        {accountExists ? null : invalid
          ? (
            <div class="gh-alert" role="alert">
              <p>
                {__(
                  "It has been used already, or it has expired. Ask the person who invited you to send a new invitation.",
                  DOMAIN,
                )}
              </p>
            </div>
          )
          : (
            <ScreenForm form={form} onSubmit={submit}>
              <p class="gh-intro">
                {__(
                  "Choose a password to finish setting up your account.",
                  DOMAIN,
                )}
              </p>
              <FormAlert message={described.alert} />
              <NewPasswordFields
                id={id}
                min={limits.passwordMin}
                password={password}
                confirm={confirm}
                errors={described.fields}
              />
              <div class="gh-actions">
                <SubmitButton
                  pending={form.pending.value}
                  label={retry
                    ? __("Try again", DOMAIN)
                    : __("Set password and sign in", DOMAIN)}
                  busyLabel={__("Setting password…", DOMAIN)}
                />
              </div>
            </ScreenForm>
          )}
        {invalid && <SignInFooter href={props.signInHref} />}
      </div>
    </section>
  );
}

// An invitation for an address that has an account: it can create nothing,
// and the person is one sign-in (or one password reset) away.
function AccountExists(
  props: {
    readonly signInHref?: string | undefined;
    readonly forgotPasswordHref?: string | undefined;
  },
): VNode {
  return (
    <div class="gh-notice" role="status">
      <p>
        {__(
          "This address already has an account, so the invitation cannot create another. Sign in with it, or reset its password if you have forgotten it.",
          DOMAIN,
        )}
      </p>
      {(props.signInHref !== undefined ||
        props.forgotPasswordHref !== undefined) && (
        <p class="gh-actions">
          <ActionLink href={props.signInHref} variant="primary">
            {__("Sign in", DOMAIN)}
          </ActionLink>
          <ActionLink href={props.forgotPasswordHref}>
            {__("Reset your password", DOMAIN)}
          </ActionLink>
        </p>
      )}
    </div>
  );
}
