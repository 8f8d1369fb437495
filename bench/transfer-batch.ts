/**
 * The ledger alone: one batch of 10,000 transfers (a bet from each of 10,000
 * wallets, plus one journal entry) posted in one transaction, beside the
 * baseline of as many plain rows by one prepared statement in one transaction
 * on the same database, measured right before each batch. docs/ledger.md
 * quotes these figures; settle-round measures the service on top.
 */
import {
  bankrollAccount,
  inPlayAccount,
  type Store,
  type TransferInput,
  walletAccount,
} from '../src/ledger/index.js';
import {
  type BenchDatabase,
  fundWallets,
  postgresDatabase,
  seconds,
  sqliteDatabase,
} from './databases.js';
import { type Benchmark, median, round } from './harness.js';

const TRANSFERS = 10_000;
const SAMPLES = 5;

async function postBatch(store: Store, sample: number): Promise<number> {
  const players = Array.from({ length: TRANSFERS }, (_, i) => `s${sample}p${i}`);
  await fundWallets(store, players, 1_000);
  const reference = `round:T1:${sample}`;
  const bets: TransferInput[] = players.map((p, i) => ({
    id: `bet-${sample}-${i}`,
    debitAccountId: walletAccount(p).id,
    creditAccountId: inPlayAccount('T1').id,
    amountMinor: 100,
    currency: store.currency,
    kind: 'bet',
    reference,
  }));
  const start = process.hrtime.bigint();
  await store.transaction(async (tx) => {
    const posted = await tx.postTransfers(bets);
    if (!posted.ok) throw new Error('bench: the batch failed');
    // One entry, as every transaction that journals holds the chain's head.
    await tx.appendJournal([
      {
        tableId: null,
        type: 'session-revoked',
        payload: { userId: `bench-${sample}`, by: 'bench' },
      },
    ]);
  });
  return seconds(start);
}

async function measure(db: BenchDatabase, log: (line: string) => void) {
  await db.store.transaction(async (tx) => {
    await tx.createAccounts([inPlayAccount('T1'), bankrollAccount('T1')]);
  });
  const rates: number[] = [];
  const baselines: number[] = [];
  const ratios: number[] = [];
  const strictRatios: number[] = [];
  for (let s = 0; s <= SAMPLES; s++) {
    const baselineSeconds = await db.insertPlainRows(TRANSFERS);
    const strictSeconds = await db.insertPlainRowsAtOnce?.(TRANSFERS);
    const batchSeconds = await postBatch(db.store, s);
    // Sample 0 warms up; it is not counted.
    if (s === 0) continue;
    if (strictSeconds !== undefined) strictRatios.push(strictSeconds / batchSeconds);
    rates.push(TRANSFERS / batchSeconds);
    baselines.push(TRANSFERS / baselineSeconds);
    ratios.push(baselineSeconds / batchSeconds);
    log(
      `  batch ${s}: ${(batchSeconds * 1e3).toFixed(1)} ms; baseline ${(baselineSeconds * 1e3).toFixed(1)} ms`,
    );
  }
  return {
    transfers: TRANSFERS,
    rowsPerSecond: Math.round(median(rates)),
    baselineRowsPerSecond: Math.round(median(baselines)),
    ratio: round(median(ratios)),
    ...(strictRatios.length === 0 ? {} : { ratioToOneInsert: round(median(strictRatios)) }),
  };
}

function transferBatchBenchmark(
  engine: 'sqlite' | 'postgres',
  open: () => Promise<BenchDatabase | string>,
): Benchmark {
  return {
    name: `transfer-batch-${engine}`,
    description: `the ledger posting ${TRANSFERS.toLocaleString('en')} transfers in one transaction on ${engine} vs plain rows by one prepared statement in one transaction`,
    run: async (log) => {
      const db = await open();
      if (typeof db === 'string') {
        log(`transfer-batch-${engine}: SKIPPED — ${db}`);
        return { skipped: db };
      }
      try {
        const figures = await measure(db, log);
        log(
          `transfer-batch-${engine}: ${figures.rowsPerSecond.toLocaleString('en')} rows/s, ` +
            `baseline ${figures.baselineRowsPerSecond.toLocaleString('en')} rows/s, ratio ${figures.ratio}` +
            ('ratioToOneInsert' in figures
              ? `; ${figures.ratioToOneInsert} of one multi-row INSERT`
              : ''),
        );
        return figures;
      } finally {
        await db.dispose();
      }
    },
  };
}

export const transferBatchSqlite = transferBatchBenchmark('sqlite', sqliteDatabase);
export const transferBatchPostgres = transferBatchBenchmark('postgres', postgresDatabase);
