/**
 * Property tests of settlement and bet validation, against a second reading of
 * Arts. 5–7 of the regulation (Despacho Regulamentar Externo n.º 57/2004) that
 * counts the faces into a histogram and matches the pattern of each bet.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPILED,
  SPOTS,
  STAKE_MINOR_MAX,
  loadPaytable,
  settle,
  validateBet,
  type Dice,
  type Face,
} from '../src/rules/index.js';

type Table = typeof DEFAULT_COMPILED;

interface House {
  readonly t5_16: number;
  readonly t6_15: number;
}

/** Art. 6.6 odds of a total bet. */
function totalOdds(t: number, house: House): number {
  if (t === 4 || t === 17) return 50;
  if (t === 5 || t === 16) return house.t5_16;
  if (t === 6 || t === 15) return house.t6_15;
  if (t === 7 || t === 14) return 12;
  if (t === 8 || t === 13) return 8;
  if (t >= 9 && t <= 12) return 6;
  throw new Error(`no total bet on ${t}`);
}

/** Odds the law pays on `id` for `dice`, 0 on a loss (Arts. 5, 6 and 7). */
function lawOdds(id: string, dice: readonly number[], house: House): number {
  const count = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) count[d] = (count[d] ?? 0) + 1;
  const c = (n: number): number => count[n] ?? 0;
  const sum = dice.reduce((s, d) => s + d, 0);
  const triple = count.includes(3);
  const distinct = count.filter((k) => k > 0).length;
  const [kind, arg = ''] = id.split(':');
  const n = arg.split('-').map(Number);
  const [a = 0, b = 0, x = 0, y = 0] = n;
  const rules: Record<string, () => number> = {
    small: () => (!triple && sum >= 4 && sum <= 10 ? 1 : 0), // 5.1, Art. 7
    big: () => (!triple && sum >= 11 && sum <= 17 ? 1 : 0), // 5.2, Art. 7
    single: () => c(a), // 6.3: 1, 2 or 3
    triple: () => (c(a) === 3 ? 150 : 0), // 6.4
    'any-triple': () => (triple ? 24 : 0), // 6.5
    total: () => (sum === a ? totalOdds(a, house) : 0), // 6.6
    even: () => (sum % 2 === 0 ? 1 : 0), // 6.7
    odd: () => (sum % 2 === 1 ? 1 : 0), // 6.8
    'double-single': () => (c(a) === 2 && c(b) === 1 ? 50 : 0), // 6.9
    'three-dice': () => (c(a) === 1 && c(b) === 1 && c(x) === 1 ? 30 : 0), // 6.10
    'two-dice': () => (c(a) >= 1 && c(b) >= 1 ? 5 : 0), // 6.11
    double: () => (c(a) >= 2 ? 8 : 0), // 6.12
    'four-numbers': () => (distinct === 3 && c(a) + c(b) + c(x) + c(y) === 3 ? 7 : 0), // 6.13
  };
  const rule = kind === undefined ? undefined : rules[kind];
  if (rule === undefined) throw new Error(`unknown bet ${id}`);
  return rule();
}

const IDS = SPOTS.map((s) => s.id);

const face: fc.Arbitrary<Face> = fc.constantFrom<Face>(1, 2, 3, 4, 5, 6);
const dice: fc.Arbitrary<Dice> = fc.tuple(face, face, face);

/** A valid stake: anything from 1 to STAKE_MINOR_MAX, with the edges and small values favoured. */
const stake: fc.Arbitrary<number> = fc.oneof(
  fc.bigInt({ min: 1n, max: BigInt(STAKE_MINOR_MAX) }).map(Number),
  fc.integer({ min: 1, max: 10_000 }),
  fc.constantFrom(1, STAKE_MINOR_MAX, STAKE_MINOR_MAX - 1),
);

interface RandomTable {
  readonly spots: readonly string[];
  readonly house: House;
  readonly table: Table;
}

/** Random valid paytables: a non-empty subset of the spots, odds inside Art. 6.6's ranges. */
const randomTable: fc.Arbitrary<RandomTable> = fc
  .record({
    spots: fc.shuffledSubarray(IDS, { minLength: 1 }),
    t5_16: fc.integer({ min: 18, max: 30 }),
    t6_15: fc.integer({ min: 14, max: 18 }),
  })
  .map(({ spots, t5_16, t6_15 }) => {
    const r = loadPaytable({ spots, totalOdds: { '5/16': t5_16, '6/15': t6_15 } });
    if (!r.ok) throw new Error(`a valid paytable was refused: ${r.error.code} ${r.error.message}`);
    return { spots, house: { t5_16, t6_15 }, table: r.value };
  });

