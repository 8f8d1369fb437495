/**
 * The 117 spots of Art. 5 and when each wins.
 *
 * The ids are the public contract of the command line, the API and the journal;
 * the order of {@link SPOTS} is stable too, so a spot's index can key compact
 * tables. Never reorder or rename: add at the end if the law ever changes.
 */
import { countFace, diceTotal, type Dice, type Face, FACES, isTriple } from './dice.js';

export type SpotKind =
  | 'small'
  | 'big'
  | 'odd'
  | 'even'
  | 'single'
  | 'double'
  | 'triple'
  | 'any-triple'
  | 'total'
  | 'two-dice'
  | 'three-dice'
  | 'double-single'
  | 'four-numbers';

export interface SpotNames {
  /** The regulation's name (Art. 5), in Portuguese. */
  readonly pt: string;
  /** Traditional Chinese, as on Macau layouts. */
  readonly zh: string;
  readonly en: string;
}

export interface Spot {
  readonly id: string;
  /** Position in {@link SPOTS}; stable. */
  readonly index: number;
  readonly kind: SpotKind;
  /** The numbers chosen on the spot, e.g. [2, 5] for `double-single:2-5`. */
  readonly numbers: readonly Face[];
  /** The item of Art. 5 (and Art. 6) that defines the bet, e.g. "5.9". */
  readonly article: string;
  readonly names: SpotNames;
}

interface KindInfo {
  readonly article: string;
  readonly names: (n: readonly Face[]) => SpotNames;
}

const dash = (n: readonly Face[]): string => n.join('-');

/** Art. 5: the thirteen bets, in the order the article lists them. */
export const KINDS: Readonly<Record<SpotKind, KindInfo>> = {
  small: { article: '5.1', names: () => ({ pt: 'Pequeno', zh: '小', en: 'Small' }) },
  big: { article: '5.2', names: () => ({ pt: 'Grande', zh: '大', en: 'Big' }) },
  single: {
    article: '5.3',
    names: (n) => ({
      pt: `Simples especificado ${n[0]}`,
      zh: `三軍 ${n[0]}`,
      en: `Single ${n[0]}`,
    }),
  },
  triple: {
    article: '5.4',
    names: (n) => ({ pt: `Tripla especificado ${n[0]}`, zh: `圍骰 ${n[0]}`, en: `Triple ${n[0]}` }),
  },
  'any-triple': {
    article: '5.5',
    names: () => ({ pt: 'Qualquer tripla', zh: '全圍', en: 'Any triple' }),
  },
  total: {
    article: '5.6',
    names: (n) => ({ pt: `Total de pontos ${n[0]}`, zh: `點數 ${n[0]}`, en: `Total ${n[0]}` }),
  },
  even: { article: '5.7', names: () => ({ pt: 'Par', zh: '雙', en: 'Even' }) },
  odd: { article: '5.8', names: () => ({ pt: 'Ímpar', zh: '單', en: 'Odd' }) },
  'double-single': {
    article: '5.9',
    names: (n) => ({
      pt: `Dupla e simples ${n[0]}-${n[0]}-${n[1]}`,
      zh: `二同單 ${n[0]}-${n[0]}-${n[1]}`,
      en: `Double ${n[0]} and single ${n[1]}`,
    }),
  },
  'three-dice': {
    article: '5.10',
    names: (n) => ({
      pt: `Três dados especificado ${dash(n)}`,
      zh: `三骰組合 ${dash(n)}`,
      en: `Three dice ${dash(n)}`,
    }),
  },
  'two-dice': {
    article: '5.11',
    names: (n) => ({
      pt: `Dois dados ${dash(n)}`,
      zh: `牌九式 ${dash(n)}`,
      en: `Two dice ${dash(n)}`,
    }),
  },
  double: {
    article: '5.12',
    names: (n) => ({
      pt: `Dupla especificado ${n[0]}`,
      zh: `雙骰 ${n[0]}`,
      en: `Double ${n[0]}`,
    }),
  },
  'four-numbers': {
    article: '5.13',
    names: (n) => ({
      pt: `Quatro números ${dash(n)}`,
      zh: `四門組合 ${dash(n)}`,
      en: `Four numbers ${dash(n)}`,
    }),
  },
};

function spotId(kind: SpotKind, numbers: readonly Face[]): string {
  if (numbers.length === 0) return kind;
  if (kind === 'single' || kind === 'double' || kind === 'triple' || kind === 'total') {
    return `${kind}:${numbers[0]}`;
  }
  return `${kind}:${dash(numbers)}`;
}

/** Increasing combinations of `size` faces, in lexicographic order. */
function combinations(size: number, from = 1): Face[][] {
  if (size === 0) return [[]];
  const out: Face[][] = [];
  for (let f = from; f <= 6; f++) {
    for (const rest of combinations(size - 1, f + 1)) out.push([f as Face, ...rest]);
  }
  return out;
}

