// The re-authentication dialog (DESIGN.md §8 "sudo mode"): one wrapper
// around a sensitive call. When the server answers
// `reauthentication_required`, a dialog asks for the password (or a code of
// the authenticator app or a recovery code, when the account has an app, or
// a passkey, when it has one), renews
// the proof, and the call runs once more, so whatever the person was doing
// (an open dialog, a half-finished enrolment) carries on. Cancelling gives
// the call its original refusal. An account linked to a single sign-on
// provider (one without a password, above all) may confirm there instead
// ("Confirm with {name}"): the page goes to the provider and comes back to
// itself with the proof renewed, and the person does it again. An account
// without a password (its Identity says `hasPassword: false`) is never
// asked for one: it gets a code when it has an app, else no field at all,
// only its passkey and its providers.

import { useSignal } from "@preact/signals";
import type { RefObject } from "preact";
import { useEffect, useId, useMemo, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { reauthenticate } from "../account_calls.ts";
import { useSession } from "../hooks.ts";
import { passkeyLoginOptions } from "../second_factor_calls.ts";
import { startSso } from "../sso_calls.ts";
import type { SsoProvider } from "../sso_types.ts";
import { ReauthenticationRequiredError } from "../security_errors.ts";
import type { Proof } from "../security_types.ts";
import { Dialog } from "./_dialog.tsx";
import { describeFailure, FormProblems } from "./_error_message.ts";
import { FormAlert, TextField } from "./_field.tsx";
import { ActionButton } from "./_form_parts.tsx";
import { useEndSessionIfRevoked, useSignInCount } from "./_session_ended.ts";
import { useSsoIdentities, useSsoProviders } from "./_sso_queries.ts";
import { problemsOf, requiredProblem } from "./_validation.ts";
import { webauthn } from "./_webauthn.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/**
 * What {@linkcode useReauthentication} gives a component: the wrapper for
 * its sensitive calls, and the dialog to render (null while closed).
 *
 * @example
 * ```ts
 * import type { Reauthentication } from "@gatehouse/client/screens";
 *
 * const run = (reauth: Reauthentication, call: () => Promise<void>) => reauth.guard(call);
 * ```
 */
export interface Reauthentication {
  /**
   * Runs `call`; on `reauthentication_required`, asks the person to prove
   * who they are, then runs it once more. Cancelling rejects with the
   * original ReauthenticationRequiredError. Calls refused while the dialog
   * asks wait for the same proof (or the same cancel).
   */
  guard<T>(call: () => Promise<T>): Promise<T>;
  /** The dialog while it asks; render it anywhere in the component. */
  readonly dialog: VNode | null;
}

interface Asking {
  readonly done: () => void;
  readonly cancel: () => void;
}

/**
 * The re-authentication wrapper of the screens, for an app's own sensitive
 * calls too: `guard(call)` runs the call and, when the server wants a fresh
 * proof of identity, shows a dialog asking for the password (a code of the
 * authenticator app or a recovery code, or a passkey, when the account has
 * one), then retries the call once. An account without a password (made
 * by single sign-on) is asked for none: it is offered its other ways. An
 * account linked to a single sign-on provider may confirm there instead
 * ("Confirm with {name}"): the page leaves for the provider and comes back
 * with the proof renewed, for the person to try again. Render `dialog`
 * somewhere in the component. Needs the `QueryClientProvider` of
 * `AuthGate`.
 *
 * @returns The wrapper and its dialog.
 *
 * @example An app's own sensitive button
 * ```tsx
 * import { useReauthentication } from "@gatehouse/client/screens";
 *
 * export function DeleteProject(props: { remove: () => Promise<void> }) {
 *   const reauth = useReauthentication();
 *   // Cancelling the dialog rejects with ReauthenticationRequiredError:
 *   // catch it (here, nothing happens), or it is an unhandled rejection.
 *   const remove = () => reauth.guard(props.remove).catch(() => {});
 *   return (
 *     <>
 *       <button type="button" onClick={remove}>Delete</button>
 *       {reauth.dialog}
 *     </>
 *   );
 * }
 * ```
 */
export function useReauthentication(): Reauthentication {
  const asking = useSignal<Asking | null>(null);
  const returnTo = useRef<HTMLElement>(null);
  // The calls waiting for the proof: every call refused while the dialog
  // asks waits for the same answer (one proof renews the window for all),
  // else the earlier ones would wait for ever.
  const waiting = useRef<{ resolve: () => void; reject: () => void }[]>([]);
  // Gone while the dialog asks: nobody is left to answer it, so the calls
  // waiting are cancelled (else their promises would never settle); and a
  // call refused once it is gone (sent before, answered after) is too.
  const gone = useRef(false);
  useEffect(() => () => {
    gone.current = true;
    for (const waiter of waiting.current.splice(0)) waiter.reject();
  }, []);

  const guard = useMemo(
    () => async <T,>(call: () => Promise<T>): Promise<T> => {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ReauthenticationRequiredError)) throw error;
        if (gone.current) throw error;
        await new Promise<void>((resolve, reject) => {
          waiting.current.push({ resolve, reject: () => reject(error) });
          if (asking.value !== null) return;
          returnTo.current = document.activeElement as HTMLElement | null;
          asking.value = {
            done: () => {
              asking.value = null;
              for (const waiter of waiting.current.splice(0)) {
                waiter.resolve();
              }
            },
            cancel: () => {
              asking.value = null;
              for (const waiter of waiting.current.splice(0)) waiter.reject();
            },
          };
        });
        return await call();
      }
    },
    [],
  );

  const current = asking.value;
  return {
    guard,
    dialog: current === null
      ? null
      : <ReauthDialog asking={current} returnTo={returnTo} />,
  };
}

