// Every scenario, in the order a full run takes them.

import type { Scenario } from "../_scenario.ts";
import { sessionKv } from "./session_kv.ts";
import { sessionPg } from "./session_pg.ts";
import { login } from "./login.ts";
import { reset } from "./reset.ts";
import { scale } from "./scale.ts";
import { reaper } from "./reaper.ts";
import { clientSize } from "./client_size.ts";
import { loadgen } from "./loadgen.ts";

/** The scenarios `deno task bench` knows. */
export const SCENARIOS: readonly Scenario[] = [
  sessionKv,
  sessionPg,
  login,
  reset,
  scale,
  reaper,
  clientSize,
  loadgen,
];
