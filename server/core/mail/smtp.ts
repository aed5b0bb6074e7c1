/**
 * `smtpMailer({url, from})`: sends Gatehouse's mail over SMTP through
 * npm:nodemailer, with a small pool of connections. `smtp://` upgrades with
 * STARTTLS (required unless `requireTls: false`), `smtps://` speaks TLS from
 * the first byte. Addresses and names go to nodemailer as address objects,
 * which encodes them: nothing of a message is spliced into a header.
 *
 * @module
 */

import type { Transporter } from "nodemailer";
import type { Mailer, MailMessage } from "../mailer.ts";
import type { MailKind } from "./kinds.ts";

/** Options of {@linkcode smtpMailer}. */
export interface SmtpMailerOptions {
  /**
   * `smtp://user:password@host:587` (STARTTLS) or
   * `smtps://user:password@host:465` (TLS); the user and password are
   * percent-encoded, and may be left out for a relay that takes mail
   * without them. Port 587 (`smtp:`) or 465 (`smtps:`) by default.
   */
  url: string;
  /** The sender: `"Acme <no-reply@acme.example>"`, an address, or `{name, address}`. */
  from: string | { name?: string; address: string };
  /** The kinds it delivers ({@linkcode Mailer.kinds}); every kind by default. */
  kinds?: readonly MailKind[];
  /**
   * `smtp://` only: refuse to send unless the server upgrades to TLS with
   * STARTTLS (true by default). Set it to false only for a relay on the
   * same machine, where mail never crosses a network in clear.
   */
  requireTls?: boolean;
  /** Certificate authorities (PEM) to trust besides the system's, e.g. a private relay's. */
  ca?: string | readonly string[];
  /** The most connections the pool opens at once; 3 by default. */
  maxConnections?: number;
  /** How long (ms) to wait for a connection, a greeting or an answer; 30 s by default. */
  timeout?: number;
}

/** An SMTP mailer: a {@linkcode Mailer} that can check its server and close its pool. */
export interface SmtpMailer extends Mailer {
  /** Connects, upgrades to TLS and signs in once; rejects with an {@linkcode SmtpError} on failure. */
  verify(): Promise<void>;
  /** Closes the pool's connections (at shutdown; a later send opens new ones). */
  close(): void;
}

/**
 * A message the SMTP server did not take, or a server that could not be
 * reached, said in one line: where, what failed, and the server's answer.
 * Never holds the password of the URL.
 *
 * @example Telling a refused recipient from an outage
 * ```ts
 * import { SmtpError } from "@gatehouse/server/mail";
 *
 * const error = new SmtpError("mail.example:587: recipient refused (550)", { code: "EENVELOPE", responseCode: 550 });
 * console.assert(error.permanent);
 * ```
 */
export class SmtpError extends Error {
  /** Nodemailer's code: `ECONNECTION`, `ETIMEDOUT`, `ETLS`, `EAUTH`, `EENVELOPE`, `EMESSAGE`… */
  readonly code: string;
  /** The server's reply code (e.g. 550), when it replied. */
  readonly responseCode: number | undefined;
  /** A 5xx reply: sending the same message again will fail again. */
  readonly permanent: boolean;

