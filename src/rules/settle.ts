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
 * The settlement engine, the one every settlement runs (the round machine's
 * `settleRound`, {@link settle}, the audit): writes what each bet returns
 * (stake + winnings, or 0) into `returnsMinor` at the bet's position, and gives
 * the totals. One multiply a bet: the paytable was compiled into return
 * multipliers per outcome and spot. Every bet must have passed
 * {@link validateBet}; an invalid one is a programming error and throws.
 */
export function settleReturns(
  table: CompiledPaytable,
  dice: Dice,
  bets: readonly Bet[],
  returnsMinor: number[],
): SettlementTotals {
  const row = outcomeIndex(dice) * SPOT_COUNT;
  const { returnMultipliers, offered } = table;
  let totalStakeMinor = 0;
  let totalReturnedMinor = 0;
  for (let i = 0; i < bets.length; i++) {
    const bet = bets[i]!;
    const spot = spotById(bet.spot);
    if (spot === undefined || offered[spot.index] !== 1 || !(bet.stakeMinor > 0)) {
      throw new Error(`settle: invalid bet ${JSON.stringify(bet)}; validate bets first`);
    }
    const returnedMinor = bet.stakeMinor * returnMultipliers[row + spot.index]!;
    returnsMinor[i] = returnedMinor;
    totalStakeMinor += bet.stakeMinor;
    totalReturnedMinor += returnedMinor;
  }
  return { totalStakeMinor, totalReturnedMinor };
}

/**
 * Settles bets on one roll, bet by bet, with {@link settleReturns}: each bet
 * with what it won and returned.
 */
export function settle(table: CompiledPaytable, dice: Dice, bets: readonly Bet[]): SettledBet[] {
  const returnsMinor = new Array<number>(bets.length);
  settleReturns(table, dice, bets, returnsMinor);
  return bets.map((bet, i): SettledBet => {
    const returnedMinor = returnsMinor[i]!;
    return {
      spot: bet.spot,
      stakeMinor: bet.stakeMinor,
      winMinor: returnedMinor === 0 ? 0 : returnedMinor - bet.stakeMinor,
      returnedMinor,
    };
  });
}
