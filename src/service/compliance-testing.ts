/**
 * Test helpers for the compliance services: a clock set to Macau times, lever
 * tables (the croupier reads the dice, so a test chooses them) and whole
 * rounds played in one batch. Import from tests only.
 */
import { type IsoDate } from '../compliance/index.js';
import type { Store } from '../ledger/index.js';
import { DEFAULT_PAYTABLE, type Dice } from '../rules/index.js';
import type { Command } from '../table/index.js';
import { deposit, openWallet } from './cage.js';
import { macauDayStartMs } from './daily-report.js';
import { TableService } from './table-service.js';
import {
  markedAuthorization,
  simulatedTableSettings,
  type TableSettings,
} from './table-settings.js';

/** The instant of a Macau wall-clock time on a date. */
export const macauMs = (date: IsoDate, hours = 12, minutes = 0): number =>
  macauDayStartMs(date) + (hours * 60 + minutes) * 60_000;

/** A clock a test moves by hand. */
export interface TestClock {
  readonly now: () => number;
  set(ms: number): void;
  /** Moves to a Macau date and time. */
  at(date: IsoDate, hours?: number, minutes?: number): void;
}

export function testClock(start: number): TestClock {
  let ms = start;
  return {
    now: () => ms,
    set: (value) => {
      ms = value;
    },
    at: (date, hours = 12, minutes = 0) => {
      ms = macauMs(date, hours, minutes);
    },
  };
}

/** A lever table without a betting timer: the croupier reads the dice (Art. 3.2). */
export async function createLeverTable(
  tables: TableService,
  tableId: string,
  overrides: Partial<TableSettings> = {},
): Promise<void> {
  await tables.createTable({
    ...simulatedTableSettings(tableId),
    shaker: 'lever',
    bettingTimerMs: null,
    ...overrides,
  });
}

export async function fundPlayers(
  store: Store,
  playerIds: readonly string[],
  amountMinor = 10_000_000,
): Promise<void> {
  for (const playerId of playerIds) {
    await openWallet(store, playerId);
    const funded = await deposit(store, {
      playerId,
      amountMinor,
      cashierId: 'cashier',
      idempotencyKey: `fund-${playerId}`,
    });
    if (!funded.ok) throw new Error(`fund ${playerId}: ${funded.rejection.code}`);
  }
}

export interface PlannedBet {
  readonly betId: string;
  readonly playerId: string;
  readonly spot: string;
  readonly stakeMinor: number;
}

export interface RoundPlan {
  readonly dice: Dice;
  readonly bets?: readonly PlannedBet[];
  /** Void rolls before the good one (Art. 3.3: dice stacked or tilted). */
  readonly voids?: number;
}

const SHAKE: Command[] = [
  { type: 'fasten-latches' },
  { type: 'pull-lever' },
  { type: 'pull-lever' },
  { type: 'pull-lever' },
  { type: 'open-betting' },
];

/** A lever round, Arts. 2–4: cover, shake, bets, bell, lift, read the dice, pay all. */
export function leverRound(plan: RoundPlan, croupierId = 'croupier'): Command[] {
  const commands: Command[] = [{ type: 'cover', croupierId }, ...SHAKE];
  commands.push(...(plan.bets ?? []).map((b): Command => ({ type: 'place-bet', ...b })));
  for (let v = 0; v < (plan.voids ?? 0); v++) {
    commands.push(
      { type: 'ring-bell' },
      { type: 'lift-dome' },
      { type: 'void-roll', reason: 'stacked' },
      { type: 'cover' },
      ...SHAKE,
    );
  }
  commands.push(
    { type: 'ring-bell' },
    { type: 'lift-dome' },
    { type: 'read-dice', dice: plan.dice, croupierId },
    { type: 'pay-all' },
  );
  return commands;
}

/** Runs commands in one batch (one transaction) and fails on the first refusal. */
export async function runAll(
  tables: TableService,
  tableId: string,
  commands: readonly Command[],
): Promise<void> {
  const outcomes = await Promise.all(
    commands.map((command) => tables.execute({ tableId, command })),
  );
  outcomes.forEach((outcome, i) => {
    if (!outcome.ok)
      throw new Error(`${commands[i]!.type} at ${tableId}: ${outcome.rejection.code}`);
  });
}

