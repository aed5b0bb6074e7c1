// Login: a successful `POST /api/auth/login` through the real handler (KV
// store, audit trail on as by default) against a raw argon2id verify at the
// same parameters, the floor of any password login; then unknown-email
// against wrong-password logins, which must cost the same (the dummy-hash
// rule). One request at a time: argon2 is CPU-bound and the machine has
// two cores. The WebAssembly verify (the fallback where native addons
// cannot load) and, with DATABASE_URL, Better Auth's sign-in are measured
// beside them.

import { verify as nativeVerify } from "@node-rs/argon2";
import { argon2Verify as wasmVerify } from "hash-wasm";
import { COOKIE_NAME, PASSWORD, USER } from "../_fixtures.ts";
import { interleaved } from "../_interleaved.ts";
import { httpRequest } from "../_load.ts";
import { startArgon2, UNCOUNTED_LOGINS } from "../_login.ts";
import { loginRequest } from "../_requests.ts";
import type { Spread } from "../_stats.ts";
import {
  alternate,
  type BenchContext,
  check,
  latencyRatios,
  type Scenario,
  type ScenarioResult,
  type Variant,
} from "../_scenario.ts";
import {
  dropPostgresSchema,
  fixtureHash,
  seedKv,
  seedPostgres,
} from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";
import { BETTER_AUTH_SCHEMA, startBetterAuth } from "./session_pg.ts";

const WRONG_PASSWORD = "wrong horse battery staple";
// Accounts signed in one after another for the login of an account that is
// not at its session cap: a run signs each in a few times at most.
const FEW_SESSION_ACCOUNTS = 1000;
const SCHEMA = "gatehouse_bench_login";
// The Postgres table of the durable-write floor (bench/servers/verify_commit.ts).
const FLOOR_SCHEMA = "gatehouse_bench_floor";

