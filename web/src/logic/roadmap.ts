/**
 * The display board's roadmaps, as Macau tables draw them beside the shaker.
 *
 * - Bead plate: one cell per round, oldest first, down each column of six then
 *   on to the next column.
 * - Big road: a column per streak; a streak that reaches the bottom (or meets a
 *   cell already used) turns right along its row (the "dragon tail").
 *
 * Small/Big: a triple is neither (Art. 7: both lose), so on the big road it does
 * not start a column; like a tie in baccarat it is counted on the last cell. On
 * the bead plate it has a cell of its own, marked as a triple. Odd/Even: a triple
 * still has an odd or even total (Arts. 6.7, 6.8); the cell is only flagged.
 */
export type Dice3 = readonly [number, number, number];
export type BigSmall = 'small' | 'big' | 'triple';
export type OddEven = 'odd' | 'even';

export const ROAD_ROWS = 6;

export const isTripleDice = (d: Dice3): boolean => d[0] === d[1] && d[1] === d[2];
export const totalOf = (d: Dice3): number => d[0] + d[1] + d[2];

export function bigSmallOf(dice: Dice3): BigSmall {
  if (isTripleDice(dice)) return 'triple';
  return totalOf(dice) <= 10 ? 'small' : 'big';
}

export const oddEvenOf = (dice: Dice3): OddEven => (totalOf(dice) % 2 === 1 ? 'odd' : 'even');

export interface BeadCell<M> {
  readonly col: number;
  readonly row: number;
  readonly mark: M;
  readonly total: number;
  readonly triple: boolean;
  readonly roundNo: number;
}

export interface Round {
  readonly roundNo: number;
  readonly dice: Dice3;
}

/** Oldest first, down then across, `rows` to a column. */
export function beadPlate<M>(
  rounds: readonly Round[],
  markOf: (d: Dice3) => M,
  rows = ROAD_ROWS,
): BeadCell<M>[] {
  return rounds.map((r, i) => ({
    col: Math.floor(i / rows),
    row: i % rows,
    mark: markOf(r.dice),
    total: totalOf(r.dice),
    triple: isTripleDice(r.dice),
    roundNo: r.roundNo,
  }));
}

export interface RoadCell<M> {
  readonly col: number;
  readonly row: number;
  /** null only for a leading cell that holds triples seen before any Small or Big. */
  readonly mark: M | null;
  /** Triples after this result (Small/Big road) or 1 when this result was a triple (Odd/Even). */
  readonly triples: number;
  readonly roundNo: number;
}

interface Entry<M> {
  readonly mark: M | null;
  readonly roundNo: number;
  triples: number;
}

/** Groups results into the big road's entries; `skip` marks results that are counted, not placed. */
function entries<M>(
  rounds: readonly Round[],
  markOf: (d: Dice3) => M,
  skip: (m: M) => boolean,
): Entry<M>[] {
  const out: Entry<M>[] = [];
  for (const r of rounds) {
    const mark = markOf(r.dice);
    if (skip(mark)) {
      if (out.length === 0) out.push({ mark: null, roundNo: r.roundNo, triples: 0 });
      out[out.length - 1]!.triples++;
    } else {
      out.push({ mark, roundNo: r.roundNo, triples: isTripleDice(r.dice) ? 1 : 0 });
    }
  }
  return out;
}

/** Places entries: a new column per streak, down to the bottom, then right (the dragon tail). */
export function bigRoad<M>(
  rounds: readonly Round[],
  markOf: (d: Dice3) => M,
  skip: (m: M) => boolean = () => false,
  rows = ROAD_ROWS,
): RoadCell<M>[] {
  const cells: RoadCell<M>[] = [];
  const used = new Set<string>();
  const at = (col: number, row: number): string => `${col},${row}`;
  let streakCol = -1;
  let col = 0;
  let row = 0;
  let turned = false;
  let previous: M | null | undefined = undefined;
  for (const entry of entries(rounds, markOf, skip)) {
    if (previous === undefined || entry.mark !== previous || entry.mark === null) {
      streakCol++;
      col = streakCol;
      row = 0;
      turned = false;
    } else if (!turned && row + 1 < rows && !used.has(at(col, row + 1))) {
      row++;
    } else {
      turned = true;
      col++;
    }
    used.add(at(col, row));
    cells.push({ col, row, mark: entry.mark, triples: entry.triples, roundNo: entry.roundNo });
    previous = entry.mark;
  }
  return cells;
}

/** The number of columns a set of cells spans (for sizing and scrolling to the latest). */
export const columnsOf = (cells: readonly { col: number }[]): number =>
  cells.reduce((max, c) => Math.max(max, c.col + 1), 0);

/** Keeps the last `columns` columns, renumbered from 0, so the newest results stay in view. */
export function lastColumns<C extends { col: number }>(cells: readonly C[], columns: number): C[] {
  const from = Math.max(0, columnsOf(cells) - columns);
  return cells.filter((c) => c.col >= from).map((c) => ({ ...c, col: c.col - from }));
}
