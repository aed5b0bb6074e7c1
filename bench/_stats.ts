// Summary statistics for benchmark rounds. Absolute figures on a shared
// machine drift by 2×, so every comparison is reported as the median and
// the min–max of per-round values, and ratios are taken round by round
// between variants that ran next to each other.

/** Median, minimum and maximum of a set of per-round values. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The `q`-quantile (0–1) of sorted values, nearest-rank. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** Median and range of `values`; NaN everywhere for an empty list. */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { median: NaN, min: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1
    ? sorted[mid]!
    : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** Per-round ratios `a[i] / b[i]`, summarised. */
export function ratioSpread(
  a: readonly number[],
  b: readonly number[],
): Spread {
  const n = Math.min(a.length, b.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) ratios.push(a[i]! / b[i]!);
  return spread(ratios);
}

/** Latency samples (ms) sorted in place into p50 and p99. */
export function latencyPercentiles(
  samples: Float64Array,
): { p50: number; p99: number } {
  samples.sort();
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
}

/** A growable buffer of latency samples without per-sample allocation. */
export class Samples {
  #data = new Float64Array(1 << 14);
  #length = 0;

  /** Records one sample. */
  push(value: number): void {
    if (this.#length === this.#data.length) {
      const bigger = new Float64Array(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.#length++] = value;
  }

  /** How many samples were recorded. */
  get length(): number {
    return this.#length;
  }

  /** A copy of the recorded samples. */
  values(): Float64Array {
    return this.#data.slice(0, this.#length);
  }
}

/** Formats a number with a fitting precision for tables. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return "–";
  if (value === 0) return "0";
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  return Number(value.toPrecision(digits)).toString();
}

/** `median (min–max)` of a spread. */
export function fmtSpread(s: Spread, digits = 3): string {
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${
    fmt(s.max, digits)
  })`;
}
