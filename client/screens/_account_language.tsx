// "Language of your emails" of the account panel: English or Spanish, the
// languages the server's mail is written in (DESIGN.md §14). Until the
// person chooses, the server follows the browser's language at each
// sign-in; a choice saved here is kept. Each language is named in itself.

import { useQueryClient } from "@tanstack/preact-query";
import { useSignal } from "@preact/signals";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { updateAccount } from "../account_calls.ts";
import { updateSession } from "../_session_cache.ts";
import type { SessionUser } from "../types.ts";
import { AccountSection } from "./_account_section.tsx";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, FormStatus, SelectField } from "./_field.tsx";
import { useForm } from "./_form.ts";
import { ScreenForm, SubmitButton } from "./_form_parts.tsx";
import { __, DOMAIN } from "./i18n.ts";

const FIELDS = ["locale"] as const;

// Named in their own language, whatever the screens' language.
const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "es", label: "Español" },
] as const;

/** The language part of the account panel. */
export function AccountLanguage(
  props: { readonly level: 2 | 3; readonly user: SessionUser },
): VNode {
  const id = useId();
  const client = useQueryClient();
  const known = LANGUAGES.some(({ value }) => value === props.user.locale);
  const chosen = useSignal(known ? props.user.locale! : "en");
  const done = useSignal(false);
  const form = useForm();
  const described = describeFailure(form.failure.value, FIELDS);

  const submit = (event: Event) => {
    event.preventDefault();
    done.value = false;
    void form.run(async () => {
      const user = await updateAccount({ locale: chosen.value });
      updateSession(client, user);
      done.value = true;
    });
  };

  return (
    <AccountSection
      id={id}
      name="language"
      level={props.level}
      title={__("Language of your emails", DOMAIN)}
    >
      <ScreenForm form={form} onSubmit={submit}>
        <FormAlert message={described.alert} />
        <FormStatus>
          {done.value && <p>{__("Language saved.", DOMAIN)}</p>}
        </FormStatus>
        <SelectField
          id={`${id}-locale`}
          name="locale"
          label={__("Language", DOMAIN)}
          value={chosen.value}
          onChange={(value) => {
            chosen.value = value;
            done.value = false;
          }}
          choices={LANGUAGES}
          error={described.fields.locale}
        />
        <div class="gh-actions">
          <SubmitButton
            pending={form.pending.value}
            label={__("Save language", DOMAIN)}
            busyLabel={__("Saving…", DOMAIN)}
          />
        </div>
      </ScreenForm>
    </AccountSection>
  );
}
