// How many recovery codes are left (`GET /api/auth/recovery-codes`,
// countRecoveryCodes), on KV and Postgres: 0 without TOTP, 10 after
// enrolment, one less per code spent at sign-in or in a re-authentication
// (one less only, however many spend the same code at once), 10 again after
// regeneration, 0 once TOTP is removed; 401 without a session; reachable
// before an enrolment the role requires; never cached; and no query string,
// body or header of junk gets more than the count. Every answer is checked
// against the contract. The password step is only the way in: argon2 checks
// the fixture password once per API and remembers it
// (securityApiWithRememberedPasswords).

import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  people,
  securityApiWithRememberedPasswords,
} from "../fixtures/security.ts";
import {
  type Api,
  enrolTotp,
  passwordStep,
  secondStep,
  sessionCookieOf,
  STEP,
} from "../fixtures/second_factor.ts";
import { totpCode } from "../../server/core/totp.ts";

const PATH = "/api/auth/recovery-codes";
const MINUTE = 60_000;

/** The count the session `cookie` reads, checking the answer's headers. */
async function left(api: Api, cookie: string, path = PATH): Promise<number> {
  const res = await api.call("GET", path, undefined, { cookie });
  assertEquals(res.status, 200, path.slice(0, 80));
  assertEquals(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assertEquals(Object.keys(body), ["recovery_codes_left"]);
  return body.recovery_codes_left;
}

/** A sign-in finished with `recoveryCode`: its answer. */
async function signInWithRecoveryCode(
  api: Api,
  email: string,
  recoveryCode: string,
): Promise<Response> {
  return await secondStep(api, await passwordStep(api, email), {
    recovery_code: recoveryCode,
  });
}

testEachStore(
  "countRecoveryCodes: 0 without TOTP, 10 after enrolment, one less per code spent, 10 after regeneration, 0 once removed",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    assertEquals(await left(api, cookie), 0, "no authenticator app");
    const { secret, codes } = await enrolTotp(api, cookie);
    assertEquals(await left(api, cookie), 10, "enrolled");

    // A sign-in with a recovery code: the same answer as with a TOTP code
    // (an identity and the cookies), and one code fewer.
    api.advance(STEP);
    const byTotp = await secondStep(
      api,
      await passwordStep(api, member.email),
      {
        code: totpCode(secret, api.clock()),
      },
    );
    assertEquals(byTotp.status, 200);
    const byCode = await signInWithRecoveryCode(api, member.email, codes[0]!);
    assertEquals(byCode.status, 200);
    assertEquals(
      Object.keys(await byCode.json()).sort(),
      Object.keys(await byTotp.json()).sort(),
      "the answer's shape does not change",
    );
    // The session, the pending sign-in cleared, the trusted device (§15).
    assertEquals(byCode.headers.getSetCookie().length, 3);
    assertEquals(await left(api, cookie), 9);
    assertEquals(await left(api, sessionCookieOf(byCode)), 9, "any session");
    for (const [i, code] of codes.slice(1, 3).entries()) {
      const res = await signInWithRecoveryCode(api, member.email, code);
      assertEquals(res.status, 200);
      await res.body?.cancel();
      assertEquals(await left(api, cookie), 8 - i);
    }
    // A spent code, a wrong one and a TOTP code leave the count alone.
    for (const body of [{ recovery_code: codes[0] }, { recovery_code: "x" }]) {
      assertEquals(
        await refusal(
          await secondStep(api, await passwordStep(api, member.email), body),
        ),
        [401, "credentials_invalid"],
      );
    }
    api.advance(STEP);
    const totpAgain = await secondStep(
      api,
      await passwordStep(api, member.email),
      { code: totpCode(secret, api.clock()) },
    );
    assertEquals(totpAgain.status, 200);
    await totpAgain.body?.cancel();
    assertEquals(await left(api, cookie), 7);

    // A re-authentication with a recovery code: still 204 without a body.
    api.advance(31 * MINUTE);
    const reauth = await api.call("POST", "/api/auth/reauthenticate", {
      recovery_code: codes[3],
    }, { cookie });
    assertEquals(reauth.status, 204);
    assertEquals(await reauth.text(), "");
    assertEquals(await left(api, cookie), 6);

    const renewed = await api.call("POST", PATH, undefined, { cookie });
    assertEquals(renewed.status, 200);
    const fresh: string[] = (await renewed.json()).recovery_codes;
    assertEquals(await left(api, cookie), 10, "regenerated");
    const old = await signInWithRecoveryCode(api, member.email, codes[4]!);
    assertEquals(await refusal(old), [401, "credentials_invalid"]);
    const spent = await signInWithRecoveryCode(api, member.email, fresh[0]!);
    assertEquals(spent.status, 200);
    await spent.body?.cancel();
    assertEquals(await left(api, cookie), 9);

    const off = await api.call("DELETE", "/api/auth/totp", undefined, {
      cookie,
    });
    assertEquals(off.status, 204);
    assertEquals(await left(api, cookie), 0, "TOTP removed");
  },
);

