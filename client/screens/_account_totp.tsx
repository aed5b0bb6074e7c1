// "Two-step verification" of the account panel: set up an authenticator
// app (its QR code, drawn by the server, and the key to type by hand),
// confirm it with a code, then the ten recovery codes, shown once, to copy
// or download; how many are left (a warning from three down), new codes and
// turning it off later. Setup, new codes and turning off go through the
// re-authentication dialog.

import { useSignal } from "@preact/signals";
import { useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import { useRecoveryCodeCount } from "../hooks.ts";
import type { VNode } from "../_peer_types.ts";
import { sessionQueryKey } from "../_session_cache.ts";
import {
  confirmTotp,
  disableTotp,
  regenerateRecoveryCodes,
  setupTotp,
} from "../second_factor_calls.ts";
import type { TotpSetup } from "../security_types.ts";
import { AccountSection } from "./_account_section.tsx";
import { Dialog } from "./_dialog.tsx";
import { describeFailure, failureText } from "./_error_message.ts";
import { FormAlert, FormStatus, TextField } from "./_field.tsx";
import { useForm } from "./_form.ts";
import { ActionButton, ScreenForm, SubmitButton } from "./_form_parts.tsx";
import type { Reauthentication } from "./_reauth.tsx";
import { problemsOf, requiredProblem } from "./_validation.ts";
import { __, _n, DOMAIN, sprintf } from "./i18n.ts";

// From this many codes left down, the count is a warning with a prompt.
const FEW_RECOVERY_CODES = 3;

type Step =
  | { readonly at: "idle" }
  | { readonly at: "setup"; readonly setup: TotpSetup }
  | { readonly at: "codes"; readonly codes: readonly string[] };

/** The authenticator-app part of the account panel. */
export function AccountTotp(
  props: {
    readonly level: 2 | 3;
    readonly enabled: boolean;
    readonly reauth: Reauthentication;
  },
): VNode {
  const id = useId();
  const client = useQueryClient();
  const step = useSignal<Step>({ at: "idle" });
  const code = useSignal("");
  const form = useForm();
  const action = useForm();
  const confirmOff = useSignal(false);
  const offButton = useRef<HTMLButtonElement>(null);
  const news = useSignal("");
  const left = useRecoveryCodeCount();
  const { reauth } = props;
  const described = describeFailure(form.failure.value, ["code"]);
  const refreshIdentity = () =>
    void client.invalidateQueries({ queryKey: sessionQueryKey });

  const start = () =>
    void action.run(async () => {
      news.value = "";
      code.value = "";
      step.value = { at: "setup", setup: await reauth.guard(setupTotp) };
    });
  const renew = () =>
    void action.run(async () => {
      news.value = "";
      step.value = {
        at: "codes",
        codes: await reauth.guard(regenerateRecoveryCodes),
      };
    });
  const turnOff = () =>
    void action.run(async () => {
      await reauth.guard(disableTotp);
      confirmOff.value = false;
      news.value = __("Two-step verification is off.", DOMAIN);
      refreshIdentity();
    });
  const submit = (event: Event) => {
    event.preventDefault();
    const problems = problemsOf({ code: requiredProblem(code.value) });
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      const codes = await confirmTotp(code.value.replace(/\s+/g, ""));
      step.value = { at: "codes", codes };
      refreshIdentity();
    });
  };

  const current = step.value;
  return (
    <AccountSection
      id={id}
      name="totp"
      level={props.level}
      title={__("Two-step verification", DOMAIN)}
    >
      <FormStatus>{news.value && <p>{news.value}</p>}</FormStatus>
      <FormAlert
        message={action.failure.value && !confirmOff.value
          ? failureText(action.failure.value)
          : undefined}
      />
      {current.at === "idle" && (
        <>
          <p>
            {props.enabled
              ? __(
                "On: signing in asks for a code from your authenticator app. Keep your recovery codes somewhere safe; each works once.",
                DOMAIN,
              )
              : __(
                "Off: your password alone signs you in. An authenticator app adds a code that changes every 30 seconds.",
                DOMAIN,
              )}
          </p>
          {props.enabled && left !== null && <CodesLeft left={left} />}
          <div class="gh-actions">
            {props.enabled
              ? (
                <>
                  <ActionButton pending={action.pending.value} onClick={renew}>
                    {__("New recovery codes", DOMAIN)}
                  </ActionButton>
                  <ActionButton
                    buttonRef={offButton}
                    variant="danger"
                    onClick={() => {
                      action.failure.value = null;
                      confirmOff.value = true;
                    }}
                  >
                    {__("Turn off…", DOMAIN)}
                  </ActionButton>
                </>
              )
              : (
                <ActionButton
                  variant="primary"
                  pending={action.pending.value}
                  onClick={start}
                >
                  {__("Set up an authenticator app", DOMAIN)}
                </ActionButton>
              )}
          </div>
        </>
      )}
      {current.at === "setup" && (
        <div class="gh-totp-setup">
          <p>
            {__(
              "Scan this code with your authenticator app, or type the key into it. Then enter the code the app shows.",
              DOMAIN,
            )}
          </p>
          <img
            class="gh-qr"
            src={`data:image/svg+xml;charset=utf-8,${
              encodeURIComponent(current.setup.qrSvg)
            }`}
            alt={__("QR code for your authenticator app", DOMAIN)}
            width={192}
            height={192}
          />
          <p>
            {__("Key", DOMAIN)}{" "}
            <code class="gh-secret">{current.setup.secret}</code>
          </p>
          <ScreenForm form={form} onSubmit={submit}>
            <FormAlert message={described.alert} />
            <TextField
              id={`${id}-code`}
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              label={__("Code", DOMAIN)}
              value={code}
              error={described.fields.code}
            />
            <div class="gh-actions">
              <SubmitButton
                pending={form.pending.value}
                label={__("Turn on", DOMAIN)}
                busyLabel={__("Turning on…", DOMAIN)}
              />
              <ActionButton onClick={() => (step.value = { at: "idle" })}>
                {__("Cancel", DOMAIN)}
              </ActionButton>
            </div>
          </ScreenForm>
        </div>
      )}
      {current.at === "codes" && (
        <RecoveryCodes
          codes={current.codes}
          onDone={() => (step.value = { at: "idle" })}
        />
      )}
      {confirmOff.value && (
        <Dialog
          name="totp-off"
          danger
          title={__("Turn off two-step verification?", DOMAIN)}
          confirm={__("Turn off", DOMAIN)}
          busy={__("Turning off…", DOMAIN)}
          pending={action.pending.value}
          alert={action.failure.value
            ? failureText(action.failure.value)
            : undefined}
          returnTo={offButton}
          onConfirm={turnOff}
          onCancel={() => (confirmOff.value = false)}
        >
          <p>
            {__(
              "Your authenticator app and your recovery codes stop working. Your password alone will sign you in.",
              DOMAIN,
            )}
          </p>
        </Dialog>
      )}
    </AccountSection>
  );
}

