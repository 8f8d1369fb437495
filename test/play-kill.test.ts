/**
 * Crash safety end to end: `cussec play` is killed with SIGKILL at seeded
 * random moments and restarted on the same database; after every kill the
 * audit passes, and every wallet equals its deposits − stakes + amounts
 * returned (withdrawn stakes and prizes), as the journal tells them, with no
 * bet lost and no round paid twice.
 *
 * The CLI runs from source (`node --import tsx src/cli/main.ts`), so the test
 * needs no build. The PostgreSQL half runs in a database made for it when
 * CUSSEC_TEST_PG_URL is set (test/global-setup.ts sets it when a local server
 * answers), and is skipped with a message otherwise.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/testing.js';
import { createPrng } from '../src/dice/index.js';
import { isRoundEventEntry } from '../src/journal/index.js';
import { inPlayAccount, type Store, walletAccount } from '../src/ledger/index.js';
import { openExistingStore } from '../src/service/open-store.js';
import { readTableJournal, StandingBets } from '../src/service/round-snapshot.js';
import { type BetResult, betResults, type RoundEvent } from '../src/table/index.js';
import { type PlayProcess, spawnPlay } from './play-process.js';

const SEED = process.env['CUSSEC_KILL_SEED'] ?? '20240601';
/** Every run seals and opens rolls with the same key, as the nodes of a floor do (docs/dice.md). */
const ROLL_KEY = `play-kill:${randomBytes(32).toString('base64')}`;
const PLAYERS = 8;

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly stdout: string;
}

function startPlay(
  db: string,
  rounds: number,
): { child: PlayProcess['child']; started: Promise<void>; exit: Promise<Exit> } {
  const { child } = spawnPlay({
    db,
    rounds,
    players: PLAYERS,
    seed: SEED,
    env: { CUSSEC_DEBUG: '1', CUSSEC_ROLL_KEY: ROLL_KEY },
  });
  let stderr = '';
  let stdout = '';
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    // play announces where it resumes once the store is open and the table loaded.
    if (stderr.includes('play: table')) markStarted();
  });
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const exit = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => {
      markStarted();
      resolve({ code, signal, stderr, stdout });
    }),
  );
  return { child, started, exit };
}

/** The wallet identity, from the journal alone, checked against the ledger's balances and transfers. */
async function checkWallets(store: Store): Promise<{ wallets: number; rounds: number }> {
  const expected = new Map<string, number>();
  const add = (playerId: string, amount: number) =>
    expected.set(playerId, (expected.get(playerId) ?? 0) + amount);
  const bets = new Set<string>();
  const paidRounds = new Set<string>();
  const standing = new Map<string, StandingBets>();
  let results: BetResult[] = [];
  for (let from = 1; ;) {
    const page = await store.readJournal({ fromSeq: from, limit: 5_000 });
    for (const entry of page) {
      if (entry.type === 'deposit') add(entry.payload.playerId, entry.payload.amountMinor);
      if (entry.type === 'withdrawal') add(entry.payload.playerId, -entry.payload.amountMinor);
      if (!isRoundEventEntry(entry)) continue;
      const event = entry.payload;
      const round = `${event.tableId}:${event.roundNo}`;
      const tableBets = standing.get(event.tableId) ?? new StandingBets();
      standing.set(event.tableId, tableBets);
      tableBets.apply(event);
      if (event.type === 'round-settled') results = betResults(tableBets.list, event);
      if (event.type === 'bet-placed') {
        const id = `${round}:${event.bet.betId}`;
        expect(bets.has(id), `bet ${id} recorded twice`).toBe(false);
        bets.add(id);
        add(event.bet.playerId, -event.bet.stakeMinor);
      }
      if (event.type === 'bet-withdrawn') add(event.bet.playerId, event.bet.stakeMinor);
      if (event.type === 'prizes-paid') {
        expect(paidRounds.has(round), `round ${round} paid twice`).toBe(false);
        paidRounds.add(round);
        const returned = results.reduce((sum, r) => sum + r.returnedMinor, 0);
        expect(returned).toBe(event.totalReturnedMinor);
        for (const r of results) if (r.returnedMinor > 0) add(r.playerId, r.returnedMinor);
      }
    }
    if (page.length < 5_000) break;
    from = page[page.length - 1]!.seq + 1;
  }
  for (const [playerId, balance] of expected) {
    const wallet = await store.getAccount(walletAccount(playerId).id);
    expect(wallet?.balanceMinor, `wallet of ${playerId}`).toBe(balance);
    // The ledger's own transfers of the wallet tell the same story, kind by kind.
    expect(await signedSum(store, walletAccount(playerId).id)).toBe(balance);
  }
  return { wallets: expected.size, rounds: paidRounds.size };
}