/** Login against argon2id verify, and the equal work of failed logins. */
export const login: Scenario = {
  name: "login",
  description:
    "login p50/p99 vs raw argon2id verify; unknown-email vs wrong-password",
  default: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const kvPath = `${ctx.tmpDir}/login.kv`;
    const { members } = await seedKv(kvPath, {
      members: [{ count: FEW_SESSION_ACCOUNTS }],
    });
    const hash = await fixtureHash();
    const servers: ServerProcess[] = await Promise.all([
      startServer("ours", { store: "kv", kvPath, ...UNCOUNTED_LOGINS }),
      startArgon2(),
      // As an application runs it: the limiter's counts in the store.
      startServer("ours", { store: "kv", kvPath }),
      // The floor of a durable login: one read, the verify, one commit.
      startServer("lean_login", { kvPath, cookieName: COOKIE_NAME }),
      // The floor of anything durable: the verify, then one commit.
      startServer("verify_commit", { hash, kvPath }),
      // As an application runs it, but the account lock's counts are
      // neither read nor written (the address limiter's are).
      startServer("ours", {
        store: "kv",
        kvPath,
        without: ["account-lock-counts"],
      }),
    ]);
    const notes = [
      "one request at a time; the login limiter runs but stores no counts, so failed logins are not refused",
      "interleaved ratios: the two kinds of request alternate one by one (one connection per server) and each round compares their medians",
      "the login target is checked against argon2id verify in a bare HTTP server (the floor of a login request); the in-process verify ratio is reported beside it",
      "counted/uncounted: the same successful login with the limiter's counts stored (a reservation before the handler, its release written after the answer), as an application runs it",
      "account lock: the same successful login with every count stored ÷ with the address limiter's alone (the account lock's reservation under the keys it last used and its counter reads, beside the account's read before the verify, and its release after the answer; DESIGN.md §15)",
      "lean login: a hand-written login on the same KV file (one read of the account by its email, the argon2id verify, one commit of a session record; no cap, no audit event, no generation binding, no equal work): the floor of a login that keeps its session durably",
      "verify then commit: the bare verify, then one Deno KV commit of one key on the same file (or one Postgres INSERT) before the answer; no read, no session: the floor of any login that keeps its session durably",
      `login-ok signs one account in thousands of times: it sits at its session cap (50), so each login also ends the oldest of its sessions, which it knows from the instance's own last commit (the roster, while the tally's version is the witness's) or else lists after the verify (a wrong password lists none); login-few-sessions signs in ${FEW_SESSION_ACCOUNTS} accounts in turn, each holding a session or two (below the cap no list is read)`,
    ];
    try {
      const ours = servers[0]!;
      const sequential = { server: ours, connections: 1 };
      const variants: Variant[] = [
        {
          name: "login-ok",
          ...sequential,
          requests: [loginRequest(USER.email, PASSWORD)],
        },
        {
          name: "argon2-native-verify",
          call: () => nativeVerify(hash, PASSWORD),
        },
        {
          name: "argon2-over-http",
          server: servers[1]!,
          connections: 1,
          requests: [loginRequest(USER.email, PASSWORD)],
        },
        {
          name: "login-unknown-email",
          ...sequential,
          requests: [loginRequest("nobody@example.com", PASSWORD)],
          expectStatus: 401,
        },
        {
          name: "login-wrong-password",
          ...sequential,
          requests: [loginRequest(USER.email, WRONG_PASSWORD)],
          expectStatus: 401,
        },
        {
          name: "argon2-wasm-verify",
          call: () => wasmVerify({ hash, password: PASSWORD }),
        },
      ];
      if (ctx.databaseUrl !== undefined) {
        const betterAuth = await startBetterAuth(ctx.databaseUrl);
        servers.push(betterAuth);
        variants.push({
          name: "better-auth-sign-in",
          server: betterAuth,
          connections: 1,
          requests: [
            httpRequest("POST", "/api/auth/sign-in/email", {
              "content-type": "application/json",
              origin: "http://127.0.0.1",
            }, JSON.stringify({ email: USER.email, password: PASSWORD })),
          ],
        });
      } else {
        notes.push("Better Auth sign-in skipped: DATABASE_URL is not set");
      }
      const results = await alternate(ctx, variants, "login");
      const equalWork = await failedSignInRatio(
        ctx,
        "login: unknown ÷ wrong",
        ours.port,
      );
      const verifyPort = servers[1]!.port;
      const loginFloor = await signInRatio(
        ctx,
        "login: login ÷ verify over HTTP",
        ours.port,
        verifyPort,
      );
      const fewSessions = await signInRatio(
        ctx,
        "login: few sessions ÷ verify over HTTP",
        ours.port,
        verifyPort,
        members.map((m) => loginRequest(m.email, PASSWORD)),
      );
      const leanFloor = await signInRatio(
        ctx,
        "login: lean login ÷ verify over HTTP",
        servers[3]!.port,
        verifyPort,
      );
      const commitFloor = await signInRatio(
        ctx,
        "login: verify then commit ÷ verify over HTTP",
        servers[4]!.port,
        verifyPort,
      );
      const overLean = await signInRatio(
        ctx,
        "login: ours ÷ lean login",
        ours.port,
        servers[3]!.port,
      );
      // The same two targets on Postgres, when there is one.
      const postgresRows = ctx.databaseUrl === undefined
        ? undefined
        : await onPostgres(ctx, ctx.databaseUrl, servers, verifyPort);
      if (postgresRows === undefined) {
        notes.push("Postgres login rows skipped: DATABASE_URL is not set");
      }
      const counted = await signInRatio(
        ctx,
        "login: with ÷ without the limiter's counts",
        servers[2]!.port,
        ours.port,
      );
      const locked = await signInRatio(
        ctx,
        "login: with ÷ without the account lock's counts",
        servers[2]!.port,
        servers[5]!.port,
      );
      const ratios: Record<string, Spread> = {
        ...latencyRatios(results, [
          ["login-ok", "argon2-native-verify"],
          ["login-ok", "argon2-over-http"],
          ["argon2-over-http", "argon2-native-verify"],
          ["login-unknown-email", "login-wrong-password"],
          ["argon2-wasm-verify", "argon2-native-verify"],
          ["better-auth-sign-in", "login-ok"],
        ], "p50"),
        ...latencyRatios(results, [
          ["login-ok", "argon2-native-verify"],
        ], "p99"),
        "unknown-email/wrong-password p50, interleaved": equalWork.ratio,
        "login-ok/argon2-over-http p50, interleaved": loginFloor.ratio,
        "login-few-sessions/argon2-over-http p50, interleaved":
          fewSessions.ratio,
        "login-ok counted/uncounted limiter p50, interleaved": counted.ratio,
        "login-ok with/without account lock counts p50, interleaved":
          locked.ratio,
        "lean-login/argon2-over-http p50, interleaved": leanFloor.ratio,
        "login-ok/lean-login p50, interleaved": overLean.ratio,
        "verify-then-commit/argon2-over-http p50, interleaved":
          commitFloor.ratio,
        ...(postgresRows === undefined ? {} : {
          "postgres login-ok/argon2-over-http p50, interleaved":
            postgresRows.loginFloor,
          "postgres unknown-email/wrong-password p50, interleaved":
            postgresRows.equalWork,
          "postgres verify-then-commit/argon2-over-http p50, interleaved":
            postgresRows.commitFloor,
        }),
      };
      return {
        scenario: "login",
        variants: results,
        ratios,
        targets: [
          check(
            "login p50 vs argon2id verify over HTTP p50 (interleaved)",
            loginFloor.ratio.median,
            "<=1.10",
          ),
          check(
            "unknown-email / wrong-password login p50 (interleaved)",
            equalWork.ratio.median,
            "0.97..1.03",
          ),
          ...(postgresRows === undefined ? [] : [
            check(
              "Postgres: login p50 vs argon2id verify over HTTP p50 (interleaved)",
              postgresRows.loginFloor.median,
              "<=1.10",
            ),
            check(
              "Postgres: unknown-email / wrong-password login p50 (interleaved)",
              postgresRows.equalWork.median,
              "0.97..1.03",
            ),
          ]),
        ],
        notes,
      };
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      if (ctx.databaseUrl !== undefined) {
        await dropPostgresSchema(ctx.databaseUrl, BETTER_AUTH_SCHEMA);
        await dropPostgresSchema(ctx.databaseUrl, SCHEMA);
        await dropPostgresSchema(ctx.databaseUrl, FLOOR_SCHEMA);
      }
    }
  },
};

