// Two-step sign-in (DESIGN.md §9, issue 15): what a second factor adds to a
// sign-in, and whether accounts without one still sign in at the cost of
// item 4 of issue 19 (login ≤ 1.10× an argon2id verify over HTTP).
//
// One loop, one request at a time, on KV, goes round four requests:
// argon2id verify in a bare HTTP server; the one-step login of an account
// without a second factor (1000 of them in turn); the password step of an
// account with TOTP (202 and the pending cookie); and that sign-in's second
// step
// (`POST /api/auth/second-factor {code}` with the cookie, 200). So every
// kind meets the same machine conditions, as in bench/_interleaved.ts, and
// each round compares their medians. The next request depends on the last
// answer (the cookie, a code of the current time step), so the loop drives
// raw connections itself (bench/_load.ts `Connection`).
//
// A time step is accepted once per account, and later steps only: the
// accounts with TOTP are taken in turn, each at most once per 30-s step
// (the loop waits, untimed, for the next step if it ever runs out).

import { PASSWORD, USER } from "../_fixtures.ts";
import { Connection } from "../_load.ts";
import { startArgon2, UNCOUNTED_LOGINS } from "../_login.ts";
import {
  loginRequest,
  secondFactorRequest,
  setCookieValue,
} from "../_requests.ts";
import {
  type BenchContext,
  check,
  latencyRatios,
  type MeasuredRun,
  type Scenario,
  type ScenarioResult,
  summarise,
  type VariantResult,
} from "../_scenario.ts";
import { type SeededMember, seedKv } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";
import { latencyPercentiles, Samples } from "../_stats.ts";
import { TOTP_STEP_MS, totpCode, totpStep } from "../_totp.ts";
import { PENDING_COOKIE } from "../../server/core/auth.ts";

// Enough accounts that a run signs each in at most once per time step: a
// two-step sign-in every ~50 ms at most here is 600 a step. As many
// accounts without a second factor sign in in one step, taken in turn so
// that, like the TOTP accounts, each holds a session or two (an account at
// its session cap pays for ending its oldest session: see the login
// scenario).
const ACCOUNTS_EACH = 1000;

const KINDS = [
  "argon2-over-http",
  "login-one-step",
  "password-step",
  "second-factor-step",
  "two-step-sign-in",
] as const;
type Kind = typeof KINDS[number];