testEachStore(
  "countRecoveryCodes: the same code spent by 50 sign-ins at once takes one off; five codes at once take five",
  async (store) => {
    const { member } = await people(store);
    // The losers of a race count as wrong codes; the per-account lock
    // (second_factor_lock_test.ts) is not what this test is about.
    const api = securityApiWithRememberedPasswords(store, {
      limits: { accountLockThreshold: 1000 },
    });
    const cookie = await api.login(member.email);
    const { codes } = await enrolTotp(api, cookie);
    const race = async (bodies: unknown[]) => {
      const pendings = await Promise.all(
        bodies.map(() => passwordStep(api, member.email)),
      );
      const answers = await Promise.all(
        pendings.map((pending, i) => secondStep(api, pending, bodies[i])),
      );
      await Promise.all(answers.map((r) => r.body?.cancel()));
      return answers.filter((r) => r.status === 200).length;
    };
    const same = Array.from({ length: 50 }, () => ({
      recovery_code: codes[0],
    }));
    const [won, during] = await Promise.all([race(same), left(api, cookie)]);
    assertEquals(won, 1);
    assert(during === 10 || during === 9, `read during the race: ${during}`);
    assertEquals(await left(api, cookie), 9);
    const five = codes.slice(1, 6).flatMap((code) =>
      Array.from({ length: 4 }, () => ({ recovery_code: code }))
    );
    assertEquals(await race(five), 5);
    assertEquals(await left(api, cookie), 4);
    const used = (await api.events()).filter((e) =>
      e.type === "recovery_code.used"
    );
    assertEquals(used.length, 6);
  },
);

testEachStore(
  "countRecoveryCodes: 401 without a session, with an unknown or ended one, never cached",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    const ended = await api.login(member.email);
    await enrolTotp(api, cookie);
    const out = await api.call("POST", "/api/auth/logout", undefined, {
      cookie: ended,
    });
    assertEquals(out.status, 204);
    for (
      const [what, sent] of [
        ["no cookie", null],
        ["an unknown token", `__Host-session=${"A".repeat(43)}`],
        ["a malformed token", "__Host-session=x;y"],
        ["an ended session", ended],
      ] as const
    ) {
      const res = await api.call("GET", PATH, undefined, { cookie: sent });
      assertEquals(res.headers.get("cache-control"), "no-store", what);
      assertEquals(await refusal(res), [401, "session_absent"], what);
    }
    assertEquals(await left(api, cookie), 10);
  },
);

