// "Passkeys" of the account panel: each with its name, when it was added
// and last used; add one (with a name) where the browser has WebAuthn,
// rename, and remove after a confirmation. Adding and removing go through
// the re-authentication dialog.

import { useSignal } from "@preact/signals";
import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { sessionQueryKey } from "../_session_cache.ts";
import {
  listPasskeys,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
} from "../second_factor_calls.ts";
import type { Passkey } from "../security_types.ts";
import { AccountSection } from "./_account_section.tsx";
import { Dialog } from "./_dialog.tsx";
import { describeFailure, failureText } from "./_error_message.ts";
import { FormAlert, FormStatus, TextField } from "./_field.tsx";
import { formatDay } from "./_format.ts";
import { useForm } from "./_form.ts";
import { ActionButton, ScreenForm, SubmitButton } from "./_form_parts.tsx";
import type { Reauthentication } from "./_reauth.tsx";
import { PASSKEYS_KEY } from "./_security_keys.ts";
import { webauthn } from "./_webauthn.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** The passkeys part of the account panel. */
export function AccountPasskeys(
  props: { readonly level: 2 | 3; readonly reauth: Reauthentication },
): VNode {
  const id = useId();
  const client = useQueryClient();
  const list = useQuery({ queryKey: PASSKEYS_KEY, queryFn: listPasskeys });
  const name = useSignal("");
  const news = useSignal("");
  const form = useForm();
  const { reauth } = props;
  const described = alreadyOnDevice(form.failure.value)
    ? {
      fields: {},
      alert: __(
        "This device already holds a passkey for your account. Use it to sign in, or add a passkey from another device.",
        DOMAIN,
      ),
    }
    : describeFailure(form.failure.value, ["name"]);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: PASSKEYS_KEY });
    void client.invalidateQueries({ queryKey: sessionQueryKey });
  };

  const add = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      news.value = "";
      const options = await reauth.guard(passkeyRegistrationOptions);
      const response = await webauthn.register(options);
      const given = name.value.trim();
      // A passkey left unnamed is named in the reader's language (the
      // server's own default is English).
      const added = await registerPasskey(
        response,
        given === "" ? __("Passkey", DOMAIN) : given,
      );
      name.value = "";
      news.value = sprintf(__("The passkey %s is added.", DOMAIN), added.name);
      refresh();
    });
  };

  return (
    <AccountSection
      id={id}
      name="passkeys"
      level={props.level}
      title={__("Passkeys", DOMAIN)}
    >
      <FormStatus>{news.value && <p>{news.value}</p>}</FormStatus>
      <FormAlert message={list.error ? failureText(list.error) : undefined} />
      {list.data && list.data.length === 0 && (
        <p class="gh-empty">{__("No passkeys yet.", DOMAIN)}</p>
      )}
      {list.data && list.data.length > 0 && (
        <ul class="gh-list gh-passkey-list">
          {list.data.map((passkey) => (
            <PasskeyItem
              key={passkey.id}
              passkey={passkey}
              reauth={reauth}
              onChanged={(message) => {
                news.value = message;
                refresh();
              }}
            />
          ))}
        </ul>
      )}
      {webauthn.supported() && (
        <ScreenForm form={form} onSubmit={add}>
          <FormAlert message={described.alert} />
          <TextField
            id={`${id}-name`}
            name="name"
            autocomplete="off"
            label={__("Name of the new passkey", DOMAIN)}
            hint={__("For example the device it is on.", DOMAIN)}
            value={name}
            error={described.fields.name}
          />
          <div class="gh-actions">
            <SubmitButton
              pending={form.pending.value}
              label={__("Add a passkey", DOMAIN)}
              busyLabel={__("Adding…", DOMAIN)}
            />
          </div>
        </ScreenForm>
      )}
    </AccountSection>
  );
}

