// Passkeys end to end below HTTP: real WebAuthn responses from the
// software authenticator (tests/fixtures/webauthn.ts) run through the real
// verifier (npm:@simplewebauthn/server) and a real store on KV and
// Postgres: a registration and sign-ins, then every way one must fail.

import assert from "node:assert/strict";
import { hashToken, randomToken } from "../../server/core/_crypto.ts";
import type { Store, UserRecord } from "../../server/core/store.ts";
import type {
  ChallengeUse,
  PasskeyRecord,
} from "../../server/core/store_factors.ts";
import {
  CHALLENGE_TTL,
  credentialIdOf,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  type RelyingParty,
  relyingParty,
  verifyPasskeyAuthentication,
  verifyPasskeyRegistration,
} from "../../server/core/webauthn.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  type AssertionCeremony,
  type AuthenticationJson,
  createAuthenticator,
  type SoftwareAuthenticator,
} from "../fixtures/webauthn.ts";

const RP = relyingParty({
  publicUrl: "https://auth.example.com",
  name: "Gatehouse",
});
const MAX_PASSKEYS = 20;

// Keeps a challenge as the options routes will: under a cookie's digest.
async function keep(
  store: Store,
  challenge: string,
  use: ChallengeUse,
  userId = "",
): Promise<string> {
  const tokenHash = hashToken(randomToken());
  const now = Date.now();
  await store.createChallenge({
    tokenHash,
    challenge,
    use,
    userId,
    createdAt: now,
    expiresAt: now + CHALLENGE_TTL,
  });
  return tokenHash;
}

type Overrides = Partial<AssertionCeremony>;

// Registration as the routes will run it; null when refused.
async function register(
  store: Store,
  user: UserRecord,
  authenticator: SoftwareAuthenticator,
  overrides: Overrides = {},
  rp: RelyingParty = RP,
): Promise<PasskeyRecord | null> {
  const options = await passkeyRegistrationOptions(
    rp,
    user,
    await store.listPasskeys(user.id),
  );
  const cookie = await keep(store, options.challenge, "register", user.id);
  const response = await authenticator.register({
    challenge: options.challenge,
    rpId: rp.id,
    origin: rp.origin,
    ...overrides,
  });
  const spent = await store.spendChallenge(cookie, "register", Date.now());
  if (spent === null || spent.userId !== user.id) return null;
  const credential = await verifyPasskeyRegistration(
    rp,
    response,
    spent.challenge,
  );
  if (credential === null) return null;
  return await store.addPasskey({
    id: crypto.randomUUID(),
    userId: user.id,
    ...credential,
    name: "Laptop",
    createdAt: Date.now(),
  }, MAX_PASSKEYS);
}

// A passwordless sign-in's challenge and the authenticator's answer.
async function assertion(
  store: Store,
  authenticator: SoftwareAuthenticator,
  overrides: Overrides = {},
): Promise<{ cookie: string; response: AuthenticationJson }> {
  const options = await passkeyAuthenticationOptions(RP, []);
  const cookie = await keep(store, options.challenge, "login");
  const response = await authenticator.authenticate({
    challenge: options.challenge,
    rpId: RP.id,
    origin: RP.origin,
    ...overrides,
  });
  return { cookie, response };
}

// Spends the challenge and verifies: the account to sign in, or null.
async function finish(
  store: Store,
  cookie: string,
  response: unknown,
): Promise<string | null> {
  const now = Date.now();
  const spent = await store.spendChallenge(cookie, "login", now);
  if (spent === null) return null;
  const id = credentialIdOf(response);
  const passkey = id === null ? null : await store.passkeyByCredentialId(id);
  if (passkey === null) return null;
  const verified = await verifyPasskeyAuthentication(
    RP,
    response,
    spent.challenge,
    passkey,
  );
  if (verified === null) return null;
  if (
    !(await store.usePasskey(passkey.id, { counter: verified.counter, now }))
  ) {
    return null;
  }
  return passkey.userId;
}

async function signIn(
  store: Store,
  authenticator: SoftwareAuthenticator,
  overrides: Overrides = {},
): Promise<string | null> {
  const { cookie, response } = await assertion(store, authenticator, overrides);
  return await finish(store, cookie, response);
}

testEachStore(
  "a passkey registers, then signs in without a password, its counter growing",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const authenticator = await createAuthenticator();
    const passkey = await register(store, ada, authenticator);
    assert.notEqual(passkey, null);
    assert.equal(passkey!.credentialId, authenticator.credentialId);
    assert.deepEqual(passkey!.transports, ["internal"]);
    assert.equal(passkey!.counter, 0);
    assert.equal((await store.accountFactors(ada.id))?.passkeyCount, 1);
    assert.equal(await signIn(store, authenticator), ada.id);
    assert.equal(await signIn(store, authenticator), ada.id);
    const stored = await store.passkeyByCredentialId(
      authenticator.credentialId,
    );
    assert.equal(stored?.counter, 2);
    assert.notEqual(stored?.lastUsedAt, null);
  },
);

