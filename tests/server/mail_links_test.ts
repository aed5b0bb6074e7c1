// Invitations and reset links by mail, through the real HTTP API on a real
// server, to a real SMTP server (DESIGN.md §14): each message has a subject,
// a text part and an HTML part in the request's language, the recipient's
// name encoded, the link in both parts, and the link works. An invitation
// whose mail fails answers 502 `mail_failed` and leaves nothing behind, and
// one refused sends nothing; a reset request answers 202 whatever the mail
// server does.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import {
  linkToken,
  mailSite,
  NEW_PASSWORD,
  partsOf,
  PRODUCT,
  recipientsOf,
} from "../fixtures/mail.ts";
import {
  deadPort,
  type Received,
  startSmtpServer,
  type TestSmtpServer,
} from "../fixtures/smtp.ts";

type Site = Awaited<ReturnType<typeof mailSite>>;

function mailTest(
  name: string,
  server: Parameters<typeof startSmtpServer>[0] | "down",
  body: (site: Site, smtp: TestSmtpServer | null) => Promise<void>,
) {
  Deno.test(name, async () => {
    const smtp = server === "down" ? null : await startSmtpServer(server);
    const site = await mailSite({ smtpPort: smtp?.port ?? deadPort() });
    try {
      await body(site, smtp);
    } finally {
      await site.close();
      await smtp?.close();
    }
  });
}

async function invite(
  site: Site,
  person: { email: string; name: string },
  language?: string,
): Promise<Response> {
  await site.account("root@example.com", {
    name: "Grace Hopper",
    role: "admin",
  })
    .catch(() => {}); // made once per site
  const cookie = await site.signIn("root@example.com");
  return await site.call("POST", "/api/users/invite", {
    ...person,
    role: "member",
  }, { cookie, ...(language === undefined ? {} : { language }) });
}

