// The lean baseline on PostgreSQL: SHA-256 of the cookie token and one
// prepared join over the tables PostgresStore creates, through the same
// npm:postgres client with the same pool size. No expiry, disabled or
// revocation check, no capabilities. `hash` as in lean_kv.ts.

import { createHash } from "node:crypto";
import postgres from "postgres";
import { config, cookieValue, listen } from "./_listen.ts";

const { url, schema, cookieName, hash } = config<{
  url: string;
  schema: string;
  cookieName: string;
  hash: "webcrypto" | "node";
}>();
const sql = postgres(url, { max: 10, onnotice: () => {} });
const sessions = sql(`${schema}.sessions`);
const users = sql(`${schema}.users`);
const headers = { "content-type": "application/json; charset=utf-8" };
const encoder = new TextEncoder();

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
  // postgres.js prepares this statement once per connection and reuses it.
  const [user] = await sql`
    SELECT u.id, u.email, u.name, u.role
    FROM ${sessions} s JOIN ${users} u ON u.id = s.user_id
    WHERE s.token_hash = ${tokenHash}`;
  if (user === undefined) return new Response(null, { status: 401 });
  return new Response(JSON.stringify(user), { headers });
});