testEachStore(
  "a passkey that does not count signatures (counter 0) signs in again and again",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const synced = await createAuthenticator({ counts: false });
    await register(store, ada, synced);
    for (let i = 0; i < 3; i++) {
      assert.equal(await signIn(store, synced), ada.id);
    }
    assert.equal(
      (await store.passkeyByCredentialId(synced.credentialId))?.counter,
      0,
    );
  },
);

Deno.test("passkeyRegistrationOptions() requires user verification, excludes known passkeys, hides the email from user.id", async () => {
  const ada = {
    id: crypto.randomUUID(),
    email: "ada@example.com",
    name: "Ada",
  };
  const known: PasskeyRecord = {
    id: crypto.randomUUID(),
    userId: ada.id,
    credentialId: "AAECAwQ",
    publicKey: "AAEC",
    counter: 0,
    transports: ["usb"],
    name: "Key",
    createdAt: 0,
    lastUsedAt: null,
  };
  const options = await passkeyRegistrationOptions(RP, ada, [known]);
  assert.equal(options.rp.id, "auth.example.com");
  assert.equal(options.rp.name, "Gatehouse");
  assert.equal(options.authenticatorSelection?.userVerification, "required");
  assert.equal(options.authenticatorSelection?.residentKey, "required");
  assert.equal(options.attestation, "none");
  assert.deepEqual(options.excludeCredentials, [
    { id: "AAECAwQ", type: "public-key", transports: ["usb"] },
  ]);
  const handle = Uint8Array.fromBase64(options.user.id, {
    alphabet: "base64url",
  });
  assert.equal(handle.toHex(), ada.id.replaceAll("-", ""));
  assert.ok(!options.user.id.includes("ada"));
  assert.equal(options.user.name, "ada@example.com");
  assert.ok(options.challenge.length >= 43);
  const again = await passkeyRegistrationOptions(RP, ada, []);
  assert.notEqual(again.challenge, options.challenge);
  const request = await passkeyAuthenticationOptions(RP, [known]);
  assert.equal(request.userVerification, "required");
  assert.equal(request.rpId, "auth.example.com");
  assert.deepEqual(request.allowCredentials, [
    { id: "AAECAwQ", type: "public-key", transports: ["usb"] },
  ]);
});

testEachStore(
  "a challenge answers once: a replayed challenge or response is refused",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const authenticator = await createAuthenticator();
    await register(store, ada, authenticator);
    const { cookie, response } = await assertion(store, authenticator);
    assert.equal(await finish(store, cookie, response), ada.id);
    // The same cookie again: its challenge is spent.
    assert.equal(await finish(store, cookie, response), null);
    // The same response against a fresh challenge: its signature covers the old one.
    const fresh = await assertion(store, authenticator);
    assert.equal(await finish(store, fresh.cookie, response), null);
    // 50 concurrent finishes of one fresh ceremony: one signs in.
    const next = await assertion(store, authenticator);
    const results = await Promise.all(
      Array.from(
        { length: 50 },
        () => finish(store, next.cookie, next.response),
      ),
    );
    assert.equal(results.filter((id) => id !== null).length, 1);
    // A challenge issued for another use does not serve a sign-in.
    const options = await passkeyAuthenticationOptions(RP, []);
    const other = await keep(
      store,
      options.challenge,
      "reauthenticate",
      ada.id,
    );
    const answer = await authenticator.authenticate({
      challenge: options.challenge,
      rpId: RP.id,
      origin: RP.origin,
    });
    assert.equal(await finish(store, other, answer), null);
  },
);

testEachStore(
  "a response for another origin or RP ID is refused, at registration and sign-in",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const wrong: Overrides[] = [
      { origin: "https://evil.example.com" },
      { origin: "http://auth.example.com" },
      { origin: "https://auth.example.com:8443" },
      { rpId: "evil.example.com" },
      { rpId: "example.com" },
      { type: "webauthn.get" },
    ];
    for (const overrides of wrong) {
      assert.equal(
        await register(store, ada, await createAuthenticator(), overrides),
        null,
        JSON.stringify(overrides),
      );
    }
    assert.deepEqual(await store.listPasskeys(ada.id), []);
    const authenticator = await createAuthenticator();
    await register(store, ada, authenticator);
    for (
      const overrides of [...wrong.slice(0, 5), { type: "webauthn.create" }]
    ) {
      assert.equal(
        await signIn(store, authenticator, overrides),
        null,
        JSON.stringify(overrides),
      );
    }
    assert.equal(await signIn(store, authenticator), ada.id);
  },
);

