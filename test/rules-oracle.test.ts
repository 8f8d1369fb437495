/**
 * An independent oracle for the settlement engine, written from the regulation
 * alone (Despacho Regulamentar Externo n.º 57/2004, Arts. 5, 6 and 7; the
 * Portuguese text governs), without reading how the engine decides a win.
 *
 * Style, deliberately unlike a switch over the dice: for every bet the law's
 * winning combinations are written out as an explicit table of unordered
 * multisets of faces (the law speaks of "combinações" of dice, so order never
 * matters), each with the odds Art. 6 pays on it. An ordered outcome is looked
 * up by sorting its faces. Anything not in a bet's table loses.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPILED,
  OUTCOMES,
  SPOTS,
  loadPaytable,
  parsePaytable,
  settle,
  type Dice,
  type Face,
} from '../src/rules/index.js';

// ---------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------

const FACES = [1, 2, 3, 4, 5, 6] as const satisfies readonly Face[];

/** The house's picks inside Art. 6.6(2) and 6.6(3). */
interface HouseOdds {
  readonly t5_16: number;
  readonly t6_15: number;
}

const DEFAULT_HOUSE: HouseOdds = { t5_16: 18, t6_15: 14 };

/** A multiset of three faces, canonically written as its sorted faces, e.g. "225". */
const keyOf = (faces: readonly number[]): string => [...faces].sort((a, b) => a - b).join('');

/** All 56 unordered combinations of three dice, as sorted triples. */
const COMBINATIONS: readonly (readonly [Face, Face, Face])[] = FACES.flatMap((a) =>
  FACES.flatMap((b) => FACES.flatMap((c) => (a <= b && b <= c ? [[a, b, c] as const] : []))),
);

const sumOf = (faces: readonly number[]): number => faces.reduce((s, f) => s + f, 0);
const isTripleCombination = (faces: readonly number[]): boolean =>
  faces[0] === faces[1] && faces[1] === faces[2];

/** Art. 6.6: the odds of each total, 4 to 17 (3 and 18 are not bets of Art. 5.6). */
function totalOdds(total: number, house: HouseOdds): number {
  const table: Record<number, number> = {
    4: 50,
    17: 50,
    5: house.t5_16,
    16: house.t5_16,
    6: house.t6_15,
    15: house.t6_15,
    7: 12,
    14: 12,
    8: 8,
    13: 8,
    9: 6,
    10: 6,
    11: 6,
    12: 6,
  };
  const odds = table[total];
  if (odds === undefined) throw new Error(`no total bet on ${total}`);
  return odds;
}

interface LawSpot {
  readonly id: string;
  /** The item of Art. 5 defining the bet. */
  readonly article: string;
  /** The chosen numbers, in the order the id writes them. */
  readonly numbers: readonly number[];
  /** Words of the bet's Portuguese name in Art. 5. */
  readonly ptName: string;
  /** Winning combination (sorted key) → odds paid (Art. 6). */
  readonly wins: ReadonlyMap<string, number>;
}

