// Passkeys over the API (DESIGN.md §9, issue 16), on KV and Postgres, with
// real WebAuthn responses from the software authenticator
// (tests/fixtures/webauthn.ts) run through the real verifier: registration,
// listing, renaming, removal, passwordless sign-in, a passkey as second
// factor and for re-authentication; replayed challenges, a wrong origin or
// RP ID, a lowered counter, a removed passkey, a disabled account, odd
// input, and the challenge's cookie. Every answer is checked against the
// contract.

import { totpCode } from "../../server/core/totp.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  PASSWORD,
  people,
  securityApi,
  signInStatus,
} from "../fixtures/security.ts";
import {
  type Api,
  enrolTotp,
  passwordStep,
  secondStep,
  sessionCookieOf,
  STEP,
} from "../fixtures/second_factor.ts";
import {
  type AssertionCeremony,
  createAuthenticator,
  type SoftwareAuthenticator,
} from "../fixtures/webauthn.ts";
import {
  assertion,
  join,
  passkeyOptions,
  registerPasskey,
} from "../fixtures/passkey_ceremonies.ts";

const MINUTE = 60_000;

async function passkeyLogin(
  api: Api,
  authenticator: SoftwareAuthenticator,
  overrides: Partial<AssertionCeremony> = {},
): Promise<Response> {
  const { response, challenge } = await assertion(
    api,
    authenticator,
    null,
    overrides,
  );
  return await api.call("POST", "/api/auth/passkeys/login", { response }, {
    cookie: challenge,
  });
}

testEachStore(
  "register, list, rename, sign in without a password; the challenge is single use",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const session = await api.login(member.email);
    const key = await createAuthenticator();
    const id = await registerPasskey(api, session, key, "  Laptop  ");
    const list = await (await api.call("GET", "/api/auth/passkeys", undefined, {
      cookie: session,
    })).json();
    assertEquals(list.passkeys.length, 1);
    assertEquals(list.passkeys[0].name, "Laptop");
    assertEquals(list.passkeys[0].last_used_at, null);
    const renamed = await api.call("PATCH", `/api/auth/passkeys/${id}`, {
      name: "Work laptop",
    }, { cookie: session });
    assertEquals((await renamed.json()).name, "Work laptop");

    const { request, response, challenge } = await assertion(api, key);
    assertEquals(request.rpId, "app.example");
    assertEquals(request.userVerification, "required");
    assertEquals(request.allowCredentials ?? [], []);
    const res = await api.call("POST", "/api/auth/passkeys/login", {
      response,
    }, { cookie: challenge });
    assertEquals(res.status, 200);
    const identity = await res.json();
    assertEquals(identity.id, member.id);
    assertEquals(identity.second_factor, { totp: false, passkeys: 1 });
    assert(await api.live(sessionCookieOf(res)));
    // The same challenge again: spent, so 410 (start again with new options).
    const replay = await api.call("POST", "/api/auth/passkeys/login", {
      response,
    }, { cookie: challenge });
    assertEquals(await refusal(replay), [410, "token_invalid"]);
    const events = await api.events();
    assertEquals(
      events.filter((e) => e.type === "passkey.added").length,
      1,
    );
    assertEquals(
      events.filter((e) => e.type === "login.succeeded").at(-1)?.detail.method,
      "passkey",
    );
    // The account now has a second factor: the password step asks for it.
    await passwordStep(api, member.email, ["passkey"]);
  },
);