/**
 * The browser's refusal to make a passkey because the authenticator already
 * holds one of those the server excluded (the account's own): WebAuthn's
 * `InvalidStateError` (@simplewebauthn/browser keeps the name). Only adding
 * a passkey can meet it, so its words live here rather than among the
 * general failures.
 */
function alreadyOnDevice(error: unknown): boolean {
  return error instanceof Error && error.name === "InvalidStateError";
}

function PasskeyItem(
  props: {
    readonly passkey: Passkey;
    readonly reauth: Reauthentication;
    readonly onChanged: (message: string) => void;
  },
): VNode {
  const { passkey, reauth, onChanged } = props;
  const id = useId();
  const open = useSignal<"rename" | "remove" | null>(null);
  const newName = useSignal(passkey.name);
  const renameButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLElement>(null);
  const rename = useMutation({
    mutationFn: () => renamePasskey(passkey.id, newName.value.trim()),
    onSuccess: (changed) => {
      open.value = null;
      onChanged(
        sprintf(__("The passkey is now called %s.", DOMAIN), changed.name),
      );
    },
  });
  const remove = useMutation({
    mutationFn: () => reauth.guard(() => removePasskey(passkey.id)),
    onSuccess: () => {
      open.value = null;
      onChanged(
        sprintf(__("The passkey %s is removed.", DOMAIN), passkey.name),
      );
    },
  });
  const renameError = describeFailure(rename.error, ["name"]);

  return (
    <li class="gh-list-item" data-passkey-id={passkey.id}>
      <div class="gh-list-main">
        <span class="gh-list-name">{passkey.name}</span>
      </div>
      <p class="gh-list-facts">
        {sprintf(__("Added %s", DOMAIN), formatDay(passkey.createdAt))}
        {" · "}
        {passkey.lastUsedAt === null
          ? __("Never used", DOMAIN)
          : sprintf(__("Last used %s", DOMAIN), formatDay(passkey.lastUsedAt))}
      </p>
      <div class="gh-actions">
        <ActionButton
          buttonRef={renameButton}
          label={sprintf(__("Rename %s", DOMAIN), passkey.name)}
          onClick={() => {
            rename.reset();
            newName.value = passkey.name;
            open.value = "rename";
          }}
        >
          {__("Rename", DOMAIN)}
        </ActionButton>
        <ActionButton
          buttonRef={removeButton}
          variant="danger"
          label={sprintf(__("Remove %s", DOMAIN), passkey.name)}
          onClick={() => {
            remove.reset();
            open.value = "remove";
          }}
        >
          {__("Remove", DOMAIN)}
        </ActionButton>
      </div>
      {open.value === "rename" && (
        <Dialog
          name="rename-passkey"
          title={sprintf(__("Rename %s", DOMAIN), passkey.name)}
          confirm={__("Rename", DOMAIN)}
          busy={__("Renaming…", DOMAIN)}
          pending={rename.isPending}
          alert={renameError.alert}
          returnTo={renameButton}
          initialFocus={field}
          onConfirm={() => rename.mutate()}
          onCancel={() => (open.value = null)}
        >
          <TextField
            inputRef={field}
            id={`${id}-name`}
            name="name"
            autocomplete="off"
            label={__("Name", DOMAIN)}
            value={newName}
            error={renameError.fields.name}
          />
        </Dialog>
      )}
      {open.value === "remove" && (
        <Dialog
          name="remove-passkey"
          danger
          title={sprintf(__("Remove %s?", DOMAIN), passkey.name)}
          confirm={__("Remove passkey", DOMAIN)}
          busy={__("Removing…", DOMAIN)}
          pending={remove.isPending}
          alert={remove.error ? failureText(remove.error) : undefined}
          returnTo={removeButton}
          onConfirm={() => remove.mutate()}
          onCancel={() => (open.value = null)}
        >
          <p>
            {__("This passkey will no longer sign you in.", DOMAIN)}
          </p>
        </Dialog>
      )}
    </li>
  );
}
