// The lean login on Deno KV: what a careful engineer writes with no
// library, the floor of a login that keeps its session durably. It reads
// the account by its email (the key layout of KvRecords, schemas 5–6, seeded
// by the real KvStore: the account's copy under its folded email, one
// read), verifies the password with argon2id, commits one session record
// and answers the identity with the cookie. It has no session cap, no audit event, no binding to the
// password's generation, no equal work for unknown addresses and no second
// factor: one read before the verify, one commit after it.

import { verify } from "@node-rs/argon2";
import { createHash, randomBytes } from "node:crypto";
import { config, listen } from "./_listen.ts";

const { kvPath, cookieName } = config<
  { kvPath: string; cookieName: string }
>();
const kv = await Deno.openKv(kvPath);
const WEEK = 7 * 24 * 60 * 60 * 1000;

interface User {
  id: string;
  email: string;
  name: string;
  role: string;
  passwordHash: string;
}

const refused = () => new Response(null, { status: 401 });

listen(async (req) => {
  const { email, password } = await req.json();
  if (typeof email !== "string" || typeof password !== "string") {
    return new Response(null, { status: 400 });
  }
  const user = await kv.get<User>([
    "gatehouse",
    "account_by_emailKey",
    email,
  ]);
  if (
    user.value === null || !(await verify(user.value.passwordHash, password))
  ) {
    return refused();
  }
  const token = randomBytes(32).toString("base64url");
  const tokenHash = createHash("sha256").update(token).digest("base64url");
  const now = Date.now();
  await kv.atomic()
    .set(["lean_login", "session", tokenHash], {
      userId: user.value.id,
      expiresAt: now + WEEK,
    }, { expireIn: WEEK })
    .commit();
  const { email: address, name, role } = user.value;
  return new Response(
    JSON.stringify({ id: user.value.id, email: address, name, role }),
    {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "set-cookie":
          `${cookieName}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=604800`,
      },
    },
  );
});
