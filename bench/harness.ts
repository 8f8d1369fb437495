/**
 * A small benchmark harness. Machines here are shared and noisy, so every
 * figure is measured beside a baseline in the same run, the two interleaved,
 * and the median of several samples is kept.
 */

export interface Benchmark {
  readonly name: string;
  readonly description: string;
  /** Runs the benchmark and returns its figures (flat, JSON-friendly). */
  readonly run: (
    log: (line: string) => void,
  ) => Record<string, number | string> | Promise<Record<string, number | string>>;
}

/**
 * Where benchmarked functions' results go, so that the optimiser cannot drop
 * the work that produced them.
 */
export let blackhole = 0;

/** Operations per second of `fn`, which performs `opsPerCall` operations a call. */
export function opsPerSecond(fn: () => number, opsPerCall: number, sampleMs: number): number {
  let calls = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(sampleMs) * 1_000_000n;
  let now = start;
  while (now < end) {
    blackhole += fn();
    calls++;
    now = process.hrtime.bigint();
  }
  return (calls * opsPerCall) / (Number(now - start) / 1e9);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Measures `subject` and `baseline` alternately, `samples` times each after a
 * warm-up, and returns the medians.
 */
export function compare(
  subject: () => number,
  baseline: () => number,
  opsPerCall: number,
  { samples = 7, sampleMs = 300 } = {},
): { subject: number; baseline: number; ratio: number } {
  opsPerSecond(subject, opsPerCall, sampleMs);
  opsPerSecond(baseline, opsPerCall, sampleMs);
  const s: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < samples; i++) {
    s.push(opsPerSecond(subject, opsPerCall, sampleMs));
    b.push(opsPerSecond(baseline, opsPerCall, sampleMs));
  }
  const subjectMedian = median(s);
  const baselineMedian = median(b);
  return {
    subject: subjectMedian,
    baseline: baselineMedian,
    ratio: subjectMedian / baselineMedian,
  };
}

export const round = (value: number, digits = 3): number => Number(value.toPrecision(digits));
