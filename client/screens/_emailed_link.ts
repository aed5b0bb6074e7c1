// The life of an emailed link (a reset link, an activation link) on the
// screen it opens: the link is checked when the screen opens, before anyone
// types a password twice (`checkLink` spends nothing), and again by the call
// that spends it. Either finding it spent, expired or unknown
// (InvalidTokenError) turns the screen to "no longer valid" for good; a
// screen opened without a token is that from the start.

import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { InvalidTokenError } from "../errors.ts";
import { checkLink, type LinkKind } from "../link_calls.ts";

/** What a screen knows of the emailed link it was opened with. */
export interface EmailedLink {
  /** The link can do nothing: no token, or the server refused it. */
  readonly dead: boolean;
  /**
   * The check found an account at the invitation's address already
   * (`account_exists`); never true of a dead link.
   */
  readonly accountExists: boolean;
  /**
   * Runs `call`, which spends the link. When the server refuses the link,
   * the link turns dead and the answer is null; any other failure is thrown.
   */
  spend<T>(call: () => Promise<T>): Promise<{ readonly answer: T } | null>;
}

/** Checks `token` as a link of `kind` when it changes, and follows its life. */
export function useEmailedLink(token: string, kind: LinkKind): EmailedLink {
  const refused = useSignal(false);
  const taken = useSignal(false);

  useEffect(() => {
    if (token === "") return;
    let current = true;
    checkLink(token, kind).then(
      (state) => {
        if (current) taken.value = state === "account_exists";
      },
      (error) => {
        if (current && error instanceof InvalidTokenError) {
          refused.value = true;
        }
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  const dead = refused.value || token === "";
  return {
    dead,
    accountExists: !dead && taken.value,
    async spend(call) {
      try {
        return { answer: await call() };
      } catch (error) {
        if (!(error instanceof InvalidTokenError)) throw error;
        refused.value = true;
        return null;
      }
    },
  };
}
