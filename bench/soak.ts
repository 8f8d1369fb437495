/**
 * A soak of a serving node on SQLite: SOAK_ROUNDS rounds played through the
 * HTTP routes (the croupier's commands and the players' bets, each with an
 * idempotency key, plus a login every LOGIN_EVERY rounds), recording the
 * process's RSS and heap as they go. Bounded memory shows as growth that
 * stops: the second half of the run is compared with the first (the baseline,
 * measured in the same run).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrng } from '../src/dice/index.js';
import { openSqliteStore } from '../src/ledger/index.js';
import { buildApp } from '../src/server/app.js';
import { seedUsers, sessionToken, TEST_PASSWORD } from '../src/server/testing.js';
import { simulatedTableSettings } from '../src/service/table-settings.js';
import { type Benchmark, round } from './harness.js';

const ROUNDS = Number(process.env['BENCH_SOAK_ROUNDS'] ?? 3_000);
/** The writer's page cache; the store's default (64 MiB) when not set. */
const CACHE_KIB = process.env['BENCH_SOAK_CACHE_KIB'];
const PLAYERS = 10;
const BETS_PER_ROUND = 20;
const LOGIN_EVERY = 10;
const SAMPLE_EVERY = Math.max(1, Math.floor(ROUNDS / 12));
const TABLE = 'S1';
const MB = 1024 * 1024;

const STEPS_BEFORE_BETS = ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'] as const;
const STEPS_AFTER_BETS = ['ring-bell', 'lift-dome', 'reveal-dice', 'pay-all'] as const;

export const soakBenchmark: Benchmark = {
  name: 'soak',
  description: `RSS and heap over ${ROUNDS} rounds served over HTTP (SQLite): growth in the second half against the first`,
  async run(log) {
    const dir = mkdtempSync(join(tmpdir(), 'cussec-bench-soak-'));
    const path = join(dir, 'soak.sqlite');
    const store = await openSqliteStore({
      path,
      currency: 'MOP',
      ...(CACHE_KIB === undefined ? {} : { cacheSizeKib: Number(CACHE_KIB) }),
    });
    const app = await buildApp({ store, logger: false });
    try {
      await app.ctx.service.createTable({ ...simulatedTableSettings(TABLE), bettingTimerMs: null });
      const players = await seedUsers(store, 'player', PLAYERS, { fundMinor: 1_000_000_000 });
      const [croupier] = await seedUsers(store, 'croupier', 1);
      const now = Date.now();
      const playerTokens = await Promise.all(players.map((p) => sessionToken(store, p, now)));
      const croupierToken = await sessionToken(store, croupier!, now);
      const spots = (await app.ctx.service.snapshot(TABLE))!.settings.paytable.spots;
      const prng = createPrng(20261201);
      let key = 0;
      const send = async (token: string, url: string, payload: object): Promise<void> => {
        const response = await app.fastify.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': `k${++key}` },
          payload,
        });
        if (response.statusCode >= 300) throw new Error(`${url}: ${response.body}`);
      };
      const step = (type: string) =>
        send(croupierToken, `/api/v1/tables/${TABLE}/commands`, { type });

      const samples: { rounds: number; rssMb: number; heapMb: number }[] = [];
      const sample = (rounds: number): void => {
        const m = process.memoryUsage();
        samples.push({ rounds, rssMb: m.rss / MB, heapMb: m.heapUsed / MB });
        // The database's size: the writer's page cache (64 MiB at most) grows with it.
        const fileMb = (statSync(path).size + statSync(`${path}-wal`).size) / MB;
        log(
          `round ${rounds}: rss ${round(m.rss / MB)} MB, heap ${round(m.heapUsed / MB)} MB, ` +
            `external ${round(m.external / MB)} MB, database ${round(fileMb)} MB`,
        );
      };
      sample(0);
      for (let r = 1; r <= ROUNDS; r++) {
        for (const type of STEPS_BEFORE_BETS) await step(type);
        await Promise.all(
          Array.from({ length: BETS_PER_ROUND }, (_, b) =>
            send(playerTokens[b % PLAYERS]!, `/api/v1/tables/${TABLE}/bets`, {
              betId: `r${r}b${b}`,
              spot: prng.pick(spots),
              stakeMinor: 1_000,
            }),
          ),
        );
        for (const type of STEPS_AFTER_BETS) await step(type);
        if (r % LOGIN_EVERY === 0) {
          const login = await app.fastify.inject({
            method: 'POST',
            url: '/api/v1/session',
            payload: { username: players[r % PLAYERS]!.username, password: TEST_PASSWORD },
          });
          if (login.statusCode !== 200) throw new Error(`login: ${login.body}`);
        }
        if (r % SAMPLE_EVERY === 0) sample(r);
      }
      const first = samples[0]!;
      const mid = samples[Math.floor(samples.length / 2)]!;
      const last = samples[samples.length - 1]!;
      const figures = {
        rounds: ROUNDS,
        rss_start_mb: round(first.rssMb),
        rss_mid_mb: round(mid.rssMb),
        rss_end_mb: round(last.rssMb),
        rss_growth_first_half_mb: round(mid.rssMb - first.rssMb),
        rss_growth_second_half_mb: round(last.rssMb - mid.rssMb),
        heap_mid_mb: round(mid.heapMb),
        heap_end_mb: round(last.heapMb),
      };
      log(
        `rss ${figures.rss_start_mb} → ${figures.rss_mid_mb} → ${figures.rss_end_mb} MB: ` +
          `+${figures.rss_growth_first_half_mb} MB in the first half, +${figures.rss_growth_second_half_mb} MB in the second`,
      );
      return figures;
    } finally {
      await app.shutdown();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
