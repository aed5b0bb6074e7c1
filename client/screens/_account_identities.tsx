// "Single sign-on" of the account panel (DESIGN.md §13): the identities at
// the server's providers linked to the account, each with its provider,
// its address there and when it was linked, and "Unlink" after a
// confirmation (through the re-authentication dialog). The server keeps an
// account's last way to sign in (`last_sign_in_method`): the dialog says
// why and what to do first. Shown only where the server has providers.
// Back from a re-authentication at a provider that failed
// (`?sso_error=CODE`), it says why.

import { useSignal } from "@preact/signals";
import { useMutation, useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { unlinkSsoIdentity } from "../sso_calls.ts";
import type { SsoIdentity } from "../sso_types.ts";
import { AccountSection } from "./_account_section.tsx";
import { Dialog } from "./_dialog.tsx";
import { failureText } from "./_error_message.ts";
import { FormAlert, FormStatus } from "./_field.tsx";
import { formatDay } from "./_format.ts";
import { ActionButton } from "./_form_parts.tsx";
import type { Reauthentication } from "./_reauth.tsx";
import { ACTIVITY_KEY, SSO_IDENTITIES_KEY } from "./_security_keys.ts";
import { ssoErrorText, useSsoError } from "./_sso_error.ts";
import {
  providerName,
  useSsoIdentities,
  useSsoProviders,
} from "./_sso_queries.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** The single sign-on part of the account panel; nothing without providers. */
export function AccountIdentities(
  props: { readonly level: 2 | 3; readonly reauth: Reauthentication },
): VNode | null {
  const id = useId();
  const client = useQueryClient();
  const providers = useSsoProviders();
  const list = useSsoIdentities(providers.length > 0);
  const ssoError = useSsoError();
  const news = useSignal("");
  if (providers.length === 0) return null;
  const alert = list.error
    ? failureText(list.error)
    : ssoError === null
    ? undefined
    : ssoErrorText(ssoError);

  return (
    <AccountSection
      id={id}
      name="identities"
      level={props.level}
      title={__("Single sign-on", DOMAIN)}
    >
      <FormStatus>{news.value && <p>{news.value}</p>}</FormStatus>
      <FormAlert message={alert} />
      {list.data && list.data.length === 0 && (
        <p class="gh-empty">
          {__(
            "No identity at your organisation's sign-in is linked to this account.",
            DOMAIN,
          )}
        </p>
      )}
      {list.data && list.data.length > 0 && (
        <ul class="gh-list gh-identity-list">
          {list.data.map((identity) => (
            <IdentityItem
              key={identity.id}
              identity={identity}
              name={providerName(providers, identity.provider)}
              reauth={props.reauth}
              onUnlinked={(message) => {
                news.value = message;
                void client.invalidateQueries({
                  queryKey: SSO_IDENTITIES_KEY,
                });
                void client.invalidateQueries({ queryKey: ACTIVITY_KEY });
              }}
            />
          ))}
        </ul>
      )}
    </AccountSection>
  );
}

function IdentityItem(
  props: {
    readonly identity: SsoIdentity;
    /** The provider's name. */
    readonly name: string;
    readonly reauth: Reauthentication;
    readonly onUnlinked: (message: string) => void;
  },
): VNode {
  const { identity, name, reauth, onUnlinked } = props;
  const open = useSignal(false);
  const button = useRef<HTMLButtonElement>(null);
  const unlink = useMutation({
    mutationFn: () => reauth.guard(() => unlinkSsoIdentity(identity.id)),
    onSuccess: () => {
      open.value = false;
      onUnlinked(
        sprintf(__("Your identity at %s is unlinked.", DOMAIN), name),
      );
    },
  });
  const who = identity.email || identity.name;

  return (
    <li class="gh-list-item" data-identity-id={identity.id}>
      <div class="gh-list-main">
        <span class="gh-list-name">{name}</span>
      </div>
      <p class="gh-list-facts">
        {who && <>{who}{" · "}</>}
        {sprintf(__("Linked %s", DOMAIN), formatDay(identity.linkedAt))}
      </p>
      <div class="gh-actions">
        <ActionButton
          buttonRef={button}
          variant="danger"
          label={sprintf(__("Unlink %s", DOMAIN), name)}
          onClick={() => {
            unlink.reset();
            open.value = true;
          }}
        >
          {__("Unlink", DOMAIN)}
        </ActionButton>
      </div>
      {open.value && (
        <Dialog
          name="unlink-identity"
          danger
          title={sprintf(__("Unlink %s?", DOMAIN), name)}
          confirm={__("Unlink", DOMAIN)}
          busy={__("Unlinking…", DOMAIN)}
          pending={unlink.isPending}
          alert={unlink.error ? failureText(unlink.error) : undefined}
          returnTo={button}
          onConfirm={() => unlink.mutate()}
          onCancel={() => (open.value = false)}
        >
          <p>
            {sprintf(
              __("You will no longer sign in to this account with %s.", DOMAIN),
              name,
            )}
          </p>
        </Dialog>
      )}
    </li>
  );
}
