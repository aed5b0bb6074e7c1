// The floor of any login that keeps its session durably: the bare verify
// of bench/servers/argon2.ts, then one durable write of one small record
// (a Deno KV commit of one key on the login scenario's KV file, or one
// Postgres INSERT that commits) before the answer. No read, no session
// logic, no cookie: what remains is the cost of making a sign-in survive
// a crash. Where this alone is more than 1.10 × the bare verify, no login
// that keeps its session durably meets that target on the machine.

import { verify } from "@node-rs/argon2";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { config, listen } from "./_listen.ts";

type FloorConfig =
  & { hash: string }
  & ({ kvPath: string } | { url: string; schema: string });

const options = config<FloorConfig>();
const headers = { "content-type": "application/json" };
const write = await durableWrite(options);

listen(async (req) => {
  const { password } = await req.json();
  const ok = await verify(options.hash, password);
  if (ok) await write(randomBytes(32).toString("base64url"));
  return new Response(JSON.stringify({ ok }), {
    status: ok ? 200 : 401,
    headers,
  });
});

// One record keyed by `id`, committed before the promise settles.
async function durableWrite(
  target: FloorConfig,
): Promise<(id: string) => Promise<unknown>> {
  if ("kvPath" in target) {
    const kv = await Deno.openKv(target.kvPath);
    return (id) =>
      kv.atomic().set(["verify_commit", id], { at: Date.now() }).commit();
  }
  const sql = postgres(target.url, { max: 10, onnotice: () => {} });
  const table = `"${target.schema}".verify_commit`;
  await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${target.schema}"`);
  await sql.unsafe(
    `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, at bigint)`,
  );
  const insert = `INSERT INTO ${table} (id, at) VALUES ($1, $2)`;
  return (id) => sql.unsafe(insert, [id, Date.now()], { prepare: true });
}
