// An account is never left with no way to sign in (DESIGN.md §13,
// `last_sign_in_method`): an account made by single sign-on has no
// password; with one linked identity and one passkey it may give up either,
// never both, whether one after the other or both at once, over a real
// `Deno.serve` with a real provider, on every store. Before, removing a
// passkey never looked at the other ways in, and an unlink and a removal at
// once each saw the other's way in: the account kept none.

import { assertEquals } from "../fixtures/assert.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { type SsoWorld, ssoWorld, TestBrowser } from "../fixtures/sso.ts";
import type { Store } from "../../mod.ts";

const PEOPLE = 20;

const accounts = () =>
  Object.fromEntries(
    Array.from({ length: PEOPLE }, (_, i) => [`p${i}`, {
      email: `p${i}@acme.example`,
      email_verified: true,
      name: `Person ${i}`,
    }]),
  );

// Person `i` signed in through the provider (an account with no password
// made for them), with one passkey: their browser, account, identity and
// passkey.
async function signedUp(world: SsoWorld, store: Store, i: number) {
  const browser = new TestBrowser();
  await world.signIn(browser, `p${i}`);
  const userId = (await world.identity(browser))!.id as string;
  const [identity] = await store.listIdentities(userId);
  const passkeyId = crypto.randomUUID();
  await store.addPasskey({
    id: passkeyId,
    userId,
    credentialId: `credential-${i}`,
    publicKey: "AAEC",
    counter: 0,
    transports: ["internal"],
    name: "Laptop",
    createdAt: Date.now(),
  }, 10);
  return { browser, userId, identityId: identity!.id, passkeyId };
}

async function answerOf(res: Response): Promise<string> {
  const text = await res.text();
  return text === ""
    ? `${res.status}`
    : `${res.status} ${JSON.parse(text).code}`;
}

async function waysIn(store: Store, userId: string) {
  return (await store.listIdentities(userId)).length +
    (await store.listPasskeys(userId)).length;
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an account with no password keeps its last way in: a passkey after the identity, or either at once (${backend.name})`,
    ignore: backend.ignore,
    async fn(t) {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: accounts(),
        provider: { createAccounts: true },
      });
      try {
        await t.step(
          "the last passkey after the identity is unlinked: 409, kept",
          async () => {
            const p = await signedUp(world, store, 0);
            const unlink = await world.call(
              p.browser,
              "DELETE",
              `/api/auth/sso/identities/${p.identityId}`,
            );
            assertEquals(await answerOf(unlink), "204");
            const remove = await world.call(
              p.browser,
              "DELETE",
              `/api/auth/passkeys/${p.passkeyId}`,
            );
            assertEquals(await answerOf(remove), "409 last_sign_in_method");
            assertEquals(
              (await store.listPasskeys(p.userId)).map((k) => k.id),
              [p.passkeyId],
            );
          },
        );

        await t.step(
          `an unlink and a passkey removal at once, ${
            PEOPLE - 1
          } times: one of them, never both`,
          async () => {
            for (let i = 1; i < PEOPLE; i++) {
              const p = await signedUp(world, store, i);
              const answers = await Promise.all([
                world.call(
                  p.browser,
                  "DELETE",
                  `/api/auth/sso/identities/${p.identityId}`,
                ).then(answerOf),
                world.call(
                  p.browser,
                  "DELETE",
                  `/api/auth/passkeys/${p.passkeyId}`,
                ).then(answerOf),
              ]);
              assertEquals(
                answers.toSorted(),
                ["204", "409 last_sign_in_method"],
                `person ${i}`,
              );
              assertEquals(await waysIn(store, p.userId), 1, `person ${i}`);
            }
            await world.gatehouse.settled();
            const trail = (await store.listAuditEvents({ limit: 100 })).events
              .filter((e) =>
                e.type === "sso.unlinked" || e.type === "passkey.removed"
              );
            // Person 0's unlink, then one change for each race.
            assertEquals(trail.length, PEOPLE);
          },
        );
        assertEquals(
          world.logger.lines.filter((l) => l.level === "error"),
          [],
          "nothing logged as an error",
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
