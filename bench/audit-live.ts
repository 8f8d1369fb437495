/**
 * The audit on a live node: /healthz latency while GET /api/v1/journal/verify
 * audits a journal of AUDIT_ENTRIES entries on SQLite, against the same
 * latency with no audit running (the baseline), both in one run. The audit
 * runs on a worker thread; were it on the event loop, /healthz would wait for
 * the whole audit (1.4 s for 88,500 entries, before).
 *
 * Then the daily check: a verify from the checkpoint the full one stored, after
 * DAY_ENTRIES more entries, against the full verify's time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/ledger/index.js';
import { buildApp } from '../src/server/app.js';
import { seedUsers, sessionToken } from '../src/server/testing.js';
import { journalDeposits } from '../src/service/audit-fixtures.js';
import { seconds } from './databases.js';
import { type Benchmark, round } from './harness.js';

const AUDIT_ENTRIES = Number(process.env['BENCH_AUDIT_ENTRIES'] ?? 100_000);
const DAY_ENTRIES = 1_000;
const BASELINE_MS = 2_000;
/** Between two /healthz requests of the probe. */
const PROBE_GAP_MS = 5;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Sends /healthz one after another until `until` settles; each latency in ms. */
async function probe(base: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const start = process.hrtime.bigint();
    const response = await fetch(`${base}/healthz`);
    await response.arrayBuffer();
    latencies.push(seconds(start) * 1_000);
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  return latencies;
}

export const auditLiveBenchmark: Benchmark = {
  name: 'audit-live',
  description: `/healthz p99 while a verify of ${AUDIT_ENTRIES} journal entries runs (SQLite), and a verify from a checkpoint`,
  async run(log) {
    const dir = mkdtempSync(join(tmpdir(), 'cussec-bench-audit-'));
    const store = await openSqliteStore({ path: join(dir, 'audit.sqlite'), currency: 'MOP' });
    const app = await buildApp({ store, logger: false });
    try {
      await journalDeposits(store, AUDIT_ENTRIES);
      const [inspector] = await seedUsers(store, 'inspector', 1);
      const token = await sessionToken(store, inspector!, Date.now());
      await app.fastify.listen({ host: '127.0.0.1', port: 0 });
      const address = app.fastify.server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      const base = `http://127.0.0.1:${address.port}`;
      const verify = async (from: string): Promise<number> => {
        const start = process.hrtime.bigint();
        const response = await fetch(`${base}/api/v1/journal/verify?from=${from}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await response.json()) as { ok?: boolean };
        if (body.ok !== true) throw new Error(`verify failed: ${JSON.stringify(body)}`);
        return seconds(start);
      };

      const idle = await probe(base, new Promise((resolve) => setTimeout(resolve, BASELINE_MS)));
      let fullS = 0;
      const during = await probe(
        base,
        verify('genesis').then((s) => (fullS = s)),
      );
      await journalDeposits(store, DAY_ENTRIES);
      const dayS = await verify('latest');

      const figures = {
        entries: AUDIT_ENTRIES,
        idle_healthz_p50_ms: round(percentile(idle, 50)),
        idle_healthz_p99_ms: round(percentile(idle, 99)),
        verify_healthz_requests: during.length,
        verify_healthz_p50_ms: round(percentile(during, 50)),
        verify_healthz_p99_ms: round(percentile(during, 99)),
        verify_healthz_max_ms: round(Math.max(...during)),
        p99_ratio_to_idle: round(percentile(during, 99) / percentile(idle, 99)),
        full_verify_s: round(fullS),
        checkpoint_verify_s: round(dayS),
        checkpoint_to_full_ratio: round(dayS / fullS),
      };
      log(
        `/healthz p99: ${figures.verify_healthz_p99_ms} ms during a verify of ${AUDIT_ENTRIES} entries ` +
          `(${during.length} requests, max ${figures.verify_healthz_max_ms} ms), ${figures.idle_healthz_p99_ms} ms idle: ` +
          `${figures.p99_ratio_to_idle}×`,
      );
      log(
        `verify: ${figures.full_verify_s} s from the genesis; ${figures.checkpoint_verify_s} s from its checkpoint ` +
          `after ${DAY_ENTRIES} more entries: ${figures.checkpoint_to_full_ratio}×`,
      );
      return figures;
    } finally {
      await app.shutdown();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
