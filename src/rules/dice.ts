/**
 * Dice and the 216 ordered outcomes of three of them.
 *
 * Art. 1.1: three dice with faces 1 to 6. An outcome is ordered (die one, two,
 * three) so that every one of the 216 is equally likely; that is what makes the
 * exact math a plain count.
 */

export type Face = 1 | 2 | 3 | 4 | 5 | 6;
export type Dice = readonly [Face, Face, Face];

export const FACES: readonly Face[] = [1, 2, 3, 4, 5, 6];
export const OUTCOME_COUNT = 216;

export function isFace(value: unknown): value is Face {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 6;
}

/** True when `value` is exactly three faces 1–6 (Art. 1.1). */
export function isDice(value: unknown): value is Dice {
  return Array.isArray(value) && value.length === 3 && value.every(isFace);
}

/** The index 0..215 of an ordered outcome; the inverse of {@link outcomeDice}. */
export function outcomeIndex(dice: Dice): number {
  return (dice[0] - 1) * 36 + (dice[1] - 1) * 6 + (dice[2] - 1);
}

export function outcomeDice(index: number): Dice {
  return [
    (Math.floor(index / 36) + 1) as Face,
    (Math.floor(index / 6) % 6) + 1,
    (index % 6) + 1,
  ] as unknown as Dice;
}

/** All 216 ordered outcomes, in {@link outcomeIndex} order. */
export const OUTCOMES: readonly Dice[] = Array.from({ length: OUTCOME_COUNT }, (_, i) =>
  outcomeDice(i),
);

export function diceTotal(dice: Dice): number {
  return dice[0] + dice[1] + dice[2];
}

export function isTriple(dice: Dice): boolean {
  return dice[0] === dice[1] && dice[1] === dice[2];
}

/** How many of the three dice show `face`. */
export function countFace(dice: Dice, face: Face): number {
  return (dice[0] === face ? 1 : 0) + (dice[1] === face ? 1 : 0) + (dice[2] === face ? 1 : 0);
}

/**
 * Parses "2,2,5" (or "2 2 5", "225") into dice. Returns a message on failure so
 * that the command line and the API can each word the error their own way.
 */
export function parseDice(text: string): Dice | { error: string } {
  const parts =
    text.includes(',') || /\s/.test(text.trim()) ? text.trim().split(/[\s,]+/) : [...text.trim()];
  if (parts.length !== 3) {
    return { error: `dice must be exactly three faces 1–6 (Art. 1.1), got "${text}"` };
  }
  const faces = parts.map((p) => (/^[1-6]$/.test(p) ? Number(p) : Number.NaN));
  if (!isDice(faces)) {
    return { error: `dice must be exactly three faces 1–6 (Art. 1.1), got "${text}"` };
  }
  return faces;
}
