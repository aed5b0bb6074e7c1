// The readable table printed at the end of a run. The JSON file holds the
// same figures and the per-round values behind them.

import type { ScenarioResult } from "./_scenario.ts";
import { fmt, fmtSpread, type Spread } from "./_stats.ts";

/** What main.ts writes to JSON and prints. */
export interface Report {
  date: string;
  machine: Record<string, unknown>;
  method: Record<string, unknown>;
  results: ScenarioResult[];
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) =>
    Math.max(...rows.map((r) => r[c]!.length))
  );
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  "))
    .join("\n");
}

const isSpread = (v: Spread | number): v is Spread => typeof v !== "number";

/** Prints the report as tables, one block per scenario. */
export function printReport(report: Report): void {
  console.log(
    `\nGatehouse benchmarks, ${report.date}, ${report.machine.cpus} CPUs, ` +
      `Deno ${report.machine.deno}; median (min–max) over ${report.method.rounds} rounds of ${report.method.durationSeconds}s`,
  );
  for (const r of report.results) {
    console.log(`\n== ${r.scenario} ==`);
    if (r.skipped) {
      console.log(`skipped: ${r.skipped}`);
      continue;
    }
    if (r.variants) {
      const rows = [[
        "variant",
        "req/s",
        "p50 ms",
        "p99 ms",
        "server CPU µs/req",
      ]];
      for (const [name, v] of Object.entries(r.variants)) {
        rows.push([
          name,
          fmtSpread(v.summary.rps),
          fmtSpread(v.summary.p50),
          fmtSpread(v.summary.p99),
          fmtSpread(v.summary.cpuUs),
        ]);
      }
      console.log(table(rows));
    }
    if (r.ratios && Object.keys(r.ratios).length > 0) {
      const rows = [["ratio (per round)", "median (min–max)"]];
      for (const [name, s] of Object.entries(r.ratios)) {
        rows.push([name, fmtSpread(s)]);
      }
      console.log(table(rows));
    }
    if (r.metrics && Object.keys(r.metrics).length > 0) {
      const rows = [["measure", "value"]];
      for (const [name, m] of Object.entries(r.metrics)) {
        rows.push([name, isSpread(m) ? fmtSpread(m) : fmt(m)]);
      }
      console.log(table(rows));
    }
    for (const t of r.targets ?? []) {
      console.log(
        `${t.met ? "MET   " : "MISSED"} ${t.name}: ${
          fmt(t.value)
        } (target ${t.target})`,
      );
    }
    for (const note of r.notes ?? []) console.log(`note: ${note}`);
  }
}
