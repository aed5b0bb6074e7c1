// Passkey registration under hostile input (issue 26, item 17), on KV and
// Postgres, with real attestations from the software authenticator run
// through the real verifier:
//
// - transports that are not strings (a number, an object, a nested array,
//   a string instead of a list) are refused 400 `passkey_invalid` and
//   nothing is stored; strings WebAuthn does not name (one with a NUL, a
//   lone surrogate, an unknown word) are dropped, and only known transports
//   are stored and echoed back in excludeCredentials / allowCredentials;
// - a credential id longer than sign-in accepts (1,100, 1,600 and 2,100
//   bytes, inside the authenticator data, named or not by the response's
//   own id) is refused 400, never a 5xx, stores nothing and adds no second
//   factor; the longest one WebAuthn allows (1,023 bytes) registers and
//   signs in.

import { refusal } from "../fixtures/api.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { people, securityApi } from "../fixtures/security.ts";
import { type Api, sessionCookieOf } from "../fixtures/second_factor.ts";
import {
  createAuthenticator,
  type RegistrationJson,
} from "../fixtures/webauthn.ts";
import {
  assertion,
  passkeyOptions,
  postRegistration,
} from "../fixtures/passkey_ceremonies.ts";
import type { Store } from "../../mod.ts";
import { MAX_CREDENTIAL_ID_BYTES } from "../../server/core/webauthn.ts";

// The registration with its transports replaced.
const withTransports =
  (transports: unknown) => (response: RegistrationJson) => ({
    ...response,
    response: { ...response.response, transports },
  });

// Nothing of a refused registration is kept: no passkey, no second factor,
// no event.
async function assertNothingStored(
  store: Store,
  api: Api,
  userId: string,
  what: string,
) {
  assertEquals(await store.listPasskeys(userId), [], what);
  assertEquals((await store.accountFactors(userId))?.passkeyCount, 0, what);
  assertEquals(
    (await api.events()).filter((e) => e.type === "passkey.added"),
    [],
    what,
  );
}

testEachStore(
  "passkey registration refuses transports that are not strings (400 passkey_invalid, nothing stored) and keeps only known ones",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const session = await api.login(member.email);
    for (
      const transports of [
        [5],
        [{ usb: true }],
        [["usb"]],
        ["usb", null],
        "usb",
        { 0: "usb" },
      ]
    ) {
      const res = await postRegistration(
        api,
        session,
        await createAuthenticator(),
        withTransports(transports),
      );
      const what = JSON.stringify(transports);
      assertEquals(await refusal(res), [400, "passkey_invalid"], what);
      await assertNothingStored(store, api, member.id, what);
    }

    // Strings WebAuthn does not name are dropped; known ones kept once.
    const kept: Record<string, string[]> = {};
    for (
      const [transports, known] of [
        [["internal", "\u0000"], ["internal"]],
        [["usb\u0000", "hybrid"], ["hybrid"]],
        [["\ud800", "nfc", "\udfff"], ["nfc"]],
        [["carrier-pigeon", "usb", "usb", "smart-card"], ["usb", "smart-card"]],
        [[], []],
      ] as [string[], string[]][]
    ) {
      const key = await createAuthenticator();
      const res = await postRegistration(
        api,
        session,
        key,
        withTransports(transports),
      );
      assertEquals(res.status, 201, JSON.stringify(transports));
      await res.body?.cancel();
      kept[key.credentialId] = known;
    }
    // Without the field at all: no transports.
    const bare = await createAuthenticator();
    const res = await postRegistration(api, session, bare, (response) => {
      const { transports: _, ...rest } = response.response;
      return { ...response, response: rest };
    });
    assertEquals(res.status, 201);
    await res.body?.cancel();
    kept[bare.credentialId] = [];

    const stored = await store.listPasskeys(member.id);
    assertEquals(
      Object.fromEntries(stored.map((p) => [p.credentialId, p.transports])),
      kept,
    );
    // Echoed back: excluded from a new registration, allowed for a
    // re-authentication, with only the known transports.
    const { options: creation } = await passkeyOptions(
      api,
      "register",
      session,
    );
    const { options: request } = await passkeyOptions(api, "login", session);
    for (
      const descriptors of [
        creation.excludeCredentials,
        request.allowCredentials,
      ]
    ) {
      assertEquals(
        Object.fromEntries(
          (descriptors as { id: string; transports?: string[] }[]).map((
            d,
          ) => [d.id, d.transports ?? []]),
        ),
        kept,
      );
    }
  },
);

testEachStore(
  "passkey registration refuses a credential id longer than sign-in accepts (400, nothing stored, no second factor); the longest allowed registers and signs in",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const session = await api.login(member.email);
    const short = (await createAuthenticator()).credentialId;
    for (const bytes of [1_100, 1_600, 2_100, MAX_CREDENTIAL_ID_BYTES + 1]) {
      // As the authenticator says it, and with a short id named outside
      // while the long one is inside the authenticator data.
      for (const named of ["its own", "a short one"]) {
        const key = await createAuthenticator({ credentialIdBytes: bytes });
        const res = await postRegistration(
          api,
          session,
          key,
          (response) =>
            named === "its own"
              ? response
              : { ...response, id: short, rawId: short },
        );
        const what = `${bytes} bytes, named by ${named}`;
        assertEquals(await refusal(res), [400, "passkey_invalid"], what);
        await assertNothingStored(store, api, member.id, what);
      }
    }
    // The password alone still signs in (200, not 202): no second factor
    // was added.
    assert(await api.live(await api.login(member.email)));

    // WebAuthn's longest id (1,023 bytes) registers, and signs in.
    const longest = await createAuthenticator({
      credentialIdBytes: MAX_CREDENTIAL_ID_BYTES,
    });
    const res = await postRegistration(api, session, longest);
    assertEquals(res.status, 201);
    await res.body?.cancel();
    const { response, challenge } = await assertion(api, longest);
    const signIn = await api.call("POST", "/api/auth/passkeys/login", {
      response,
    }, { cookie: challenge });
    assertEquals(signIn.status, 200);
    assert(await api.live(sessionCookieOf(signIn)));
  },
);
