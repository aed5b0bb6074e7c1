// What a signed-in account can make the audit trail grow by, calling its own
// routes in a loop (issue 26 item 16), on KV and Postgres over a real
// `Deno.serve` on 127.0.0.1: ending "every other session" when there is none
// writes nothing (3,000 calls, zero events); a loop of re-authentications
// writes one `reauthenticated` per session and 5 minutes; new recovery
// codes and turning TOTP off are bounded per account (429 with Retry-After
// past 20 changes a quarter of an hour), and so are adding and removing
// passkeys. Every answer is checked against the
// contract.

import type { Store } from "../../mod.ts";
import type { AuditEvent } from "../../server/core/store.ts";
import { totpCode } from "../../server/core/totp.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { ROLES } from "../fixtures/admin.ts";
import { hasher, memoryLogger, PASSWORD, serve } from "../fixtures/kv.ts";
import { rememberingHasher } from "../fixtures/remembering_hasher.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  people,
  securityApiWithRememberedPasswords,
} from "../fixtures/security.ts";
import { enrolTotp } from "../fixtures/second_factor.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";
import {
  postRegistration,
  registerPasskey,
} from "../fixtures/passkey_ceremonies.ts";

const MINUTE = 60_000;

/** createGatehouse on `store` behind a real server, with a movable clock. */
function served(store: Store) {
  let now = Date.now();
  const handed: AuditEvent[] = [];
  const { gatehouse, app } = gatehouseApp({
    store,
    // The sign-ins and password re-authentications are the way to the
    // events counted here: argon2 judges each (hash, password) pair once.
    hasher: rememberingHasher(hasher),
    logger: memoryLogger(),
    now: () => now,
    roles: ROLES,
    publicUrl: "https://app.example",
    rateLimit: { maxFailures: 1000 },
    onEvent: (event) => void handed.push(event),
  });
  const server = serve((req, info) => app(req, undefined, info));
  async function call(
    method: string,
    path: string,
    cookie: string | null,
    body?: unknown,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
    };
    if (cookie !== null) headers.cookie = cookie;
    return await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  async function login(email: string): Promise<string> {
    const res = await call("POST", "/api/auth/login", null, {
      email,
      password: PASSWORD,
    });
    await res.body?.cancel();
    assertEquals(res.status, 200);
    return res.headers.get("set-cookie")!.split(";")[0]!;
  }
  async function events(type: AuditEvent["type"]): Promise<AuditEvent[]> {
    await gatehouse.settled();
    const page = await store.listAuditEvents({ limit: 100, type });
    return page.events;
  }
  return {
    call,
    login,
    events,
    handed,
    advance: (ms: number) => void (now += ms),
    close: () => server.close(),
  };
}

