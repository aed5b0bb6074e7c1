// A mailed link's origin is `publicUrl`, never the request's (DESIGN.md
// §4, "password reset poisoning"): a reset request or an invitation sent
// with a forged `Host`, `X-Forwarded-Host` or `Forwarded` header mails a
// link to the configured site. Over raw HTTP (fetch() does not let a test
// choose `Host`) to a real server and a real SMTP server, on every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { mailSite, partsOf } from "../fixtures/mail.ts";
import { startSmtpServer } from "../fixtures/smtp.ts";
import { testEachStore } from "../fixtures/stores.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const FORGED = {
  host: "evil.example",
  "x-forwarded-host": "evil.example",
  "x-forwarded-proto": "http",
  forwarded: "host=evil.example;proto=http",
};

/** A JSON POST over its own connection, with the headers given as sent. */
async function post(
  port: number,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<number> {
  const payload = encoder.encode(JSON.stringify(body));
  const head = [
    `POST ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "content-type: application/json",
    `content-length: ${payload.length}`,
    "connection: close",
    "",
    "",
  ].join("\r\n");
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new Uint8Array([...encoder.encode(head), ...payload]));
  let text = "";
  for await (const chunk of conn.readable) text += decoder.decode(chunk);
  return Number(text.split(" ")[1]);
}

testEachStore(
  "a forged Host, X-Forwarded-Host or Forwarded header never reaches a mailed link",
  async (store) => {
    const smtp = await startSmtpServer();
    const site = await mailSite({ smtpPort: smtp.port, store });
    try {
      const port = Number(new URL(site.url).port);
      await site.account("ada@example.com", { name: "Ada", role: "admin" });
      const cookie = await site.signIn("ada@example.com");
      assertEquals(
        await post(port, "/api/auth/password-reset", {
          email: "ada@example.com",
        }, FORGED),
        202,
      );
      assertEquals(
        await post(port, "/api/users/invite", {
          email: "zoe@example.com",
          name: "Zoë",
          role: "member",
        }, { ...FORGED, cookie }),
        200,
      );
      const mails = await smtp.waitFor(2);
      assertEquals(mails.length, 2);
      for (const mail of mails) {
        const { text, html } = partsOf(mail);
        for (const part of [text, html]) {
          assert(!part.includes("evil.example"), part);
          assert(
            /https:\/\/app\.example\/(reset|invite)#token=/.test(part),
            "the configured origin",
          );
        }
      }
    } finally {
      await site.close();
      await smtp.close();
    }
  },
);