/** Every bet of Art. 5 with its winning combinations and Art. 6 odds. */
function lawSpots(house: HouseOdds): LawSpot[] {
  const spots: LawSpot[] = [];
  const add = (
    id: string,
    article: string,
    ptName: string,
    numbers: readonly number[],
    entries: Iterable<readonly [readonly number[], number]>,
  ): void => {
    const wins = new Map<string, number>();
    for (const [faces, odds] of entries) wins.set(keyOf(faces), odds);
    spots.push({ id, article, numbers, ptName, wins });
  };
  const where = (
    keep: (faces: readonly number[]) => boolean,
    odds: (faces: readonly number[]) => number,
  ): (readonly [readonly number[], number])[] =>
    COMBINATIONS.filter(keep).map((c) => [c, odds(c)] as const);

  // 5.1 / 6.1 «Pequeno»: total 4 to 10, pays 1; Art. 7: loses on three equal faces.
  add(
    'small',
    '5.1',
    'Pequeno',
    [],
    where(
      (c) => sumOf(c) >= 4 && sumOf(c) <= 10 && !isTripleCombination(c),
      () => 1,
    ),
  );
  // 5.2 / 6.2 «Grande»: total 11 to 17, pays 1; Art. 7 likewise.
  add(
    'big',
    '5.2',
    'Grande',
    [],
    where(
      (c) => sumOf(c) >= 11 && sumOf(c) <= 17 && !isTripleCombination(c),
      () => 1,
    ),
  );
  // 5.3 / 6.3 «Simples especificado»: the number on one, two or three dice pays 1, 2, 3.
  for (const n of FACES) {
    const others = FACES.filter((f) => f !== n);
    const once = others.flatMap((x) => others.filter((y) => y >= x).map((y) => [n, x, y]));
    const twice = others.map((x) => [n, n, x]);
    add(
      `single:${n}`,
      '5.3',
      'Simples especificado',
      [n],
      [
        ...once.map((c) => [c, 1] as const),
        ...twice.map((c) => [c, 2] as const),
        [[n, n, n], 3] as const,
      ],
    );
  }
  // 5.4 / 6.4 «Tripla especificado»: pays 150.
  for (const n of FACES) add(`triple:${n}`, '5.4', 'Tripla especificado', [n], [[[n, n, n], 150]]);
  // 5.5 / 6.5 «Qualquer tripla»: any of the six triples, pays 24.
  add(
    'any-triple',
    '5.5',
    'Qualquer tripla',
    [],
    FACES.map((n) => [[n, n, n], 24] as const),
  );
  // 5.6 / 6.6 «Total de pontos»: the sum equals the chosen total (no Art. 7 exception).
  for (let t = 4; t <= 17; t++) {
    add(
      `total:${t}`,
      '5.6',
      'Total de pontos',
      [],
      where(
        (c) => sumOf(c) === t,
        () => totalOdds(t, house),
      ),
    );
  }
  // 5.7 / 6.7 «Par» and 5.8 / 6.8 «Ímpar»: pay 1. Art. 7 names only Small and Big.
  add(
    'even',
    '5.7',
    'Par',
    [],
    where(
      (c) => sumOf(c) % 2 === 0,
      () => 1,
    ),
  );
  add(
    'odd',
    '5.8',
    'Ímpar',
    [],
    where(
      (c) => sumOf(c) % 2 === 1,
      () => 1,
    ),
  );
  // 5.9 / 6.9 «Dupla e simples»: two dice D and the third S (D ≠ S), pays 50.
  for (const d of FACES) {
    for (const s of FACES) {
      if (d !== s)
        add(`double-single:${d}-${s}`, '5.9', 'Dupla e simples', [d, s], [[[d, d, s], 50]]);
    }
  }
  // 5.10 / 6.10 «Três dados especificado»: exactly the three chosen numbers, pays 30.
  for (const a of FACES) {
    for (const b of FACES) {
      for (const c of FACES) {
        if (a < b && b < c) {
          add(
            `three-dice:${a}-${b}-${c}`,
            '5.10',
            'Três dados especificado',
            [a, b, c],
            [[[a, b, c], 30]],
          );
        }
      }
    }
  }
  // 5.11 / 6.11 «Dois dados»: both chosen numbers show, the third die is free; pays 5 once.
  for (const a of FACES) {
    for (const b of FACES) {
      if (a < b) {
        add(
          `two-dice:${a}-${b}`,
          '5.11',
          'Dois dados',
          [a, b],
          FACES.map((x) => [[a, b, x], 5] as const),
        );
      }
    }
  }
  // 5.12 / 6.12 «Dupla especificado»: two dice (or all three) show the number, pays 8.
  for (const n of FACES) {
    add(
      `double:${n}`,
      '5.12',
      'Dupla especificado',
      [n],
      FACES.map((x) => [[n, n, x], 8] as const),
    );
  }
  // 5.13 / 6.13 «Quatro números»: three different faces, all among the four, pays 7.
  for (const a of FACES) {
    for (const b of FACES) {
      for (const c of FACES) {
        for (const d of FACES) {
          if (a < b && b < c && c < d) {
            add(
              `four-numbers:${a}-${b}-${c}-${d}`,
              '5.13',
              'Quatro números',
              [a, b, c, d],
              [
                [[a, b, c], 7],
                [[a, b, d], 7],
                [[a, c, d], 7],
                [[b, c, d], 7],
              ],
            );
          }
        }
      }
    }
  }
  return spots;
}

