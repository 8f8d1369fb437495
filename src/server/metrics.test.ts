/**
 * /metrics after a round: every figure an operator watches is there with a
 * value that fits what the round did (docs/deployment.md lists them).
 */
import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { buildApp } from './app.js';
import { seedUsers, sessionToken } from './testing.js';

const T = 'T1';
const ROUND_BEFORE_BETS = ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'] as const;
const ROUND_AFTER_BETS = ['ring-bell', 'lift-dome', 'reveal-dice', 'pay-all'] as const;

/** The exposition text as series (name with labels, as written) to value. */
function parse(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

withStores('metrics', (h) => {
  it('shows latency histograms, pool, leases, journal, rounds, alerts, sockets and process figures after a round', async () => {
    const store = await h.open();
    // A floor node: the table's first command takes its lease.
    const app = await buildApp({
      store,
      logger: false,
      node: { nodeUrl: () => 'http://127.0.0.1:9', nodeSecret: 'metrics-test' },
    });
    await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
    const [player] = await seedUsers(store, 'player', 1, { fundMinor: 100_000 });
    const token = await sessionToken(store, player!, Date.now());
    await app.fastify.ready();
    const socket = await app.fastify.injectWS(`/api/v1/tables/${T}/ws`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const run = async (types: readonly string[]) => {
      for (const type of types) {
        const outcome = await app.ctx.service.execute({
          tableId: T,
          command: { type } as { type: 'cover' },
        });
        expect(outcome.ok, type).toBe(true);
      }
    };
    await run(ROUND_BEFORE_BETS);
    for (const [betId, spot] of [
      ['b1', 'small'],
      ['b2', 'big'],
    ]) {
      const placed = await app.fastify.inject({
        method: 'POST',
        url: `/api/v1/tables/${T}/bets`,
        headers: { authorization: `Bearer ${token}` },
        payload: { betId, spot, stakeMinor: 1_000 },
      });
      expect(placed.statusCode).toBe(201);
    }
    await run(ROUND_AFTER_BETS);

    const scrape = async () => {
      const scraped = await app.fastify.inject({ url: '/metrics' });
      expect(scraped.statusCode).toBe(200);
      expect(scraped.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return parse(scraped.body);
    };
    // The first command took the lease; a scrape may still come before the gauge is read.
    // The sockets get each commit's entries after it (on a floor node, when the floor hands them
    // on, from the commit or its notice): a scrape may come before the last fan-out too.
    const settled = (m: Map<string, number>) =>
      m.get('cussec_leases_held') !== 0 && (m.get('cussec_socket_fanout_seconds_count') ?? 0) >= 10;
    let m = await scrape();
    for (let waited = 0; !settled(m) && waited < 5_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      m = await scrape();
    }
    const head = (await store.journalHead()).lastSeq;
    expect(m.get('cussec_bet_ack_seconds_count')).toBe(2);
    expect(m.get('cussec_bet_ack_seconds_sum')).toBeGreaterThan(0);
    expect(m.get('cussec_bet_ack_seconds_sum')).toBeLessThan(10);
    // Every command of the round committed in its own batch (each awaited the one before).
    expect(m.get('cussec_commit_seconds_count')).toBeGreaterThanOrEqual(10);
    expect(m.get('cussec_settlement_seconds_count')).toBe(1);
    expect(m.get('cussec_settlement_seconds_bucket{le="+Inf"}')).toBe(1);
    expect(m.get('cussec_socket_fanout_seconds_count')).toBeGreaterThanOrEqual(10);
    expect(m.get('cussec_db_connections{state="open"}')).toBeGreaterThanOrEqual(1);
    // The scrape's own reads may be waiting for a connection while the gauge is read.
    expect(m.get('cussec_db_connections{state="in_use"}')).toBeLessThanOrEqual(
      m.get('cussec_db_connections{state="open"}')!,
    );
    expect(m.get('cussec_db_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
    expect(m.get('cussec_leases_held')).toBe(1);
    expect(m.get('cussec_journal_seq{of="head"}')).toBe(head);
    expect(m.get('cussec_journal_seq{of="delivered"}')).toBe(head);
    expect(m.get('cussec_rounds{phase="paid"}')).toBe(1);
    expect(m.get('cussec_fairness_alerts_open')).toBe(0);
    expect(m.get('cussec_websocket_clients')).toBe(1);
    // The notices' queue is PostgreSQL's: a lone SQLite node has none to watch.
    if (store.cluster.hearsJournal) {
      expect(m.get('cussec_notice_queue_usage')).toBeGreaterThanOrEqual(0);
      expect(m.get('cussec_notice_queue_usage')).toBeLessThan(0.01);
    } else expect(m.has('cussec_notice_queue_usage')).toBe(false);
    expect(m.get('cussec_bets_total{result="placed",via="http"}')).toBe(2);
    // Node's own process figures (prom-client's default metrics).
    expect(m.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(m.get('process_resident_memory_bytes')).toBeGreaterThan(1e6);
    expect(m.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(1e6);
    expect([...m.keys()].some((k) => k.startsWith('nodejs_eventloop_lag_p99_seconds'))).toBe(true);

    socket.terminate();
    await app.shutdown();
  });
});