testEachStore(
  "passwordless sign-in refuses a wrong origin or RP ID, no user verification, a lowered counter, a removed passkey, a disabled account",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApi(store);
    const session = await api.login(member.email);
    const key = await createAuthenticator();
    const id = await registerPasskey(api, session, key);
    for (
      const overrides of [
        { origin: "https://evil.example" },
        { rpId: "evil.example" },
        { userVerified: false },
      ] as Partial<AssertionCeremony>[]
    ) {
      assertEquals(
        await refusal(await passkeyLogin(api, key, overrides)),
        [401, "credentials_invalid"],
        JSON.stringify(overrides),
      );
    }
    const ok = await passkeyLogin(api, key);
    assertEquals(ok.status, 200);
    await ok.body?.cancel();
    for (const counter of [key.counter, key.counter - 1, 0]) {
      assertEquals(
        await refusal(await passkeyLogin(api, key, { counter })),
        [401, "credentials_invalid"],
        `counter ${counter} after ${key.counter}`,
      );
    }
    // Disabled account.
    const admin = await api.login(root.email);
    const disable = (disabled: boolean) =>
      api.call("PATCH", `/api/users/${member.id}`, { disabled }, {
        cookie: admin,
      });
    assertEquals((await disable(true)).status, 200);
    assertEquals(
      await refusal(await passkeyLogin(api, key)),
      [401, "credentials_invalid"],
      "disabled",
    );
    assertEquals((await disable(false)).status, 200);
    const mine = await api.login(member.email, PASSWORD).catch(() => null);
    assertEquals(mine, null, "the password step now asks for the passkey");
    // Removal (fresh), then the passkey is refused.
    const pending = await passwordStep(api, member.email, ["passkey"]);
    const proof = await assertion(api, key, pending);
    const second = await secondStep(api, join(pending, proof.challenge), {
      passkey: proof.response,
    });
    assertEquals(second.status, 200);
    const fresh = sessionCookieOf(second);
    const removed = await api.call(
      "DELETE",
      `/api/auth/passkeys/${id}`,
      undefined,
      {
        cookie: fresh,
      },
    );
    assertEquals(removed.status, 204);
    assertEquals(
      await refusal(await passkeyLogin(api, key)),
      [401, "credentials_invalid"],
      "removed",
    );
    assertEquals(
      await refusal(
        await api.call("DELETE", `/api/auth/passkeys/${id}`, undefined, {
          cookie: fresh,
        }),
      ),
      [404, "passkey_not_found"],
    );
  },
);

testEachStore(
  "a passkey as the second factor after a password, and as proof for re-authentication",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const session = await api.login(member.email);
    const { secret } = await enrolTotp(api, session);
    const key = await createAuthenticator();
    await registerPasskey(api, session, key);
    const pending = await passwordStep(api, member.email, [
      "totp",
      "recovery_code",
      "passkey",
    ]);
    const { request, response, challenge } = await assertion(api, key, pending);
    assertEquals(request.allowCredentials.length, 1, "this account's passkeys");
    // A challenge for the second factor does not sign in on its own.
    const elsewhere = await api.call("POST", "/api/auth/passkeys/login", {
      response,
    }, { cookie: challenge });
    // (No login challenge under that cookie: 410, as for a spent one.)
    assertEquals(await refusal(elsewhere), [410, "token_invalid"]);
    const again = await assertion(api, key, pending);
    const res = await secondStep(api, join(pending, again.challenge), {
      passkey: again.response,
    });
    assertEquals(res.status, 200);
    const cookie = sessionCookieOf(res);
    // A wrong passkey answer counts as a wrong code.
    const other = await passwordStep(api, member.email, [
      "totp",
      "recovery_code",
      "passkey",
    ]);
    const bad = await assertion(api, key, other, { origin: "https://x.test" });
    assertEquals(
      await refusal(
        await secondStep(api, join(other, bad.challenge), {
          passkey: bad.response,
        }),
      ),
      [401, "credentials_invalid"],
    );

    // Re-authentication with the passkey (a session: use "reauthenticate").
    api.advance(31 * MINUTE);
    const stale = await api.call(
      "POST",
      "/api/auth/recovery-codes",
      undefined,
      {
        cookie,
      },
    );
    assertEquals(await refusal(stale), [403, "reauthentication_required"]);
    const proof = await assertion(api, key, cookie);
    const reauth = await api.call("POST", "/api/auth/reauthenticate", {
      passkey: proof.response,
    }, { cookie: join(cookie, proof.challenge) });
    assertEquals(reauth.status, 204);
    const codes = await api.call(
      "POST",
      "/api/auth/recovery-codes",
      undefined,
      {
        cookie,
      },
    );
    assertEquals(codes.status, 200);
    await codes.body?.cancel();
    const replay = await api.call("POST", "/api/auth/reauthenticate", {
      passkey: proof.response,
    }, { cookie: join(cookie, proof.challenge) });
    assertEquals(await refusal(replay), [400, "passkey_invalid"]);
    api.advance(STEP);
    assert(totpCode(secret, api.clock()).length === 6);
  },
);

