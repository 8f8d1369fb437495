/**
 * Where each offered spot goes on the layout, grouped as on a Macau table:
 * a top block (Small, Odd, doubles, triples, any triple, Even, Big), the
 * totals 4–17, the two-dice combinations, the single numbers, then the bets a
 * house may add (three dice, double and single, four numbers; Art. 8).
 */
import { type Spot, SPOTS, type SpotKind } from '../../../src/rules/index.js';

export type GroupId =
  'top' | 'totals' | 'twoDice' | 'singles' | 'threeDice' | 'doubleSingle' | 'fourNumbers';

export interface Group {
  readonly id: GroupId;
  readonly spots: readonly Spot[];
}

const GROUP_OF: Readonly<Record<SpotKind, GroupId>> = {
  small: 'top',
  big: 'top',
  odd: 'top',
  even: 'top',
  double: 'top',
  triple: 'top',
  'any-triple': 'top',
  total: 'totals',
  'two-dice': 'twoDice',
  single: 'singles',
  'three-dice': 'threeDice',
  'double-single': 'doubleSingle',
  'four-numbers': 'fourNumbers',
};

const ORDER: readonly GroupId[] = [
  'top',
  'totals',
  'twoDice',
  'singles',
  'threeDice',
  'doubleSingle',
  'fourNumbers',
];

/** The groups that hold at least one offered spot, each in the regulation's order. */
export function layoutGroups(offered: ReadonlySet<string>): Group[] {
  return ORDER.map((id) => ({
    id,
    spots: SPOTS.filter((s) => GROUP_OF[s.kind] === id && offered.has(s.id)),
  })).filter((g) => g.spots.length > 0);
}

/** The CSS grid area of a top-block spot: small, big, odd, even, d1–d6, t1–t6, any. */
export function topArea(spot: Spot): string {
  switch (spot.kind) {
    case 'double':
      return `d${spot.numbers[0]}`;
    case 'triple':
      return `t${spot.numbers[0]}`;
    case 'any-triple':
      return 'any';
    default:
      return spot.kind;
  }
}

export const isExtraGroup = (id: GroupId): boolean =>
  id === 'threeDice' || id === 'doubleSingle' || id === 'fourNumbers';
