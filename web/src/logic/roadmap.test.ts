import { describe, expect, it } from 'vitest';
import {
  beadPlate,
  bigRoad,
  bigSmallOf,
  lastColumns,
  oddEvenOf,
  type Dice3,
  type Round,
} from './roadmap.js';

const rounds = (...dice: Dice3[]): Round[] => dice.map((d, i) => ({ roundNo: i + 1, dice: d }));
const SMALL: Dice3 = [1, 2, 3];
const BIG: Dice3 = [6, 5, 4];
const TRIPLE: Dice3 = [2, 2, 2];
const skipTriple = (m: string): boolean => m === 'triple';

describe('marks', () => {
  it('calls a triple neither Small nor Big (Art. 7)', () => {
    expect(bigSmallOf([1, 1, 1])).toBe('triple');
    expect(bigSmallOf([6, 6, 6])).toBe('triple');
    expect(bigSmallOf([4, 3, 3])).toBe('small');
    expect(bigSmallOf([5, 3, 3])).toBe('big');
  });

  it('keeps a triple odd or even (Arts. 6.7, 6.8)', () => {
    expect(oddEvenOf([1, 1, 1])).toBe('odd');
    expect(oddEvenOf([2, 2, 2])).toBe('even');
  });
});

describe('bead plate', () => {
  it('fills each column top to bottom, six to a column', () => {
    const cells = beadPlate(rounds(...Array.from({ length: 8 }, () => SMALL)), bigSmallOf);
    expect(cells.map((c) => [c.col, c.row])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [1, 0],
      [1, 1],
    ]);
  });

  it('gives a triple its own cell, marked as a triple', () => {
    const [cell] = beadPlate(rounds(TRIPLE), bigSmallOf);
    expect(cell).toMatchObject({ mark: 'triple', triple: true, total: 6 });
  });
});

describe('big road', () => {
  it('starts a new column whenever the result changes', () => {
    const cells = bigRoad(rounds(SMALL, SMALL, BIG, SMALL), bigSmallOf, skipTriple);
    expect(cells.map((c) => [c.col, c.row, c.mark])).toEqual([
      [0, 0, 'small'],
      [0, 1, 'small'],
      [1, 0, 'big'],
      [2, 0, 'small'],
    ]);
  });

  it('turns a long streak right along the bottom row (dragon tail)', () => {
    const cells = bigRoad(rounds(...Array.from({ length: 8 }, () => BIG)), bigSmallOf, skipTriple);
    expect(cells.map((c) => [c.col, c.row])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [1, 5],
      [2, 5],
    ]);
  });

  it('turns a streak early when the tail of an earlier streak is in the way', () => {
    const longBig = Array.from({ length: 8 }, () => BIG);
    const cells = bigRoad(
      rounds(...longBig, ...Array.from({ length: 6 }, () => SMALL)),
      bigSmallOf,
      skipTriple,
    );
    const smalls = cells.filter((c) => c.mark === 'small').map((c) => [c.col, c.row]);
    // Column 1 is free down to row 4; row 5 holds the big streak's tail, so the smalls turn at row 4.
    expect(smalls).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 4],
    ]);
  });

  it('counts a triple on the last result instead of placing it (Art. 7: Small and Big both lose)', () => {
    const cells = bigRoad(rounds(SMALL, TRIPLE, TRIPLE, SMALL), bigSmallOf, skipTriple);
    expect(cells.map((c) => [c.col, c.row, c.triples])).toEqual([
      [0, 0, 2],
      [0, 1, 0],
    ]);
  });

  it('holds triples seen before any Small or Big in a leading cell', () => {
    const cells = bigRoad(rounds(TRIPLE, BIG), bigSmallOf, skipTriple);
    expect(cells.map((c) => [c.col, c.row, c.mark, c.triples])).toEqual([
      [0, 0, null, 1],
      [1, 0, 'big', 0],
    ]);
  });

  it('places a triple on the Odd/Even road and flags it', () => {
    const cells = bigRoad(rounds([1, 1, 1], [1, 2, 2]), oddEvenOf);
    expect(cells.map((c) => [c.col, c.row, c.mark, c.triples])).toEqual([
      [0, 0, 'odd', 1],
      [0, 1, 'odd', 0],
    ]);
  });
});

describe('lastColumns', () => {
  it('keeps the newest columns, renumbered from zero', () => {
    const cells = beadPlate(rounds(...Array.from({ length: 20 }, () => SMALL)), bigSmallOf);
    const kept = lastColumns(cells, 2);
    expect(kept.map((c) => c.col)).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    expect(kept[0]!.roundNo).toBe(13);
  });
});
