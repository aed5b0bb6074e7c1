// Better Auth (npm:better-auth, a dev-only dependency of this repository)
// with email and password on the same Postgres, in its own schema, its rate
// limiter and telemetry off. Its tables come from its own migration tooling
// (`getMigrations`). The server signs a user up, signs in, and announces
// the session cookie, which the harness then presents to
// `GET /api/auth/get-session`. `POST /api/auth/sign-in/email` is measured
// by the login scenario.
//
// With `existing: true` the schema, its tables, the user and the session
// are the ones an earlier start made: the server only connects and listens
// (announcing no cookie), as an application does when it starts (the
// cold-start scenario).

import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import pg from "pg";
import { config, listen } from "./_listen.ts";

const { url, schema, email, password, name, existing } = config<{
  url: string;
  schema: string;
  email: string;
  password: string;
  name: string;
  existing?: boolean;
}>();

// Ten connections, like ours and lean. The search_path puts Better Auth's
// tables in their own schema of the shared database.
if (!existing) {
  const setup = new pg.Pool({ connectionString: url, max: 1 });
  await setup.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await setup.query(`CREATE SCHEMA "${schema}"`);
  await setup.end();
}
const pool = new pg.Pool({
  connectionString: url,
  max: 10,
  options: `-c search_path=${schema}`,
});

const baseURL = "http://127.0.0.1";
const auth = betterAuth({
  database: pool,
  baseURL,
  secret: "gatehouse-bench-secret-0123456789abcdef0123456789",
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { disabled: true },
});
if (existing) {
  listen((req) => auth.handler(req));
} else {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();

  await auth.api.signUpEmail({ body: { email, password, name } });
  const signedIn = await auth.api.signInEmail({
    body: { email, password },
    returnHeaders: true,
  });
  const setCookie = signedIn.headers.get("set-cookie") ?? "";
  const cookie = setCookie.split(";")[0]!;

  listen((req) => auth.handler(req), { cookie });
}
