// Keeps a client secret out of any text that could reach a log or an
// answer. The libraries we call do not put the secret in their messages
// today; this makes sure a future version, a custom fetch, or a provider
// echoing the request back in an error body, cannot leak it through us.

const REDACTED = "[redacted]";

/**
 * `text` with every occurrence of `secret` removed: as is, URL-encoded
 * (loosely, as `encodeURIComponent` does, or strictly, as RFC 6749's
 * client_secret_basic encoding does), and inside a base64 run such as a
 * Basic authorization header.
 */
export function redact(text: string, secret: string): string {
  if (secret === "") return text;
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    strictFormEncode(secret),
  ]);
  let out = text;
  for (const form of forms) out = out.split(form).join(REDACTED);
  const holds = (decoded: string) =>
    decoded.includes(secret) || urlDecode(decoded).includes(secret);
  // base64 runs (a Basic header carries base64(id:secret), each part
  // form-encoded first).
  out = out.replace(/[A-Za-z0-9+/]{12,}={0,2}/g, (run) => {
    try {
      return holds(atob(run)) ? REDACTED : run;
    } catch {
      return run;
    }
  });
  // URL-encoded runs in any other spelling.
  return out.replace(
    /[A-Za-z0-9%._~*'()!+-]*%[0-9A-Fa-f]{2}[A-Za-z0-9%._~*'()!+-]*/g,
    (run) => holds(urlDecode(run)) ? REDACTED : run,
  );
}

/**
 * The message of anything thrown, with the messages of its causes (the
 * libraries wrap what went wrong: "something went wrong", caused by the
 * real reason), and with `secret` redacted.
 */
export function safeMessage(error: unknown, secret: string): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined; depth++) {
    if (!(current instanceof Error)) {
      if (depth === 0) parts.push(String(current));
      break;
    }
    parts.push(`${current.name}: ${current.message}`);
    current = current.cause;
  }
  return redact(parts.join(" (caused by) "), secret);
}

// application/x-www-form-urlencoded as RFC 6749 §2.3.1 clients apply it,
// escaping every character outside the unreserved letters and digits.
function strictFormEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(
      /[-_.!~*'()]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    )
    .replace(/%20/g, "+");
}

function urlDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