testEachStore(
  "a lowered or repeated counter is refused (a cloned authenticator)",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const authenticator = await createAuthenticator();
    await register(store, ada, authenticator);
    assert.equal(await signIn(store, authenticator, { counter: 5 }), ada.id);
    assert.equal(await signIn(store, authenticator, { counter: 5 }), null);
    assert.equal(await signIn(store, authenticator, { counter: 4 }), null);
    assert.equal(await signIn(store, authenticator, { counter: 0 }), null);
    assert.equal(await signIn(store, authenticator, { counter: 6 }), ada.id);
  },
);

testEachStore(
  "user verification is required: without the UV flag, or without presence, refused",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    assert.equal(
      await register(store, ada, await createAuthenticator(), {
        userVerified: false,
      }),
      null,
    );
    assert.equal(
      await register(store, ada, await createAuthenticator(), {
        userPresent: false,
      }),
      null,
    );
    const authenticator = await createAuthenticator();
    await register(store, ada, authenticator);
    assert.equal(
      await signIn(store, authenticator, { userVerified: false }),
      null,
    );
    assert.equal(
      await signIn(store, authenticator, { userPresent: false }),
      null,
    );
    assert.equal(await signIn(store, authenticator), ada.id);
  },
);

testEachStore(
  "a removed passkey, or a response signed by another key, no longer signs in",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const authenticator = await createAuthenticator();
    const passkey = await register(store, ada, authenticator);
    // Another authenticator's signature under this credential's id.
    const impostor = await createAuthenticator();
    const forged = await assertion(store, impostor);
    const renamed = {
      ...forged.response,
      id: authenticator.credentialId,
      rawId: authenticator.credentialId,
    };
    assert.equal(await finish(store, forged.cookie, renamed), null);
    // Odd input is a refusal, not a crash.
    for (
      const odd of [null, "x", 1, [], { id: "" }, {
        id: authenticator.credentialId,
      }, { id: authenticator.credentialId, response: { clientDataJSON: "\0" } }]
    ) {
      const { cookie } = await assertion(store, authenticator);
      assert.equal(await finish(store, cookie, odd), null);
    }
    assert.equal(await store.removePasskey(ada.id, passkey!.id), true);
    assert.equal(await signIn(store, authenticator), null);
    assert.equal((await store.accountFactors(ada.id))?.passkeyCount, 0);
  },
);

testEachStore(
  "a disabled account's passkey gets no session and registers nothing",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const authenticator = await createAuthenticator();
    await register(store, ada, authenticator);
    await store.updateUser(ada.id, { disabled: true });
    // The assertion itself verifies; the session is what the store refuses.
    const userId = await signIn(store, authenticator);
    assert.equal(userId, ada.id);
    const now = Date.now();
    assert.equal(
      await store.createSession({
        tokenHash: hashToken(randomToken()),
        userId: userId!,
        createdAt: now,
        expiresAt: now + 60_000,
      }),
      false,
    );
    await assert.rejects(register(store, ada, await createAuthenticator()), {
      code: "user_not_found",
    });
  },
);

testEachStore(
  "a credential registered once cannot be registered again, by anyone",
  async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const bob = await addUser(store, { email: "bob@example.com" });
    const authenticator = await createAuthenticator();
    await register(store, ada, authenticator);
    await assert.rejects(register(store, bob, authenticator), {
      code: "passkey_invalid",
    });
    await assert.rejects(register(store, ada, authenticator), {
      code: "passkey_invalid",
    });
  },
);

Deno.test("relyingParty() comes from publicUrl or a localhost port, never a request", () => {
  assert.deepEqual(
    relyingParty({ publicUrl: "https://app.example.com/base/" }),
    {
      id: "app.example.com",
      name: "app.example.com",
      origin: "https://app.example.com",
    },
  );
  assert.deepEqual(
    relyingParty({ publicUrl: "https://app.example.com:8443" }).origin,
    "https://app.example.com:8443",
  );
  assert.deepEqual(relyingParty({ developmentPort: 8000, name: "Demo" }), {
    id: "localhost",
    name: "Demo",
    origin: "http://localhost:8000",
  });
  assert.equal(
    relyingParty({ publicUrl: "http://localhost:3000" }).origin,
    "http://localhost:3000",
  );
  for (
    const bad of [
      {},
      { publicUrl: "not a url" },
      { publicUrl: "http://app.example.com" },
      { publicUrl: "ftp://app.example.com" },
      { developmentPort: 0 },
      { developmentPort: 70000 },
      { developmentPort: 1.5 },
    ]
  ) {
    assert.throws(() => relyingParty(bad), TypeError, JSON.stringify(bad));
  }
});
