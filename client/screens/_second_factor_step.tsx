// The second step of a sign-in whose password was right (DESIGN.md §9): a
// code of the authenticator app, or a recovery code, or a passkey, as the
// account has them; "Back" returns to the password step. A wrong code
// stays on the step (the server allows a few); an ended pending sign-in
// (410: too many wrong codes, five minutes) goes back with a message.

import { useSignal } from "@preact/signals";
import { useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { InvalidCredentialsError, InvalidTokenError } from "../errors.ts";
import {
  passkeyLoginOptions,
  verifySecondFactor,
} from "../second_factor_calls.ts";
import type { SecondFactorMethod } from "../security_types.ts";
import type { SessionUser } from "../types.ts";
import { describeFailure, ProofRefused } from "./_error_message.ts";
import { FormAlert, TextField } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  ActionButton,
  type HeadingLevel,
  ScreenForm,
  SubmitButton,
  Title,
} from "./_form_parts.tsx";
import { problemsOf, requiredProblem } from "./_validation.ts";
import { webauthn } from "./_webauthn.ts";
import { __, DOMAIN } from "./i18n.ts";

/** Props of {@linkcode SecondFactorStep}. */
export interface SecondFactorStepProps {
  readonly id: string;
  readonly methods: readonly SecondFactorMethod[];
  readonly headingLevel: HeadingLevel | undefined;
  readonly onLogin: (user: SessionUser) => void;
  /** Back to the password step; `expired` when the pending sign-in ended. */
  readonly onBack: (expired: boolean) => void;
}

type Kind = "code" | "recovery";

/** The second step of the login screen. */
export function SecondFactorStep(props: SecondFactorStepProps): VNode {
  const id = `${props.id}-2fa`;
  const { methods } = props;
  const hasTotp = methods.includes("totp");
  const hasRecovery = methods.includes("recovery_code");
  const hasPasskey = methods.includes("passkey") && webauthn.supported();
  const kind = useSignal<Kind>(hasTotp ? "code" : "recovery");
  const value = useSignal("");
  const form = useForm();
  const title = useRef<HTMLHeadingElement>(null);
  useFocusWhenSwappedIn(title);
  useFocusOnChange(title, kind.value);
  const described = describeFailure(form.failure.value, ["code"]);

  // `proof`: what a 401 refused, a code or a passkey (the server's answer
  // is the same `credentials_invalid` as for a wrong password).
  const finish = (
    proof: "code" | "passkey",
    task: () => Promise<SessionUser>,
  ) =>
    form.run(async () => {
      try {
        props.onLogin(await task());
      } catch (error) {
        if (error instanceof InvalidTokenError) return props.onBack(true);
        if (error instanceof InvalidCredentialsError) {
          throw new ProofRefused(proof, error);
        }
        throw error;
      }
    });

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = problemsOf({ code: requiredProblem(value.value) });
    if (problems) return form.refuse(problems);
    const entered = value.value.replace(/\s+/g, "");
    void finish("code", () =>
      verifySecondFactor(
        kind.value === "code" ? { code: entered } : { recoveryCode: entered },
      ));
  };
  const usePasskey = () =>
    void finish("passkey", async () => {
      const options = await passkeyLoginOptions();
      const passkey = await webauthn.authenticate(options);
      return await verifySecondFactor({ passkey });
    });
  const switchTo = (next: Kind) => {
    value.value = "";
    form.failure.value = null;
    kind.value = next;
  };

  const showField = (kind.value === "code" && hasTotp) ||
    (kind.value === "recovery" && hasRecovery);
  return (
    <>
      <Title id={`${id}-title`} level={props.headingLevel} target={title}>
        {kind.value === "code"
          ? __("Enter the code from your authenticator app", DOMAIN)
          : __("Enter a recovery code", DOMAIN)}
      </Title>
      <ScreenForm form={form} onSubmit={submit}>
        <FormAlert message={described.alert} />
        {showField && (
          <TextField
            id={`${id}-code`}
            name="code"
            autocomplete="one-time-code"
            label={kind.value === "code"
              ? __("Code", DOMAIN)
              : __("Recovery code", DOMAIN)}
            hint={kind.value === "code"
              ? __("The six digits your app shows now.", DOMAIN)
              : __(
                "One of the codes you saved when you set up the app. Each works once.",
                DOMAIN,
              )}
            value={value}
            error={described.fields.code}
          />
        )}
        <div class="gh-actions">
          {showField && (
            <SubmitButton
              pending={form.pending.value}
              label={__("Verify", DOMAIN)}
              busyLabel={__("Verifying…", DOMAIN)}
            />
          )}
          {hasPasskey && (
            <ActionButton pending={form.pending.value} onClick={usePasskey}>
              {__("Use a passkey", DOMAIN)}
            </ActionButton>
          )}
        </div>
        <div class="gh-actions">
          {kind.value === "code" && hasRecovery && (
            <ActionButton
              variant="link"
              onClick={() => switchTo("recovery")}
            >
              {__("Use a recovery code instead", DOMAIN)}
            </ActionButton>
          )}
          {kind.value === "recovery" && hasTotp && (
            <ActionButton
              variant="link"
              onClick={() => switchTo("code")}
            >
              {__("Use a code from your app instead", DOMAIN)}
            </ActionButton>
          )}
          <ActionButton variant="link" onClick={() => props.onBack(false)}>
            {__("Back to sign in", DOMAIN)}
          </ActionButton>
        </div>
      </ScreenForm>
    </>
  );
}
