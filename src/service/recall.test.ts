import { expect, it } from 'vitest';
import { createPrng } from '../dice/index.js';
import type { Store } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { DEFAULT_COMPILED, settle } from '../rules/index.js';
import type { Command } from '../table/index.js';
import { deposit, openWallet } from './cage.js';
import { recallRounds } from './recall.js';
import { simulatedTableSettings, type TableSettings } from './table-settings.js';
import { TableService } from './table-service.js';

type AnyCommand = Command | { readonly type: 'trigger-shaker' };

async function setup(store: Store, settings: Partial<TableSettings> = {}) {
  let now = 1_764_460_800_000;
  const service = new TableService({ store, clock: () => (now += 1_000), random: createPrng(5) });
  await service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null, ...settings });
  // Alice is registered with the cage (a user with a name); bob has a wallet only, as `cussec play` makes.
  await store.transaction((tx) =>
    tx.createUser({
      id: 'alice',
      username: 'alice',
      displayName: 'Alice Wong',
      role: 'player',
      passwordHash: `scrypt$32768$8$1$${'00'.repeat(16)}$${'00'.repeat(32)}`,
    }),
  );
  for (const p of ['alice', 'bob']) {
    await openWallet(store, p);
    await deposit(store, {
      playerId: p,
      amountMinor: 100_000,
      cashierId: 'c',
      idempotencyKey: `d-${p}`,
    });
  }
  const steps = async (...commands: AnyCommand[]) => {
    for (const command of commands) {
      const outcome = await service.execute({ tableId: 'T1', command });
      if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
    }
  };
  return steps;
}

const OPEN: AnyCommand[] = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
];
const CLOSE: AnyCommand[] = [{ type: 'ring-bell' }, { type: 'lift-dome' }];
const bet = (betId: string, playerId: string, spot: string, stakeMinor: number): Command => ({
  type: 'place-bet',
  betId,
  playerId,
  spot,
  stakeMinor,
});