// The multipart shape every message has.
function assertAlternative(mail: Received): void {
  const type = mail.parsed.headers.get("content-type") as { value: string };
  assertEquals(type.value, "multipart/alternative");
  const { text, html } = partsOf(mail);
  assert(text.length > 0 && html.length > 0, "both parts");
  assertMatch(html, /^<!DOCTYPE html>/);
  // Renders in mail clients: tables and inline styles, nothing remote.
  assertMatch(html, /<table role="presentation"/);
  assert(!/<img|<script|<link|<style|url\(/i.test(html), "nothing remote");
  assert(html.includes(`>${PRODUCT}</td>`), "the product heads the message");
}

for (
  const [language, tag, subject, button] of [
    [
      "en-GB,en;q=0.9",
      "en",
      `You are invited to ${PRODUCT}`,
      "Choose your password",
    ],
    [
      "es-MX,es;q=0.8,en;q=0.5",
      "es",
      `Te invitan a ${PRODUCT}`,
      "Elegir mi contraseña",
    ],
  ] as const
) {
  mailTest(
    `an invitation arrives in the inviter's language (${tag}), the link in both parts, and the link works`,
    {},
    async (site, smtp) => {
      const res = await invite(site, {
        email: "zoe@example.com",
        name: "Zoë Ñúñez-O'Brien",
      }, language);
      assertEquals(await res.json(), { delivered: true });
      const [mail] = await smtp!.waitFor(1);
      assertEquals(mail!.to, ["zoe@example.com"]);
      assertEquals(recipientsOf(mail!), [{
        name: "Zoë Ñúñez-O'Brien",
        address: "zoe@example.com",
      }]);
      assertEquals(mail!.parsed.subject, subject);
      assertAlternative(mail!);
      const { text, html } = partsOf(mail!);
      assert(text.includes(button) && html.includes(button));
      assert(text.includes("Grace Hopper"), "names the inviter");
      assert(
        text.includes(
          tag === "es"
            ? "Hola, Zoë Ñúñez-O'Brien:"
            : "Hello Zoë Ñúñez-O'Brien,",
        ),
      );
      assert(html.includes("Zo&#235;") || html.includes("Zoë"));
      assert(html.includes("O&#39;Brien"), "the name is escaped in HTML");
      const token = linkToken(text, "/invite");
      assertEquals(linkToken(html, "/invite"), token);
      assertEquals(mail!.parsed.headers.get("content-language"), undefined);
      // The link signs the person in.
      const accepted = await site.call("POST", "/api/auth/invite/accept", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals(accepted.status, 200);
      assertEquals((await accepted.json()).name, "Zoë Ñúñez-O'Brien");
    },
  );
}

mailTest(
  "an invitation to an address with an account mails its owner a notice without a link",
  {},
  async (site, smtp) => {
    await site.account("taken@example.com", { name: "Ada" });
    const res = await invite(site, {
      email: "taken@example.com",
      name: "Someone",
    }, "es");
    assertEquals(await res.json(), { delivered: true });
    const [mail] = await smtp!.waitFor(1);
    assertEquals(mail!.parsed.subject, `Una invitación a ${PRODUCT}`);
    assertEquals(recipientsOf(mail!), [{
      name: "Ada",
      address: "taken@example.com",
    }]);
    assertAlternative(mail!);
    const { text, html } = partsOf(mail!);
    assert(!text.includes("token=") && !html.includes("token="));
    assert(!html.includes("href="), "no link at all");
  },
);

for (
  const [server, what] of [
    [{ refuse: "recipient" }, "refuses the recipient"],
    [{ refuse: "message" }, "refuses the message"],
    ["down", "is down"],
  ] as const
) {
  mailTest(
    `an invitation whose mail server ${what} answers 502 mail_failed and leaves no live link or pending invitation`,
    server,
    async (site, smtp) => {
      const res = await invite(site, { email: "zoe@example.com", name: "Zoë" });
      assertEquals(res.status, 502);
      assertEquals((await res.json()).code, "mail_failed");
      const cookie = await site.signIn("root@example.com");
      const pending = await site.call(
        "GET",
        "/api/users/invitations",
        undefined,
        {
          cookie,
        },
      );
      assertEquals(await pending.json(), { invitations: [] });
      // A server that read the message before refusing it holds the link:
      // it is dead.
      for (const mail of smtp?.received ?? []) {
        const token = linkToken(partsOf(mail).text, "/invite");
        const check = await site.call("POST", "/api/auth/links/check", {
          token,
          kind: "invitation",
        });
        assertEquals(check.status, 410);
        await check.body?.cancel();
      }
      assertEquals(site.gatehouse.mail.failed, 1);
      assertEquals(site.gatehouse.mail.sent, 0);
      assert(
        site.logger.lines.some((l) =>
          l.level === "error" && l.message === "mail failed" &&
          l.fields?.kind === "invitation"
        ),
      );
      assert(!JSON.stringify(site.logger.lines).includes("token="));
    },
  );
}

mailTest(
  "an invitation that would replace one beyond its inviter's reach is refused before its mail is sent",
  {},
  async (site, smtp) => {
    const first = await invite(site, { email: "zoe@example.com", name: "Zoë" });
    assertEquals(await first.json(), { delivered: true });
    await site.account("support@example.com", { role: "support" });
    const cookie = await site.signIn("support@example.com");
    // Root's invitation is for "member", within support's reach: replaced.
    const replacing = await site.call("POST", "/api/users/invite", {
      email: "zoe@example.com",
      name: "Zoë",
      role: "member",
    }, { cookie });
    assertEquals(await replacing.json(), { delivered: true });
    // Root invites again as "support", beyond support's reach.
    const root = await site.signIn("root@example.com");
    const beyond = await site.call("POST", "/api/users/invite", {
      email: "zoe@example.com",
      name: "Zoë",
      role: "support",
    }, { cookie: root });
    assertEquals(await beyond.json(), { delivered: true });
    const refused = await site.call("POST", "/api/users/invite", {
      email: "zoe@example.com",
      name: "Zoë",
      role: "member",
    }, { cookie });
    assertEquals(refused.status, 403);
    assertEquals((await refused.json()).code, "role_beyond_reach");
    // Three messages, none for the refused invitation; the last one's link
    // works.
    const mails = await smtp!.waitFor(3);
    assertEquals(smtp!.received.length, 3);
    const accepted = await site.call("POST", "/api/auth/invite/accept", {
      token: linkToken(partsOf(mails[2]!).text, "/invite"),
      password: NEW_PASSWORD,
    });
    assertEquals(accepted.status, 200);
    assertEquals((await accepted.json()).role, "support");
  },
);

mailTest(
  "a reset link arrives in Spanish with both parts, and resets the password",
  {},
  async (site, smtp) => {
    await site.account("zoe@example.com", { name: "Zoë Núñez" });
    const res = await site.call("POST", "/api/auth/password-reset", {
      email: "ZOE@example.com",
    }, { language: "es-ES" });
    assertEquals(res.status, 202);
    await site.gatehouse.settled();
    const [mail] = await smtp!.waitFor(1);
    assertEquals(
      mail!.parsed.subject,
      `Restablece tu contraseña de ${PRODUCT}`,
    );
    assertEquals(recipientsOf(mail!), [{
      name: "Zoë Núñez",
      address: "zoe@example.com",
    }]);
    assertAlternative(mail!);
    const { text, html } = partsOf(mail!);
    assert(text.includes("caduca en 1 hora"), text);
    const token = linkToken(text, "/reset");
    assertEquals(linkToken(html, "/reset"), token);
    const confirmed = await site.call(
      "POST",
      "/api/auth/password-reset/confirm",
      {
        token,
        password: NEW_PASSWORD,
      },
    );
    assertEquals(confirmed.status, 204);
    await site.signIn("zoe@example.com", NEW_PASSWORD);
  },
);

mailTest(
  "a reset request answers 202 while the mail server is down; the failure is logged and counted",
  "down",
  async (site) => {
    await site.account("zoe@example.com");
    const res = await site.call("POST", "/api/auth/password-reset", {
      email: "zoe@example.com",
    });
    assertEquals(res.status, 202);
    await site.gatehouse.settled();
    assertEquals([site.gatehouse.mail.sent, site.gatehouse.mail.failed], [
      0,
      1,
    ]);
    assert(
      site.logger.lines.some((l) =>
        l.message === "mail failed" && l.fields?.kind === "password_reset"
      ),
    );
    assert(!JSON.stringify(site.logger.lines).includes("token="));
  },
);

mailTest(
  "a reset request for an unknown address sends nothing",
  {},
  async (site, smtp) => {
    const res = await site.call("POST", "/api/auth/password-reset", {
      email: "nobody@example.com",
    });
    assertEquals(res.status, 202);
    await site.gatehouse.settled();
    assertEquals(smtp!.received.length, 0);
    assertEquals(site.gatehouse.mail.sent, 0);
  },
);

mailTest(
  "no name or address given to an invitation adds a header or a recipient",
  {},
  async (site, smtp) => {
    const name = '"Eve" <eve@evil.example>, Bcc: eve@evil.example';
    let res = await invite(site, { email: "zoe@example.com", name });
    assertEquals(await res.json(), { delivered: true });
    const [mail] = await smtp!.waitFor(1);
    assertEquals(mail!.to, ["zoe@example.com"]);
    assertEquals(recipientsOf(mail!), [{ name, address: "zoe@example.com" }]);
    assertEquals(mail!.parsed.headers.has("bcc"), false);
    // A line break never reaches the mail: the name is refused first.
    res = await invite(site, {
      email: "ann@example.com",
      name: "Ann\r\nBcc: eve@evil.example",
    });
    assertEquals(res.status, 400);
    await res.body?.cancel();
    // An address that would end the address field is not sent: no
    // invitation is made.
    res = await invite(site, {
      email: "eve@evil.example>,ann",
      name: "Ann",
    });
    assertEquals([res.status, (await res.json()).code], [502, "mail_failed"]);
    assertEquals(smtp!.received.length, 1);
    const cookie = await site.signIn("root@example.com");
    const pending = await site.call(
      "GET",
      "/api/users/invitations",
      undefined,
      { cookie },
    );
    assertEquals(
      (await pending.json()).invitations.map((i: { email: string }) => i.email),
      ["zoe@example.com"],
    );
  },
);
