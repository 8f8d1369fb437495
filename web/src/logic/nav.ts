/**
 * Arrow-key movement between the spots of the layout. The layout reflows from
 * desktop to phone, so moves are found from the buttons' boxes on screen, not
 * from a fixed grid: the nearest box whose centre lies in the direction, with
 * sideways distance weighed more than distance ahead.
 */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

export const DIRECTION_OF_KEY: Readonly<Record<string, Direction>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

/** Distance between two ranges on one axis; 0 when they overlap. */
const gap = (a0: number, a1: number, b0: number, b1: number): number =>
  Math.max(0, Math.max(a0, b0) - Math.min(a1, b1));

/**
 * How far `b` lies beyond `from` in the direction, edge to edge, or null when it
 * is not wholly on that side (a tall spot such as Small spans several rows, so
 * centres would send "down" into its own row).
 */
function aheadOf(from: Box, b: Box, dir: Direction): number | null {
  const EPSILON = 1;
  const ahead = {
    left: from.x - (b.x + b.w),
    right: b.x - (from.x + from.w),
    up: from.y - (b.y + b.h),
    down: b.y - (from.y + from.h),
  }[dir];
  return ahead >= -EPSILON ? Math.max(0, ahead) : null;
}

/** The index of the best box to move to, or -1 when none lies that way. */
export function nearestInDirection(from: Box, boxes: readonly Box[], dir: Direction): number {
  const horizontal = dir === 'left' || dir === 'right';
  let best = -1;
  let bestScore = Infinity;
  boxes.forEach((b, i) => {
    const ahead = aheadOf(from, b, dir);
    if (ahead === null) return;
    const side = horizontal
      ? gap(from.y, from.y + from.h, b.y, b.y + b.h)
      : gap(from.x, from.x + from.w, b.x, b.x + b.w);
    // Sideways distance weighs more, so moves stay in line; centres break ties.
    const centre = horizontal
      ? Math.abs(b.y + b.h / 2 - (from.y + from.h / 2))
      : Math.abs(b.x + b.w / 2 - (from.x + from.w / 2));
    const score = ahead + side * 3 + centre * 0.01;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}
