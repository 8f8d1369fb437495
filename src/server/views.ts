/**
 * What clients see of a table: everything public about the round (never the
 * sealed roll before its reveal), the stakes by spot, the recent results, and
 * which croupier steps the round machine would accept now.
 */
import { diceTotal, type Dice } from '../rules/index.js';
import {
  can,
  type Command,
  type CommandType,
  type RoundState,
  type TableConfig,
} from '../table/index.js';
import type { TableService } from '../service/table-service.js';
import type { TableSettings } from '../service/table-settings.js';
import { HttpError } from './http-error.js';

/** The croupier's steps, each with an example that passes the machine's shape checks. */
const CROUPIER_STEPS: readonly Command[] = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'pull-lever' },
  {
    type: 'trigger-shaker',
    sealedRoll: { dice: [1, 1, 1], nonceHex: '0'.repeat(64), commitmentHex: '0'.repeat(64) },
  },
  { type: 'open-betting' },
  { type: 'ring-bell' },
  { type: 'lift-dome' },
  { type: 'read-dice', dice: [1, 1, 1], croupierId: 'console' },
  { type: 'reveal-dice' },
  { type: 'void-roll', reason: 'stacked' },
  { type: 'pay-all' },
];

export interface RecentResult {
  readonly roundNo: number;
  readonly dice: Dice;
  readonly total: number;
}

export interface TableView {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly shaker: TableSettings['shaker'];
  readonly displayBoard: boolean;
  readonly bettingTimerMs: number | null;
  readonly stakeMinorMin: number;
  readonly stakeMinorMax: number;
  readonly liabilityMinorMax: number;
  readonly paytable: TableSettings['paytable'];
  readonly phase: RoundState['phase'];
  readonly roundNo: number;
  readonly rollNo: number;
  readonly leverPulls: number;
  readonly commitmentHex: string | null;
  readonly bettingDeadlineMs: number | null;
  readonly stakesBySpotMinor: Record<string, number>;
  readonly betCount: number;
  readonly totalStakeMinor: number;
  readonly lastRound: {
    readonly roundNo: number;
    /** The roll revealed (after a void roll, not the first): the commitment names it. */
    readonly rollNo: number;
    readonly dice: Dice;
    readonly winningSpots: readonly string[];
    readonly totalReturnedMinor: number;
    readonly payoutCount: number;
    readonly nonceHex: string | null;
    readonly commitmentHex: string | null;
  } | null;
  readonly history: readonly RecentResult[];
  readonly allowed: Partial<Record<CommandType, boolean>>;
  /** Art. 8: whether the house options carry a recorded authorization (else no round starts). */
  readonly optionsAuthorized: boolean;
  /** Art. 1.1: why the table is held between rounds, or null. */
  readonly hold: RoundState['hold'];
  /** When a supervisor closed the table for play; null while it is open. */
  readonly closedSinceMs: number | null;
  readonly lastEventSeq: number;
}

/** The stakes on the layout now (the summary feed's `stakes` message, and part of the view). */
export interface StakesSummary {
  readonly roundNo: number;
  readonly rollNo: number;
  readonly phase: RoundState['phase'];
  readonly stakesBySpotMinor: Record<string, number>;
  readonly betCount: number;
  readonly totalStakeMinor: number;
}

export function stakesOf(state: RoundState): StakesSummary {
  const stakes: Record<string, number> = {};
  let total = 0;
  for (const bet of state.bets) {
    stakes[bet.spot] = (stakes[bet.spot] ?? 0) + bet.stakeMinor;
    total += bet.stakeMinor;
  }
  return {
    roundNo: state.roundNo,
    rollNo: state.rollNo,
    phase: state.phase,
    stakesBySpotMinor: stakes,
    betCount: state.bets.length,
    totalStakeMinor: total,
  };
}

export async function tableView(
  service: TableService,
  tableId: string,
  history: readonly RecentResult[],
  lastEventSeq: number,
  now: number,
): Promise<TableView> {
  const snap = await service.snapshot(tableId);
  if (snap === undefined)
    throw new HttpError(404, 'unknown_table', `there is no table "${tableId}"`);
  const { settings, state, config } = snap;
  const stakes = stakesOf(state);
  const revealed = state.settlement !== null;
  return {
    id: settings.tableId,
    name: settings.name,
    currency: service.store.currency,
    shaker: settings.shaker,
    displayBoard: settings.displayBoard,
    bettingTimerMs: settings.bettingTimerMs,
    stakeMinorMin: settings.stakeMinorMin,
    stakeMinorMax: settings.stakeMinorMax,
    liabilityMinorMax: settings.liabilityMinorMax,
    paytable: settings.paytable,
    phase: state.phase,
    roundNo: state.roundNo,
    rollNo: state.rollNo,
    leverPulls: state.leverPulls,
    // Only the commitment of the sealed roll is public until the reveal (Art. 2.1).
    commitmentHex: state.seal?.commitmentHex ?? null,
    bettingDeadlineMs: state.bettingDeadlineMs,
    stakesBySpotMinor: stakes.stakesBySpotMinor,
    betCount: stakes.betCount,
    totalStakeMinor: stakes.totalStakeMinor,
    lastRound: revealed
      ? {
          roundNo: state.roundNo,
          rollNo: state.rollNo,
          dice: state.settlement.dice,
          winningSpots: state.settlement.winningSpots,
          // Art. 4: what "pay all" pays, shown to the croupier before paying.
          totalReturnedMinor: state.settlement.totalReturnedMinor,
          payoutCount: state.settlement.returnsMinor.filter((m) => m > 0).length,
          nonceHex: state.seal?.nonceHex ?? null,
          commitmentHex: state.seal?.commitmentHex ?? null,
        }
      : null,
    history,
    allowed: allowedSteps(config, state, now),
    optionsAuthorized: config.optionsAuthorized,
    hold: state.hold,
    closedSinceMs: state.closedSinceMs,
    lastEventSeq,
  };
}

export function allowedSteps(
  config: TableConfig,
  state: RoundState,
  now: number,
): Partial<Record<CommandType, boolean>> {
  const allowed: Partial<Record<CommandType, boolean>> = {};
  for (const step of CROUPIER_STEPS) allowed[step.type] = can(config, state, step, now);
  return allowed;
}

export function resultOf(roundNo: number, dice: Dice): RecentResult {
  return { roundNo, dice, total: diceTotal(dice) };
}