const LAW = lawSpots(DEFAULT_HOUSE);
const LAW_BY_ID = new Map(LAW.map((s) => [s.id, s]));

/** Odds the law pays `spot` on the ordered `dice`, 0 when the bet loses. */
function lawOdds(spot: LawSpot, dice: readonly number[]): number {
  return spot.wins.get(keyOf(dice)) ?? 0;
}

function law(id: string): LawSpot {
  const s = LAW_BY_ID.get(id);
  if (s === undefined) throw new Error(`the oracle has no spot ${id}`);
  return s;
}

/** All 216 ordered outcomes, enumerated here independently of the engine. */
const ALL_DICE: readonly Dice[] = FACES.flatMap((a) =>
  FACES.flatMap((b) => FACES.map((c): Dice => [a, b, c])),
);

const STAKE = 100;

interface Mismatch {
  spot: string;
  dice: string;
  expectedWin: number;
  expectedReturned: number;
  gotWin: number | undefined;
  gotReturned: number | undefined;
}

/** Settles one bet on every spot of `spots` for each outcome and lists disagreements. */
function disagreements(
  table: typeof DEFAULT_COMPILED,
  spots: readonly LawSpot[],
  outcomes: readonly Dice[] = ALL_DICE,
): Mismatch[] {
  const out: Mismatch[] = [];
  const bets = spots.map((s) => ({ spot: s.id, stakeMinor: STAKE }));
  for (const dice of outcomes) {
    const settled = settle(table, dice, bets);
    expect(settled).toHaveLength(bets.length);
    spots.forEach((s, i) => {
      const odds = lawOdds(s, dice);
      const expectedWin = STAKE * odds;
      const expectedReturned = odds > 0 ? STAKE * (1 + odds) : 0;
      const got = settled[i];
      if (
        got === undefined ||
        got.spot !== s.id ||
        got.stakeMinor !== STAKE ||
        got.winMinor !== expectedWin ||
        got.returnedMinor !== expectedReturned
      ) {
        out.push({
          spot: s.id,
          dice: dice.join(','),
          expectedWin,
          expectedReturned,
          gotWin: got?.winMinor,
          gotReturned: got?.returnedMinor,
        });
      }
    });
  }
  return out;
}

function settleOne(table: typeof DEFAULT_COMPILED, dice: Dice, spot: string, stakeMinor = STAKE) {
  const [r] = settle(table, dice, [{ spot, stakeMinor }]);
  if (r === undefined) throw new Error('settle returned no result');
  return r;
}

// ---------------------------------------------------------------------------
// The oracle's own sanity, from the law (independent of the engine)
// ---------------------------------------------------------------------------

describe('the oracle itself (a reading of Arts. 5–7)', () => {
  const winningOutcomes = (id: string): number =>
    ALL_DICE.filter((d) => lawOdds(law(id), d) > 0).length;

  it('has 117 bets, all distinct', () => {
    expect(LAW).toHaveLength(117);
    expect(new Set(LAW.map((s) => s.id)).size).toBe(117);
  });

  it('counts the winning ordered outcomes of each bet as combinatorics says', () => {
    // Small/Big: totals 4..10 are 3+6+10+15+21+25+27 = 107 outcomes, less 2,2,2 and 3,3,3.
    expect(winningOutcomes('small')).toBe(105);
    expect(winningOutcomes('big')).toBe(105);
    expect(winningOutcomes('odd')).toBe(108);
    expect(winningOutcomes('even')).toBe(108);
    for (const n of FACES) {
      expect(winningOutcomes(`single:${n}`)).toBe(216 - 125);
      expect(winningOutcomes(`double:${n}`)).toBe(3 * 5 + 1);
      expect(winningOutcomes(`triple:${n}`)).toBe(1);
    }
    expect(winningOutcomes('any-triple')).toBe(6);
    const totals = [3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3];
    totals.forEach((n, i) => expect(winningOutcomes(`total:${i + 4}`)).toBe(n));
    for (const s of LAW) {
      if (s.id.startsWith('two-dice:')) expect(winningOutcomes(s.id)).toBe(216 - 2 * 125 + 64);
      if (s.id.startsWith('three-dice:')) expect(winningOutcomes(s.id)).toBe(6);
      if (s.id.startsWith('double-single:')) expect(winningOutcomes(s.id)).toBe(3);
      if (s.id.startsWith('four-numbers:')) expect(winningOutcomes(s.id)).toBe(4 * 6);
    }
  });
});

