/**
 * The result to show between rounds. The TableView's `lastRound` is there only
 * while the round is revealed or paid; once the next round is covered the last
 * result is the newest `history` entry, and its winning spots are worked out by
 * src/rules on the table's paytable (Art. 3.2 lighting, Arts. 5–7).
 */
import { type Dice, oddsOn, spotById } from '../../../src/rules/index.js';
import type { HistoryEntry } from '../api/types.js';
import type { TablePaytable } from './paytable.js';

export interface ShownResult {
  readonly roundNo: number;
  readonly dice: readonly [number, number, number];
  readonly winningSpots: readonly string[];
}

export function winningSpotsOf(dice: readonly number[], paytable: TablePaytable): string[] {
  return paytable.spots.filter((id) => {
    const spot = spotById(id);
    return spot !== undefined && oddsOn(spot, dice as unknown as Dice, paytable.totalOdds) > 0;
  });
}

export function lastResult(
  lastRound: ShownResult | null,
  history: readonly HistoryEntry[],
  paytable: TablePaytable,
): ShownResult | null {
  if (lastRound !== null) return lastRound;
  const newest = history.at(-1);
  if (newest === undefined) return null;
  return {
    roundNo: newest.roundNo,
    dice: newest.dice,
    winningSpots: winningSpotsOf(newest.dice, paytable),
  };
}
