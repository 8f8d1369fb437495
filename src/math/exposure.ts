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
  for (let o = 0; o < OUTCOME_COUNT; o++) {
    const row = o * SPOT_COUNT;
    let sum = 0;
    for (const s of spots) sum += stakes[s]! * table.returnMultipliers[row + s]!;
    returned[o] = sum;
  }
  return exposureOfReturns(returned, stakedMinor);
}

function exposureOfReturns(returned: Float64Array, stakedMinor: number): Exposure {
  let worstOutcome = 0;
  let total = 0;
  for (let o = 0; o < OUTCOME_COUNT; o++) {
    total += returned[o]!;
    if (returned[o]! > returned[worstOutcome]!) worstOutcome = o;
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

/**
 * The exposure of a round's bets kept up to date bet by bet: what the standing
 * bets return under each outcome. Placing or withdrawing a bet costs 216
 * multiply-adds, so the service can refuse a bet that would push the worst
 * case over the table's liability cap before it lands.
 */
export class ExposureBook {
  private readonly returned = new Float64Array(OUTCOME_COUNT);
  private staked = 0;

  constructor(private readonly table: CompiledPaytable) {}

  static of(table: CompiledPaytable, bets: readonly Bet[]): ExposureBook {
    const book = new ExposureBook(table);
    for (const bet of bets) book.add(bet.spot, bet.stakeMinor);
    return book;
  }

  clone(): ExposureBook {
    const copy = new ExposureBook(this.table);
    copy.returned.set(this.returned);
    copy.staked = this.staked;
    return copy;
  }

  get stakedMinor(): number {
    return this.staked;
  }

  /** What the house loses on its worst outcome (returned − staked); negative when it wins on all. */
  worstLossMinor(): number {
    let max = 0;
    for (let o = 0; o < OUTCOME_COUNT; o++) if (this.returned[o]! > max) max = this.returned[o]!;
    return max - this.staked;
  }

  /** The worst loss if a bet of `stakeMinor` on `spot` were added. */
  worstLossWithMinor(spot: string, stakeMinor: number): number {
    const column = spotById(spot)!.index;
    let max = 0;
    for (let o = 0; o < OUTCOME_COUNT; o++) {
      const r =
        this.returned[o]! + stakeMinor * this.table.returnMultipliers[o * SPOT_COUNT + column]!;
      if (r > max) max = r;
    }
    return max - this.staked - stakeMinor;
  }

  /** Adds a bet; a negative stake takes a withdrawn one out. */
  add(spot: string, stakeMinor: number): void {
    const column = spotById(spot)!.index;
    for (let o = 0; o < OUTCOME_COUNT; o++) {
      this.returned[o]! += stakeMinor * this.table.returnMultipliers[o * SPOT_COUNT + column]!;
    }
    this.staked += stakeMinor;
  }

  /** The full picture, as {@link exposure} gives it. */
  exposure(): Exposure {
    return exposureOfReturns(this.returned, this.staked);
  }
}
