/**
 * `NewUserScreen`: an administrator creates an account with a password.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useMutation, useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { createUser } from "../admin_calls.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import { useSession } from "../hooks.ts";
import type { NewUser, User } from "../types.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, TextField } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  ActionButton,
  ActionLink,
  CancelButton,
  type HeadingLevel,
  PersonFields,
  RoleField,
  ScreenForm,
  SubmitButton,
  Title,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { useReauthentication } from "./_reauth.tsx";
import { DEFAULT_MIN_PASSWORD, passwordHint } from "./_password.ts";
import { NotAllowed } from "./_not_allowed.tsx";
import { USERS_KEY } from "./_users_cache.ts";
import {
  emailProblem,
  limitsWith,
  nameProblem,
  newPasswordProblem,
  problemsOf,
} from "./_validation.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/**
 * Props of {@linkcode NewUserScreen}.
 *
 * @example A link to the new account in the list, and a Cancel link
 * ```ts
 * import type { NewUserScreenProps } from "@gatehouse/client/screens";
 *
 * const props: NewUserScreenProps = {
 *   onCreated: (user) => console.log(`created ${user.email}`),
 *   accountHref: (user) => `/users?q=${encodeURIComponent(user.email)}`,
 *   cancelHref: "/users",
 * };
 * ```
 */
export interface NewUserScreenProps {
  /** Called with the new account once the server created it; the screen then shows its confirmation. */
  readonly onCreated: (user: User) => void;
  /** Where the confirmation's "Show the account" link leads for the new account. */
  readonly accountHref?: (user: User) => string;
  /** Shows a "Cancel" button that calls it. */
  readonly onCancel?: () => void;
  /** Shows "Cancel" as a link to this address (with `onCancel`, a click calls that instead). */
  readonly cancelHref?: string;
  /** The server's lower bound for passwords, for the hint; 12 by default. */
  readonly passwordMinLength?: number;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const FIELDS = ["name", "email", "password", "role"] as const;

/**
 * The form to create an account: name, email, an initial password and a
 * role from the signed-in account's `grantable` list (the menu is left out
 * when the server sends no such list). Every problem the form can see shows
 * at once, next to its field, with the limit it breaks; the server's
 * refusals too ("An account with this email address already exists" by the
 * email...). On success the form gives way to a confirmation (focused) with
 * a link to the new account (`accountHref`) and "Create another", refreshes
 * the account list and calls `onCreated`. Only for those who may manage
 * users (`can(user, USERS_MANAGE)`); others see a short notice. Put it
 * below `AuthGate`. To let people choose their own password, use
 * `InviteScreen` instead.
 *
 * @param props `onCreated`, and optional `accountHref`, `onCancel`, `cancelHref`, `passwordMinLength` and `headingLevel`.
 * @returns The screen.
 *
 * @example A page of its own
 * ```tsx
 * import { NewUserScreen } from "@gatehouse/client/screens";
 *
 * export const NewUserPage = () => (
 *   <NewUserScreen onCreated={() => {}} accountHref={(user) => `/users?q=${user.email}`} cancelHref="/users" />
 * );
 * ```
 */
export function NewUserScreen(props: NewUserScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const user = useSession();
  const client = useQueryClient();
  const name = useSignal("");
  const email = useSignal("");
  const password = useSignal("");
  const role = useSignal("");
  const created = useSignal<User | null>(null);
  const form = useForm();
  const title = useRef<HTMLHeadingElement>(null);
  const reauth = useReauthentication();
  const create = useMutation({
    mutationFn: (input: Parameters<typeof createUser>[0]) =>
      reauth.guard(() => createUser(input)),
  });
  const limits = limitsWith(props.passwordMinLength ?? DEFAULT_MIN_PASSWORD);
  const described = describeFailure(form.failure.value, FIELDS, limits);
  const grantable = user?.grantable;
  const done = created.value;
  useFocusWhenSwappedIn(title);
  useFocusOnChange(title, done === null ? "form" : done.id);

  if (!can(user, USERS_MANAGE)) {
    return <NotAllowed screen="new-user" level={props.headingLevel} />;
  }

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = problemsOf({
      name: nameProblem(name.value, limits),
      email: emailProblem(email.value, limits),
      password: newPasswordProblem(password.value, limits),
    });
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      const input: NewUser = {
        name: name.value.trim(),
        email: email.value.trim(),
        password: password.value,
        ...(grantable === undefined ? {} : { role: role.value }),
      };
      const account = await create.mutateAsync(input);
      name.value =
        email.value =
        password.value =
        role.value =
          "";
      created.value = account;
      void client.invalidateQueries({ queryKey: USERS_KEY });
      props.onCreated(account);
    });
  };

  return (
    <section
      class="gh gh-screen gh-new-user"
      data-gh-screen="new-user"
      data-gh-state={done ? "created" : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {done ? __("Account created", DOMAIN) : __("New user", DOMAIN)}
        </Title>
        {done
          ? (
            <>
              <p class="gh-status" role="status">
                {sprintf(
                  __(
                    "%1$s (%2$s) can now sign in with the password you chose.",
                    DOMAIN,
                  ),
                  done.name,
                  done.email,
                )}
              </p>
              <div class="gh-actions">
                {props.accountHref && (
                  <ActionLink href={props.accountHref(done)} variant="primary">
                    {__("Show the account", DOMAIN)}
                  </ActionLink>
                )}
                <ActionButton onClick={() => (created.value = null)}>
                  {__("Create another", DOMAIN)}
                </ActionButton>
              </div>
            </>
          )
          : (
            <ScreenForm form={form} onSubmit={submit}>
              <FormAlert message={described.alert} />
              <PersonFields
                id={id}
                name={name}
                email={email}
                errors={described.fields}
              />
              <TextField
                id={`${id}-password`}
                name="password"
                type="password"
                autocomplete="new-password"
                label={__("Password", DOMAIN)}
                hint={passwordHint(limits.passwordMin)}
                value={password}
                error={described.fields.password}
              />
              <RoleField
                id={`${id}-role`}
                grantable={grantable}
                role={role}
                error={described.fields.role}
              />
              <div class="gh-actions">
                <SubmitButton
                  pending={form.pending.value}
                  label={__("Create account", DOMAIN)}
                  busyLabel={__("Creating account…", DOMAIN)}
                />
                <CancelButton
                  onCancel={props.onCancel}
                  href={props.cancelHref}
                />
              </div>
            </ScreenForm>
          )}
      </div>
      {reauth.dialog}
    </section>
  );
}
