/**
 * The player's own bets in the current round, as the server reported them
 * (my-bets, or the answers to place and withdraw). Pure: the page keeps one and
 * replaces it after every answer.
 */
import type { Bet } from '../api/types.js';

export interface BetBook {
  readonly roundNo: number;
  /** In the order they were placed. */
  readonly bets: readonly Bet[];
}

export const emptyBook = (roundNo: number): BetBook => ({ roundNo, bets: [] });

/**
 * The book with `bet` added, or updated where it already is: the answer to a
 * bet and its event both bring it, in either order, and it keeps its place
 * (Undo takes back the last placed).
 */
export const withBet = (book: BetBook, bet: Bet): BetBook => ({
  roundNo: book.roundNo,
  bets: book.bets.some((b) => b.betId === bet.betId)
    ? book.bets.map((b) => (b.betId === bet.betId ? bet : b))
    : [...book.bets, bet],
});

export const withoutBet = (book: BetBook, betId: string): BetBook => ({
  roundNo: book.roundNo,
  bets: book.bets.filter((b) => b.betId !== betId),
});

export function stakeOn(book: BetBook, spot: string): number {
  return book.bets.reduce((sum, b) => (b.spot === spot ? sum + b.stakeMinor : sum), 0);
}

export const totalStake = (book: BetBook): number =>
  book.bets.reduce((sum, b) => sum + b.stakeMinor, 0);

/** Stakes by spot, for the chips drawn on the layout. */
export function stakesBySpot(book: BetBook): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of book.bets) out.set(b.spot, (out.get(b.spot) ?? 0) + b.stakeMinor);
  return out;
}

/**
 * Art. 3.4: after a void roll the round's earlier bets stand; only bets placed
 * in the current roll's betting window may be withdrawn.
 */
export const isWithdrawable = (bet: Bet, rollNo: number): boolean => bet.rollNo === rollNo;

/** The last withdrawable bet, on one spot or on any. */
export function lastWithdrawable(book: BetBook, rollNo: number, spot?: string): Bet | undefined {
  for (let i = book.bets.length - 1; i >= 0; i--) {
    const b = book.bets[i]!;
    if (isWithdrawable(b, rollNo) && (spot === undefined || b.spot === spot)) return b;
  }
  return undefined;
}

/** What the round won: the sum of `winMinor` and of `returnedMinor` over settled bets. */
export function winnings(book: BetBook): {
  winMinor: number;
  returnedMinor: number;
  settled: boolean;
} {
  let winMinor = 0;
  let returnedMinor = 0;
  let settled = book.bets.length > 0;
  for (const b of book.bets) {
    if (b.returnedMinor === undefined) settled = false;
    winMinor += b.winMinor ?? 0;
    returnedMinor += b.returnedMinor ?? 0;
  }
  return { winMinor, returnedMinor, settled };
}

export interface RepeatBet {
  readonly spot: string;
  readonly stakeMinor: number;
}

/** The bets to place again for "repeat": one per spot, stakes summed, in layout order of first placing. */
export function repeatable(book: BetBook): RepeatBet[] {
  return [...stakesBySpot(book)].map(([spot, stakeMinor]) => ({ spot, stakeMinor }));
}

/** One line of "Your bets": a spot's bets together. */
export interface SpotLine {
  readonly spot: string;
  readonly count: number;
  readonly stakeMinor: number;
  /** Art. 3.4: the part placed before a void roll, which stands. */
  readonly standingMinor: number;
  /** Once settled: what the spot's bets won (stakes back not counted), else undefined. */
  readonly winMinor: number | undefined;
}

/** The bets grouped by spot, in the order each spot was first bet on. */
export function linesBySpot(book: BetBook, rollNo: number): SpotLine[] {
  const lines = new Map<string, SpotLine>();
  for (const b of book.bets) {
    const line = lines.get(b.spot) ?? {
      spot: b.spot,
      count: 0,
      stakeMinor: 0,
      standingMinor: 0,
      winMinor: 0,
    };
    lines.set(b.spot, {
      spot: b.spot,
      count: line.count + 1,
      stakeMinor: line.stakeMinor + b.stakeMinor,
      standingMinor: line.standingMinor + (isWithdrawable(b, rollNo) ? 0 : b.stakeMinor),
      winMinor:
        line.winMinor === undefined || b.returnedMinor === undefined
          ? undefined
          : line.winMinor + (b.winMinor ?? 0),
    });
  }
  return [...lines.values()];
}
