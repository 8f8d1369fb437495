/**
 * Settlement: what each bet wins and what comes back to the player.
 *
 * Art. 6 pays "N times the stake" and the stake is returned with a win, so a
 * winning bet returns stake × (1 + N) and a losing one returns nothing.
 */
import { type Dice, outcomeIndex } from './dice.js';
import { err, ok, type Result } from './errors.js';
import type { CompiledPaytable } from './paytable.js';
import { SPOT_COUNT, spotById } from './spots.js';

export interface Bet {
  readonly spot: string;
  /** Stake in minor units of the table's currency (avos for MOP, cents for HKD). */
  readonly stakeMinor: number;
}

export interface SettledBet extends Bet {
  /** Winnings, 0 when the bet loses. */
  readonly winMinor: number;
  /** Stake + winnings on a win, 0 on a loss. */
  readonly returnedMinor: number;
}

/**
 * The largest stake any spot can take such that stake × 151 (the triple's return)
 * stays an exact integer in a double.
 */
export const STAKE_MINOR_MAX = Math.floor(Number.MAX_SAFE_INTEGER / 151);

/** Checks that a bet can be settled under this paytable. */
export function validateBet(table: CompiledPaytable, bet: Bet): Result<Bet> {
  const spot = spotById(bet.spot);
  if (spot === undefined) {
    return err({
      code: 'unknown_spot',
      message: `"${bet.spot}" is not a bet of the regulation`,
      article: '5',
    });
  }
  if (table.offered[spot.index] !== 1) {
    return err({
      code: 'spot_not_offered',
      message: `this layout does not offer "${bet.spot}"`,
      article: '8',
    });
  }
  const stake = bet.stakeMinor;
  if (!Number.isSafeInteger(stake) || stake <= 0 || stake > STAKE_MINOR_MAX) {
    return err({
      code: 'invalid_stake',
      message: `a stake must be a whole number of minor units from 1 to ${STAKE_MINOR_MAX}, got ${String(stake)}`,
    });
  }
  return ok(bet);
}

/** What a settlement returns besides each bet's return: the round's totals. */
export interface SettlementTotals {
  readonly totalStakeMinor: number;
  readonly totalReturnedMinor: number;
}

/**
 * The settlement engine, for one bet: what it returns (stake + winnings, or 0)
 * on the outcome whose row of return multipliers starts at `row`. One multiply:
 * the paytable was compiled into return multipliers per outcome and spot. A bet
 * that did not pass {@link validateBet} is a programming error and throws.
 * Small enough to be inlined into the loops below, the only two shapes of
 * result a settlement takes.
 */
function returnedMinorOf(table: CompiledPaytable, row: number, bet: Bet): number {
  const spot = spotById(bet.spot);
  if (spot === undefined || table.offered[spot.index] !== 1 || !(bet.stakeMinor > 0)) {
    throw new Error(`settle: invalid bet ${JSON.stringify(bet)}; validate bets first`);
  }
  return bet.stakeMinor * table.returnMultipliers[row + spot.index]!;
}

/**
 * Settles a round's bets in the form the round machine keeps (`settleRound`
 * of src/table, what the service runs at a reveal): writes what each bet
 * returns into `returnsMinor` at the bet's position, and gives the totals.
 */
export function settleReturns(
  table: CompiledPaytable,
  dice: Dice,
  bets: readonly Bet[],
  returnsMinor: number[],
): SettlementTotals {
  const row = outcomeIndex(dice) * SPOT_COUNT;
  let totalStakeMinor = 0;
  let totalReturnedMinor = 0;
  for (let i = 0; i < bets.length; i++) {
    const bet = bets[i]!;
    const returnedMinor = returnedMinorOf(table, row, bet);
    returnsMinor[i] = returnedMinor;
    totalStakeMinor += bet.stakeMinor;
    totalReturnedMinor += returnedMinor;
  }
  return { totalStakeMinor, totalReturnedMinor };
}

/** Settles bets on one roll, each with what it won and returned (the audit, the CLI, tests). */
export function settle(table: CompiledPaytable, dice: Dice, bets: readonly Bet[]): SettledBet[] {
  const row = outcomeIndex(dice) * SPOT_COUNT;
  const out = new Array<SettledBet>(bets.length);
  for (let i = 0; i < bets.length; i++) {
    const bet = bets[i]!;
    const returnedMinor = returnedMinorOf(table, row, bet);
    out[i] = {
      spot: bet.spot,
      stakeMinor: bet.stakeMinor,
      winMinor: returnedMinor === 0 ? 0 : returnedMinor - bet.stakeMinor,
      returnedMinor,
    };
  }
  return out;
}
