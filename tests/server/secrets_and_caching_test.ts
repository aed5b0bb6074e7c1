// Secrets never reach logs and answers that carry one are never cached
// (DESIGN.md §4, §5): no session or link token and no password in any log
// line of the library, with or without a mailer; `Cache-Control: no-store`
// on every error answer and on every answer that carries an identity, a
// session or a link.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { apiOn, tokenOf } from "../fixtures/api.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { Identity } from "../../mod.ts";

const NEW_PASSWORD = "a brand new passphrase";
const TOKEN = /[A-Za-z0-9_-]{43}/;

function logged(lines: unknown[]): string {
  return JSON.stringify(
    lines,
    (_key, value) =>
      value instanceof Error
        ? `${value.stack} ${JSON.stringify(value)}`
        : value,
  );
}

testEachStore(
  "no token or password reaches the log, with or without a mailer",
  async (store) => {
    for (const mail of [false, true]) {
      const t = apiOn(store, { mail, maxFailures: 1000 });
      const email = `ada.${mail}@example.com`;
      const ada = await addUser(store, { email, role: "admin" });
      const actor: Identity = { ...ada };
      const secrets: string[] = [PASSWORD, NEW_PASSWORD];
      const signIn = await t.login(email, PASSWORD);
      secrets.push(signIn.cookie!.split("=")[1]!);
      await t.login(email, "a wrong password here");
      await t.login("nobody@example.com", "a wrong password here");
      const reset = await t.call("POST", "/api/auth/password-reset", {
        email,
      });
      assertEquals(reset.status, 202);
      if (mail) {
        await t.settled(); // the mail is sent after the answer
        const token = t.mailedToken(email);
        secrets.push(token);
        await (await t.call("POST", "/api/auth/password-reset/confirm", {
          token,
          password: NEW_PASSWORD,
        })).body?.cancel();
      }
      const invite = await t.asActor(actor, "POST", "/api/users/invite", {
        email: `grace.${mail}@example.com`,
        name: "Grace",
      });
      const token = tokenOf((await invite.json()).activation_link);
      secrets.push(token);
      const accepted = await t.call("POST", "/api/auth/invite/accept", {
        token,
        password: NEW_PASSWORD,
      });
      secrets.push(accepted.headers.get("set-cookie")!.split(/[=;]/)[1]!);
      await accepted.body?.cancel();
      const text = logged(t.logger.lines);
      for (const secret of secrets) {
        assert(!text.includes(secret), `logged a secret: ${secret}`);
      }
      assertEquals(
        t.logger.lines.filter((l) => TOKEN.test(logged([l.fields]))).length,
        0,
        text,
      );
    }
  },
);

testEachStore(
  "every error answer, the invite answer and identities carry no-store",
  async (store) => {
    const t = apiOn(store, { maxFailures: 2 });
    const ada = await addUser(store, {
      email: "ada@example.com",
      role: "admin",
    });
    const answers: Array<[string, Response]> = [
      [
        "session without a cookie (401)",
        await t.call("GET", "/api/auth/session"),
      ],
      [
        "wrong password (401)",
        await t.call("POST", "/api/auth/login", {
          email: "ada@example.com",
          password: "a wrong password here",
        }),
      ],
      [
        "malformed body (400)",
        await t.call("POST", "/api/auth/login", undefined, { raw: "{" }),
      ],
      [
        "dead link (410)",
        await t.call("POST", "/api/auth/invite/accept", {
          token: "A".repeat(43),
          password: NEW_PASSWORD,
        }),
      ],
      ["users without a session (401)", await t.call("GET", "/api/users")],
      [
        "invite answer (200, a link)",
        await t.asActor(ada, "POST", "/api/users/invite", {
          email: "grace@example.com",
          name: "Grace",
        }),
      ],
      [
        "login (200, an identity)",
        await t.call("POST", "/api/auth/login", {
          email: "ada@example.com",
          password: PASSWORD,
        }),
      ],
    ];
    for (let i = 0; i < 2; i++) {
      await t.login("ada@example.com", "a wrong password here", "192.0.2.9");
    }
    answers.push([
      "rate limited (429)",
      await t.call("POST", "/api/auth/login", {
        email: "ada@example.com",
        password: PASSWORD,
      }, { address: "192.0.2.9" }),
    ]);
    for (const [what, res] of answers) {
      assertEquals(res.headers.get("cache-control"), "no-store", what);
      await res.body?.cancel();
    }
  },
);