// Ours on Postgres (the fixture account at its cap, as on KV): login ÷ the
// verify over HTTP, and unknown ÷ wrong password. The server joins
// `servers` so that the caller stops it.
async function onPostgres(
  ctx: BenchContext,
  url: string,
  servers: ServerProcess[],
  verifyPort: number,
) {
  await seedPostgres(url, SCHEMA);
  const ours = await startServer("ours", {
    store: "postgres",
    url,
    schema: SCHEMA,
    ...UNCOUNTED_LOGINS,
  });
  servers.push(ours);
  const loginFloor = await signInRatio(
    ctx,
    "login on Postgres: login ÷ verify over HTTP",
    ours.port,
    verifyPort,
  );
  const equalWork = await failedSignInRatio(
    ctx,
    "login on Postgres: unknown ÷ wrong",
    ours.port,
  );
  const floor = await startServer("verify_commit", {
    hash: await fixtureHash(),
    url,
    schema: FLOOR_SCHEMA,
  });
  servers.push(floor);
  const commitFloor = await signInRatio(
    ctx,
    "login on Postgres: verify then commit ÷ verify over HTTP",
    floor.port,
    verifyPort,
  );
  return {
    loginFloor: loginFloor.ratio,
    equalWork: equalWork.ratio,
    commitFloor: commitFloor.ratio,
  };
}

// Successful sign-ins on the server at `port` ÷ the fixture account's on the
// one at `otherPort`, alternating one by one (the fixture account's unless
// `requests` says otherwise).
function signInRatio(
  ctx: BenchContext,
  label: string,
  port: number,
  otherPort: number,
  requests: Uint8Array | Uint8Array[] = loginRequest(USER.email, PASSWORD),
) {
  return interleaved(ctx, label, port, [
    requests,
    { port: otherPort, bytes: loginRequest(USER.email, PASSWORD) },
  ], 200);
}

// Sign-ins of an unknown address ÷ of a known one with a wrong password, on
// one server, alternating one by one: the equal work of failed logins.
function failedSignInRatio(ctx: BenchContext, label: string, port: number) {
  return interleaved(ctx, label, port, [
    loginRequest("nobody@example.com", PASSWORD),
    loginRequest(USER.email, WRONG_PASSWORD),
  ], 401);
}
