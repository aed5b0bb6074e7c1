// The user handle of a passkey assertion (issue 26, item 24; WebAuthn §7.2
// step 6), on KV and Postgres, with real assertions from the software
// authenticator run through the real verifier:
//
// - passwordless sign-in: a real credential's assertion carrying another
//   account's user handle (or one that is no handle) is refused 401 like any
//   failed passkey sign-in, with no session; without a handle it is refused
//   too, since no account was named before the ceremony; with its owner's it
//   signs in;
// - the second step after a password (the account is known): a foreign
//   handle is refused, an absent one is accepted, as the spec says.

import { refusal } from "../fixtures/api.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { people, securityApi } from "../fixtures/security.ts";
import {
  type Api,
  passwordStep,
  secondStep,
  sessionCookieOf,
} from "../fixtures/second_factor.ts";
import {
  type AssertionCeremony,
  createAuthenticator,
  type SoftwareAuthenticator,
} from "../fixtures/webauthn.ts";
import {
  assertion,
  join,
  registerPasskey,
} from "../fixtures/passkey_ceremonies.ts";

// The WebAuthn user handle of an account: its id's 16 bytes, base64url (as
// the creation options' `user.id`).
const handleOf = (id: string) =>
  Uint8Array.fromHex(id.replaceAll("-", "")).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });

async function passkeyLogin(
  api: Api,
  key: SoftwareAuthenticator,
  overrides: Partial<AssertionCeremony>,
): Promise<Response> {
  const { response, challenge } = await assertion(api, key, null, overrides);
  return await api.call("POST", "/api/auth/passkeys/login", { response }, {
    cookie: challenge,
  });
}

testEachStore(
  "passwordless passkey sign-in checks the user handle against the credential's owner: another account's, a malformed one or none is 401 and no session",
  async (store) => {
    const { member, other } = await people(store);
    const api = securityApi(store);
    // Both accounts hold a passkey: the foreign handle names a real account
    // with a real credential.
    const key = await createAuthenticator();
    await registerPasskey(api, await api.login(member.email), key);
    await registerPasskey(
      api,
      await api.login(other.email),
      await createAuthenticator(),
    );
    const before = (await api.events()).length;
    const padded = `${handleOf(other.id)}==`;
    for (
      const [what, userHandle] of [
        ["another account's handle", handleOf(other.id)],
        ["another account's handle, padded", padded],
        ["the owner's id as text", member.id],
        ["not base64url", "!!"],
        ["empty", ""],
        ["no handle", null],
      ] as [string, string | null][]
    ) {
      const res = await passkeyLogin(api, key, { userHandle });
      assertEquals(
        res.headers.getSetCookie().some((c) => c.startsWith("__Host-session=")),
        false,
        what,
      );
      assertEquals(await refusal(res), [401, "credentials_invalid"], what);
    }
    const refused = (await api.events()).slice(before);
    assertEquals(refused.filter((e) => e.type === "login.succeeded"), []);
    assertEquals(refused.filter((e) => e.type === "login.failed").length, 6);

    // The owner's handle, as the authenticator keeps it, and padded.
    for (const userHandle of [undefined, `${handleOf(member.id)}==`]) {
      const res = await passkeyLogin(
        api,
        key,
        userHandle === undefined ? {} : { userHandle },
      );
      assertEquals(res.status, 200, String(userHandle));
      assertEquals((await res.json()).id, member.id);
      assert(await api.live(sessionCookieOf(res)));
    }
  },
);

testEachStore(
  "a passkey as the second step checks a user handle that is there, and accepts none",
  async (store) => {
    const { member, other } = await people(store);
    const api = securityApi(store);
    const key = await createAuthenticator();
    await registerPasskey(api, await api.login(member.email), key);
    const step = async (userHandle: string | null) => {
      const pending = await passwordStep(api, member.email, ["passkey"]);
      const proof = await assertion(api, key, pending, { userHandle });
      return await secondStep(api, join(pending, proof.challenge), {
        passkey: proof.response,
      });
    };
    assertEquals(
      await refusal(await step(handleOf(other.id))),
      [401, "credentials_invalid"],
    );
    for (const userHandle of [null, handleOf(member.id)]) {
      const res = await step(userHandle);
      assertEquals(res.status, 200, String(userHandle));
      assert(await api.live(sessionCookieOf(res)));
    }
  },
);