// ---------------------------------------------------------------------------
// The spots' public contract
// ---------------------------------------------------------------------------

describe('SPOTS, the bets of Art. 5', () => {
  it('are exactly the 117 public ids, each once', () => {
    const ids = SPOTS.map((s) => s.id);
    expect(ids).toHaveLength(117);
    expect(new Set(ids).size).toBe(117);
    expect([...ids].sort()).toEqual(LAW.map((s) => s.id).sort());
  });

  it('carry their position in the list as their index', () => {
    SPOTS.forEach((s, i) => expect(s.index).toBe(i));
  });

  it('each have non-empty Portuguese, Chinese and English names', () => {
    for (const s of SPOTS) {
      expect(s.names.pt.trim(), s.id).not.toBe('');
      expect(s.names.zh.trim(), s.id).not.toBe('');
      expect(s.names.en.trim(), s.id).not.toBe('');
    }
  });

  it('name each bet in Portuguese with the words of Art. 5', () => {
    const norm = (t: string): string => t.normalize('NFC').toLowerCase();
    for (const s of SPOTS) {
      expect(norm(s.names.pt), s.id).toContain(norm(law(s.id).ptName));
    }
  });

  it('cite the item of Art. 5 that defines each bet', () => {
    for (const s of SPOTS) {
      expect(s.article.startsWith('5.'), s.id).toBe(true);
      expect(s.article, s.id).toBe(law(s.id).article);
    }
  });

  it('list the chosen numbers of numbered bets as the id writes them', () => {
    for (const s of SPOTS) {
      const expected = law(s.id).numbers;
      if (/\d/.test(s.id) && !s.id.startsWith('total:'))
        expect([...s.numbers], s.id).toEqual(expected);
    }
  });

  it('OUTCOMES are the 216 distinct ordered throws of three dice', () => {
    expect(OUTCOMES).toHaveLength(216);
    expect(new Set(OUTCOMES.map((d) => d.join(','))).size).toBe(216);
    expect([...OUTCOMES.map((d) => d.join(','))].sort()).toEqual(
      ALL_DICE.map((d) => d.join(',')).sort(),
    );
  });
});

// ---------------------------------------------------------------------------
// Full agreement with the default paytable: 216 outcomes × 117 spots
// ---------------------------------------------------------------------------