withStores('game recall', (h) => {
  it('recalls bets, a void roll, the sealed dice, wins and balances before and after', async () => {
    const store = await h.open();
    const steps = await setup(store);
    // Round 1: a void roll (Art. 3.3), a withdrawn bet, a bet standing through the void.
    await steps(
      ...OPEN,
      bet('a1', 'alice', 'small', 5_000),
      bet('b1', 'bob', 'triple:6', 1_000),
      bet('a2', 'alice', 'big', 2_000),
      { type: 'withdraw-bet', betId: 'a2', playerId: 'alice' },
      ...CLOSE,
      { type: 'void-roll', reason: 'tilted' },
      ...OPEN,
      bet('b2', 'bob', 'odd', 3_000),
      ...CLOSE,
      { type: 'reveal-dice' },
      { type: 'pay-all' },
    );
    // Round 2: settled, prizes not yet paid.
    await steps(...OPEN, bet('a3', 'alice', 'even', 1_000), ...CLOSE, { type: 'reveal-dice' });

    const [first, second] = (await recallRounds(store, 'T1', 10))!;
    expect(first).toMatchObject({ roundNo: 1, status: 'paid' });
    expect(second).toMatchObject({ roundNo: 2, status: 'settled', paidAtMs: null });

    const [roll1, roll2] = first!.rolls;
    expect(roll1!.commitmentHex).toMatch(/^[0-9a-f]{64}$/);
    expect(roll1!.voided).toMatchObject({ reason: 'tilted', sealVerified: true });
    expect(roll1!.voided!.openedSeal!.commitmentHex).toBe(roll1!.commitmentHex);
    expect(roll2).toMatchObject({ rollNo: 2, voided: null, bellAutomatic: false });
    const result = first!.result!;
    expect(result).toMatchObject({ method: 'electronic', rollNo: 2, verified: true });
    if (result.method !== 'electronic') throw new Error('unreachable');
    expect(result.commitmentHex).toBe(roll2!.commitmentHex);

    const [small, triple, odd] = settle(DEFAULT_COMPILED, result.dice, [
      { spot: 'small', stakeMinor: 5_000 },
      { spot: 'triple:6', stakeMinor: 1_000 },
      { spot: 'odd', stakeMinor: 3_000 },
    ]);
    expect(first!.bets.map((b) => [b.betId, b.rollNo, b.withdrawnAtMs !== null])).toEqual([
      ['a1', 1, false],
      ['b1', 1, false],
      ['a2', 1, true],
      ['b2', 2, false],
    ]);
    expect(first!.bets.map((b) => b.returnedMinor)).toEqual([
      small!.returnedMinor,
      triple!.returnedMinor,
      null,
      odd!.returnedMinor,
    ]);
    expect(first!.totalStakeMinor).toBe(9_000);

    const returned = {
      alice: small!.returnedMinor,
      bob: triple!.returnedMinor + odd!.returnedMinor,
    };
    expect(first!.players).toEqual([
      {
        playerId: 'alice',
        displayName: 'Alice Wong',
        balanceBeforeMinor: 100_000,
        balanceAfterMinor: 95_000 + returned.alice,
        stakedMinor: 5_000,
        returnedMinor: returned.alice,
        forfeitedMinor: 0,
      },
      {
        playerId: 'bob',
        displayName: null,
        balanceBeforeMinor: 100_000,
        balanceAfterMinor: 96_000 + returned.bob,
        stakedMinor: 4_000,
        returnedMinor: returned.bob,
        forfeitedMinor: 0,
      },
    ]);
    // Round 2 starts from where round 1 left alice, and nothing is paid yet.
    expect(second!.players).toEqual([
      {
        playerId: 'alice',
        displayName: 'Alice Wong',
        balanceBeforeMinor: 95_000 + returned.alice,
        balanceAfterMinor: 94_000 + returned.alice,
        stakedMinor: 1_000,
        returnedMinor: second!.bets[0]!.returnedMinor,
        forfeitedMinor: 0,
      },
    ]);
  });

  it('recalls only the last N rounds, and nothing for an unknown table', async () => {
    const store = await h.open();
    const steps = await setup(store);
    for (let r = 1; r <= 3; r++)
      await steps(
        ...OPEN,
        bet(`a${r}`, 'alice', 'small', 1_000),
        ...CLOSE,
        { type: 'reveal-dice' },
        { type: 'pay-all' },
      );
    await steps(...OPEN, bet('late', 'bob', 'big', 1_000));
    const last = (await recallRounds(store, 'T1', 2))!;
    expect(last.map((r) => [r.roundNo, r.status])).toEqual([
      [3, 'paid'],
      [4, 'open'],
    ]);
    expect(last[1]!.result).toBeNull();
    expect(last[1]!.players[0]).toMatchObject({
      playerId: 'bob',
      stakedMinor: 1_000,
      returnedMinor: null,
    });
    expect(await recallRounds(store, 'nope', 2)).toBeUndefined();
  });

  it('names the croupier who read the dice of a lever table (Art. 3.2)', async () => {
    const store = await h.open();
    const steps = await setup(store, { shaker: 'lever' });
    await steps(
      { type: 'cover' },
      { type: 'fasten-latches' },
      { type: 'pull-lever' },
      { type: 'pull-lever' },
      { type: 'pull-lever' },
      { type: 'open-betting' },
      bet('a1', 'alice', 'total:9', 1_000),
      ...CLOSE,
      { type: 'read-dice', dice: [2, 3, 4], croupierId: 'croupier-7' },
    );
    const [round] = (await recallRounds(store, 'T1'))!;
    expect(round!.rolls[0]!.commitmentHex).toBeNull();
    expect(round!.result).toMatchObject({
      method: 'lever',
      dice: [2, 3, 4],
      croupierId: 'croupier-7',
    });
    expect(round!.bets[0]).toMatchObject({ winMinor: 6_000, returnedMinor: 7_000 });
  });
});

withStores('game recall and Art. 8', (h) => {
  it('names the authorization each round was played under, with its mark', async () => {
    const store = await h.open();
    const service = new TableService({ store, random: createPrng(9) });
    await service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
    const round = async () => {
      for (const command of [...OPEN, ...CLOSE, { type: 'reveal-dice' }, { type: 'pay-all' }]) {
        const outcome = await service.execute({ tableId: 'T1', command: command as AnyCommand });
        if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
      }
    };
    await round();
    const adopted = await service.changeHouseOptions('T1', {
      options: { shaker: 'electronic', displayBoard: false, paytable: DEFAULT_COMPILED.paytable },
      authorization: {
        mark: 'dicj',
        reference: 'DICJ/2026/0042',
        authorizedOn: '2026-03-03',
        recordedBy: 'insp-1',
        proposalId: 'P1',
      },
      changedBy: 'system:automatic-adoption',
      entries: [],
    });
    expect(adopted.ok).toBe(true);
    await round();
    const [first, second] = (await recallRounds(store, 'T1', 2))!;
    expect(first!.authorization).toMatchObject({ mark: 'simulation', proposalId: null });
    expect(second!.authorization).toMatchObject({ mark: 'dicj', reference: 'DICJ/2026/0042' });
    const [last] = (await recallRounds(store, 'T1', 1))!;
    expect(last!.authorization).toMatchObject({ mark: 'dicj' });
  });
});
