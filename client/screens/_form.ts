// The state every form of the screens keeps in signals: the last failure,
// whether a request is on its way, and focus on the first invalid field
// after a failure (so a screen reader reads its label and its error). A
// failure that says the session is gone ends it instead, as a query's
// would: the gate's login screen then says so.

import { type Signal, useSignal } from "@preact/signals";
import type { RefObject } from "preact";
import { useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { FormProblems, type Problem } from "./_error_message.ts";
import { useEndSessionIfRevoked, useSignInCount } from "./_session_ended.ts";

/** A form's state and its submit runner. */
export interface Form {
  /** Put on the `<form>` element. */
  readonly ref: RefObject<HTMLFormElement>;
  /** The last failure (an error, or FormProblems), or null. */
  readonly failure: Signal<unknown>;
  /** True while the request is on its way. */
  readonly pending: Signal<boolean>;
  /**
   * Runs a submit: clears the last failure, sets `pending`, and keeps what
   * `task` throws as the failure, unless it says the session is gone: the
   * session then ends (the gate's login screen says so). A second submit
   * while one runs is ignored.
   */
  run(task: () => Promise<void>): Promise<void>;
  /** Fails without asking the server (the form's own checks). */
  refuse(problems: Readonly<Record<string, Problem>>): void;
}

/** A form's state, kept across renders. */
export function useForm(): Form {
  const ref = useRef<HTMLFormElement>(null);
  const failure = useSignal<unknown>(null);
  const pending = useSignal(false);
  const failures = useSignal(0);
  const failed = failures.value;
  const endSessionIfRevoked = useEndSessionIfRevoked();
  const signInCount = useSignInCount();

  useLayoutEffect(() => {
    if (failed === 0) return;
    const invalid = ref.current?.querySelector<HTMLElement>(
      '[aria-invalid="true"]',
    );
    invalid?.focus();
  }, [failed]);

  return useMemo<Form>(() => ({
    ref,
    failure,
    pending,
    async run(task) {
      if (pending.value) return;
      failure.value = null;
      pending.value = true;
      const sentUnder = signInCount();
      try {
        await task();
      } catch (error) {
        // A session found gone is the gate's to tell: its login screen
        // says so, and takes the form's place.
        if (endSessionIfRevoked(error, sentUnder)) return;
        failure.value = error;
        failures.value += 1;
      } finally {
        pending.value = false;
      }
    },
    refuse(problems) {
      failure.value = new FormProblems(problems);
      failures.value += 1;
    },
  }), []);
}
