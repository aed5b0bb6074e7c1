// smtpMailer() against a real SMTP server on 127.0.0.1 (npm:smtp-server),
// every message read back with npm:mailparser: both parts and encoded
// headers, STARTTLS and TLS, sign-in, a pool that stays within its size,
// clear errors for a server that refuses or is down, and no way to add a
// header or a recipient through a name or an address (DESIGN.md §14).

import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertThrows,
} from "../fixtures/assert.ts";
import {
  deadPort,
  startSmtpServer,
  TEST_CERT,
  type TestSmtpServer,
} from "../fixtures/smtp.ts";
import {
  type MailMessage,
  SmtpError,
  smtpMailer,
  type SmtpMailerOptions,
} from "../../server/mail.ts";
import type { AddressObject } from "mailparser";

const MESSAGE: MailMessage = {
  to: "zoe@example.com",
  toName: "Zoë Núñez",
  kind: "password_reset",
  locale: "es",
  subject: "Restablece tu contraseña de Ñandú",
  text: "Hola, Zoë:\n\nhttps://app.example/reset#token=abc\n",
  html:
    '<!DOCTYPE html><p>Hola, Zoë: <a href="https://app.example/reset#token=abc">aquí</a></p>',
  link: "https://app.example/reset#token=abc",
};

// A test body per server: the server, and a mailer on it closed afterwards.
function withServer(
  name: string,
  server: Parameters<typeof startSmtpServer>[0],
  mailer: (port: number) => SmtpMailerOptions,
  body: (
    smtp: TestSmtpServer,
    mailer: ReturnType<typeof smtpMailer>,
  ) => Promise<void>,
) {
  Deno.test(name, async () => {
    const smtp = await startSmtpServer(server);
    const sender = smtpMailer(mailer(smtp.port));
    try {
      await body(smtp, sender);
    } finally {
      sender.close();
      await smtp.close();
    }
  });
}

const plain = (port: number): SmtpMailerOptions => ({
  url: `smtp://127.0.0.1:${port}`,
  from: "Ñandú Accounts <no-reply@app.example>",
  requireTls: false,
});

async function smtpRejection(
  send: () => Promise<unknown>,
): Promise<SmtpError> {
  return await assertRejects(send, SmtpError) as SmtpError;
}

function addresses(field: AddressObject | AddressObject[] | undefined) {
  const list = field === undefined ? [] : [field].flat();
  return list.flatMap((object) =>
    object.value.map(({ name, address }) => ({ name, address }))
  );
}

// The header block of a raw message, unfolded.
function headerBlock(raw: string): string {
  return raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ");
}

withServer(
  "smtpMailer() sends both parts as multipart/alternative, names encoded in the headers",
  {},
  plain,
  async (smtp, mailer) => {
    await mailer.send(MESSAGE);
    const [mail] = await smtp.waitFor(1);
    assertEquals(mail!.from, "no-reply@app.example");
    assertEquals(mail!.to, ["zoe@example.com"]);
    const parsed = mail!.parsed;
    assertEquals(addresses(parsed.to), [{
      name: "Zoë Núñez",
      address: "zoe@example.com",
    }]);
    assertEquals(addresses(parsed.from), [{
      name: "Ñandú Accounts",
      address: "no-reply@app.example",
    }]);
    assertEquals(parsed.subject, MESSAGE.subject);
    assertEquals(parsed.text, MESSAGE.text);
    assertEquals(parsed.html, MESSAGE.html);
    assertMatch(
      String(
        parsed.headers.get("content-type") &&
          (parsed.headers.get("content-type") as { value: string }).value,
      ),
      /^multipart\/alternative$/,
    );
    // Headers travel as 7-bit: every non-ASCII name and subject is an
    // encoded word, never raw bytes spliced in.
    const headers = headerBlock(mail!.raw);
    assert(/^[\x20-\x7e\r\n\t]*$/.test(headers), headers);
    assertMatch(headers, /^To: =\?UTF-8\?/m);
    assertMatch(headers, /^Subject: =\?UTF-8\?/m);
  },
);

