/**
 * What a set of bets costs the house under each of the 216 outcomes.
 *
 * Supervisors read the worst case before they raise a limit, and the server caps
 * the liability of a round with it. Amounts are integer minor units; the
 * expectation is a statistic, not money that moves, and may be fractional.
 */
import {
  type Bet,
  type CompiledPaytable,
  type Dice,
  OUTCOME_COUNT,
  outcomeDice,
  SPOT_COUNT,
  spotById,
} from '../rules/index.js';

export interface Exposure {
  readonly stakedMinor: number;
  /** What the bets return in all (stakes included) under each outcome, by outcome index. */
  readonly returnedByOutcomeMinor: Float64Array;
  /** The outcome that costs the house most, and what it costs. */
  readonly worst: {
    readonly dice: Dice;
    readonly returnedMinor: number;
    /** returned − staked: what the house loses on that outcome (negative when it still wins). */
    readonly houseLossMinor: number;
  };
  /** Expected amount returned to players, averaged over the 216 equally likely outcomes. */
  readonly expectedReturnedMinor: number;
  /** staked − expected returned: the house's expected gain on these bets. */
  readonly expectedHouseGainMinor: number;
}

/** Sums stakes by spot index: 117 numbers summarise any number of bets. */
export function stakesBySpot(bets: readonly Bet[]): Float64Array {
  const stakes = new Float64Array(SPOT_COUNT);
  for (const bet of bets) stakes[spotById(bet.spot)!.index]! += bet.stakeMinor;
  return stakes;
}

/** The exposure of bets already validated against `table` (see `validateBet`). */
export function exposure(table: CompiledPaytable, bets: readonly Bet[]): Exposure {
  return exposureOfStakes(table, stakesBySpot(bets));
}

/** As {@link exposure}, from stakes summed by spot index. */
export function exposureOfStakes(table: CompiledPaytable, stakes: Float64Array): Exposure {
  const spots: number[] = [];
  let stakedMinor = 0;
  stakes.forEach((stake, index) => {
    if (stake > 0) {
      spots.push(index);
      stakedMinor += stake;
    }
  });
  const returned = new Float64Array(OUTCOME_COUNT);
  let worstOutcome = 0;
  let total = 0;
  for (let o = 0; o < OUTCOME_COUNT; o++) {
    const row = o * SPOT_COUNT;
    let sum = 0;
    for (const s of spots) sum += stakes[s]! * table.returnMultipliers[row + s]!;
    returned[o] = sum;
    total += sum;
    if (sum > returned[worstOutcome]!) worstOutcome = o;
  }
  const worstReturned = returned[worstOutcome]!;
  return {
    stakedMinor,
    returnedByOutcomeMinor: returned,
    worst: {
      dice: outcomeDice(worstOutcome),
      returnedMinor: worstReturned,
      houseLossMinor: worstReturned - stakedMinor,
    },
    expectedReturnedMinor: total / OUTCOME_COUNT,
    expectedHouseGainMinor: stakedMinor - total / OUTCOME_COUNT,
  };
}