function buildSpots(): Spot[] {
  const specs: [SpotKind, Face[]][] = [
    ['small', []],
    ['big', []],
    ['odd', []],
    ['even', []],
    ...FACES.map((f): [SpotKind, Face[]] => ['single', [f]]),
    ...FACES.map((f): [SpotKind, Face[]] => ['double', [f]]),
    ...FACES.map((f): [SpotKind, Face[]] => ['triple', [f]]),
    ['any-triple', []],
    // Totals 4..17; the number is the total, which is not a face, hence the cast.
    ...Array.from({ length: 14 }, (_, i): [SpotKind, Face[]] => ['total', [(i + 4) as Face]]),
    ...combinations(2).map((c): [SpotKind, Face[]] => ['two-dice', c]),
    ...combinations(3).map((c): [SpotKind, Face[]] => ['three-dice', c]),
    ...FACES.flatMap((d) =>
      FACES.filter((s) => s !== d).map((s): [SpotKind, Face[]] => ['double-single', [d, s]]),
    ),
    ...combinations(4).map((c): [SpotKind, Face[]] => ['four-numbers', c]),
  ];
  return specs.map(([kind, numbers], index) => ({
    id: spotId(kind, numbers),
    index,
    kind,
    numbers,
    article: KINDS[kind].article,
    names: KINDS[kind].names(numbers),
  }));
}

/** All 117 spots of Art. 5, in their stable order. */
export const SPOTS: readonly Spot[] = Object.freeze(buildSpots());
export const SPOT_COUNT = SPOTS.length;

const BY_ID: ReadonlyMap<string, Spot> = new Map(SPOTS.map((s) => [s.id, s]));

export function spotById(id: string): Spot | undefined {
  return BY_ID.get(id);
}

/** The totals whose odds the house chooses inside a range (Art. 6.6(2) and (3)). */
export type HouseTotal = '5/16' | '6/15';

/** The odds the house has chosen for the two ranged totals (Art. 6.6). */
export type TotalOdds = Readonly<Record<HouseTotal, number>>;

/** Art. 6.6: fixed odds of each total; 5/16 and 6/15 come from the house's choice. */
function totalOddsOf(total: number, house: TotalOdds): number {
  switch (total) {
    case 4:
    case 17:
      return 50;
    case 5:
    case 16:
      return house['5/16'];
    case 6:
    case 15:
      return house['6/15'];
    case 7:
    case 14:
      return 12;
    case 8:
    case 13:
      return 8;
    default:
      return 6; // 9, 10, 11, 12
  }
}

/**
 * The odds (N to 1) that `spot` pays on `dice`, or 0 when it loses.
 * Art. 5 says when each bet wins and Art. 6 what it pays.
 */
export function oddsOn(spot: Spot, dice: Dice, house: TotalOdds): number {
  const total = diceTotal(dice);
  const n = spot.numbers;
  switch (spot.kind) {
    // Art. 7: Small and Big lose on a triple. The article names no other bet.
    case 'small':
      return total >= 4 && total <= 10 && !isTriple(dice) ? 1 : 0;
    case 'big':
      return total >= 11 && total <= 17 && !isTriple(dice) ? 1 : 0;
    // Art. 6.7 and 6.8: a triple still counts for Odd and Even.
    case 'odd':
      return total % 2 === 1 ? 1 : 0;
    case 'even':
      return total % 2 === 0 ? 1 : 0;
    // Art. 6.3: one, two or three times the stake for one, two or three dice.
    case 'single':
      return countFace(dice, n[0]!);
    case 'double':
      return countFace(dice, n[0]!) >= 2 ? 8 : 0;
    case 'triple':
      return countFace(dice, n[0]!) === 3 ? 150 : 0;
    case 'any-triple':
      return isTriple(dice) ? 24 : 0;
    case 'total':
      return total === n[0] ? totalOddsOf(total, house) : 0;
    case 'two-dice':
      return countFace(dice, n[0]!) >= 1 && countFace(dice, n[1]!) >= 1 ? 5 : 0;
    case 'three-dice':
      return n.every((f) => countFace(dice, f) === 1) ? 30 : 0;
    case 'double-single':
      return countFace(dice, n[0]!) === 2 && countFace(dice, n[1]!) === 1 ? 50 : 0;
    case 'four-numbers':
      // Three different faces, each among the four chosen.
      return !hasPair(dice) && dice.every((f) => n.includes(f)) ? 7 : 0;
  }
}

function hasPair(dice: Dice): boolean {
  return dice[0] === dice[1] || dice[1] === dice[2] || dice[0] === dice[2];
}
