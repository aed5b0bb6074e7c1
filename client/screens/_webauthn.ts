// The browser side of passkeys, through @simplewebauthn/browser: whether
// this browser can use them (and offer them in the email field's autofill,
// "conditional UI"), and the two ceremonies. One object, so tests (happy-dom
// has no WebAuthn) replace its members; the screens call nothing else.

import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import type { PasskeyOptions } from "../security_types.ts";

type Json = Readonly<Record<string, unknown>>;

/** The passkey ceremonies of this browser. */
export const webauthn: {
  supported(): boolean;
  autofill(): Promise<boolean>;
  authenticate(options: PasskeyOptions, autofill?: boolean): Promise<Json>;
  register(options: PasskeyOptions): Promise<Json>;
  cancel(): void;
} = {
  supported: () => {
    try {
      return browserSupportsWebAuthn();
    } catch {
      return false;
    }
  },
  autofill: () => browserSupportsWebAuthnAutofill().catch(() => false),
  authenticate: async (options, autofill = false) =>
    ({
      ...await startAuthentication({
        // The server's JSON is the library's options type, as data.
        optionsJSON: options as unknown as Parameters<
          typeof startAuthentication
        >[0]["optionsJSON"],
        useBrowserAutofill: autofill,
      }),
    }) as Json,
  register: async (options) =>
    ({
      ...await startRegistration({
        optionsJSON: options as unknown as Parameters<
          typeof startRegistration
        >[0]["optionsJSON"],
      }),
    }) as Json,
  cancel: () => WebAuthnAbortService.cancelCeremony(),
};

/**
 * A passkey sign-in whose request (its challenge) ended before the passkey
 * answered: asked for more than five minutes ago, or replaced by a newer
 * one. Asking again starts a fresh one.
 */
export class PasskeyRequestExpired extends Error {
  override name = "PasskeyRequestExpired";
  constructor() {
    super("The passkey request expired");
  }
}