testEachStore(
  "over HTTP: 3,000 calls of DELETE /api/auth/sessions with no other session write zero events; with one, one",
  async (store) => {
    const { member } = await people(store);
    const api = served(store);
    try {
      const cookie = await api.login(member.email);
      let next = 0;
      const statuses = new Map<number, number>();
      // 3,000 calls, 10 at a time (a script's loop, in parallel).
      await Promise.all(Array.from({ length: 10 }, async () => {
        while (next < 3000) {
          next++;
          const res = await api.call("DELETE", "/api/auth/sessions", cookie);
          await res.body?.cancel();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }));
      assertEquals([...statuses], [[204, 3000]]);
      assertEquals(await api.events("session.revoked"), []);
      assertEquals(
        api.handed.filter((e) => e.type === "session.revoked"),
        [],
        "nor handed to onEvent",
      );
      // A call that ends a session records it, once.
      const other = await api.login(member.email);
      const res = await api.call("DELETE", "/api/auth/sessions", cookie);
      assertEquals(res.status, 204);
      const revoked = await api.events("session.revoked");
      assertEquals(revoked.length, 1);
      assertEquals(revoked[0]!.actorId, member.id);
      const gone = await api.call("GET", "/api/auth/session", other);
      assertEquals(gone.status, 401);
      await gone.body?.cancel();
    } finally {
      await api.close();
    }
  },
);

testEachStore(
  "over HTTP: a loop of right-password re-authentications writes one event per session and 5 minutes",
  async (store) => {
    const { member } = await people(store);
    const api = served(store);
    try {
      const cookie = await api.login(member.email);
      const reauthenticate = async () => {
        const res = await api.call("POST", "/api/auth/reauthenticate", cookie, {
          password: PASSWORD,
        });
        assertEquals(res.status, 204);
        await res.body?.cancel();
      };
      for (let i = 0; i < 40; i++) await reauthenticate();
      assertEquals((await api.events("reauthenticated")).length, 1);
      // Thirty more, a minute apart: one per 5 minutes.
      for (let i = 0; i < 30; i++) {
        api.advance(MINUTE);
        await reauthenticate();
      }
      const recorded = await api.events("reauthenticated");
      assertEquals(recorded.length, 1 + 6);
      assert(recorded.every((e) => e.detail.method === "password"));
      // Each renewal still counts as a proof: a fresh operation passes.
      api.advance(29 * MINUTE);
      const setup = await api.call("POST", "/api/auth/totp/setup", cookie);
      assertEquals(setup.status, 200);
      await setup.body?.cancel();
    } finally {
      await api.close();
    }
  },
);

testEachStore(
  "new recovery codes and turning TOTP off are bounded per account: 20 changes a quarter of an hour, then 429 with Retry-After",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    const { secret } = await enrolTotp(api, cookie);
    // Enrolment was the first change; 19 regenerations fit, the 20th not.
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 25; i++) {
      last = await api.call("POST", "/api/auth/recovery-codes", undefined, {
        cookie,
      });
      statuses.push(last.status);
      if (i < 24) await last.body?.cancel();
    }
    assertEquals(statuses, [...Array(19).fill(200), ...Array(6).fill(429)]);
    assertEquals(await refusal(last!), [429, "login_rate_limited"]);
    assert(Number(last!.headers.get("retry-after")) > 0);
    const disable = await api.call("DELETE", "/api/auth/totp", undefined, {
      cookie,
    });
    assertEquals(await refusal(disable), [429, "login_rate_limited"]);
    const events = await api.events();
    assertEquals(
      events.filter((e) => e.type === "recovery_codes.regenerated").length,
      19,
    );
    // A refused change changed nothing: TOTP is still on. After the
    // window, it can be turned off (and the re-authentication renewed).
    api.advance(15 * MINUTE);
    const renewed = await api.call("POST", "/api/auth/reauthenticate", {
      code: totpCode(secret, api.clock()),
    }, { cookie });
    assertEquals(renewed.status, 204);
    const off = await api.call("DELETE", "/api/auth/totp", undefined, {
      cookie,
    });
    assertEquals(off.status, 204);
    // Turning off what is off changes nothing and spends nothing.
    for (let i = 0; i < 25; i++) {
      const again = await api.call("DELETE", "/api/auth/totp", undefined, {
        cookie,
      });
      assertEquals(again.status, 204);
    }
  },
);

testEachStore(
  "adding and removing passkeys is bounded per account: 20 changes a quarter of an hour, then 429 and nothing stored",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    const key = await createAuthenticator();
    // Ten passkeys added and removed: twenty changes, all of them real.
    for (let i = 0; i < 10; i++) {
      const id = await registerPasskey(api, cookie, key);
      const removed = await api.call(
        "DELETE",
        `/api/auth/passkeys/${id}`,
        undefined,
        { cookie },
      );
      assertEquals(removed.status, 204);
    }
    const refused = await postRegistration(api, cookie, key);
    assertEquals(await refusal(refused), [429, "login_rate_limited"]);
    assert(Number(refused.headers.get("retry-after")) > 0);
    assertEquals(await store.listPasskeys(member.id), []);
    const events = await api.events();
    assertEquals(events.filter((e) => e.type === "passkey.added").length, 10);
    assertEquals(
      events.filter((e) => e.type === "passkey.removed").length,
      10,
    );
    // While the window is full the budget answers first, before the store
    // is asked, whatever the removal would have found.
    const missing = await api.call(
      "DELETE",
      "/api/auth/passkeys/0190c1f0-0000-7000-8000-000000000000",
      undefined,
      { cookie },
    );
    assertEquals(await refusal(missing), [429, "login_rate_limited"]);
    // After the window, a passkey can be added again.
    api.advance(15 * MINUTE + 1000);
    const renewed = await api.call("POST", "/api/auth/reauthenticate", {
      password: PASSWORD,
    }, { cookie });
    assertEquals(renewed.status, 204);
    await registerPasskey(api, cookie, key);
    assertEquals((await store.listPasskeys(member.id)).length, 1);
  },
);