/** How many recovery codes are left; from a few down, a warning. */
function CodesLeft(props: { readonly left: number }): VNode {
  const { left } = props;
  const few = left <= FEW_RECOVERY_CODES;
  return (
    <p class={few ? "gh-codes-left gh-warning" : "gh-codes-left"}>
      {left === 0 ? __("No recovery codes left.", DOMAIN) : sprintf(
        _n(
          "%d recovery code left.",
          "%d recovery codes left.",
          left,
          DOMAIN,
        ),
        left,
      )}
      {few && " "}
      {few &&
        __("Generate new ones so a lost phone cannot lock you out.", DOMAIN)}
    </p>
  );
}

/** The recovery codes, shown once, to copy or download. */
function RecoveryCodes(
  props: { readonly codes: readonly string[]; readonly onDone: () => void },
): VNode {
  const copied = useSignal("");
  const text = props.codes.join("\n") + "\n";
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      copied.value = __("The codes are copied.", DOMAIN);
    } catch {
      copied.value = __(
        "Copying failed: select the codes and copy them.",
        DOMAIN,
      );
    }
  };
  return (
    <div class="gh-recovery-codes">
      <p>
        {__(
          "Save these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown only now.",
          DOMAIN,
        )}
      </p>
      <ol class="gh-codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <FormStatus>{copied.value && <p>{copied.value}</p>}</FormStatus>
      <div class="gh-actions">
        <ActionButton onClick={() => void copy()}>
          {__("Copy codes", DOMAIN)}
        </ActionButton>
        <a
          class="gh-button gh-button-secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="recovery-codes.txt"
        >
          {__("Download codes", DOMAIN)}
        </a>
        <ActionButton variant="primary" onClick={props.onDone}>
          {__("I saved them", DOMAIN)}
        </ActionButton>
      </div>
    </div>
  );
}
