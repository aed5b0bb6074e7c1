// The demo's mail (DESIGN.md §14), over a real server on 127.0.0.1:
// without GATEHOUSE_SMTP_URL, on a loopback address, sent mail is kept in
// memory and shown at /dev/mail (a list, each HTML part in a sandboxed
// frame, its own strict policy, never stored) while the log still prints
// each message's subject, recipient and link; on any other address, or
// with an SMTP URL, /dev/mail does not exist, and with one the mail goes
// over SMTP.

import {
  assert,
  assertEquals,
  assertMatch,
  assertThrows,
} from "../fixtures/assert.ts";
import { createDemoApp } from "../../demo/app.ts";
import { DEV_MAIL_CSP } from "../../demo/dev_mail.ts";
import { demoMailFromEnv, isLoopback } from "../../demo/mail.ts";
import { ISLANDS } from "../fixtures/demo_in_process.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  serve,
} from "../fixtures/kv.ts";
import { startSmtpServer } from "../fixtures/smtp.ts";
import type { Handler } from "../../mod.ts";

// The demo served on 127.0.0.1, its mail chosen from `env` as main.ts
// chooses it, for the address it says it listens on.
async function withDemo(
  env: Record<string, string>,
  listening: string | null,
  fn: (demo: {
    origin: string;
    logger: ReturnType<typeof memoryLogger>;
    call: (method: string, path: string, body?: unknown) => Promise<Response>;
  }) => Promise<void>,
): Promise<void> {
  const { store, close } = await memoryStore();
  const logger = memoryLogger();
  let handler: Handler | undefined;
  const server = serve((req, info) =>
    handler?.(req, undefined, info) ?? new Response(null, { status: 503 })
  );
  const port = new URL(server.url).port;
  const origin = `http://localhost:${port}`;
  const mail = demoMailFromEnv(env, {
    // What main.ts passes: the address Deno.serve reports.
    listening: listening ?? "127.0.0.1",
    logger,
    publicUrl: origin,
  });
  try {
    handler = (await createDemoApp({
      store,
      islands: ISLANDS,
      publicUrl: origin,
      logger,
      hasher,
      mail,
    })).handler;
    await addUser(store, { email: "zoe@example.com", name: "Zoë Núñez" });
    await fn({
      origin,
      logger,
      call: (method, path, body) =>
        fetch(`${server.url}${path}`, {
          method,
          headers: {
            "content-type": "application/json",
            "accept-language": "es-ES,es;q=0.9",
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
    });
  } finally {
    await server.close();
    (mail.mailer as { close?: () => void } | undefined)?.close?.();
    await close();
  }
}

// /dev/mail until it holds `text` (the mail goes out after the answer).
async function mailboxWith(
  call: (method: string, path: string) => Promise<Response>,
  text: string,
): Promise<{ res: Response; body: string }> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const res = await call("GET", "/dev/mail");
    const body = await res.text();
    if (body.includes(text) || Date.now() > deadline) return { res, body };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("on a loopback address without SMTP, /dev/mail shows sent mail, each HTML part in a sandboxed frame", async () => {
  await withDemo({}, "127.0.0.1", async ({ call, logger, origin }) => {
    const empty = await call("GET", "/dev/mail");
    assertEquals(empty.status, 200);
    assertMatch(await empty.text(), /No mail yet/);
    const res = await call("POST", "/api/auth/password-reset", {
      email: "zoe@example.com",
    });
    assertEquals(res.status, 202);
    const subject = "Restablece tu contraseña de Gatehouse";
    const { res: page, body } = await mailboxWith(call, subject);
    assertEquals(page.status, 200);
    assertEquals(page.headers.get("content-type"), "text/html; charset=utf-8");
    assertEquals(page.headers.get("content-security-policy"), DEV_MAIL_CSP);
    assertEquals(page.headers.get("cache-control"), "no-store");
    assertEquals(page.headers.get("x-frame-options"), "DENY");
    assert(body.includes(`<h2>${subject}</h2>`), body);
    assert(body.includes("Zoë Núñez &#60;zoe@example.com&#62;"));
    // The HTML part, escaped into the frame's srcdoc; no script anywhere.
    const frames = [...body.matchAll(/<iframe ([^>]*)>/g)].map((m) => m[1]!);
    assertEquals(frames.length, 1);
    assertMatch(
      frames[0]!,
      /^sandbox="" title="[^"]+" srcdoc="&#60;!DOCTYPE html&#62;/,
    );
    assert(!/<script/i.test(body));
    // The log still prints subject, recipient and link; the page shows the
    // same link in the text part.
    const line = logger.lines.find((l) =>
      l.message.startsWith("development mailer")
    );
    assertEquals(line?.fields?.to, "zoe@example.com");
    assert(line?.message.includes(subject));
    const link = String(line?.fields?.link);
    assertMatch(link, new RegExp(`^${origin}/reset#token=[A-Za-z0-9_-]{43}$`));
    assert(body.includes(link), "the text part holds the link");
    // Only reading.
    const post = await call("POST", "/dev/mail");
    assertEquals(post.status, 405);
    await post.body?.cancel();
  });
});

for (const listening of ["0.0.0.0", "::", "192.0.2.10"]) {
  Deno.test(`listening on ${listening}, the demo has no /dev/mail and still prints reset links`, async () => {
    await withDemo({}, listening, async ({ call, logger }) => {
      const page = await call("GET", "/dev/mail");
      assertEquals(page.status, 404);
      await page.body?.cancel();
      const res = await call("POST", "/api/auth/password-reset", {
        email: "zoe@example.com",
      });
      assertEquals(res.status, 202);
      const deadline = Date.now() + 5_000;
      while (
        !logger.lines.some((l) => l.message.startsWith("development mailer"))
      ) {
        assert(Date.now() < deadline, "no reset link printed");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
  });
}

Deno.test("with GATEHOUSE_SMTP_URL the demo mails over SMTP and has no /dev/mail", async () => {
  const smtp = await startSmtpServer();
  try {
    await withDemo(
      {
        GATEHOUSE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        GATEHOUSE_MAIL_FROM: "Gatehouse demo <demo@example.com>",
      },
      "127.0.0.1",
      async ({ call, logger }) => {
        const page = await call("GET", "/dev/mail");
        assertEquals(page.status, 404);
        await page.body?.cancel();
        const res = await call("POST", "/api/auth/password-reset", {
          email: "zoe@example.com",
        });
        assertEquals(res.status, 202);
        const [mail] = await smtp.waitFor(1);
        assertEquals(mail!.to, ["zoe@example.com"]);
        assertEquals(
          mail!.parsed.subject,
          "Restablece tu contraseña de Gatehouse",
        );
        assert(
          !logger.lines.some((l) => l.message.startsWith("development mailer")),
        );
        assert(!JSON.stringify(logger.lines).includes("token="));
      },
    );
  } finally {
    await smtp.close();
  }
});

Deno.test("demoMailFromEnv() wants both SMTP variables", () => {
  const options = {
    listening: "127.0.0.1",
    logger: memoryLogger(),
    publicUrl: "http://localhost:8000",
  };
  assertThrows(
    () =>
      demoMailFromEnv({ GATEHOUSE_SMTP_URL: "smtp://127.0.0.1:2525" }, options),
    TypeError,
  );
  assertThrows(
    () => demoMailFromEnv({ GATEHOUSE_MAIL_FROM: "a@example.com" }, options),
    TypeError,
  );
  assertEquals(
    demoMailFromEnv({}, { ...options, publicUrl: undefined } as never).mailer,
    undefined,
  );
});

Deno.test("isLoopback() knows the loopback addresses only", () => {
  for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]) {
    assert(isLoopback(host), host);
  }
  for (
    const host of [
      "",
      "0.0.0.0",
      "::",
      "192.168.1.2",
      "10.0.0.1",
      "example.com",
      "127.0.0.1.example.com",
    ]
  ) {
    assert(!isLoopback(host), host);
  }
});

Deno.test("the mailbox of /dev/mail keeps invitations too; the printing mailer elsewhere leaves them on the administrator's screen", () => {
  const options = {
    logger: memoryLogger(),
    publicUrl: "http://localhost:8000",
  };
  const kept = demoMailFromEnv({}, { ...options, listening: "127.0.0.1" });
  assert(kept.mailbox !== undefined);
  assertEquals(kept.mailer?.kinds?.includes("invitation"), true);
  assertEquals(kept.mailer?.kinds?.includes("account_exists"), true);
  const printed = demoMailFromEnv({}, { ...options, listening: "0.0.0.0" });
  assertEquals(printed.mailbox, undefined);
  assertEquals(printed.mailer?.kinds?.includes("invitation"), false);
  assertEquals(printed.mailer?.kinds?.includes("password_reset"), true);
});