testEachStore(
  "countRecoveryCodes: reachable before an enrolment the role requires (0), and 0 after an administrator removes the factors",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApiWithRememberedPasswords(store, {
      requireSecondFactor: ["admin"],
    });
    const cookie = await api.login(root.email);
    const users = await api.call("GET", "/api/users", undefined, { cookie });
    assertEquals(await refusal(users), [403, "second_factor_required"]);
    assertEquals(await left(api, cookie), 0, "before the required enrolment");
    await enrolTotp(api, cookie);
    assertEquals(await left(api, cookie), 10);

    const mine = await api.login(member.email);
    await enrolTotp(api, mine);
    assertEquals(await left(api, mine), 10);
    const removed = await api.call(
      "DELETE",
      `/api/users/${member.id}/second-factor`,
      undefined,
      { cookie },
    );
    assertEquals(removed.status, 204);
    const again = await api.login(member.email);
    assertEquals(await left(api, again), 0, "factors removed");
    assertEquals(await left(api, cookie), 10, "the administrator's own");
  },
);

testEachStore(
  "countRecoveryCodes takes no input: query strings, a body and odd headers of junk get the count, never a 5xx",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    const { codes } = await enrolTotp(api, cookie);
    const spent = await signInWithRecoveryCode(api, member.email, codes[0]!);
    assertEquals(spent.status, 200);
    await spent.body?.cancel();
    const queries = [
      "?recovery_codes_left=10",
      "?recovery_codes_left=-1&limit=0&cursor=x",
      "?user_id=" + member.id,
      "?%ZZ=%",
      "?" + "a=1&".repeat(2000),
      ...HOSTILE.map((s) => `?q=${urlComponent(s)}&${urlComponent(s)}=1`),
    ];
    for (const query of queries) {
      assertEquals(await left(api, cookie, PATH + query), 9, query);
    }
    // A trailing slash or another case is another path: not this route.
    for (const path of [`${PATH}/`, PATH.toUpperCase()]) {
      const res = await api.call("GET", path, undefined, { cookie });
      assertEquals(res.status, 404, path);
      await res.body?.cancel();
    }
    // Odd headers: a JSON content type, a huge one, a cookie of junk beside
    // the session's.
    const odd = await api.app(
      new Request(`http://localhost${PATH}`, {
        headers: {
          cookie: `${cookie}; junk=${"%00".repeat(100)}; __Host-session=`,
          "content-type": "application/json; charset=\u00ff",
          "content-length": "99",
          "x-junk": "x".repeat(8000),
        },
      }),
    );
    assert(odd.status < 500, `odd headers: ${odd.status}`);
    await odd.body?.cancel();

    // Mounted elsewhere, a GET might arrive with a body: the handler alone,
    // given a request with one, ignores it.
    const route = api.gatehouse.routes.find((r) =>
      r.operation === "countRecoveryCodes"
    )!;
    for (
      const body of [
        "{",
        '{"recovery_codes_left": 10}',
        "\u0000".repeat(70_000),
      ]
    ) {
      const res = await route.handler(
        new Request(`http://localhost${PATH}`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body,
        }),
      );
      assertEquals(res.status, 200, body.slice(0, 20));
      assertEquals(await res.json(), { recovery_codes_left: 9 });
    }

    // Over the network: Deno.serve drops a GET's body; the answer is the
    // count.
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      (req, info) => api.app(req, undefined, info),
    );
    try {
      const junk = '{"recovery_codes_left": 99, "x": "\\u0000"}';
      const raw = await rawHttp(
        server.addr.port,
        `GET ${PATH}?x=%00 HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${junk.length}\r\n` +
          `Connection: close\r\n\r\n${junk}`,
      );
      assert(raw.startsWith("HTTP/1.1 200"), raw.slice(0, 40));
      assert(/cache-control: no-store/i.test(raw));
      assert(raw.endsWith('{"recovery_codes_left":9}'), raw.slice(-60));
    } finally {
      await server.shutdown();
    }
  },
);

/** Sends `request` as it is on a fresh connection; the whole answer. */
async function rawHttp(port: number, request: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(request));
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(4096);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
    }
    return new TextDecoder().decode(
      new Uint8Array(chunks.flatMap((c) => [...c])),
    );
  } finally {
    conn.close();
  }
}
