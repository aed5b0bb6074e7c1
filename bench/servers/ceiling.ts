// The ceiling: a bare `Deno.serve` handler that parses the cookie header and
// answers a JSON identity of the same size as ours (about 165 bytes). No
// store, no hashing: nothing on this runtime answers a session check faster.

import { config, cookieValue, listen } from "./_listen.ts";

const { cookieName, identity } = config<
  { cookieName: string; identity: Record<string, unknown> }
>();
const headers = { "content-type": "application/json; charset=utf-8" };

listen((req) => {
  const token = cookieValue(req.headers.get("cookie"), cookieName);
  if (token === null) return new Response(null, { status: 401 });
  return new Response(JSON.stringify(identity), { headers });
});
