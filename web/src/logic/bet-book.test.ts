import { describe, expect, it } from 'vitest';
import type { Bet } from '../api/types.js';
import {
  emptyBook,
  lastWithdrawable,
  linesBySpot,
  repeatable,
  stakeOn,
  totalStake,
  winnings,
  withBet,
  withoutBet,
} from './bet-book.js';

const bet = (
  betId: string,
  spot: string,
  stakeMinor: number,
  rollNo = 1,
  extra: Partial<Bet> = {},
): Bet => ({ betId, spot, stakeMinor, rollNo, ...extra });

describe('the player bet book', () => {
  const book = [bet('a', 'small', 1000), bet('b', 'total:9', 500), bet('c', 'small', 2000)].reduce(
    withBet,
    emptyBook(7),
  );

  it('sums stakes by spot and in all', () => {
    expect(stakeOn(book, 'small')).toBe(3000);
    expect(totalStake(book)).toBe(3500);
  });

  it('withdraws the last bet on a spot first', () => {
    expect(lastWithdrawable(book, 1, 'small')?.betId).toBe('c');
    expect(lastWithdrawable(book, 1)?.betId).toBe('c');
    expect(stakeOn(withoutBet(book, 'c'), 'small')).toBe(1000);
  });

  it('never offers to withdraw a bet that stands after a void roll (Art. 3.4)', () => {
    const afterVoid = withBet(book, bet('d', 'big', 1000, 2));
    expect(lastWithdrawable(afterVoid, 2, 'small')).toBeUndefined();
    expect(lastWithdrawable(afterVoid, 2)?.betId).toBe('d');
  });

  it('replaces a bet the server answered twice instead of counting it twice', () => {
    expect(totalStake(withBet(book, bet('a', 'small', 1000)))).toBe(3500);
  });

  it('repeats one bet per spot with the stakes summed', () => {
    expect(repeatable(book)).toEqual([
      { spot: 'small', stakeMinor: 3000 },
      { spot: 'total:9', stakeMinor: 500 },
    ]);
  });

  it('adds up what the round returned once every bet is settled', () => {
    const settled = [
      bet('a', 'small', 1000, 1, { winMinor: 1000, returnedMinor: 2000 }),
      bet('b', 'big', 500, 1, { winMinor: 0, returnedMinor: 0 }),
    ].reduce(withBet, emptyBook(1));
    expect(winnings(settled)).toEqual({ winMinor: 1000, returnedMinor: 2000, settled: true });
    expect(winnings(book).settled).toBe(false);
  });
});

describe('"Your bets" by spot', () => {
  const bet = (betId: string, spot: string, stakeMinor: number, rollNo = 1) => ({
    betId,
    spot,
    stakeMinor,
    rollNo,
  });

  it('gives one line per spot with its total, in the order first bet on', () => {
    const book = {
      roundNo: 3,
      bets: [
        bet('a', 'small', 1000),
        bet('b', 'total:9', 500),
        bet('c', 'small', 1000),
        bet('d', 'small', 5000, 2),
      ],
    };
    expect(linesBySpot(book, 2)).toEqual([
      { spot: 'small', count: 3, stakeMinor: 7000, standingMinor: 2000, winMinor: undefined },
      { spot: 'total:9', count: 1, stakeMinor: 500, standingMinor: 500, winMinor: undefined },
    ]);
  });

  it('sums the wins of a settled spot', () => {
    const book = {
      roundNo: 1,
      bets: [
        { ...bet('a', 'small', 1000), winMinor: 1000, returnedMinor: 2000 },
        { ...bet('b', 'small', 500), winMinor: 500, returnedMinor: 1000 },
        { ...bet('c', 'big', 500), winMinor: 0, returnedMinor: 0 },
      ],
    };
    expect(linesBySpot(book, 1).map((l) => [l.spot, l.winMinor])).toEqual([
      ['small', 1500],
      ['big', 0],
    ]);
  });
});

describe('a bet heard twice (its answer and its event)', () => {
  it('keeps its place, so Undo still takes back the last one placed', () => {
    const a = { betId: 'a', spot: 'small', stakeMinor: 1000, rollNo: 1 };
    const b = { betId: 'b', spot: 'big', stakeMinor: 1000, rollNo: 1 };
    const book = withBet(withBet(withBet(emptyBook(1), a), b), a);
    expect(book.bets.map((x) => x.betId)).toEqual(['a', 'b']);
    expect(lastWithdrawable(book, 1)?.betId).toBe('b');
  });
});
