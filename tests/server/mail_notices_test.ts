// Security notices (DESIGN.md §14), through the real HTTP API on a real
// server to a real SMTP server: each change to how an account signs in
// sends its owner one notice after the change's answer, in the request's
// language, saying what happened, when, from which browser and address and
// what to do, with no link and no secret; a refused change sends none; a
// mail server that is down fails no request; a burst of changes sends
// exactly one notice per change; `notices` and `templates` pick and write
// them.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import {
  FIREFOX_LABEL,
  linkToken,
  mailSite,
  NEW_PASSWORD,
  partsOf,
  PASSWORD,
  PRODUCT,
  recipientsOf,
  sessionOf,
} from "../fixtures/mail.ts";
import { cheapHasher } from "../fixtures/cheap_hasher.ts";
import {
  deadPort,
  type Received,
  startSmtpServer,
  type TestSmtpServer,
} from "../fixtures/smtp.ts";
import { registerPasskey } from "../fixtures/passkey_ceremonies.ts";
import type { Api } from "../fixtures/second_factor.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";
import { totpCode } from "../../server/core/totp.ts";
import { createAuth, type GatehouseOptions } from "../../mod.ts";
import { smtpMailer } from "../../server/mail.ts";
import { createAccountLinks } from "../../server/features/account_links.ts";
import { mount, routesFor } from "../fixtures/app.ts";
import { addUser, memoryStore, serveHandler } from "../fixtures/kv.ts";

type Site = Awaited<ReturnType<typeof mailSite>>;

function noticeTest(
  name: string,
  server: "up" | "down",
  gatehouse: Partial<GatehouseOptions>,
  body: (site: Site, smtp: TestSmtpServer | null) => Promise<void>,
) {
  Deno.test(name, async () => {
    const smtp = server === "down" ? null : await startSmtpServer();
    const site = await mailSite({
      smtpPort: smtp?.port ?? deadPort(),
      gatehouse,
    });
    try {
      await body(site, smtp);
    } finally {
      await site.close();
      await smtp?.close();
    }
  });
}

// What a test watches: the messages since its last look, after the
// answers' background work has settled (a notice is sent after its answer).
function inbox(site: Site, smtp: TestSmtpServer) {
  let seen = 0;
  return async function arrived(): Promise<Received[]> {
    await site.gatehouse.settled();
    const fresh = smtp.received.slice(seen);
    seen = smtp.received.length;
    return fresh;
  };
}