/** A table with bets only on spots it offers. */
const tableAndBets = randomTable.chain((t) =>
  fc
    .array(fc.record({ spot: fc.constantFrom(...t.spots), stakeMinor: stake }), { maxLength: 30 })
    .map((bets) => ({ ...t, bets })),
);

const invalidStake: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.constantFrom(0.5, 1.5, 99.99, STAKE_MINOR_MAX + 1, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE),
  fc.integer({ min: -1_000_000, max: 0 }),
  fc.bigInt({ min: -(2n ** 53n) + 1n, max: 0n }).map(Number),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Number.isInteger(v)),
  fc.bigInt({ min: BigInt(STAKE_MINOR_MAX) + 1n, max: 2n ** 64n }).map(Number),
);

describe('settle, for random valid paytables and bets on offered spots', () => {
  it('returns stake × (1 + odds) on a win and 0 on a loss, with win = stake × odds', () => {
    fc.assert(
      fc.property(tableAndBets, dice, ({ table, house, bets }, d) => {
        const settled = settle(table, d, bets);
        bets.forEach((bet, i) => {
          const r = settled[i];
          expect(r).toBeDefined();
          if (r === undefined) return;
          const odds = lawOdds(bet.spot, d, house);
          // exact arithmetic, independent of doubles
          const expectedWin = BigInt(bet.stakeMinor) * BigInt(odds);
          const expectedReturned = odds > 0 ? BigInt(bet.stakeMinor) * BigInt(1 + odds) : 0n;
          expect(BigInt(r.winMinor), `${bet.spot} on ${d.join(',')}`).toBe(expectedWin);
          expect(BigInt(r.returnedMinor), `${bet.spot} on ${d.join(',')}`).toBe(expectedReturned);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('gives safe, non-negative integers for win and returned, even at the largest stake', () => {
    fc.assert(
      fc.property(tableAndBets, dice, ({ table, bets }, d) => {
        for (const r of settle(table, d, bets)) {
          expect(Number.isSafeInteger(r.winMinor)).toBe(true);
          expect(Number.isSafeInteger(r.returnedMinor)).toBe(true);
          expect(r.winMinor).toBeGreaterThanOrEqual(0);
          expect(r.returnedMinor === 0 || r.returnedMinor === r.stakeMinor + r.winMinor).toBe(true);
          expect(r.returnedMinor === 0).toBe(r.winMinor === 0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on valid input', () => {
    fc.assert(
      fc.property(tableAndBets, dice, ({ table, bets }, d) => {
        expect(() => settle(table, d, bets)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('preserves the order and length of the bets, echoing spot and stake', () => {
    fc.assert(
      fc.property(tableAndBets, dice, ({ table, bets }, d) => {
        const settled = settle(table, d, bets);
        expect(settled).toHaveLength(bets.length);
        expect(settled.map((r) => [r.spot, r.stakeMinor])).toEqual(
          bets.map((b) => [b.spot, b.stakeMinor]),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('settles the empty list of bets to the empty list', () => {
    fc.assert(
      fc.property(randomTable, dice, ({ table }, d) => {
        expect(settle(table, d, [])).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it('does not depend on the order in which the dice lie (the law speaks of combinations)', () => {
    fc.assert(
      fc.property(tableAndBets, dice, ({ table, bets }, [p, q, r]) => {
        const base = settle(table, [p, q, r], bets);
        const perms: Dice[] = [
          [p, r, q],
          [q, p, r],
          [q, r, p],
          [r, p, q],
          [r, q, p],
        ];
        for (const perm of perms) expect(settle(table, perm, bets)).toEqual(base);
      }),
      { numRuns: 200 },
    );
  });

  it('settles each bet independently of the others placed with it', () => {
    fc.assert(
      fc.property(tableAndBets, dice, ({ table, bets }, d) => {
        const together = settle(table, d, bets);
        const alone = bets.flatMap((b) => settle(table, d, [b]));
        expect(together).toEqual(alone);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the even-money bets on any throw', () => {
  it('exactly one of odd and even wins, triples included (Art. 7 names only Small and Big)', () => {
    fc.assert(
      fc.property(dice, (d) => {
        const [odd, even] = settle(DEFAULT_COMPILED, d, [
          { spot: 'odd', stakeMinor: 1 },
          { spot: 'even', stakeMinor: 1 },
        ]);
        expect((odd?.winMinor ?? 0) + (even?.winMinor ?? 0)).toBe(1);
      }),
    );
  });

  it('exactly one of Small and Big wins, except that both lose on three equal faces (Art. 7)', () => {
    fc.assert(
      fc.property(dice, (d) => {
        const [small, big] = settle(DEFAULT_COMPILED, d, [
          { spot: 'small', stakeMinor: 1 },
          { spot: 'big', stakeMinor: 1 },
        ]);
        const isTriple = d[0] === d[1] && d[1] === d[2];
        expect((small?.winMinor ?? 0) + (big?.winMinor ?? 0)).toBe(isTriple ? 0 : 1);
      }),
    );
  });
});

describe('validateBet', () => {
  it('accepts any stake from 1 to STAKE_MINOR_MAX on an offered spot', () => {
    fc.assert(
      fc.property(tableAndBets, ({ table, bets }) => {
        for (const bet of bets) {
          const r = validateBet(table, bet);
          expect(r.ok).toBe(true);
          if (r.ok) expect(r.value).toEqual(bet);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses 0, negatives, fractions, NaN, infinities and stakes above STAKE_MINOR_MAX', () => {
    fc.assert(
      fc.property(randomTable, invalidStake, ({ table, spots }, s) => {
        const spot = spots[0] ?? 'small';
        const r = validateBet(table, { spot, stakeMinor: s });
        expect(r.ok, `stake ${s}`).toBe(false);
        if (!r.ok) {
          expect(r.error.code).toEqual(expect.any(String));
          expect(r.error.message).toEqual(expect.any(String));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses each named bad stake on the default table', () => {
    const bad = [
      0,
      -0,
      -1,
      -100,
      0.5,
      1.5,
      100.01,
      Number.NaN,
      Infinity,
      -Infinity,
      STAKE_MINOR_MAX + 1,
      2 ** 53,
    ];
    for (const s of bad)
      expect(validateBet(DEFAULT_COMPILED, { spot: 'small', stakeMinor: s }).ok, `stake ${s}`).toBe(
        false,
      );
    const notNumbers: unknown[] = ['100', null, undefined, 100n, {}];
    for (const s of notNumbers) {
      expect(
        validateBet(DEFAULT_COMPILED, { spot: 'small', stakeMinor: s as number }).ok,
        `stake ${String(s)}`,
      ).toBe(false);
    }
    expect(validateBet(DEFAULT_COMPILED, { spot: 'small', stakeMinor: STAKE_MINOR_MAX }).ok).toBe(
      true,
    );
    expect(validateBet(DEFAULT_COMPILED, { spot: 'small', stakeMinor: 1 }).ok).toBe(true);
  });

  it('refuses spots the layout does not offer', () => {
    const partial = randomTable.filter((t) => t.spots.length < IDS.length);
    fc.assert(
      fc.property(partial, stake, fc.nat(), ({ table, spots }, s, pick) => {
        const unoffered = IDS.filter((id) => !spots.includes(id));
        const spot = unoffered[pick % unoffered.length] ?? 'small';
        expect(validateBet(table, { spot, stakeMinor: s }).ok, spot).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses spot ids that are not bets of Art. 5', () => {
    for (const spot of [
      'bogus',
      'total:3',
      'total:18',
      'single:7',
      'two-dice:2-1',
      'double-single:4-4',
      '',
    ]) {
      expect(validateBet(DEFAULT_COMPILED, { spot, stakeMinor: 100 }).ok, spot).toBe(false);
    }
  });

  it('sets STAKE_MINOR_MAX so that a winning triple (151 × stake) stays a safe integer', () => {
    expect(Number.isSafeInteger(STAKE_MINOR_MAX)).toBe(true);
    expect(Number.isSafeInteger(STAKE_MINOR_MAX * 151)).toBe(true);
    const [r] = settle(
      DEFAULT_COMPILED,
      [4, 4, 4],
      [{ spot: 'triple:4', stakeMinor: STAKE_MINOR_MAX }],
    );
    expect(BigInt(r?.returnedMinor ?? 0)).toBe(BigInt(STAKE_MINOR_MAX) * 151n);
  });
});