testEachStore(
  "passkey routes: odd input, another account's passkey, the fresh rule, two instances",
  async (store) => {
    const { member, other } = await people(store);
    const api = securityApi(store);
    const b = securityApi(store);
    const session = await api.login(member.email);
    const theirs = await api.login(other.email);
    const key = await createAuthenticator();
    const id = await registerPasskey(api, session, key);
    for (
      const [body, status, code] of [
        [{}, 400, "body_field_required"],
        [{ response: "x" }, 400, "body_malformed"],
        [{ response: [] }, 400, "body_malformed"],
        [{ response: {} }, 400, "passkey_invalid"],
        [{ response: { id: "\u0000", response: {} } }, 400, "passkey_invalid"],
        [{ response: {}, name: 5 }, 400, "body_malformed"],
        [{ response: {}, name: "x".repeat(500) }, 400, "name_too_long"],
        [{ response: {}, name: "\ud800" }, 400, "body_malformed"],
      ] as [unknown, number, string][]
    ) {
      assertEquals(
        await refusal(
          await api.call("POST", "/api/auth/passkeys", body, {
            cookie: session,
          }),
        ),
        [status, code],
        JSON.stringify(body).slice(0, 40),
      );
    }
    for (
      const [path, body, status, code] of [
        [`/api/auth/passkeys/${id}`, {}, 400, "name_required"],
        [`/api/auth/passkeys/${id}`, { name: " " }, 400, "name_required"],
        [`/api/auth/passkeys/${id}`, { name: "\u0007" }, 400, "body_malformed"],
        ["/api/auth/passkeys/nope", { name: "x" }, 400, "passkey_id_malformed"],
        [
          `/api/auth/passkeys/${crypto.randomUUID()}`,
          { name: "x" },
          404,
          "passkey_not_found",
        ],
      ] as [string, unknown, number, string][]
    ) {
      assertEquals(
        await refusal(await api.call("PATCH", path, body, { cookie: session })),
        [status, code],
        path,
      );
    }
    // Another account's passkey is not found, for renaming and removal.
    assertEquals(
      await refusal(
        await api.call("PATCH", `/api/auth/passkeys/${id}`, { name: "x" }, {
          cookie: theirs,
        }),
      ),
      [404, "passkey_not_found"],
    );
    assertEquals(
      await refusal(
        await api.call("DELETE", `/api/auth/passkeys/${id}`, undefined, {
          cookie: theirs,
        }),
      ),
      [404, "passkey_not_found"],
    );
    for (const body of [{}, { response: 1 }]) {
      const res = await api.call("POST", "/api/auth/passkeys/login", body);
      assertEquals(res.status, 400, JSON.stringify(body));
      await res.body?.cancel();
    }
    // A well-formed body with no challenge cookie: nothing to verify it
    // against. With a live challenge, an assertion that is not one: 401.
    assertEquals(
      await refusal(
        await api.call("POST", "/api/auth/passkeys/login", {
          response: { id: 5 },
        }),
      ),
      [410, "token_invalid"],
    );
    const { challenge: live } = await passkeyOptions(api, "login");
    assertEquals(
      await refusal(
        await api.call("POST", "/api/auth/passkeys/login", {
          response: { id: 5 },
        }, { cookie: live }),
      ),
      [401, "credentials_invalid"],
    );
    // Registration options and removal need a recent proof.
    api.advance(31 * MINUTE);
    assertEquals(
      await refusal(
        await api.call(
          "POST",
          "/api/auth/passkeys/register/options",
          undefined,
          {
            cookie: session,
          },
        ),
      ),
      [403, "reauthentication_required"],
    );
    assertEquals(
      await refusal(
        await api.call("DELETE", `/api/auth/passkeys/${id}`, undefined, {
          cookie: session,
        }),
      ),
      [403, "reauthentication_required"],
    );
    // Options on one instance, sign-in on the other.
    const { response, challenge } = await assertion(api, key);
    const res = await b.call("POST", "/api/auth/passkeys/login", { response }, {
      cookie: challenge,
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    // An expired challenge.
    const late = await assertion(api, key);
    api.advance(5 * MINUTE);
    const expired = await api.call("POST", "/api/auth/passkeys/login", {
      response: late.response,
    }, { cookie: late.challenge });
    assertEquals(await refusal(expired), [410, "token_invalid"]);
  },
);

testEachStore(
  "passkeys under hostile input: a forged assertion with a live challenge is 401 (sign-in and re-authentication), a hostile challenge cookie is 410, never a 5xx, and nobody signs in",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store, { maxFailures: 1_000_000 });
    const session = await api.login(member.email);
    await registerPasskey(api, session, await createAuthenticator());
    const before = (await api.events()).length;
    let tooLarge = 0;
    for (const s of HOSTILE) {
      const { challenge: live } = await passkeyOptions(api, "login");
      const forged = {
        id: s,
        rawId: s,
        type: s,
        response: { clientDataJSON: s, authenticatorData: s, signature: s },
      };
      const what = JSON.stringify(s.slice(0, 20));
      const res = await api.call("POST", "/api/auth/passkeys/login", {
        response: forged,
      }, { cookie: live });
      if (JSON.stringify({ response: forged }).length > 16 * 1024) {
        // Refused before the challenge is read: it stays unspent.
        assertEquals(await refusal(res), [413, "body_too_large"], what);
        tooLarge++;
        continue;
      }
      assertEquals(await refusal(res), [401, "credentials_invalid"], what);
      // The challenge was spent by that try: the same cookie is dead now.
      const again = await api.call("POST", "/api/auth/passkeys/login", {
        response: forged,
      }, { cookie: live });
      assertEquals(await refusal(again), [410, "token_invalid"]);
      const hostileCookie = await api.call("POST", "/api/auth/passkeys/login", {
        response: forged,
      }, { cookie: `__Host-gatehouse-webauthn=${urlComponent(s)}` });
      assertEquals(await refusal(hostileCookie), [410, "token_invalid"]);
      // The same forged assertion as proof for a re-authentication, with a
      // live challenge of that use: refused for the field, not a fault.
      const { challenge } = await passkeyOptions(api, "login", session);
      const proof = await api.call("POST", "/api/auth/reauthenticate", {
        passkey: forged,
      }, { cookie: join(session, challenge) });
      assertEquals(await refusal(proof), [400, "passkey_invalid"], what);
    }
    const events = (await api.events()).slice(before);
    assertEquals(events.filter((e) => e.type === "login.succeeded"), []);
    // One login.failed per forged assertion; none for a dead challenge.
    assert(tooLarge > 0 && tooLarge < HOSTILE.length);
    assertEquals(
      events.filter((e) => e.type === "login.failed").length,
      HOSTILE.length - tooLarge,
    );
  },
);

testEachStore(
  "a re-authentication with a passkey clears no count of the account lock: it is no sign-in",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const session = await api.login(member.email);
    const key = await createAuthenticator();
    await registerPasskey(api, session, key);
    const signIn = (password: string, address: string) =>
      signInStatus(api, member.email, password, address);
    // Ten wrong passwords from ten addresses lock the untrusted browsers.
    for (let i = 1; i <= 10; i++) {
      assertEquals(await signIn(`wrong password ${i}`, `10.1.0.${i}`), 401);
    }
    assertEquals(await signIn(PASSWORD, "10.2.0.1"), 429);
    // The owner proves it is them with the passkey, in their session.
    const proof = await assertion(api, key, session);
    const reauth = await api.call("POST", "/api/auth/reauthenticate", {
      passkey: proof.response,
    }, { cookie: join(session, proof.challenge) });
    assertEquals(reauth.status, 204);
    // The lock stands: a re-authentication is no completed sign-in.
    assertEquals(await signIn(PASSWORD, "10.2.0.2"), 429);
  },
);