// One notice to `email` with `subject`, stating the facts of the request,
// carrying no link; the secrets given appear in no part of it.
function assertNotice(
  mails: Received[],
  expected: { email: string; name: string; subject: string; says: RegExp },
  language: "en" | "es" = "en",
): Received {
  assertEquals(mails.length, 1, mails.map((m) => m.parsed.subject).join());
  const mail = mails[0]!;
  assertEquals(mail.to, [expected.email]);
  assertEquals(recipientsOf(mail), [{
    name: expected.name,
    address: expected.email,
  }]);
  assertEquals(mail.parsed.subject, expected.subject);
  const type = mail.parsed.headers.get("content-type") as { value: string };
  assertEquals(type.value, "multipart/alternative");
  const { text, html } = partsOf(mail);
  assertMatch(text, expected.says);
  const [when, browser, address] = language === "es"
    ? ["Cuándo", "Navegador", "Dirección"]
    : ["When", "Browser", "Address"];
  assertMatch(text, new RegExp(`^${when}: .*\\d{4}.*UTC$`, "m"));
  assertMatch(text, new RegExp(`^${browser}: ${FIREFOX_LABEL}$`, "m"));
  assertMatch(text, new RegExp(`^${address}: 127\\.0\\.0\\.1$`, "m"));
  assert(html.includes(FIREFOX_LABEL) && html.includes("127.0.0.1"));
  assert(
    text.includes(language === "es" ? "Si no, " : "If it was not,") ||
      text.includes(language === "es" ? "no fueron tuyos" : "not yours"),
    "says what to do if it was not them",
  );
  // No link that acts on the account: no link at all.
  assert(!html.includes("href="), "no link in the HTML part");
  assert(!/https?:\/\//.test(text), "no link in the text part");
  return mail;
}

// Every secret a test met must be absent from every message.
function assertNoSecret(smtp: TestSmtpServer, secrets: string[]): void {
  for (const mail of smtp.received) {
    const { text, html } = partsOf(mail);
    for (const secret of secrets) {
      for (const part of [mail.raw, text, html]) {
        assert(!part.includes(secret), `a message holds a secret: ${secret}`);
      }
    }
  }
}

noticeTest(
  "each change sends one notice after its answer; a refused change sends none",
  "up",
  {},
  async (site, smtp) => {
    const arrived = inbox(site, smtp!);
    const secrets: string[] = [PASSWORD, NEW_PASSWORD];
    const ada = { email: "ada@example.com", name: "Ada Lovelace" };
    await site.account(ada.email, { name: ada.name });
    let cookie = await site.signIn(ada.email);
    secrets.push(cookie.split("=")[1]!);
    assertEquals(await arrived(), [], "a sign-in is no notice (yet)");
    const call = (method: string, path: string, body?: unknown) =>
      site.call(method, path, body, { cookie });

    // Password change: refused with a wrong current password, then done.
    let res = await call("POST", "/api/auth/password", {
      current_password: "not the password at all",
      new_password: NEW_PASSWORD,
    });
    assertEquals(res.status, 403);
    await res.body?.cancel();
    assertEquals(await arrived(), []);
    res = await call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    assertEquals(res.status, 204);
    cookie = sessionOf(res);
    secrets.push(cookie.split("=")[1]!);
    assertNotice(await arrived(), {
      ...ada,
      subject: `Your ${PRODUCT} password was changed`,
      says:
        /password of your Ñandú Accounts account \(ada@example\.com\) was changed\./,
    });

    // TOTP: a wrong code is refused, the right one turns it on.
    res = await call("POST", "/api/auth/totp/setup");
    const { secret } = await res.json();
    secrets.push(secret);
    res = await call("POST", "/api/auth/totp/confirm", { code: "000000" });
    assertEquals(res.status, 400);
    await res.body?.cancel();
    assertEquals(await arrived(), []);
    res = await call("POST", "/api/auth/totp/confirm", {
      code: totpCode(secret, Date.now()),
    });
    assertEquals(res.status, 200);
    secrets.push(...(await res.json()).recovery_codes);
    assertNotice(await arrived(), {
      ...ada,
      subject: `Two-step verification is on for your ${PRODUCT} account`,
      says: /An authenticator app now protects/,
    });

    res = await call("POST", "/api/auth/recovery-codes");
    assertEquals(res.status, 200);
    secrets.push(...(await res.json()).recovery_codes);
    assertNotice(await arrived(), {
      ...ada,
      subject: `New recovery codes for your ${PRODUCT} account`,
      says: /old ones no longer work/,
    });

    // Passkeys: added, a removal of one that does not exist, removed.
    const api = { call: site.call } as unknown as Api;
    const passkey = await registerPasskey(
      api,
      cookie,
      await createAuthenticator(),
    );
    assertNotice(await arrived(), {
      ...ada,
      subject: `A passkey was added to your ${PRODUCT} account`,
      says: /A new passkey can now sign in/,
    });
    res = await call(
      "DELETE",
      "/api/auth/passkeys/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
    );
    assertEquals(res.status, 404);
    await res.body?.cancel();
    assertEquals(await arrived(), []);
    res = await call("DELETE", `/api/auth/passkeys/${passkey}`);
    assertEquals(res.status, 204);
    assertNotice(await arrived(), {
      ...ada,
      subject: `A passkey was removed from your ${PRODUCT} account`,
      says: /can no longer sign in/,
    });

    // TOTP off; off again changes nothing and says nothing.
    res = await call("DELETE", "/api/auth/totp");
    assertEquals(res.status, 204);
    assertNotice(await arrived(), {
      ...ada,
      subject: `Two-step verification is off for your ${PRODUCT} account`,
      says:
        /^Two-step verification of your Ñandú Accounts account \(ada@example\.com\) was turned off/m,
    });
    res = await call("DELETE", "/api/auth/totp");
    assertEquals(res.status, 204);
    assertEquals(await arrived(), []);
    res = await call("POST", "/api/auth/recovery-codes");
    assertEquals(res.status, 409);
    await res.body?.cancel();
    assertEquals(await arrived(), []);

    // A reset: the reset mail, then a notice of the change it made.
    res = await site.call("POST", "/api/auth/password-reset", {
      email: ada.email,
    });
    assertEquals(res.status, 202);
    const [reset] = await arrived();
    const token = linkToken(partsOf(reset!).text, "/reset");
    res = await site.call("POST", "/api/auth/password-reset/confirm", {
      token,
      password: PASSWORD,
    });
    assertEquals(res.status, 204);
    // A reset link knows the address, not the name: no greeting.
    assertNotice(await arrived(), {
      ...ada,
      name: "",
      subject: `Your ${PRODUCT} password was changed`,
      says: /was changed with a reset link\./,
    });
    // The same link again is refused, and says nothing.
    res = await site.call("POST", "/api/auth/password-reset/confirm", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(res.status, 410);
    await res.body?.cancel();
    assertEquals(await arrived(), []);
    assertNoSecret(smtp!, secrets);
  },
);

noticeTest(
  "notices follow the language the account's browser set at sign-in, and an administrator's removal says so",
  "up",
  {},
  async (site, smtp) => {
    const arrived = inbox(site, smtp!);
    const bea = { email: "bea@example.com", name: "Beatriz Núñez" };
    await site.account(bea.email, { name: bea.name, role: "member" });
    const user = await site.account("root@example.com", { role: "admin" });
    const es = { language: "es-ES,es;q=0.9" };
    const cookie = await site.signIn(bea.email, PASSWORD, es);
    let res = await site.call("POST", "/api/auth/totp/setup", undefined, {
      cookie,
    });
    const { secret } = await res.json();
    res = await site.call("POST", "/api/auth/totp/confirm", {
      code: totpCode(secret, Date.now()),
    }, { cookie, ...es });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assertNotice(await arrived(), {
      ...bea,
      subject:
        `La verificación en dos pasos está activada en tu cuenta de ${PRODUCT}`,
      says: /^Hola, Beatriz Núñez:$/m,
    }, "es");
    const admin = await site.signIn("root@example.com");
    const beaId =
      (await site.store.credentialsByEmail("bea@example.com"))!.user.id;
    res = await site.call(
      "DELETE",
      `/api/users/${beaId}/second-factor`,
      undefined,
      {
        cookie: admin,
        ...es,
      },
    );
    assertEquals(res.status, 204);
    const [mail] = [assertNotice(await arrived(), {
      ...bea,
      subject:
        `La verificación en dos pasos está desactivada en tu cuenta de ${PRODUCT}`,
      says: /^Un administrador desactivó la verificación en dos pasos/m,
    }, "es")];
    assert(!partsOf(mail).text.includes(user.email), "names no administrator");
  },
);

noticeTest(
  "a mail server that is down fails no change: logged and counted",
  "down",
  {},
  async (site) => {
    await site.account("ada@example.com");
    const cookie = await site.signIn("ada@example.com");
    const res = await site.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    }, { cookie });
    assertEquals(res.status, 204);
    await site.gatehouse.settled();
    assertEquals([site.gatehouse.mail.sent, site.gatehouse.mail.failed], [
      0,
      1,
    ]);
    const failed = site.logger.lines.filter((l) => l.message === "mail failed");
    assertEquals(failed.map((l) => [l.level, l.fields?.kind]), [[
      "error",
      "password_changed",
    ]]);
    // The change stands.
    await site.signIn("ada@example.com", NEW_PASSWORD);
  },
);