  /**
   * Builds the error.
   *
   * @param message One line.
   * @param details The code, the reply code and the cause.
   */
  constructor(
    message: string,
    details: { code: string; responseCode?: number; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = "SmtpError";
    this.code = details.code;
    this.responseCode = details.responseCode;
    this.permanent = details.responseCode !== undefined &&
      details.responseCode >= 500;
  }
}

interface Endpoint {
  secure: boolean;
  host: string;
  port: number;
  user: string;
  password: string;
  /** The URL without the password, for messages. */
  shown: string;
}

interface Address {
  name: string;
  address: string;
}

// No line break, no control or format character, nothing that ends or
// adds an address: what an address field may hold once it is not spliced.
const ADDRESS =
  /^[^\s\p{Cc}\p{Cf}<>,;:"()[\]\\]+@[^\s\p{Cc}\p{Cf}<>,;:"()[\]\\@]+$/u;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * A mailer that sends over SMTP with a pool of connections (npm:nodemailer),
 * each message as multipart/alternative (its text and HTML parts), to the
 * recipient named in an encoded To header. A refused message or an
 * unreachable server rejects with an {@linkcode SmtpError}. The URL is
 * checked here; the first connection is opened by the first send.
 *
 * @param options The server's URL, the sender and the rest.
 * @returns The mailer.
 *
 * @example Mail through a provider's submission port
 * ```ts
 * import { createGatehouse } from "@gatehouse/server";
 * import { smtpMailer } from "@gatehouse/server/mail";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const mailer = smtpMailer({
 *   url: "smtp://apikey:secret@smtp.example.com:587",
 *   from: "Acme <no-reply@acme.example>",
 * });
 * const gatehouse = createGatehouse({
 *   store: new KvStore(kv),
 *   publicUrl: "https://acme.example",
 *   mailer,
 * });
 * mailer.close();
 * kv.close();
 * ```
 */
export function smtpMailer(options: SmtpMailerOptions): SmtpMailer {
  const endpoint = parseUrl(options.url);
  const from = parseFrom(options.from);
  const requireTls = options.requireTls ?? true;
  const timeout = options.timeout ?? 30_000;
  if (!Number.isFinite(timeout) || timeout < 100) {
    throw new RangeError("Invalid SMTP timeout: use at least 100 ms");
  }
  const maxConnections = options.maxConnections ?? 3;
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    throw new RangeError(
      "Invalid SMTP maxConnections: use a whole number from 1",
    );
  }
  const ca = options.ca === undefined
    ? undefined
    : typeof options.ca === "string"
    ? [options.ca]
    : [...options.ca];
  let transport: Promise<Transporter> | undefined;
  // nodemailer is loaded by the first send, so an application that never
  // mails never loads it; a failed load is tried again by the next send.
  const open = () =>
    transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        pool: true,
        maxConnections,
        host: endpoint.host,
        port: endpoint.port,
        secure: endpoint.secure,
        requireTLS: !endpoint.secure && requireTls,
        ...(endpoint.user === ""
          ? {}
          : { auth: { user: endpoint.user, pass: endpoint.password } }),
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        tls: {
          minVersion: "TLSv1.2",
          // SNI takes a host name only; an IP address is checked as it is.
          ...(isIp(endpoint.host) ? {} : { servername: endpoint.host }),
          ...(ca === undefined ? {} : { ca }),
        },
        // Messages are strings Gatehouse wrote: no file or URL is ever read.
        disableFileAccess: true,
        disableUrlAccess: true,
      })
    ).catch((error) => {
      transport = undefined;
      throw error;
    });
  return {
    ...(options.kinds === undefined
      ? {}
      : { kinds: Object.freeze([...options.kinds]) }),
    async send(message: MailMessage) {
      const to = checkedAddress(message.to, message.toName ?? "");
      const mail = await open();
      try {
        await mail.sendMail({
          from,
          to: [to],
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      } catch (error) {
        throw smtpError(endpoint, error);
      }
    },
    async verify() {
      const mail = await open();
      try {
        await mail.verify();
      } catch (error) {
        throw smtpError(endpoint, error);
      }
    },
    close() {
      const opened = transport;
      transport = undefined;
      opened?.then((mail) => mail.close(), () => {});
    },
  };
}

function isIp(host: string): boolean {
  return host.includes(":") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

function parseUrl(url: string): Endpoint {
  const example =
    "use smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465 (TLS)";
  if (typeof url !== "string" || !URL.canParse(url)) {
    throw new TypeError(`Invalid SMTP URL: ${example}`);
  }
  const parsed = new URL(url);
  const secure = parsed.protocol === "smtps:";
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const shown = `${parsed.protocol}//${
    host.includes(":") ? `[${host}]` : host
  }${parsed.port === "" ? "" : `:${parsed.port}`}`;
  if (
    (!secure && parsed.protocol !== "smtp:") || host === "" ||
    (parsed.pathname !== "" && parsed.pathname !== "/") ||
    parsed.search !== "" || parsed.hash !== ""
  ) {
    // The URL may hold a password: it is never repeated.
    throw new TypeError(`Invalid SMTP URL (${shown}): ${example}`);
  }
  let user: string;
  let password: string;
  try {
    user = decodeURIComponent(parsed.username);
    password = decodeURIComponent(parsed.password);
  } catch {
    throw new TypeError(
      `Invalid SMTP URL (${shown}): the user or password is not percent-encoded`,
    );
  }
  return {
    secure,
    host,
    port: parsed.port === "" ? (secure ? 465 : 587) : Number(parsed.port),
    user,
    password,
    shown,
  };
}

function parseFrom(from: SmtpMailerOptions["from"]): Address {
  if (typeof from === "object" && from !== null) {
    return checkedAddress(from.address, from.name ?? "", "from");
  }
  if (typeof from !== "string") {
    throw new TypeError(
      'Invalid SMTP from: use "Name <address>" or an address',
    );
  }
  const named = /^\s*(.*?)\s*<([^<>]*)>\s*$/.exec(from);
  return named === null
    ? checkedAddress(from.trim(), "", "from")
    : checkedAddress(
      named[2]!.trim(),
      named[1]!.replace(/^"(.*)"$/, "$1"),
      "from",
    );
}

// An address and a name as nodemailer's address object takes them: the
// name is encoded by nodemailer whatever it holds, the address must be one
// plain address. Either with a line break is refused outright.
function checkedAddress(address: string, name: string, field = "to"): Address {
  if (typeof address !== "string" || !ADDRESS.test(address)) {
    throw new TypeError(
      `Invalid ${field} address: one plain address, no spaces or line breaks`,
    );
  }
  if (typeof name !== "string" || CONTROL.test(name)) {
    throw new TypeError(
      `Invalid ${field} name: no line breaks or control characters`,
    );
  }
  return { name, address };
}

function smtpError(endpoint: Endpoint, error: unknown): SmtpError {
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
    response?: unknown;
    message?: unknown;
  };
  const said0 = typeof fields.message === "string" ? fields.message : "";
  // Nodemailer reports a refused connection and a refused certificate
  // alike as a socket error: told apart here, they say what to fix.
  const code = typeof fields.code !== "string"
    ? "ESMTP"
    : fields.code === "ESOCKET" &&
        /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH/.test(said0)
    ? "ECONNECTION"
    : fields.code === "ESOCKET" && /certificate|CERT_|ssl|tls/i.test(said0)
    ? "ETLS"
    : fields.code;
  const responseCode = typeof fields.responseCode === "number"
    ? fields.responseCode
    : undefined;
  const what = WHAT_FAILED[code] ?? "sending failed";
  const said = typeof fields.response === "string"
    ? fields.response
    : typeof fields.message === "string"
    ? fields.message
    : String(error);
  // Nodemailer's messages name the server and the command, not the
  // password; the URL's password is never part of them.
  const detail = said.replaceAll(endpoint.password || "\u0000", "***")
    .replace(/\s+/g, " ").slice(0, 300);
  return new SmtpError(
    `SMTP ${endpoint.shown}: ${what} (${code}${
      responseCode === undefined ? "" : ` ${responseCode}`
    }): ${detail}`,
    {
      code,
      ...(responseCode === undefined ? {} : { responseCode }),
      cause: error,
    },
  );
}

const WHAT_FAILED: Readonly<Record<string, string>> = {
  ECONNECTION: "could not connect",
  ESOCKET: "the connection failed",
  ETIMEDOUT: "the server did not answer in time",
  EDNS: "the host name did not resolve",
  ETLS:
    "TLS could not be set up (is STARTTLS offered and the certificate trusted?)",
  EAUTH: "the server refused the user and password",
  ENOAUTH: "the server asks for a user and password the URL does not give",
  EENVELOPE: "the server refused the sender or the recipient",
  EMESSAGE: "the server refused the message",
  EPROTOCOL: "the server broke the protocol",
};