describe('settle with the default paytable agrees with the law on every outcome', () => {
  it('all 117 spots bet at once, on all 216 outcomes (25 272 cases)', () => {
    expect(disagreements(DEFAULT_COMPILED, LAW)).toEqual([]);
  });

  const kinds = [
    'small',
    'big',
    'odd',
    'even',
    'single:',
    'double:',
    'triple:',
    'any-triple',
    'total:',
    'two-dice:',
    'three-dice:',
    'double-single:',
    'four-numbers:',
  ];
  it.each(kinds)('bets of kind %s, one bet at a time', (prefix) => {
    const spots = LAW.filter((s) =>
      prefix.endsWith(':') ? s.id.startsWith(prefix) : s.id === prefix,
    );
    expect(spots.length).toBeGreaterThan(0);
    const mismatches = spots.flatMap((s) => disagreements(DEFAULT_COMPILED, [s]));
    expect(mismatches).toEqual([]);
  });

  it('counts the same winning outcomes per spot as the law', () => {
    const engineWins = new Map<string, number>();
    for (const dice of ALL_DICE) {
      const settled = settle(
        DEFAULT_COMPILED,
        dice,
        LAW.map((s) => ({ spot: s.id, stakeMinor: STAKE })),
      );
      for (const r of settled)
        if (r.winMinor > 0) engineWins.set(r.spot, (engineWins.get(r.spot) ?? 0) + 1);
    }
    const expected: Record<string, number> = {
      small: 105,
      big: 105,
      odd: 108,
      even: 108,
      'any-triple': 6,
    };
    const totals = [3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3];
    totals.forEach((n, i) => (expected[`total:${i + 4}`] = n));
    for (const s of LAW) {
      const [kind] = s.id.split(':');
      const perKind: Record<string, number> = {
        single: 91,
        double: 16,
        triple: 1,
        'two-dice': 30,
        'three-dice': 6,
        'double-single': 3,
        'four-numbers': 24,
      };
      if (kind !== undefined && perKind[kind] !== undefined) expected[s.id] = perKind[kind];
    }
    expect(Object.keys(expected)).toHaveLength(117);
    for (const [id, n] of Object.entries(expected)) expect(engineWins.get(id) ?? 0, id).toBe(n);
  });
});

// ---------------------------------------------------------------------------
// Hand-written spot checks, straight from the text
// ---------------------------------------------------------------------------