noticeTest(
  "100 password changes at once send exactly 100 notices, one to each account",
  "up",
  // The limiters reserve an attempt per request in flight from an address:
  // a hundred at once from one address need room.
  { rateLimit: { maxFailures: 1000 } },
  async (site, smtp) => {
    const emails = Array.from({ length: 100 }, (_, i) => `p${i}@example.com`);
    await Promise.all(emails.map((email) => site.account(email)));
    const cookies = await Promise.all(
      emails.map((email) => site.signIn(email)),
    );
    const answers = await Promise.all(
      cookies.map((cookie) =>
        site.call("POST", "/api/auth/password", {
          current_password: PASSWORD,
          new_password: NEW_PASSWORD,
        }, { cookie })
      ),
    );
    assertEquals(answers.map((r) => r.status), emails.map(() => 204));
    await site.gatehouse.settled();
    const mails = await smtp!.waitFor(100);
    assertEquals(smtp!.received.length, 100);
    assertEquals(mails.flatMap((m) => m.to).sort(), [...emails].sort());
    assert(
      mails.every((m) =>
        m.parsed.subject === `Your ${PRODUCT} password was changed`
      ),
    );
    assertEquals(site.gatehouse.mail.sent, 100);
  },
);

noticeTest(
  "concurrent changes of one account send as many notices as changes that committed",
  "up",
  {},
  async (site, smtp) => {
    await site.account("ada@example.com");
    const cookie = await site.signIn("ada@example.com");
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        site.call("POST", "/api/auth/password", {
          current_password: PASSWORD,
          new_password: NEW_PASSWORD,
        }, { cookie })),
    );
    await Promise.all(answers.map((r) => r.body?.cancel()));
    const committed = answers.filter((r) => r.status === 204).length;
    assert(committed >= 1, "one change at least");
    await site.gatehouse.settled();
    assertEquals(smtp!.received.length, committed);
  },
);

