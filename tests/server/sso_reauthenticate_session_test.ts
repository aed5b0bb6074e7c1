// A single sign-on re-authentication renews the proof of the session that
// started it, and of no other (DESIGN.md §8, §13). Its flow is started by a
// session and finished, after the provider's sign-in, by whatever session
// cookie the browser then carries: a flow started by a session that has
// since ended, alone (its owner ending it from another device) or with a
// sign-out everywhere, renews nothing, even once the browser has signed in
// to the same account again. The callback answers 303 to the error path with
// `sso_state_invalid` (the flow's session no longer matches), the new
// session's proof stays as it was, and no `reauthenticated` is recorded;
// the refusal is a `login.failed`, as every spent flow's is. Against a real
// provider through the HTTP API, on Deno KV, Postgres and SQLite.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import {
  landing,
  signedInWithPassword,
  type SsoWorld,
  ssoWorld,
  TestBrowser,
} from "../fixtures/sso.ts";
import type { AuditEvent, AuditEventType } from "../../server/core/store.ts";

// What ends the session that started the flow, while the person is at the
// provider.
interface Ending {
  name: string;
  // The person's provider account (its own address, so its own account).
  person: string;
  end(world: SsoWorld, target: Target): Promise<void>;
}

interface Target {
  userId: string;
  // The id of the session that started the flow.
  sessionId: string;
  // Another session of the account (its single sign-on's).
  other: TestBrowser;
  // An administrator's session.
  admin: TestBrowser;
}

const ENDINGS: Ending[] = [
  {
    name: "ended alone from another session of the account",
    person: "ada",
    async end(world, { sessionId, other }) {
      const res = await world.call(
        other,
        "DELETE",
        `/api/auth/sessions/${sessionId}`,
      );
      await res.body?.cancel();
      assertEquals(res.status, 204);
    },
  },
  {
    name: "ended by a sign-out everywhere",
    person: "bea",
    async end(world, { userId, admin }) {
      const res = await world.call(
        admin,
        "DELETE",
        `/api/users/${userId}/sessions`,
      );
      await res.body?.cancel();
      assertEquals(res.status, 204);
    },
  },
];

const ACCOUNTS = () => ({
  ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
  bea: { email: "bea@acme.example", email_verified: true, name: "Bea" },
});

// The id of the browser's session, as its own list shows it.
async function currentSessionId(
  world: SsoWorld,
  browser: TestBrowser,
): Promise<string> {
  const res = await world.call(browser, "GET", "/api/auth/sessions");
  assertEquals(res.status, 200);
  const { sessions } = await res.json();
  return sessions.find((s: { current: boolean }) => s.current).id;
}

// When the session `id` of `userId` last proved who its holder is.
async function authenticatedAt(
  world: SsoWorld,
  userId: string,
  id: string,
): Promise<number | undefined> {
  const sessions = await world.store.listSessions(userId, Date.now());
  return sessions.find((s) => s.id === id)?.authenticatedAt;
}

async function eventsOf(
  world: SsoWorld,
  type: AuditEventType,
): Promise<AuditEvent[]> {
  await world.gatehouse.settled();
  return (await world.store.listAuditEvents({ limit: 100, type })).events;
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a single sign-on re-authentication started by a session that has since ended renews no other session of the account (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, { accounts: ACCOUNTS() });
      try {
        await addUser(store, { email: "root@example.com", role: "admin" });
        const admin = await signedInWithPassword(world, "root@example.com");
        for (const ending of ENDINGS) {
          const email = `${ending.person}@acme.example`;
          const user = await addUser(store, { email, role: "member" });
          // Its identity at the provider is linked by its first sign-in,
          // which leaves the account a second session.
          const other = new TestBrowser();
          assertEquals(
            landing(
              (await world.signIn(other, ending.person))
                .answer,
            ),
            "/",
          );
          const browser = await signedInWithPassword(world, email);
          const sessionId = await currentSessionId(world, browser);

          // Started by the browser's session, which ends while the person
          // is at the provider.
          const start = await browser.request(
            `${world.origin}/api/auth/sso/acme/start?reauthenticate=1&return_to=/account`,
          );
          await start.body?.cancel();
          assertEquals(start.status, 302);
          const callback = await browser.authorize(
            start.headers.get("location")!,
            ending.person,
            world.callbackUrl,
          );
          await ending.end(world, {
            userId: user.id,
            sessionId,
            other,
            admin,
          });
          // The browser signs in to the account again, with its password.
          const again = await world.call(browser, "POST", "/api/auth/login", {
            email,
            password: PASSWORD,
          });
          await again.body?.cancel();
          assertEquals(again.status, 200);
          const fresh = await currentSessionId(world, browser);
          assert(fresh !== sessionId);
          const proof = await authenticatedAt(world, user.id, fresh);
          assert(proof !== undefined);
          // Any renewal from here on would move the proof.
          await new Promise((resolve) => setTimeout(resolve, 5));
          const renewedBefore = (await eventsOf(world, "reauthenticated"))
            .length;
          const failedBefore = (await eventsOf(world, "login.failed")).length;

          const answer = await browser.request(callback);
          await answer.body?.cancel();
          const label = `a session ${ending.name}`;
          assertEquals(
            landing(answer),
            "/?sso_error=sso_state_invalid",
            label,
          );
          assertEquals(
            await authenticatedAt(world, user.id, fresh),
            proof,
            label,
          );
          assertEquals(
            (await eventsOf(world, "reauthenticated")).length,
            renewedBefore,
            label,
          );
          const failed = await eventsOf(world, "login.failed");
          assertEquals(failed.length, failedBefore + 1, label);
          assertEquals(failed[0]!.detail.reason, "sso_state_invalid", label);
          // The new session itself is untouched: still signed in.
          assert(await world.identity(browser) !== null, label);
        }
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