describe('hand-written cases from the text of the law', () => {
  /** [dice, spot, odds by the law (0 = loses)] */
  const cases: readonly (readonly [Dice, string, number])[] = [
    // 2,2,5: total 9.
    [[2, 2, 5], 'small', 1], // 5.1 / 6.1
    [[2, 2, 5], 'big', 0],
    [[2, 2, 5], 'single:2', 2], // 6.3: two dice show the number
    [[2, 2, 5], 'single:5', 1],
    [[2, 2, 5], 'single:3', 0],
    [[2, 2, 5], 'double:2', 8], // 6.12
    [[2, 2, 5], 'double:5', 0],
    [[2, 2, 5], 'double-single:2-5', 50], // 6.9
    [[2, 2, 5], 'double-single:5-2', 0], // the pair must be of 5s
    [[2, 2, 5], 'two-dice:2-5', 5], // 6.11, paid once though 2 shows twice
    [[2, 2, 5], 'total:9', 6], // 6.6(6)
    [[2, 2, 5], 'odd', 1], // 6.8
    [[2, 2, 5], 'even', 0],
    [[2, 2, 5], 'triple:2', 0],
    [[2, 2, 5], 'any-triple', 0],
    [[2, 2, 5], 'four-numbers:2-3-4-5', 0], // needs three different faces
    [[2, 2, 5], 'three-dice:2-3-5', 0],
    // Order of the dice does not matter: a «combinação».
    [[5, 2, 2], 'double-single:2-5', 50],
    [[2, 5, 2], 'single:2', 2],
    // 3,3,3: total 9, a triple.
    [[3, 3, 3], 'small', 0], // Art. 7
    [[3, 3, 3], 'big', 0], // Art. 7
    [[3, 3, 3], 'odd', 1], // Art. 7 names only Small and Big
    [[3, 3, 3], 'even', 0],
    [[3, 3, 3], 'triple:3', 150], // 6.4
    [[3, 3, 3], 'triple:4', 0],
    [[3, 3, 3], 'any-triple', 24], // 6.5
    [[3, 3, 3], 'single:3', 3], // 6.3: three dice show the number
    [[3, 3, 3], 'total:9', 6], // 6.6(6), no Art. 7 exception
    [[3, 3, 3], 'double:3', 8], // 6.12
    [[3, 3, 3], 'double-single:3-1', 0],
    [[3, 3, 3], 'two-dice:3-4', 0],
    // 6,6,6: total 18.
    [[6, 6, 6], 'even', 1],
    [[6, 6, 6], 'big', 0], // Art. 7
    [[6, 6, 6], 'total:17', 0],
    [[6, 6, 6], 'single:6', 3],
    [[6, 6, 6], 'double:6', 8],
    [[6, 6, 6], 'triple:6', 150],
    // 1,1,1: total 3, a triple; no total bet on 3.
    [[1, 1, 1], 'small', 0],
    [[1, 1, 1], 'odd', 1],
    [[1, 1, 1], 'total:4', 0],
    [[1, 1, 1], 'any-triple', 24],
    // 2,2,2 and 5,5,5: triples whose totals are inside Small's/Big's ranges.
    [[2, 2, 2], 'small', 0],
    [[2, 2, 2], 'total:6', 14],
    [[2, 2, 2], 'even', 1],
    [[5, 5, 5], 'big', 0],
    [[5, 5, 5], 'total:15', 14],
    [[4, 4, 4], 'big', 0],
    [[4, 4, 4], 'total:12', 6],
    [[4, 4, 4], 'four-numbers:1-2-3-4', 0],
    // 1,2,3: total 6.
    [[1, 2, 3], 'small', 1],
    [[1, 2, 3], 'even', 1],
    [[1, 2, 3], 'total:6', 14], // 6.6(3), default 14
    [[1, 2, 3], 'three-dice:1-2-3', 30], // 6.10
    [[3, 1, 2], 'three-dice:1-2-3', 30],
    [[1, 2, 3], 'three-dice:1-2-4', 0],
    [[1, 2, 3], 'four-numbers:1-2-3-4', 7], // 6.13
    [[1, 2, 3], 'four-numbers:1-2-3-6', 7],
    [[1, 2, 3], 'four-numbers:1-2-4-5', 0],
    [[1, 2, 3], 'two-dice:1-2', 5],
    [[1, 2, 3], 'two-dice:1-3', 5],
    [[1, 2, 3], 'two-dice:2-3', 5],
    [[1, 2, 3], 'two-dice:1-4', 0],
    [[1, 2, 3], 'single:1', 1],
    [[1, 2, 3], 'double:1', 0],
    // Totals at the edges of Small and Big.
    [[1, 1, 2], 'total:4', 50], // 6.6(1)
    [[1, 1, 2], 'small', 1],
    [[1, 1, 3], 'total:5', 18], // 6.6(2), default 18
    [[4, 3, 3], 'small', 1], // 10
    [[4, 3, 3], 'big', 0],
    [[4, 3, 3], 'total:10', 6],
    [[4, 4, 3], 'big', 1], // 11
    [[4, 4, 3], 'small', 0],
    [[4, 4, 3], 'total:11', 6],
    [[1, 6, 6], 'total:13', 8], // 6.6(5)
    [[2, 6, 6], 'total:14', 12], // 6.6(4)
    [[1, 3, 3], 'total:7', 12],
    [[2, 3, 3], 'total:8', 8],
    [[4, 6, 6], 'total:16', 18],
    [[5, 6, 6], 'total:17', 50],
    [[5, 6, 6], 'big', 1],
    [[6, 5, 6], 'double-single:6-5', 50],
    [[6, 5, 6], 'double-single:5-6', 0],
  ];

  it.each(cases.map(([d, s, o]) => [d.join(','), s, o, d] as const))(
    'dice %s, %s pays %i to 1 (0 = loses)',
    (_label, spot, odds, dice) => {
      const r = settleOne(DEFAULT_COMPILED, dice, spot);
      expect(r.winMinor).toBe(STAKE * odds);
      expect(r.returnedMinor).toBe(odds > 0 ? STAKE * (1 + odds) : 0);
      // and the oracle reads the law the same way as these hand-written cases
      expect(lawOdds(law(spot), dice)).toBe(odds);
    },
  );
});

// ---------------------------------------------------------------------------
// Art. 6.6(2) and (3): the house's totals odds
// ---------------------------------------------------------------------------

const ALL_IDS = LAW.map((s) => s.id);