withServer(
  "smtpMailer() upgrades smtp:// with STARTTLS, trusting the CA it is given",
  { tls: "starttls" },
  (port) => ({
    url: `smtp://localhost:${port}`,
    from: "no-reply@app.example",
    ca: TEST_CERT,
  }),
  async (smtp, mailer) => {
    await mailer.send(MESSAGE);
    const [mail] = await smtp.waitFor(1);
    assert(mail!.secure, "the session was upgraded");
    assertEquals(mail!.parsed.text, MESSAGE.text);
  },
);

withServer(
  "smtpMailer() refuses a server that offers no STARTTLS unless told it may send in clear",
  { tls: "none" },
  (port) => ({ url: `smtp://127.0.0.1:${port}`, from: "no-reply@app.example" }),
  async (smtp, mailer) => {
    const error = await smtpRejection(() => mailer.send(MESSAGE));
    assertEquals(error.code, "ETLS");
    assertMatch(
      error.message,
      /^SMTP smtp:\/\/127\.0\.0\.1:\d+: TLS could not be set up/,
    );
    assertEquals(smtp.received.length, 0);
  },
);

withServer(
  "smtpMailer() refuses a certificate it does not trust",
  { tls: "starttls" },
  (port) => ({ url: `smtp://localhost:${port}`, from: "no-reply@app.example" }),
  async (smtp, mailer) => {
    const error = await smtpRejection(() => mailer.send(MESSAGE));
    assertEquals(error.code, "ETLS");
    assertEquals(smtp.received.length, 0);
  },
);

withServer(
  "smtpMailer() speaks TLS from the first byte with smtps:// and signs in with the URL's user",
  { tls: "implicit", auth: { user: "mailer@app.example", pass: "p@ss:/wörd" } },
  (port) => ({
    url: `smtps://${encodeURIComponent("mailer@app.example")}:${
      encodeURIComponent("p@ss:/wörd")
    }@localhost:${port}`,
    from: { name: "App", address: "no-reply@app.example" },
    ca: [TEST_CERT],
  }),
  async (smtp, mailer) => {
    await mailer.verify();
    await mailer.send(MESSAGE);
    const [mail] = await smtp.waitFor(1);
    assert(mail!.secure);
    assertEquals(addresses(mail!.parsed.from), [{
      name: "App",
      address: "no-reply@app.example",
    }]);
  },
);

withServer(
  "smtpMailer() says the server refused the user, never repeating the password",
  { auth: { user: "mailer", pass: "right" } },
  (port) => ({
    url: `smtp://mailer:wrong-s3cret@127.0.0.1:${port}`,
    from: "no-reply@app.example",
    requireTls: false,
  }),
  async (smtp, mailer) => {
    const error = await smtpRejection(() => mailer.send(MESSAGE));
    assertEquals(error.code, "EAUTH");
    assertMatch(error.message, /refused the user and password/);
    assert(!error.message.includes("wrong-s3cret"));
    assertEquals(smtp.received.length, 0);
  },
);

withServer(
  "smtpMailer() rejects a refused recipient as permanent (550) and a refused message (554)",
  { refuse: "recipient" },
  plain,
  async (_smtp, mailer) => {
    const error = await smtpRejection(() => mailer.send(MESSAGE));
    assertEquals([error.code, error.responseCode, error.permanent], [
      "EENVELOPE",
      550,
      true,
    ]);
  },
);

withServer(
  "smtpMailer() rejects a message refused at the end of DATA",
  { refuse: "message" },
  plain,
  async (smtp, mailer) => {
    const error = await smtpRejection(() => mailer.send(MESSAGE));
    assertEquals([error.code, error.responseCode], ["EMESSAGE", 554]);
    assertEquals(smtp.received.map((m) => m.accepted), [false]);
  },
);

