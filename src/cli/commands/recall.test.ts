import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecalledRound } from '../../service/recall.js';
import { runCli } from '../testing.js';

let dir = '';
let db = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-recall-'));
  db = join(dir, 'recall.sqlite');
  const played = await runCli([
    'play',
    '--db',
    db,
    '--rounds',
    '6',
    '--players',
    '3',
    '--seed',
    'recall',
  ]);
  expect(played.code, played.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cussec recall', () => {
  it('prints every field of the last rounds as JSON', async () => {
    const { code, stdout } = await runCli(['recall', '--db', db, '--rounds', '4', '--json']);
    expect(code).toBe(0);
    const { tableId, rounds } = JSON.parse(stdout) as { tableId: string; rounds: RecalledRound[] };
    expect(tableId).toBe('T1');
    expect(rounds.map((r) => r.roundNo)).toEqual([3, 4, 5, 6]);
    for (const round of rounds) {
      expect(round.status).toBe('paid');
      expect(round.result).toMatchObject({ method: 'electronic', verified: true });
      expect(round.bets.length).toBeGreaterThan(0);
      // Each player's wallet moves by exactly what the round took and gave back.
      for (const p of round.players)
        expect(p.balanceAfterMinor! - p.balanceBeforeMinor!).toBe(p.returnedMinor! - p.stakedMinor);
    }
  });

  it('lays the rounds out for a person: dice, commitment, bets and wallets', async () => {
    const { code, stdout } = await runCli(['recall', '--db', db, '--rounds', '1']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Table T1: the last 1 round, oldest first \(amounts in minor units of MOP\)\./,
    );
    expect(stdout).toMatch(/^Round 6 — paid, started /m);
    // Art. 8: `cussec play` plays under an authorization marked as a simulation, and says so.
    expect(stdout).toMatch(
      /^ {2}House options authorized by: SIMULATION: not a DICJ authorization \(Art\. 8\)$/m,
    );
    expect(stdout).toMatch(/^ {2}Roll 1, commitment [0-9a-f]{64}$/m);
    expect(stdout).toMatch(
      /^ {2}Dice \d-\d-\d \(roll 1\), nonce [0-9a-f]{64}: opens the commitment/m,
    );
    expect(stdout).toMatch(/^ {2}Bet +Player +Spot +Roll +Stake +Win +Returned$/m);
    expect(stdout).toMatch(/^ {2}Player +Wallet before +Staked +Returned +Wallet after$/m);
  });

  it.each([
    [['--rounds', '0'], /--rounds must be a whole number from 1 to 100/],
    [['--table', 'T9'], /there is no table "T9"/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const { code, stderr } = await runCli(['recall', '--db', db, ...args]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('refuses a database that does not exist', async () => {
    const { code, stderr } = await runCli(['recall', '--db', join(dir, 'none.sqlite')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/no database at/);
  });
});
