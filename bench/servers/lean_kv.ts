// The lean baseline on Deno KV: what a careful engineer writes with no
// library. SHA-256 of the cookie token, then the two direct reads that
// return session and account (the key layout of KvRecords, schemas 5–6,
// seeded by the real KvStore: server/stores/kv/_record_keys.ts), then the
// JSON identity. It does not check expiry, disabled
// accounts or revocation, and reads no capabilities.
//
// `hash: "webcrypto"` is the standard Web Crypto way (`crypto.subtle`,
// asynchronous); `hash: "node"` is node:crypto's synchronous createHash,
// the one Gatehouse uses (see server/_crypto.ts).

import { createHash } from "node:crypto";
import { config, cookieValue, listen } from "./_listen.ts";

const { kvPath, cookieName, hash } = config<
  { kvPath: string; cookieName: string; hash: "webcrypto" | "node" }
>();
const kv = await Deno.openKv(kvPath);
const headers = { "content-type": "application/json; charset=utf-8" };
const encoder = new TextEncoder();

interface Session {
  userId: string;
}
interface User {
  id: string;
  email: string;
  name: string;
  role: string;
}

async function webcryptoHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(token));
  return new Uint8Array(digest).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

const nodeHash = (token: string) =>
  createHash("sha256").update(token).digest("base64url");

const digest = hash === "node" ? nodeHash : webcryptoHash;

listen(async (req) => {
  const token = cookieValue(req.headers.get("cookie"), cookieName);
  if (token === null) return new Response(null, { status: 401 });
  const tokenHash = await digest(token);
  const session = await kv.get<Session>(["gatehouse", "session", tokenHash]);
  if (session.value === null) return new Response(null, { status: 401 });
  const user = await kv.get<User>([
    "gatehouse",
    "account",
    session.value.userId,
  ]);
  if (user.value === null) return new Response(null, { status: 401 });
  const { id, email, name, role } = user.value;
  return new Response(JSON.stringify({ id, email, name, role }), {
    headers,
  });
});
