import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../ledger/index.js';
import { KINDS, spotById } from '../../rules/index.js';
import { readTableJournal, StandingBets } from '../../service/round-snapshot.js';
import { rollKeys } from '../../service/roll-key-source.js';
import { TableService } from '../../service/table-service.js';
import type { RoundEvent } from '../../table/index.js';
import { runCli } from '../testing.js';
import type { PlayReport } from '../../service/simulated-table.js';
import { isRoundEventEntry } from '../../journal/index.js';

let dir = '';
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-play-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshDb = (): string => join(dir, `play${++n}.sqlite`);

async function play(db: string, ...args: string[]): Promise<PlayReport> {
  const result = await runCli(['play', '--db', db, '--json', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as PlayReport;
}

async function auditPasses(db: string): Promise<void> {
  const verdict = await runCli(['audit', 'verify', '--db', db]);
  expect(verdict.code, verdict.stderr).toBe(0);
}

async function journalEvents(db: string): Promise<RoundEvent[]> {
  const store = await openSqliteStore({ path: db, currency: 'MOP' });
  try {
    const events: RoundEvent[] = [];
    for await (const e of readTableJournal(store, 'T1', 1))
      if (isRoundEventEntry(e)) events.push(e.payload);
    return events;
  } finally {
    await store.close();
  }
}

describe('cussec play', () => {
  it('plays seeded rounds with bets on every kind of spot of Art. 5, and the audit passes', async () => {
    const db = freshDb();
    const report = await play(db, '--rounds', '12', '--players', '6', '--seed', 'kinds');
    expect(report).toMatchObject({ tableId: 'T1', rounds: 12, firstRoundNo: 1, lastRoundNo: 12 });
    expect(report.resumedAt).toEqual({ roundNo: 0, phase: 'idle' });
    expect(report.bets).toBeGreaterThan(12 * 6 - 1);
    expect(report.hold).toBeCloseTo(
      (report.handleMinor - report.returnedMinor) / report.handleMinor,
    );
    expect(report.deposits).toBe(6);
    const kinds = new Set(
      (await journalEvents(db)).flatMap((e) =>
        e.type === 'bet-placed' ? [spotById(e.bet.spot)!.kind] : [],
      ),
    );
    expect([...kinds].sort()).toEqual(Object.keys(KINDS).sort());
    await auditPasses(db);
  });

  it('continues the rounds of the last run, without depositing again', async () => {
    const db = freshDb();
    await play(db, '--rounds', '3', '--players', '2', '--seed', 'again');
    const second = await play(db, '--rounds', '4', '--players', '2', '--seed', 'again');
    expect(second).toMatchObject({ firstRoundNo: 4, lastRoundNo: 7, rounds: 4, deposits: 0 });
    expect(second.resumedAt).toEqual({ roundNo: 3, phase: 'paid' });
    await auditPasses(db);
  });

  it('finishes a round another run left in the middle of betting', async () => {
    const db = freshDb();
    await play(db, '--rounds', '1', '--players', '2', '--seed', 'mid');
    // Another croupier opened round 2 and a player bet, then the process died.
    const store = await openSqliteStore({ path: db, currency: 'MOP' });
    // It sealed the roll with the key `cussec play` keeps beside the database.
    const keys = rollKeys({ env: undefined, keyFile: undefined, sqlitePath: db }).keys;
    const service = new TableService({ store, rollKeys: keys });
    for (const command of [
      { type: 'cover' },
      { type: 'fasten-latches' },
      { type: 'trigger-shaker' },
      { type: 'open-betting' },
      { type: 'place-bet', betId: 'left-over', playerId: 'p1', spot: 'big', stakeMinor: 5_000 },
    ] as const)
      expect((await service.execute({ tableId: 'T1', command })).ok).toBe(true);
    await store.close();
    const report = await play(db, '--rounds', '2', '--players', '2', '--seed', 'mid');
    expect(report.resumedAt).toEqual({ roundNo: 2, phase: 'betting' });
    expect(report).toMatchObject({ firstRoundNo: 2, lastRoundNo: 3 });
    const round2 = (await journalEvents(db)).filter((e) => e.roundNo === 2);
    const bets = new StandingBets();
    for (const e of round2) bets.apply(e);
    const settled = round2.find((e) => e.type === 'round-settled');
    expect(bets.list.some((b) => b.betId === 'left-over')).toBe(true);
    expect(settled?.type === 'round-settled' && settled.returnsMinor.length).toBe(bets.list.length);
    await auditPasses(db);
  });

  it('replays the same game from the same seed', async () => {
    const args = ['--rounds', '5', '--players', '3', '--seed', 'replay'];
    const [a, b] = [await play(freshDb(), ...args), await play(freshDb(), ...args)];
    expect(a).toEqual(b);
  });

  it('plays a lever table: three pulls, and the croupier reads the dice', async () => {
    const db = freshDb();
    const report = await play(
      db,
      '--rounds',
      '3',
      '--players',
      '2',
      '--shaker',
      'lever',
      '--seed',
      'lever',
    );
    expect(report.shaker).toBe('lever');
    const events = await journalEvents(db);
    expect(events.filter((e) => e.type === 'lever-pulled')).toHaveLength(
      3 * (3 + report.voidRolls),
    );
    expect(events.filter((e) => e.type === 'dice-read')).toHaveLength(3);
    await auditPasses(db);
  });

  it('prints a summary line, and no progress bar off a terminal', async () => {
    const db = freshDb();
    const { code, stdout, stderr } = await runCli([
      'play',
      '--db',
      db,
      '--rounds',
      '2',
      '--players',
      '2',
      '--seed',
      'line',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^played 2 rounds of table T1 \(rounds 1–2\), seed line: \d+ bets, handle [\d,]+, returned [\d,]+, hold -?[\d.]+% \(minor units of MOP\)/,
    );
    expect(stderr).toBe('play: table T1 (electronic shaker), round 0 at phase idle, seed line\n');
  });

  it('keeps the currency a database was made with', async () => {
    const db = freshDb();
    await play(db, '--rounds', '1', '--players', '1', '--currency', 'HKD');
    const again = await runCli([
      'play',
      '--db',
      db,
      '--rounds',
      '1',
      '--players',
      '1',
      '--currency',
      'MOP',
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/keeps another currency than MOP/);
    await play(db, '--rounds', '1', '--players', '1');
  });

  it.each([
    [['--rounds', '0', '--players', '2'], /--rounds must be a whole number from 1/],
    [['--rounds', '1', '--players', 'x'], /--players must be a whole number from 1/],
    [['--rounds', '1', '--players', '1001'], /--players must be a whole number from 1 to 1,000/],
    [['--rounds', '1', '--players', '1', '--seed', 'a b'], /--seed must be/],
    [['--rounds', '1', '--players', '1', '--currency', 'EUR'], /--currency must be MOP or HKD/],
    [['--rounds', '1', '--players', '1', '--table', 'no way'], /--table must be/],
    [
      ['--rounds', '1', '--players', '1', '--shaker', 'hand'],
      /--shaker must be electronic or lever/,
    ],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const { code, stdout, stderr } = await runCli(['play', '--db', freshDb(), ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });
});
