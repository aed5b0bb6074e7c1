// `/dev/mail`: the development mailbox as one page, the newest message
// first, each with its headers, its text part and its HTML part in a
// sandboxed frame (`sandbox=""`: no script, no form, no navigation of the
// page, an origin of its own). The page has its own policy: no script at
// all, inline styles only (the mail's own), nothing from elsewhere, never
// framed and never stored (the messages hold live links).

import type { Handler } from "@gatehouse/server";
import { HSTS } from "./headers.ts";
import { isLoopback, type Mailbox } from "./mail.ts";

/** The page's policy: the mail's inline styles, and nothing else. */
export const DEV_MAIL_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The path of the page. */
export const DEV_MAIL_PATH = "/dev/mail";

/**
 * Whether `url` asks for the mailbox under a name of this machine (a
 * loopback name or address) or the host of `publicUrl`. Listening on a
 * loopback address keeps other machines out, not other sites: a page whose
 * name its owner points at 127.0.0.1 (DNS rebinding) is same-origin with
 * the demo under that name and reads what it answers, live links included.
 * Its requests name that host, so any other host is refused.
 */
export function isDevMailRequest(url: URL, publicUrl?: string): boolean {
  if (url.pathname !== DEV_MAIL_PATH) return false;
  return isLoopback(url.hostname) ||
    (publicUrl !== undefined && url.host === new URL(publicUrl).host);
}

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": DEV_MAIL_CSP,
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "strict-transport-security": HSTS,
};

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Answers `GET /dev/mail` from `mailbox`. */
export function devMailPage(mailbox: Mailbox): Handler {
  return function devMail(req) {
    if (req.method !== "GET" && req.method !== "HEAD") {
      return new Response("Method not allowed", {
        status: 405,
        headers: { allow: "GET, HEAD", "content-type": "text/plain" },
      });
    }
    const items = [...mailbox.messages].reverse().map((message, index) => {
      const to = message.toName === undefined
        ? message.to
        : `${message.toName} <${message.to}>`;
      return `<article>
<h2>${escape(message.subject)}</h2>
<dl>
<dt>To</dt><dd>${escape(to)}</dd>
<dt>Kind</dt><dd>${escape(message.kind)}</dd>
<dt>Language</dt><dd>${escape(message.locale)}</dd>
<dt>Sent</dt><dd>${escape(new Date(message.at).toISOString())}</dd>
</dl>
<iframe sandbox="" title="${
        escape(`HTML part of “${message.subject}”`)
      }" srcdoc="${escape(message.html)}"></iframe>
<details${index === 0 ? " open" : ""}><summary>Text part</summary><pre>${
        escape(message.text)
      }</pre></details>
</article>`;
    });
    const body = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mail sent by the demo</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:820px;padding:16px;color:#111827}
article{border:1px solid #d1d5db;border-radius:8px;padding:12px 16px;margin:16px 0}
h2{font-size:1.1rem;margin:0 0 8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 12px}
dt{color:#4b5563}dd{margin:0}
iframe{width:100%;height:480px;border:1px solid #e5e7eb;border-radius:4px}
pre{white-space:pre-wrap;word-break:break-all}
</style>
</head>
<body>
<main>
<h1>Mail sent by the demo</h1>
<p>The development mailbox: messages the demo would have mailed, newest first, kept in memory (the last 100) while it listens on a loopback address. Their links are live.</p>
${items.length === 0 ? "<p>No mail yet.</p>" : items.join("\n")}
</main>
</body>
</html>
`;
    return new Response(req.method === "HEAD" ? null : body, {
      headers: HEADERS,
    });
  };
}
