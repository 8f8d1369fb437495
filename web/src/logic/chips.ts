/**
 * The chips offered to a player: the usual casino denominations that fit the
 * table's limits (a chip below the minimum stake or above the maximum could
 * never be placed on its own), at most six so keys 1–6 select them.
 */
export const DENOMINATIONS_MINOR: readonly number[] = [
  100, 500, 1000, 2000, 5000, 10000, 50000, 100000, 500000, 1000000, 5000000,
];

export const CHIPS_MAX = 6;

export function chipsFor(stakeMinorMin: number, stakeMinorMax: number): number[] {
  const fit = DENOMINATIONS_MINOR.filter((v) => v >= stakeMinorMin && v <= stakeMinorMax);
  // A table whose minimum is not a standard chip still needs a chip worth exactly the minimum.
  if (fit[0] !== stakeMinorMin && stakeMinorMin <= stakeMinorMax) fit.unshift(stakeMinorMin);
  return fit.slice(0, CHIPS_MAX);
}

/** A colour class per denomination, so that a 100 chip looks the same at every table. */
export function chipTone(valueMinor: number): string {
  const tones: Record<number, string> = {
    100: 'white',
    500: 'pink',
    1000: 'blue',
    2000: 'teal',
    5000: 'orange',
    10000: 'black',
    50000: 'purple',
    100000: 'yellow',
    500000: 'red',
    1000000: 'green',
    5000000: 'grey',
  };
  return tones[valueMinor] ?? 'blue';
}
