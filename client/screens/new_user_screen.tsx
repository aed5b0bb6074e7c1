/**
 * `NewUserScreen`: an administrator creates an account with a password.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useMutation, useQueryClient } from "@tanstack/preact-query";
import { __, sprintf } from "@wordpress/i18n";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { createUser } from "../admin_calls.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import { useSession } from "../hooks.ts";
import type { NewUser, User } from "../types.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, FormStatus, TextField } from "./_field.tsx";
import { missing, useForm } from "./_form.ts";
import {
  CancelButton,
  RoleField,
  ScreenForm,
  SubmitButton,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DEFAULT_MIN_PASSWORD, passwordHint } from "./_password.ts";
import { USERS_KEY } from "./_users_cache.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode NewUserScreen}.
 *
 * @example Back to the list after creating
 * ```ts
 * import type { NewUserScreenProps } from "@gatehouse/client/screens";
 *
 * const props: NewUserScreenProps = {
 *   onCreated: (user) => location.assign(`/users?created=${user.id}`),
 *   onCancel: () => history.back(),
 * };
 * ```
 */
export interface NewUserScreenProps {
  /** Called with the new account once the server created it. */
  readonly onCreated: (user: User) => void;
  /** Shows a "Cancel" button that calls it. */
  readonly onCancel?: () => void;
  /** The server's lower bound for passwords, for the hint; 12 by default. */
  readonly passwordMinLength?: number;
}

const FIELDS = ["name", "email", "password", "role"] as const;

/**
 * The form to create an account: name, email, an initial password and a
 * role from the signed-in account's `grantable` list (the menu is left out
 * when the server sends no such list). Every refusal shows next to its field
 * ("An account with this email address already exists" by the email...).
 * On success the form empties, says so, refreshes the account list and
 * calls `onCreated`. Only for those who may manage users
 * (`can(user, USERS_MANAGE)`); others see a short notice. Put it below
 * `AuthGate`. To let people choose their own password, use
 * `InviteScreen` instead.
 *
 * @param props `onCreated`, and optional `onCancel` and `passwordMinLength`.
 * @returns The screen.
 *
 * @example A page of its own
 * ```tsx
 * import { NewUserScreen } from "@gatehouse/client/screens";
 *
 * export const NewUserPage = () => (
 *   <NewUserScreen onCreated={() => location.assign("/users")} onCancel={() => location.assign("/users")} />
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
  const create = useMutation({ mutationFn: createUser });
  const described = describeFailure(form.failure.value, FIELDS);
  const grantable = user?.grantable;
  const min = props.passwordMinLength ?? DEFAULT_MIN_PASSWORD;

  if (!can(user, USERS_MANAGE)) {
    return (
      <section class="gh gh-screen gh-new-user" data-gh-screen="new-user">
        <p class="gh-notice">
          {__("Your account may not manage users.", DOMAIN)}
        </p>
      </section>
    );
  }

  const submit = (event: Event) => {
    event.preventDefault();
    created.value = null;
    const problems = missing({
      name: name.value,
      email: email.value,
      password: password.value,
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
      created.value = account;
      name.value =
        email.value =
        password.value =
        role.value =
          "";
      void client.invalidateQueries({ queryKey: USERS_KEY });
      props.onCreated(account);
    });
  };

  return (
    <section
      class="gh gh-screen gh-new-user"
      data-gh-screen="new-user"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} class="gh-title">
        {__("New account", DOMAIN)}
      </h2>
      <FormStatus>
        {created.value &&
          sprintf(__("Account created for %s.", DOMAIN), created.value.email)}
      </FormStatus>
      <ScreenForm form={form} onSubmit={submit}>
        <FormAlert message={described.alert} />
        <TextField
          id={`${id}-name`}
          name="name"
          autocomplete="off"
          label={__("Name", DOMAIN)}
          value={name}
          error={described.fields.name}
        />
        <TextField
          id={`${id}-email`}
          name="email"
          type="email"
          autocomplete="off"
          label={__("Email", DOMAIN)}
          value={email}
          error={described.fields.email}
        />
        <TextField
          id={`${id}-password`}
          name="password"
          type="password"
          autocomplete="new-password"
          label={__("Password", DOMAIN)}
          hint={passwordHint(min)}
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
          <CancelButton onCancel={props.onCancel} />
        </div>
      </ScreenForm>
    </section>
  );
}