noticeTest(
  "notices: false sends none; a list sends only those",
  "up",
  { notices: ["passkey_added"] },
  async (site, smtp) => {
    await site.account("ada@example.com");
    const cookie = await site.signIn("ada@example.com");
    const res = await site.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    }, { cookie: cookie });
    assertEquals(res.status, 204);
    const api = { call: site.call } as unknown as Api;
    await registerPasskey(api, sessionOf(res), await createAuthenticator());
    await site.gatehouse.settled();
    assertEquals(smtp!.received.map((m) => m.parsed.subject), [
      `A passkey was added to your ${PRODUCT} account`,
    ]);
  },
);

noticeTest(
  "notices: false sends no notice at all",
  "up",
  { notices: false },
  async (site, smtp) => {
    await site.account("ada@example.com");
    const cookie = await site.signIn("ada@example.com");
    const res = await site.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    }, { cookie });
    assertEquals(res.status, 204);
    await site.gatehouse.settled();
    assertEquals(smtp!.received.length, 0);
  },
);

noticeTest(
  "a template of one's own writes its kind, in the locale it is given",
  "up",
  {
    templates: {
      password_changed: (data, locale) => ({
        subject: `[${locale}] ${data.email} changed at ${data.at}\r\nBcc: x@y`,
        text: `Browser ${data.browser}, address ${data.ip}`,
        html: `<p>${locale}</p>`,
      }),
    },
  },
  async (site, smtp) => {
    await site.account("ada@example.com");
    const cookie = await site.signIn("ada@example.com", PASSWORD, {
      language: "es",
    });
    const res = await site.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    }, { cookie, language: "es" });
    assertEquals(res.status, 204);
    const [mail] = await smtp!.waitFor(1);
    assertMatch(
      mail!.parsed.subject!,
      /^\[es\] ada@example\.com changed at \d+ Bcc: x@y$/,
    );
    assertEquals(mail!.parsed.headers.has("bcc"), false);
    assertEquals(
      partsOf(mail!).text,
      `Browser ${FIREFOX_LABEL}, address 127.0.0.1`,
    );
    assertEquals(partsOf(mail!).html, "<p>es</p>");
  },
);

