// The browser label (DESIGN.md §8: `user_agent` is a short label, "Chrome
// on Linux") names a browser and a system the parser knows, never text
// copied from the User-Agent header. The parser's last resort reads any
// `Name/version (…)` header as a browser called "Name", so a header of
// the caller's choosing became a label of the caller's choosing: shown to
// the owner in the sessions list, to every administrator in the audit
// trail, and mailed by Gatehouse itself in the `account_locked` notice,
// which anyone who knows an address can cause without a password. Over
// real HTTP to a real SMTP server, on every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { mailSite, partsOf, PASSWORD } from "../fixtures/mail.ts";
import { startSmtpServer } from "../fixtures/smtp.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  userAgentLabel,
  withBrowserLabels,
} from "../../server/http/_client_meta.ts";

const ADA = { email: "ada@example.com", name: "Ada Lovelace" };

// Headers no browser sends, each with a system the parser knows and what
// the label of each may say: the system alone.
const HOSTILE: ReadonlyArray<readonly [string, string]> = [
  [
    "Visit https://evil.example/unlock now/1 (Windows NT 10.0; Win64)",
    "Windows",
  ],
  ["<img src=x onerror=alert(1)>/1 (X11; Linux x86_64)", "Linux"],
  [
    "Call our helpdesk on +1 555 0100/1 (Macintosh; Intel Mac OS X 14_5)",
    "macOS",
  ],
];

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

Deno.test("userAgentLabel() names only browsers and systems the parser knows", async () => {
  // The parser loads in front of the first operation that records a client.
  await withBrowserLabels(() => new Response(null))(
    new Request("http://localhost/"),
  );
  assertEquals(userAgentLabel(CHROME), "Chrome on Windows");
  for (const [header, label] of HOSTILE) {
    assertEquals(userAgentLabel(header), label, JSON.stringify(header));
  }
  assertEquals(userAgentLabel("evil.example/1 please call +1 555 0100"), "");
});

testEachStore(
  "a User-Agent header of the caller's choosing reaches no session list, audit event or notice as text",
  async (store) => {
    const smtp = await startSmtpServer();
    const site = await mailSite({
      smtpPort: smtp.port,
      store,
      gatehouse: {
        trustedProxy: {
          header: "x-forwarded-for",
          addresses: ["127.0.0.1", "::1"],
        },
        rateLimit: { maxFailures: 1000 },
        limits: { accountLockThreshold: 3 },
      },
    });
    try {
      await site.account(ADA.email, { name: ADA.name });
      for (const [index, [userAgent, label]] of HOSTILE.entries()) {
        const from = `203.0.113.${index + 1}`;
        // The owner's own session, as the sessions list shows it.
        const cookie = await site.signIn(ADA.email, PASSWORD, {
          userAgent,
          from,
        });
        const listed = await site.call("GET", "/api/auth/sessions", undefined, {
          cookie,
          userAgent,
          from,
        });
        assertEquals(listed.status, 200);
        const { sessions } = await listed.json() as {
          sessions: { current: boolean; user_agent: string }[];
        };
        assertEquals(sessions.find((s) => s.current)?.user_agent, label);
      }

      // Someone without the password, from one address, until the lock.
      const [userAgent, label] = HOSTILE[0]!;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await site.call("POST", "/api/auth/login", {
          email: ADA.email,
          password: `wrong guess ${i}`,
        }, { userAgent, from: "198.18.0.9" });
        await res.body?.cancel();
        statuses.push(res.status);
      }
      assertEquals(statuses, [401, 401, 401, 429]);
      await site.gatehouse.settled();

      const events = (await site.store.listAuditEvents({ limit: 100 })).events;
      assert(events.length > 0);
      for (const event of events) {
        assert(
          HOSTILE.some(([, known]) => event.userAgent === known),
          `${event.type}: ${JSON.stringify(event.userAgent)}`,
        );
      }

      const locked = smtp.received.filter((mail) =>
        mail.parsed.subject?.includes("paused")
      );
      assertEquals(locked.length, 1, "one account_locked notice");
      const { text, html } = partsOf(locked[0]!);
      for (const part of [text, html]) {
        assert(part.includes(label), "names the system");
        assert(!part.includes("evil.example"), part);
        assert(!/https?:\/\//.test(part), "carries no link");
      }
    } finally {
      await site.close();
      await smtp.close();
    }
  },
);
