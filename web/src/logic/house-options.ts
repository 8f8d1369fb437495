/**
 * The house options of Art. 8 as the floor's form offers and compares them: the
 * layout's spots by bet (Art. 5), the odds of totals 5/16 and 6/15 inside their
 * legal ranges (Art. 6.6), the shaker (Art. 1.2), the number of layouts
 * (Art. 1.3), the display board (Art. 2.2) and announcing aloud (Art. 2.3).
 * Pure: what changes between the options in force and a proposal.
 */
import { SPOTS, type SpotKind, TOTAL_ODDS_RANGES } from '../../../src/rules/index.js';
import type { HouseOptionsChoice } from '../api/types.js';

export { TOTAL_ODDS_RANGES };

/** Each bet of Art. 5 with its spots, in the regulation's order. */
export const BET_KINDS: readonly { readonly kind: SpotKind; readonly spots: readonly string[] }[] =
  [...new Set(SPOTS.map((s) => s.kind))].map((kind) => ({
    kind,
    spots: SPOTS.filter((s) => s.kind === kind).map((s) => s.id),
  }));

/** The bets whose every spot the paytable offers. */
export function offeredKinds(spots: readonly string[]): Set<SpotKind> {
  const offered = new Set(spots);
  return new Set(BET_KINDS.filter((k) => k.spots.every((s) => offered.has(s))).map((k) => k.kind));
}

/** The layout's spots for the bets chosen, in the order of SPOTS. */
export const spotsOfKinds = (kinds: ReadonlySet<SpotKind>): string[] =>
  SPOTS.filter((s) => kinds.has(s.kind)).map((s) => s.id);

export type OptionChange =
  | { readonly option: 'shaker'; readonly from: string; readonly to: string }
  | {
      readonly option: 'layoutCount' | 'odds5/16' | 'odds6/15';
      readonly from: number;
      readonly to: number;
    }
  | {
      readonly option: 'displayBoard' | 'announceAloud';
      readonly from: boolean;
      readonly to: boolean;
    }
  | {
      readonly option: 'spots';
      readonly added: readonly SpotKind[];
      readonly removed: readonly SpotKind[];
    };

/** What a proposal changes against the options in force, option by option (nothing: []). */
export function optionChanges(
  current: HouseOptionsChoice,
  proposed: HouseOptionsChoice,
): OptionChange[] {
  const changes: OptionChange[] = [];
  if (current.shaker !== proposed.shaker)
    changes.push({ option: 'shaker', from: current.shaker, to: proposed.shaker });
  if (current.layoutCount !== proposed.layoutCount)
    changes.push({ option: 'layoutCount', from: current.layoutCount, to: proposed.layoutCount });
  for (const total of ['5/16', '6/15'] as const) {
    const [from, to] = [current.paytable.totalOdds[total], proposed.paytable.totalOdds[total]];
    if (from !== to) changes.push({ option: `odds${total}`, from, to });
  }
  for (const option of ['displayBoard', 'announceAloud'] as const)
    if (current[option] !== proposed[option])
      changes.push({ option, from: current[option], to: proposed[option] });
  const [before, after] = [
    offeredKinds(current.paytable.spots),
    offeredKinds(proposed.paytable.spots),
  ];
  const added = BET_KINDS.map((k) => k.kind).filter((k) => after.has(k) && !before.has(k));
  const removed = BET_KINDS.map((k) => k.kind).filter((k) => before.has(k) && !after.has(k));
  if (added.length > 0 || removed.length > 0) changes.push({ option: 'spots', added, removed });
  return changes;
}