// What the dialog asks for, and the request field (and error field) of each.
type Kind = "password" | "code" | "recovery";
const FIELD: Record<Kind, string> = {
  password: "password",
  code: "code",
  recovery: "recovery_code",
};

function ReauthDialog(
  props: { asking: Asking; returnTo: RefObject<HTMLElement> },
): VNode {
  const id = useId();
  const user = useSession();
  const totp = user?.secondFactor?.totp === true;
  const passkey = (user?.secondFactor?.passkeys ?? 0) > 0 &&
    webauthn.supported();
  // Absent (an older server): as before, a password is asked for. What is
  // typed is null when there is nothing to type (neither password nor
  // app): the passkey and the providers are all the dialog offers.
  const password = user?.hasPassword !== false;
  const kind = useSignal<Kind | null>(
    password ? "password" : totp ? "code" : null,
  );
  const value = useSignal("");
  const failure = useSignal<unknown>(null);
  const pending = useSignal(false);
  const field = useRef<HTMLElement>(null);
  const endSessionIfRevoked = useEndSessionIfRevoked();
  const signInCount = useSignInCount();
  const asked = kind.value;
  const name = asked === null ? "" : FIELD[asked];
  const described = describeFailure(
    failure.value,
    asked === null ? [] : [name],
  );
  // The providers the account has an identity at: each may confirm.
  const providers = useSsoProviders();
  const identities = useSsoIdentities(providers.length > 0);
  const linked = providers.filter((provider) =>
    identities.data?.some((identity) => identity.provider === provider.id)
  );

  // A session found gone ends here, and the gate's login screen says so.
  const fail = (error: unknown, sentUnder?: number) => {
    pending.value = false;
    if (!endSessionIfRevoked(error, sentUnder)) failure.value = error;
  };
  const prove = async (proof: () => Promise<Proof>) => {
    if (pending.value) return;
    pending.value = true;
    failure.value = null;
    // The sign-ins taken when the call went out (not the passkey prompt
    // before it).
    let sentUnder: number | undefined;
    try {
      const given = await proof();
      sentUnder = signInCount();
      await reauthenticate(given);
      props.asking.done();
    } catch (error) {
      fail(error, sentUnder);
    }
  };
  const confirm = () => {
    if (asked === null) return;
    const problems = problemsOf({ [name]: requiredProblem(value.value) });
    if (problems) {
      failure.value = new FormProblems(problems);
      field.current?.focus();
      return;
    }
    const entered = value.value;
    const proof: Proof = asked === "password"
      ? { password: entered }
      : asked === "code"
      ? { code: entered.replace(/\s+/g, "") }
      : { recoveryCode: entered.trim() };
    void prove(() => Promise.resolve(proof));
  };
  const switchTo = (next: Kind) => {
    kind.value = next;
    value.value = "";
    failure.value = null;
    field.current?.focus();
  };
  // A link to another kind of proof, unless it is the one asked for now.
  const offer = (next: Kind, label: string) =>
    kind.value !== next && (
      <ActionButton
        variant="link"
        onClick={() => switchTo(next)}
      >
        {label}
      </ActionButton>
    );
  const withPasskey = () =>
    void prove(async () => ({
      passkey: await webauthn.authenticate(await passkeyLoginOptions()),
    }));
  // Leaves the page: the provider sends it back here, proof renewed.
  const withProvider = (provider: SsoProvider) => {
    if (pending.value) return;
    pending.value = true;
    failure.value = null;
    startSso(provider.id, { reauthenticate: true }).catch(fail);
  };

  return (
    <Dialog
      name="reauthenticate"
      title={__("Confirm it is you", DOMAIN)}
      confirm={__("Confirm", DOMAIN)}
      busy={__("Confirming…", DOMAIN)}
      pending={pending.value}
      alert={undefined}
      {...(asked === null ? {} : { onConfirm: confirm })}
      onCancel={props.asking.cancel}
      returnTo={props.returnTo}
      initialFocus={field}
    >
      <p>
        {__(
          "For your safety, this needs a recent proof of who you are.",
          DOMAIN,
        )}
      </p>
      <form
        class="gh-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
      >
        <FormAlert message={described.alert} />
        {asked !== null && (
          <TextField
            inputRef={field}
            id={`${id}-${name}`}
            name={name}
            type={asked === "password" ? "password" : "text"}
            autocomplete={asked === "password"
              ? "current-password"
              : "one-time-code"}
            label={asked === "password"
              ? __("Password", DOMAIN)
              : asked === "code"
              ? __("Code", DOMAIN)
              : __("Recovery code", DOMAIN)}
            value={value}
            error={described.fields[name]}
          />
        )}
        <div class="gh-actions">
          {totp &&
            offer("code", __("Use a code from your app instead", DOMAIN))}
          {totp &&
            offer("recovery", __("Use a recovery code instead", DOMAIN))}
          {password &&
            offer("password", __("Use your password instead", DOMAIN))}
          {passkey && (
            <ActionButton pending={pending.value} onClick={withPasskey}>
              {__("Use a passkey", DOMAIN)}
            </ActionButton>
          )}
        </div>
        {linked.length > 0 && (
          <div class="gh-sso-sign-in">
            <p id={`${id}-sso-hint`} class="gh-hint">
              {asked === null && !passkey
                ? __(
                  "Confirm at your organisation's sign-in: you come back to this page, then do it again.",
                  DOMAIN,
                )
                : __(
                  "Or confirm at your organisation's sign-in: you come back to this page, then do it again.",
                  DOMAIN,
                )}
            </p>
            <div class="gh-actions">
              {linked.map((provider) => (
                <ActionButton
                  key={provider.id}
                  pending={pending.value}
                  describedBy={`${id}-sso-hint`}
                  onClick={() => withProvider(provider)}
                >
                  {sprintf(__("Confirm with %s", DOMAIN), provider.name)}
                </ActionButton>
              ))}
            </div>
          </div>
        )}
      </form>
    </Dialog>
  );
}