Deno.test("links composed by hand send their own mailer's reset link, then the notice of the reset", async () => {
  const smtp = await startSmtpServer();
  const { store, close } = await memoryStore();
  const mailer = smtpMailer({
    url: `smtp://127.0.0.1:${smtp.port}`,
    from: "no-reply@app.example",
    requireTls: false,
  });
  // The auth has no mail; the links bring their own (`withMail`).
  const auth = createAuth({ store, hasher: cheapHasher });
  const links = createAccountLinks({
    auth,
    store,
    mailer,
    publicUrl: "https://app.example",
    productName: PRODUCT,
  });
  const server = serveHandler(mount(routesFor({
    requestPasswordReset: links.requestPasswordReset,
    resetPassword: links.resetPassword,
  })));
  try {
    await addUser(store, {
      email: "ada@example.com",
      passwordHash: await cheapHasher.hash(PASSWORD),
    });
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "accept-language": "es",
        },
        body: JSON.stringify(body),
      });
    let res = await post("/api/auth/password-reset", {
      email: "ada@example.com",
    });
    assertEquals(res.status, 202);
    const [reset] = await smtp.waitFor(1);
    res = await post("/api/auth/password-reset/confirm", {
      token: linkToken(partsOf(reset!).text, "/reset"),
      password: NEW_PASSWORD,
    });
    assertEquals(res.status, 204);
    const [, notice] = await smtp.waitFor(2);
    assertEquals(
      notice!.parsed.subject,
      `Se cambió tu contraseña de ${PRODUCT}`,
    );
    assertMatch(partsOf(notice!).text, /con un enlace de restablecimiento/);
  } finally {
    await server.close();
    mailer.close();
    await close();
    await smtp.close();
  }
});

noticeTest(
  "a name never blocks its owner's mail: a line separator is refused as a name, and a stored one is sent as a space",
  "up",
  {},
  async (site, smtp) => {
    const arrived = inbox(site, smtp!);
    const ada = { email: "ada@example.com", name: "Ada Lovelace" };
    // Stored as a name could be before the input rules refused it.
    await site.account(ada.email, { name: "Ada\u2028Lovelace" });
    const cookie = await site.signIn(ada.email);
    assertEquals(await arrived(), []);
    for (const separator of ["\u2028", "\u2029"]) {
      const renamed = await site.call("PATCH", "/api/auth/account", {
        name: `Ada${separator}Lovelace`,
      }, { cookie });
      assertEquals(renamed.status, 400);
      assertEquals((await renamed.json()).meta, { field: "name" });
    }
    const changed = await site.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    }, { cookie });
    assertEquals(changed.status, 204);
    await changed.body?.cancel();
    assertNotice(await arrived(), {
      ...ada,
      subject: `Your ${PRODUCT} password was changed`,
      says: /password of your Ñandú Accounts account \(ada@example\.com\)/,
    });
    const reset = await site.call("POST", "/api/auth/password-reset", {
      email: ada.email,
    });
    assertEquals(reset.status, 202);
    await reset.body?.cancel();
    const [link, ...more] = await arrived();
    assertEquals(more, []);
    assertEquals(recipientsOf(link!), [{
      name: ada.name,
      address: ada.email,
    }]);
    assertEquals(link!.parsed.subject, `Reset your ${PRODUCT} password`);
    assertEquals(
      site.logger.lines.filter((line) => line.level === "error"),
      [],
    );
  },
);