/** Plays whole lever rounds, `perBatch` of them to a transaction. */
export async function playLeverRounds(
  tables: TableService,
  tableId: string,
  plans: readonly RoundPlan[],
  perBatch = 1,
): Promise<void> {
  for (let i = 0; i < plans.length; i += perBatch) {
    await runAll(
      tables,
      tableId,
      plans.slice(i, i + perBatch).flatMap((p) => leverRound(p)),
    );
  }
}

export const REPORT_TABLE_NAME = 'Salon <Privé> & "VIP"';

/**
 * Friday 6 March 2026 at table T1 (lever), with a round the evening before
 * and one just after midnight, which the day's report leaves out. On the day
 * (Macau time), two rounds; totals 5/16 pay 18:
 *
 * Round 2 (00:05), dice 1-1-3 (total 5): alice small 10,000 wins 1 → returns 20,000;
 *   bob total:5 1,000 wins 18 → returns 19,000; alice big 5,000 loses.
 * At 14:05 the odds of 5/16 go to 24 (6/15 stay at 14) under an authorization
 *   marked as a simulation (Art. 8): no bet of the day is on 5 or 16 after it.
 * Round 3 (23:59), a void roll then 6-6-6: bob any-triple 2,000 wins 24 → returns 50,000;
 *   alice small 3,000 loses.
 */
export async function seedReportDay(store: Store): Promise<void> {
  const clock = testClock(0);
  const tables = new TableService({ store, clock: clock.now });
  await createLeverTable(tables, 'T1', { name: REPORT_TABLE_NAME });
  await fundPlayers(store, ['alice', 'bob']);
  // table-created takes the store's own clock: a change at noon the day before is the
  // first settings entry the day reads, so the options at its start are the table's.
  clock.at('2026-03-05', 12);
  const limits = await tables.changeLimits('T1', { stakeMinorMax: 2_000_000 }, 'sup-1');
  if (!limits.ok) throw new Error(`change of limits: ${limits.rejection.code}`);
  clock.at('2026-03-05', 23, 50);
  await playLeverRounds(tables, 'T1', [
    { dice: [2, 2, 2], bets: [{ betId: 'eve', playerId: 'bob', spot: 'odd', stakeMinor: 1_000 }] },
  ]);
  clock.at('2026-03-06', 0, 5);
  await playLeverRounds(tables, 'T1', [
    {
      dice: [1, 1, 3],
      bets: [
        { betId: 'a1', playerId: 'alice', spot: 'small', stakeMinor: 10_000 },
        { betId: 'b1', playerId: 'bob', spot: 'total:5', stakeMinor: 1_000 },
        { betId: 'a2', playerId: 'alice', spot: 'big', stakeMinor: 5_000 },
      ],
    },
  ]);
  clock.at('2026-03-06', 14, 5);
  const changed = await tables.changeHouseOptions('T1', {
    options: {
      shaker: 'lever',
      displayBoard: true,
      paytable: { ...DEFAULT_PAYTABLE, totalOdds: { '5/16': 24, '6/15': 14 } },
    },
    authorization: markedAuthorization('simulation', '2026-03-06', 'simulation'),
    changedBy: 'sup-1',
    entries: [],
  });
  if (!changed.ok) throw new Error(`change of odds: ${changed.rejection.code}`);
  clock.at('2026-03-06', 23, 59);
  await playLeverRounds(tables, 'T1', [
    {
      dice: [6, 6, 6],
      voids: 1,
      bets: [
        { betId: 'b2', playerId: 'bob', spot: 'any-triple', stakeMinor: 2_000 },
        { betId: 'a3', playerId: 'alice', spot: 'small', stakeMinor: 3_000 },
      ],
    },
  ]);
  clock.at('2026-03-07', 0, 1);
  await playLeverRounds(tables, 'T1', [
    { dice: [3, 4, 5], bets: [{ betId: 'next', playerId: 'bob', spot: 'big', stakeMinor: 1_000 }] },
  ]);
}
