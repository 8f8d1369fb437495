/**
 * The result and the payment (Arts. 3.2 and 4): the dice are read by the
 * croupier (lever table) or revealed from the seal (electronic table), the
 * round is settled with src/rules, and pay-all marks every prize paid.
 */
import {
  type Dice,
  isDice,
  outcomeIndex,
  settleReturns,
  SPOT_COUNT,
  spotById,
} from '../rules/index.js';
import { reject } from './rejections.js';
import { base, croupierOf, next } from './state.js';
import type {
  BetResult,
  Command,
  PlacedBet,
  RoundEvent,
  RoundState,
  Settlement,
  TableConfig,
  TransitionResult,
} from './types.js';

type Of<T extends Command['type']> = Extract<Command, { type: T }>;

/** The offered spots that win on `dice`, in layout order: what the layout may light (Art. 3.2). */
export function winningSpots(config: TableConfig, dice: Dice): string[] {
  const row = outcomeIndex(dice) * SPOT_COUNT;
  const multipliers = config.paytable.returnMultipliers;
  return config.paytable.paytable.spots.filter((id) => multipliers[row + spotById(id)!.index]! > 0);
}

/**
 * Settles the round's standing bets with the table's paytable (Arts. 5–7):
 * src/rules' one engine, `settleReturns`, keeping only what each bet returns.
 * Every bet was validated when placed; one the layout does not offer is a
 * programming error and throws.
 */
export function settleRound(
  config: TableConfig,
  dice: Dice,
  bets: readonly PlacedBet[],
): Settlement {
  const returnsMinor = new Array<number>(bets.length);
  const totals = settleReturns(config.paytable, dice, bets, returnsMinor);
  return {
    dice: [dice[0], dice[1], dice[2]],
    winningSpots: winningSpots(config, dice),
    returnsMinor,
    totalStakeMinor: totals.totalStakeMinor,
    totalReturnedMinor: totals.totalReturnedMinor,
  };
}

/** The settlement a `round-settled` event carries, without the event's own fields. */
export function settlementOf(event: Settlement): Settlement {
  const { dice, winningSpots, returnsMinor, totalStakeMinor, totalReturnedMinor } = event;
  return { dice, winningSpots, returnsMinor, totalStakeMinor, totalReturnedMinor };
}

/** Throws unless the settlement has one return for each of these bets. */
export function assertAligned(bets: readonly PlacedBet[], settlement: Settlement): void {
  const returns = settlement.returnsMinor.length;
  if (returns !== bets.length)
    throw new Error(`settlement: ${returns} returns recorded for ${bets.length} standing bets`);
}

/**
 * Each standing bet with what it won and returned: the settlement's returns
 * paired with the bets they are aligned with. A settlement that does not fit
 * its bets means the state or the journal is not what the table wrote.
 */
export function betResults(bets: readonly PlacedBet[], settlement: Settlement): BetResult[] {
  assertAligned(bets, settlement);
  const { returnsMinor } = settlement;
  return bets.map((bet, i): BetResult => {
    const returnedMinor = returnsMinor[i]!;
    return {
      betId: bet.betId,
      playerId: bet.playerId,
      spot: bet.spot,
      stakeMinor: bet.stakeMinor,
      winMinor: returnedMinor === 0 ? 0 : returnedMinor - bet.stakeMinor,
      returnedMinor,
    };
  });
}

function settled(
  config: TableConfig,
  state: RoundState,
  dice: Dice,
  announced: RoundEvent,
  now: number,
): TransitionResult {
  const settlement = settleRound(config, dice, state.bets);
  const nextState = next(state, { phase: 'revealed', settlement }, now);
  const event = {
    type: 'round-settled',
    ...base(config, nextState, now),
    ...settlement,
  } as const;
  return { ok: true, state: nextState, events: [announced, event] };
}

export function readDice(
  config: TableConfig,
  state: RoundState,
  command: Of<'read-dice'>,
  now: number,
): TransitionResult {
  // Art. 1.1: a reading is three faces 1 to 6, nothing more and nothing less.
  const dice: unknown = command.dice;
  if (!isDice(dice)) {
    return reject(
      'invalid_dice',
      `read-dice: dice must be exactly three whole numbers 1–6, got ${JSON.stringify(dice) ?? 'nothing'}`,
    );
  }
  const copy: Dice = [dice[0], dice[1], dice[2]];
  // Art. 3.2: the croupier announces the result once the dome is lifted.
  const announced = {
    type: 'dice-read',
    ...base(config, state, now),
    dice: copy,
    croupierId: command.croupierId,
  } as const;
  return settled(config, state, copy, announced, now);
}

export function revealDice(
  config: TableConfig,
  state: RoundState,
  command: Of<'reveal-dice'>,
  now: number,
): TransitionResult {
  const seal = state.seal;
  // The electronic shaker always seals before betting opens, so a lifted
  // electronic roll without a seal means the state was tampered with.
  if (seal === null)
    throw new Error(`round ${state.roundNo} roll ${state.rollNo}: lifted without a sealed roll`);
  const announced = {
    type: 'dice-revealed',
    ...base(config, state, now),
    dice: seal.dice,
    nonceHex: seal.nonceHex,
    commitmentHex: seal.commitmentHex,
    croupierId: croupierOf(command),
  } as const;
  return settled(config, state, seal.dice, announced, now);
}

export function payAll(
  config: TableConfig,
  state: RoundState,
  command: Of<'pay-all'>,
  now: number,
): TransitionResult {
  const settlement = state.settlement!;
  // Art. 4: once every prize is paid the dome may be covered again.
  const nextState = next(state, { phase: 'paid' }, now);
  const event = {
    type: 'prizes-paid',
    ...base(config, nextState, now),
    payoutCount: settlement.returnsMinor.reduce((n, r) => (r > 0 ? n + 1 : n), 0),
    totalReturnedMinor: settlement.totalReturnedMinor,
    croupierId: croupierOf(command),
  } as const;
  return { ok: true, state: nextState, events: [event] };
}