Deno.test("smtpMailer() names the server it could not reach", async () => {
  const port = deadPort();
  const mailer = smtpMailer({
    url: `smtp://user:hunter2@127.0.0.1:${port}`,
    from: "no-reply@app.example",
    requireTls: false,
    timeout: 2_000,
  });
  try {
    const error = await smtpRejection(() => mailer.send(MESSAGE));
    assertEquals(error.code, "ECONNECTION");
    assertMatch(
      error.message,
      new RegExp(`^SMTP smtp://127\\.0\\.0\\.1:${port}: could not connect`),
    );
    assert(!error.message.includes("hunter2"));
  } finally {
    mailer.close();
  }
});

withServer(
  "smtpMailer() sends 30 messages at once over at most maxConnections connections",
  {},
  (port) => ({ ...plain(port), maxConnections: 2 }),
  async (smtp, mailer) => {
    await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) => mailer.send({ ...MESSAGE, to: `person${i}@example.com` }),
      ),
    );
    const mails = await smtp.waitFor(30);
    assertEquals(
      mails.flatMap((m) => m.to).sort(),
      Array.from({ length: 30 }, (_, i) => `person${i}@example.com`).sort(),
    );
    assert(smtp.peakConnections <= 2, `${smtp.peakConnections} connections`);
  },
);

withServer(
  "no name or address adds a header or a recipient",
  {},
  plain,
  async (smtp, mailer) => {
    // A line break anywhere in an address or a name is refused outright,
    // and so is an address that would end the address field.
    for (
      const hostile of [
        { to: "ada@example.com\r\nBcc: eve@evil.example" },
        { to: "ada@example.com>, eve@evil.example" },
        { to: "ada@example.com,eve@evil.example" },
        { toName: "Ada\r\nBcc: eve@evil.example" },
        { toName: "Ada\nSubject: pwned" },
        { to: "ada@example.com", toName: "Ada\u2028Bcc: eve@evil.example" },
      ]
    ) {
      await assertRejects(
        () => mailer.send({ ...MESSAGE, ...hostile }),
        TypeError,
      );
    }
    // What a name may hold (quotes, commas, angle brackets, an address) is
    // encoded as a name.
    const name = '"Eve" <eve@evil.example>, Bcc: eve@evil.example';
    await mailer.send({ ...MESSAGE, toName: name, subject: "Hi\r\nBcc: x@y" });
    const [mail] = await smtp.waitFor(1);
    assertEquals(smtp.received.length, 1);
    assertEquals(mail!.to, ["zoe@example.com"]);
    assertEquals(addresses(mail!.parsed.to), [{
      name,
      address: "zoe@example.com",
    }]);
    assertEquals(mail!.parsed.headers.has("bcc"), false);
    assertEquals(mail!.parsed.headers.has("cc"), false);
  },
);

Deno.test("smtpMailer() checks its URL and sender up front, never repeating a password", () => {
  for (
    const url of [
      "not a url",
      "http://user:pw-secret@mail.example:587",
      "smtp://user:pw-secret@mail.example:587/path",
      "smtp://user:pw-secret@mail.example:587?tls=off",
      "smtp://user:%E0%A4%A@mail.example",
    ]
  ) {
    let error: Error | undefined;
    try {
      smtpMailer({ url, from: "no-reply@app.example" });
    } catch (thrown) {
      error = thrown as Error;
    }
    assert(error instanceof TypeError, url);
    assert(!error.message.includes("pw-secret"), error.message);
    assert(!error.message.includes("%E0"), error.message);
  }
  for (const from of ["", "no address", "a@b\r\nBcc: c@d", "A <a@b>, c@d"]) {
    assertThrows(
      () => smtpMailer({ url: "smtp://mail.example", from }),
      TypeError,
    );
  }
  assertThrows(
    () => smtpMailer({ url: "smtp://mail.example", from: "a@b", timeout: 0 }),
    RangeError,
  );
});
