// Every scenario, in the order a full run takes them.

import type { Scenario } from "../_scenario.ts";
import { sessionKv } from "./session_kv.ts";
import { sessionPg } from "./session_pg.ts";
import { idleTimeout } from "./idle_timeout.ts";
import { auditTrail } from "./audit_trail.ts";
import { sessionsList } from "./sessions_list.ts";
import { login } from "./login.ts";
import { twoStep } from "./two_step.ts";
import { reset } from "./reset.ts";
import { scale } from "./scale.ts";
import { reaper } from "./reaper.ts";
import { clientSize } from "./client_size.ts";
import { loadgen } from "./loadgen.ts";
import { reshape } from "./reshape.ts";
import { memory } from "./memory.ts";
import { coldStart } from "./cold_start.ts";
import { loginFiles } from "./login_files.ts";

/** The scenarios `deno task bench` knows. */
export const SCENARIOS: readonly Scenario[] = [
  sessionKv,
  sessionPg,
  idleTimeout,
  auditTrail,
  sessionsList,
  login,
  twoStep,
  reset,
  scale,
  reaper,
  clientSize,
  loadgen,
  reshape,
  memory,
  coldStart,
  loginFiles,
];