/** Two-step sign-in with TOTP beside a one-step login and the verify. */
export const twoStep: Scenario = {
  name: "two-step",
  description:
    "two-step sign-in with TOTP (password step, second step, whole) beside one-step login and argon2 verify",
  default: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const kvPath = `${ctx.tmpDir}/two-step.kv`;
    const { members } = await seedKv(kvPath, {
      members: [{ count: ACCOUNTS_EACH, totp: true }, { count: ACCOUNTS_EACH }],
    });
    ctx.progress(`two-step: ${ACCOUNTS_EACH} accounts with TOTP seeded`);
    const servers = await Promise.all([
      startServer("ours", { store: "kv", kvPath, ...UNCOUNTED_LOGINS }),
      startArgon2(),
    ]);
    try {
      const [ours, argon2] = servers as [ServerProcess, ServerProcess];
      const loop = await SignInLoop.open(ours, argon2, {
        withTotp: members.slice(0, ACCOUNTS_EACH),
        without: members.slice(ACCOUNTS_EACH),
      });
      try {
        await loop.round(Math.min(1000, ctx.durationMs)); // warm-up
        const rounds: Array<Record<Kind, MeasuredRun>> = [];
        for (let round = 1; round <= ctx.rounds; round++) {
          const runs = await loop.round(ctx.durationMs);
          rounds.push(runs);
          ctx.progress(
            `two-step: round ${round}/${ctx.rounds} ` +
              KINDS.map((k) => `${k} p50 ${runs[k].p50.toFixed(2)} ms`)
                .join(", "),
          );
        }
        return report(rounds, loop.waits);
      } finally {
        loop.close();
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  },
};

function report(
  rounds: ReadonlyArray<Record<Kind, MeasuredRun>>,
  waits: number,
): ScenarioResult {
  const variants = Object.fromEntries(
    KINDS.map((k) => [k, summarise(rounds.map((r) => r[k]))]),
  ) as Record<Kind, VariantResult>;
  const ratios = latencyRatios(variants, [
    ["login-one-step", "argon2-over-http"],
    ["two-step-sign-in", "login-one-step"],
    ["password-step", "login-one-step"],
    ["second-factor-step", "login-one-step"],
  ], "p50");
  return {
    scenario: "two-step",
    variants,
    ratios,
    targets: [
      check(
        "login without a second factor vs argon2id verify over HTTP, p50 (interleaved, TOTP accounts in the store)",
        ratios["login-one-step/argon2-over-http p50"]!.median,
        "<=1.10",
      ),
    ],
    notes: [
      "one request at a time; the four requests alternate in one loop (one connection per server) and each round compares their medians (interleaved)",
      "req/s is each kind's rate within that loop, not its throughput",
      "two-step-sign-in is the password step plus the second-factor step of the same sign-in",
      `${ACCOUNTS_EACH} accounts with TOTP (enrolled through the store), each signed in at most once per 30-s step, codes made with npm:otpauth` +
      (waits > 0 ? `; the loop waited for a new step ${waits} times` : ""),
      `login-one-step signs in ${ACCOUNTS_EACH} accounts without a second factor in turn: like the TOTP accounts, each holds a session or two`,
      "the login limiter runs but stores no counts (bench/_login.ts)",
    ],
  };
}

/** The accounts the loop signs in, each pool taken in turn. */
interface Accounts {
  withTotp: readonly SeededMember[];
  without: readonly SeededMember[];
}

// The loop's connections and the accounts it takes in turn.
class SignInLoop {
  /** How often the loop ran out of TOTP accounts and waited for a new step. */
  waits = 0;
  #rounds = 0;
  readonly #lastStep: number[];
  // Built before the run: the timed part only sends.
  readonly #passwordSteps: Uint8Array[];
  readonly #oneStepLogins: Uint8Array[];
  readonly #verify = loginRequest(USER.email, PASSWORD);

  private constructor(
    readonly ours: Connection,
    readonly argon2: Connection,
    accounts: Accounts,
  ) {
    const logins = (pool: readonly SeededMember[]) =>
      pool.map((a) => loginRequest(a.email, PASSWORD));
    this.#passwordSteps = logins(accounts.withTotp);
    this.#oneStepLogins = logins(accounts.without);
    this.#lastStep = accounts.withTotp.map(() => -1);
  }

  static async open(
    ours: ServerProcess,
    argon2: ServerProcess,
    accounts: Accounts,
  ): Promise<SignInLoop> {
    return new SignInLoop(
      await Connection.open(ours.port),
      await Connection.open(argon2.port),
      accounts,
    );
  }

  /** Goes round the four requests for `durationMs`; one run per kind. */
  async round(durationMs: number): Promise<Record<Kind, MeasuredRun>> {
    const samples = Object.fromEntries(
      KINDS.map((k) => [k, new Samples()]),
    ) as Record<Kind, Samples>;
    const start = performance.now();
    while (performance.now() - start < durationMs) {
      const turn = this.#rounds++;
      samples["argon2-over-http"].push(
        await timed(this.argon2, this.#verify, 200),
      );
      samples["login-one-step"].push(
        await timed(
          this.ours,
          this.#oneStepLogins[turn % this.#oneStepLogins.length]!,
          200,
        ),
      );
      const { account, code } = await this.#nextTotpAccount(turn);
      const t0 = performance.now();
      const answer = await this.ours.send(this.#passwordSteps[account]!);
      const passwordMs = performance.now() - t0;
      expectStatus(answer.status, 202, answer.body);
      const pending = setCookieValue(answer.head, PENDING_COOKIE);
      if (pending === null) {
        throw new Error("Password step set no pending cookie");
      }
      const secondMs = await timed(
        this.ours,
        secondFactorRequest(pending, code),
        200,
      );
      samples["password-step"].push(passwordMs);
      samples["second-factor-step"].push(secondMs);
      samples["two-step-sign-in"].push(passwordMs + secondMs);
    }
    const seconds = (performance.now() - start) / 1000;
    return Object.fromEntries(KINDS.map((k) => {
      const values = samples[k].values();
      return [k, {
        requests: values.length,
        errors: 0,
        seconds,
        rps: values.length / seconds,
        ...latencyPercentiles(values),
        cpuUs: NaN,
      }];
    })) as Record<Kind, MeasuredRun>;
  }

  // The TOTP account of this turn and the code of the current time step;
  // should the account have signed in during this step already (a time
  // step is accepted once per account), the next step is waited for.
  async #nextTotpAccount(
    turn: number,
  ): Promise<{ account: number; code: string }> {
    const i = turn % this.#lastStep.length;
    let step = totpStep(Date.now());
    if (this.#lastStep[i]! >= step) {
      this.waits++;
      const nextStepAt = (step + 1) * TOTP_STEP_MS;
      await new Promise((r) => setTimeout(r, nextStepAt - Date.now() + 50));
      step = totpStep(Date.now());
    }
    this.#lastStep[i] = step;
    return { account: i, code: totpCode(step) };
  }

  close(): void {
    this.ours.close();
    this.argon2.close();
  }
}

async function timed(
  conn: Connection,
  request: Uint8Array,
  status: number,
): Promise<number> {
  const t0 = performance.now();
  const answer = await conn.send(request);
  const ms = performance.now() - t0;
  expectStatus(answer.status, status, answer.body);
  return ms;
}

function expectStatus(actual: number, expected: number, body: Uint8Array) {
  if (actual !== expected) {
    throw new Error(
      `Expected status ${expected}, got ${actual}: ${
        new TextDecoder().decode(body.subarray(0, 200))
      }`,
    );
  }
}
