// Passkeys under concurrency over the API, on KV and Postgres, with real
// WebAuthn responses from the software authenticator run through the real
// verifier (the store-level races are in the conformance suite):
//
// - one assertion sent 200 times at once signs in once;
// - 100 registrations of one account at once stop at its 20 passkeys;
// - one assertion raced on two instances of one store signs in once.

import { refusal } from "../fixtures/api.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { people, securityApi } from "../fixtures/security.ts";
import type { Api } from "../fixtures/second_factor.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";
import {
  assertion,
  registerPasskey,
  registration,
} from "../fixtures/passkey_ceremonies.ts";
import { MAX_PASSKEYS } from "../../server/features/passkeys.ts";

// A member with one passkey, and the API it was registered through.
async function memberWithPasskey(api: Api, email: string) {
  const session = await api.login(email);
  const key = await createAuthenticator();
  await registerPasskey(api, session, key);
  return key;
}

// The statuses and codes of `answers`, counted: e.g. {"200": 1, "410
// token_invalid": 199}.
async function tally(answers: Response[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const res of answers) {
    let label = String(res.status);
    if (res.status < 300) await res.body?.cancel();
    else label = (await refusal(res)).join(" ");
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

testEachStore(
  "sign in once when one passkey assertion is sent 200 times at once",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const key = await memberWithPasskey(api, member.email);
    const { response, challenge: cookie } = await assertion(api, key);
    const answers = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          api.call("POST", "/api/auth/passkeys/login", { response }, {
            cookie,
          }),
      ),
    );
    const winners = answers.filter((res) => res.status === 200);
    assertEquals(winners.length, 1);
    const session = winners[0]!.headers.get("set-cookie")!.split(";")[0]!;
    assertEquals(await tally(answers), {
      "200": 1,
      // The challenge is spent by the winner: the others find it gone.
      "410 token_invalid": 199,
    });
    assert(await api.live(session));
    const signIns = (await api.events()).filter((e) =>
      e.type === "login.succeeded" && e.detail.method === "passkey"
    );
    assertEquals(signIns.length, 1);
  },
);

testEachStore(
  `stop 100 simultaneous registrations of one account at its ${MAX_PASSKEYS} passkeys`,
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const session = await api.login(member.email);
    // Half the cap held already, written straight to the store: no change
    // of the account's budget (20 a quarter of an hour) is spent on them.
    const held = MAX_PASSKEYS / 2;
    for (let i = 0; i < held; i++) {
      const added = await store.addPasskey({
        id: crypto.randomUUID(),
        userId: member.id,
        credentialId: `held-${i}`,
        publicKey: "held",
        counter: 0,
        transports: ["internal"],
        name: `Held ${i}`,
        createdAt: Date.now(),
      }, MAX_PASSKEYS);
      assert(added !== null);
    }
    const ceremonies = [];
    for (let i = 0; i < 100; i++) {
      ceremonies.push(
        await registration(api, session, await createAuthenticator()),
      );
    }
    const answers = await Promise.all(
      ceremonies.map(({ response, cookie }) =>
        api.call("POST", "/api/auth/passkeys", { response }, { cookie })
      ),
    );
    // The cap admits exactly the 10 missing. The budget (20 at once) admits
    // at most 20 into the store at a time; a refusal for the cap gives its
    // change back, so a later racer may still reach the cap: the split of
    // the other 90 between the two refusals depends on timing, their sum
    // does not, and nothing else is answered.
    const counts = await tally(answers);
    assertEquals(counts["201"], MAX_PASSKEYS - held);
    const capped = counts["400 passkey_invalid"] ?? 0;
    const budgeted = counts["429 login_rate_limited"] ?? 0;
    assert(capped >= held, `${capped} refused for the cap`);
    assertEquals(capped + budgeted, 100 - (MAX_PASSKEYS - held));
    assertEquals(Object.keys(counts).length, budgeted > 0 ? 3 : 2);
    const list = await api.call("GET", "/api/auth/passkeys", undefined, {
      cookie: session,
    });
    assertEquals((await list.json()).passkeys.length, MAX_PASSKEYS);
    const added = (await api.events()).filter((e) =>
      e.type === "passkey.added"
    );
    assertEquals(added.length, MAX_PASSKEYS - held);
  },
);

pairTest(
  "sign in once when one passkey assertion is raced on both",
  async ({ a, b }) => {
    const { member } = await people(a);
    const [onA, onB] = [securityApi(a), securityApi(b)];
    const key = await memberWithPasskey(onA, member.email);
    const { response, challenge: cookie } = await assertion(onA, key);
    const answers = await Promise.all(
      Array.from(
        { length: 100 },
        (_, i) =>
          (i % 2 === 0 ? onA : onB).call(
            "POST",
            "/api/auth/passkeys/login",
            { response },
            { cookie },
          ),
      ),
    );
    assertEquals(await tally(answers), {
      "200": 1,
      "410 token_invalid": 99,
    });
  },
);
