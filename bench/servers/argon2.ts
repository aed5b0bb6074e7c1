// The floor of a login over HTTP: a bare `Deno.serve` handler that reads
// the JSON body and runs one raw argon2id verify (npm:@node-rs/argon2) of
// the fixture hash at Gatehouse's parameters. Compared with the in-process
// raw verify, it shows what the HTTP round trip and a second process add.

import { verify } from "@node-rs/argon2";
import { config, listen } from "./_listen.ts";

const { hash } = config<{ hash: string }>();
const headers = { "content-type": "application/json" };

listen(async (req) => {
  const { password } = await req.json();
  const ok = await verify(hash, password);
  return new Response(JSON.stringify({ ok }), {
    status: ok ? 200 : 401,
    headers,
  });
});
