/**
 * What the fairness figures can and cannot show: how many rolls the faces
 * chi-square test needs to catch a given loaded die, from src/math's
 * `rollsToDetectLoadedFace` (noncentral chi-square), and the converse — the
 * smallest bias a window of N rolls catches.
 *
 * The figures are for one test at a fixed number of rolls. The monitor tests
 * after every roll, which catches a bias at least as soon (it looks more
 * often) but also raises more false alarms than one test would.
 */
import { rollsToDetectLoadedFace, SIGNIFICANCE } from '../math/index.js';
import type { Face } from '../rules/index.js';

export interface DetectionPowerQuery {
  /** The probability of the loaded face on a loaded die (fair: 1/6); the other five share the rest. */
  readonly probability: number;
  /** How many of the three dice are loaded. */
  readonly loadedDice: 1 | 2 | 3;
  /** Default 6; the figure does not depend on which face. */
  readonly face?: Face;
  /** Default 0.01 (the 99% level of src/math). */
  readonly significance?: number;
  /** Default 0.9. */
  readonly power?: number;
}

export interface DetectionPowerFigure {
  readonly face: Face;
  readonly probability: number;
  /** probability − 1/6: how much likelier the face is. */
  readonly excess: number;
  readonly loadedDice: 1 | 2 | 3;
  readonly significance: number;
  readonly power: number;
  /** Rolls (of three dice) for the faces test to reject fairness with that power. */
  readonly rolls: number;
}

export function detectionPower(query: DetectionPowerQuery): DetectionPowerFigure {
  const { probability, loadedDice, face = 6, significance = SIGNIFICANCE, power = 0.9 } = query;
  const { rolls } = rollsToDetectLoadedFace(face, probability, { significance, power, loadedDice });
  return { face, probability, excess: probability - 1 / 6, loadedDice, significance, power, rolls };
}

/** The table in docs/compliance.md: each excess on one die and on all three. */
export function detectionPowerTable(
  options: {
    readonly excesses?: readonly number[];
    readonly significance?: number;
    readonly power?: number;
  } = {},
): DetectionPowerFigure[] {
  const { excesses = [0.05, 0.02, 0.01], significance = SIGNIFICANCE, power = 0.9 } = options;
  return excesses.flatMap((excess) =>
    ([1, 3] as const).map((loadedDice) =>
      detectionPower({ probability: 1 / 6 + excess, loadedDice, significance, power }),
    ),
  );
}

/**
 * The smallest excess (probability − 1/6 of one face) that `rolls` rolls detect
 * with the given power: what a window of that size can show. Bisection, as
 * the rolls needed fall as the excess grows.
 */
export function smallestDetectableExcess(
  rolls: number,
  options: Omit<DetectionPowerQuery, 'probability' | 'face'>,
): number {
  if (!(Number.isInteger(rolls) && rolls > 0))
    throw new RangeError(`rolls must be a positive integer`);
  let low = 0;
  let high = 5 / 6;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (detectionPower({ ...options, probability: 1 / 6 + mid }).rolls <= rolls) high = mid;
    else low = mid;
  }
  return high;
}
