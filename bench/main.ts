/**
 * `npm run bench [-- --json] [NAME…]`: runs the named benchmarks (all by
 * default). Each prints its figures beside a baseline measured in the same run.
 */
import type { Benchmark } from './harness.js';
import { auditLiveBenchmark } from './audit-live.js';
import { durableBetsSqlite } from './durable-bets.js';
import { fairnessMonitorBenchmark } from './fairness-monitor.js';
import { floorNodesBenchmark, floorTablesBenchmark } from './floor-nodes.js';
import { historyBenchmark } from './history.js';
import { sealedHeaderBenchmark } from './sealed-header.js';
import { settleBenchmark } from './settle.js';
import { soakBenchmark } from './soak.js';
import { settleRoundPostgres, settleRoundSqlite } from './settle-round.js';
import { transferBatchPostgres, transferBatchSqlite } from './transfer-batch.js';
import { wsPlayersBenchmark } from './ws-players.js';

const BENCHMARKS: readonly Benchmark[] = [
  settleBenchmark,
  fairnessMonitorBenchmark,
  settleRoundSqlite,
  settleRoundPostgres,
  durableBetsSqlite,
  transferBatchSqlite,
  transferBatchPostgres,
  wsPlayersBenchmark,
  floorNodesBenchmark,
  floorTablesBenchmark,
  historyBenchmark,
  sealedHeaderBenchmark,
  auditLiveBenchmark,
  soakBenchmark,
];

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes('--json');
  const names = argv.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}\n`,
    );
    return 2;
  }
  const chosen = names.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => names.includes(b.name));
  const results: Record<string, Record<string, number | string>> = {};
  // In JSON mode the progress lines go to stderr so stdout holds one JSON object.
  const log = (line: string): void =>
    void (json ? process.stderr : process.stdout).write(`${line}\n`);
  for (const benchmark of chosen) {
    log(`# ${benchmark.name}: ${benchmark.description}`);
    results[benchmark.name] = await benchmark.run(log);
  }
  if (json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