function doc(t516: unknown, t615: unknown, spots: unknown = ALL_IDS): Record<string, unknown> {
  return { spots, totalOdds: { '5/16': t516, '6/15': t615 } };
}

function mustLoad(d: unknown): typeof DEFAULT_COMPILED {
  const r = loadPaytable(d);
  if (!r.ok) throw new Error(`paytable refused: ${r.error.code} ${r.error.message}`);
  return r.value;
}

describe('a non-default paytable (Art. 6.6: 5/16 at 30, 6/15 at 18)', () => {
  const table = mustLoad(doc(30, 18));
  const house: HouseOdds = { t5_16: 30, t6_15: 18 };
  const lawHere = lawSpots(house);

  it('pays totals 5 and 16 at 30 and 6 and 15 at 18 on every outcome', () => {
    const houseSpots = lawHere.filter((s) =>
      ['total:5', 'total:16', 'total:6', 'total:15'].includes(s.id),
    );
    expect(houseSpots).toHaveLength(4);
    expect(disagreements(table, houseSpots)).toEqual([]);
  });

  it('leaves every other spot as the law fixes it, on every outcome', () => {
    expect(disagreements(table, lawHere)).toEqual([]);
  });

  it('spot checks: 1,1,3 pays 30 on total:5, 6,6,4 30 on total:16, 1,1,4 18 on total:6, 6,6,3 18 on total:15', () => {
    expect(settleOne(table, [1, 1, 3], 'total:5').winMinor).toBe(3000);
    expect(settleOne(table, [6, 6, 4], 'total:16').winMinor).toBe(3000);
    expect(settleOne(table, [1, 1, 4], 'total:6').returnedMinor).toBe(1900);
    expect(settleOne(table, [6, 6, 3], 'total:15').returnedMinor).toBe(1900);
  });
});