/** Credits − debits of an account over all its transfers. */
async function signedSum(store: Store, accountId: string): Promise<number> {
  let sum = 0;
  for (let afterSeq = 0; ;) {
    const page = await store.transfersOfAccount(accountId, { afterSeq, limit: 10_000 });
    for (const t of page) sum += t.creditAccountId === accountId ? t.amountMinor : -t.amountMinor;
    if (page.length < 10_000) return sum;
    afterSeq = page[page.length - 1]!.seq;
  }
}

async function auditPasses(db: string): Promise<void> {
  const verdict = await runCli(['audit', 'verify', '--db', db]);
  expect(verdict.stderr).toBe('');
  expect(verdict.code).toBe(0);
}

async function withStore<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openExistingStore(db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Kills `play` KILLS times at random moments, then lets a last run finish. */
async function killAndRestart(db: string, kills: number): Promise<void> {
  const prng = createPrng(`${SEED}/kills`);
  const resumedAt: string[] = [];
  for (let k = 0; k < kills; k++) {
    const run = startPlay(db, 100_000);
    await run.started;
    await new Promise((r) => setTimeout(r, prng.int(300, 2_000)));
    run.child.kill('SIGKILL');
    const exit = await run.exit;
    expect(exit.signal, exit.stderr).toBe('SIGKILL');
    resumedAt.push(/round \d+ at phase \w+/.exec(exit.stderr)?.[0] ?? '?');
    await auditPasses(db);
    await withStore(db, checkWallets);
  }
  const last = startPlay(db, 3);
  const exit = await last.exit;
  expect(exit.code, exit.stderr).toBe(0);
  expect(exit.stdout).toMatch(/^played 3 rounds of table T1/);
  resumedAt.push(/round \d+ at phase \w+/.exec(exit.stderr)?.[0] ?? '?');
  console.info(
    `play-kill (${db.startsWith('postgres') ? 'postgres' : 'sqlite'}): runs began at ${resumedAt.join('; ')}`,
  );
  await auditPasses(db);
  await withStore(db, async (store) => {
    const { rounds } = await checkWallets(store);
    expect(rounds).toBeGreaterThanOrEqual(3);
    // The last run ended a round: every stake is settled, none is left in play.
    expect((await store.getAccount(inPlayAccount('T1').id))?.balanceMinor).toBe(0);
    const header = (await store.getTable('T1'))!.state as { phase: string; roundNo: number };
    expect(header.phase).toBe('paid');
    // Rounds are numbered on from run to run: one round-start entry per number, no gaps.
    const starts: number[] = [];
    for await (const entry of readTableJournal(store, 'T1', 1)) {
      const e = entry.payload as RoundEvent;
      if (e.type === 'dome-covered' && e.newRound) starts.push(e.roundNo);
    }
    expect(starts).toEqual(Array.from({ length: header.roundNo }, (_, i) => i + 1));
  });
}

describe('cussec play killed with SIGKILL [sqlite]', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cussec-kill-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every bet and pays every round once across kills and restarts', async () => {
    await killAndRestart(join(dir, 'play.sqlite'), 5);
  }, 60_000);
});

const pgUrl = process.env['CUSSEC_TEST_PG_URL'];
if (!pgUrl)
  console.warn(
    'Skipping the PostgreSQL half of the play kill test: CUSSEC_TEST_PG_URL is not set.',
  );

describe.skipIf(!pgUrl)('cussec play killed with SIGKILL [postgres]', () => {
  const database = `cussec_kill_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeAll(() => admin(`CREATE DATABASE ${database}`));
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

  it('keeps every bet and pays every round once across kills and restarts', async () => {
    const url = new URL(pgUrl!);
    url.pathname = `/${database}`;
    await killAndRestart(url.href, 4);
  }, 60_000);
});