describe('paytable documents', () => {
  it('accept every 5/16 odds from 18 to 30 and pay it', () => {
    for (let v = 18; v <= 30; v++) {
      const parsed = parsePaytable(doc(v, 14));
      expect(parsed.ok, `5/16 at ${v}`).toBe(true);
      if (parsed.ok) expect(parsed.value.totalOdds['5/16']).toBe(v);
      const table = mustLoad(doc(v, 14));
      expect(settleOne(table, [2, 2, 1], 'total:5').winMinor).toBe(STAKE * v);
      expect(settleOne(table, [5, 5, 6], 'total:16').winMinor).toBe(STAKE * v);
      expect(settleOne(table, [2, 2, 2], 'total:6').winMinor).toBe(STAKE * 14);
    }
  });

  it('accept every 6/15 odds from 14 to 18 and pay it', () => {
    for (let v = 14; v <= 18; v++) {
      const parsed = parsePaytable(doc(18, v));
      expect(parsed.ok, `6/15 at ${v}`).toBe(true);
      if (parsed.ok) expect(parsed.value.totalOdds['6/15']).toBe(v);
      const table = mustLoad(doc(18, v));
      expect(settleOne(table, [2, 2, 2], 'total:6').winMinor).toBe(STAKE * v);
      expect(settleOne(table, [5, 5, 5], 'total:15').winMinor).toBe(STAKE * v);
      expect(settleOne(table, [2, 2, 1], 'total:5').winMinor).toBe(STAKE * 18);
    }
  });

  it('accept a layout offering only some of the bets (Art. 8 house option)', () => {
    const parsed = parsePaytable(doc(20, 16, ['small', 'big', 'total:5', 'any-triple']));
    expect(parsed.ok).toBe(true);
    if (parsed.ok)
      expect([...parsed.value.spots].sort()).toEqual(['any-triple', 'big', 'small', 'total:5']);
    const table = mustLoad(doc(20, 16, ['small', 'big', 'total:5', 'any-triple']));
    expect(settleOne(table, [1, 1, 3], 'total:5').winMinor).toBe(STAKE * 20);
    expect(settleOne(table, [4, 4, 4], 'any-triple').winMinor).toBe(STAKE * 24);
    expect(settleOne(table, [4, 4, 4], 'big').returnedMinor).toBe(0);
  });

  const outOfRange: readonly (readonly [string, unknown, unknown])[] = [
    ['5/16 at 17', 17, 14],
    ['5/16 at 31', 31, 14],
    ['5/16 at 0', 0, 14],
    ['5/16 at -18', -18, 14],
    ['6/15 at 13', 18, 13],
    ['6/15 at 19', 18, 19],
    ['6/15 at 30', 18, 30],
  ];
  it.each(outOfRange)('refuse %s, citing Art. 6.6', (_label, a, b) => {
    for (const r of [parsePaytable(doc(a, b)), loadPaytable(doc(a, b))]) {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.article).toBe('6.6');
        expect(r.error.code).toEqual(expect.any(String));
        expect(r.error.message).toEqual(expect.any(String));
      }
    }
  });

  const malformedOdds: readonly (readonly [string, unknown, unknown])[] = [
    ['5/16 at 18.5', 18.5, 14],
    ['6/15 at 14.5', 18, 14.5],
    ['5/16 as the string "20"', '20', 14],
    ['6/15 as the string "14"', 18, '14'],
    ['5/16 NaN', Number.NaN, 14],
    ['5/16 Infinity', Number.POSITIVE_INFINITY, 14],
    ['6/15 null', 18, null],
    ['5/16 undefined', undefined, 14],
  ];
  it.each(malformedOdds)('refuse odds that are not integers: %s', (_label, a, b) => {
    expect(parsePaytable(doc(a, b)).ok).toBe(false);
    expect(loadPaytable(doc(a, b)).ok).toBe(false);
  });

  const malformedDocs: readonly (readonly [string, unknown])[] = [
    ['a missing 5/16 key', { spots: ALL_IDS, totalOdds: { '6/15': 14 } }],
    ['a missing 6/15 key', { spots: ALL_IDS, totalOdds: { '5/16': 18 } }],
    ['missing totalOdds', { spots: ALL_IDS }],
    ['missing spots', { totalOdds: { '5/16': 18, '6/15': 14 } }],
    ['an empty spots list', doc(18, 14, [])],
    ['a duplicated spot', doc(18, 14, ['small', 'big', 'small'])],
    ['a duplicated spot among all', doc(18, 14, [...ALL_IDS, 'total:9'])],
    ['an extra top-level field', { ...doc(18, 14), comment: 'hi' }],
    [
      'an extra totalOdds key',
      { spots: ALL_IDS, totalOdds: { '5/16': 18, '6/15': 14, '4/17': 50 } },
    ],
    ['spots that are not a list', doc(18, 14, 'small')],
    ['a spot that is not a string', doc(18, 14, ['small', 7])],
    ['totalOdds that are not an object', { spots: ALL_IDS, totalOdds: 18 }],
    ['null', null],
    ['an array', [ALL_IDS]],
    ['a string', JSON.stringify(doc(18, 14))],
  ];
  it.each(malformedDocs)('refuse a document with %s', (_label, d) => {
    expect(parsePaytable(d).ok).toBe(false);
    expect(loadPaytable(d).ok).toBe(false);
  });

  const unknownSpots = [
    'bogus',
    'single:0',
    'single:7',
    'triple:7',
    'double:0',
    'total:3', // no such bet in Art. 5.6 (4 to 17)
    'total:18',
    'two-dice:2-1', // ids write A < B
    'two-dice:3-3',
    'three-dice:1-1-2',
    'three-dice:3-2-1',
    'double-single:3-3', // D ≠ S
    'double-single:0-1',
    'four-numbers:1-2-3-3',
    'four-numbers:4-3-2-1',
    'Small',
    'small ',
    '',
  ];
  it.each(unknownSpots)('refuse the unknown spot id %j, citing Art. 5', (id) => {
    for (const r of [
      parsePaytable(doc(18, 14, ['small', id])),
      loadPaytable(doc(18, 14, ['small', id])),
    ]) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.article).toBe('5');
    }
  });
});
