/** Loaded dice for the fairness tests: seeded, so every run is the same. */
import { Xoshiro128StarStar } from '../dice/index.js';
import type { Dice, Face } from '../rules/index.js';

/**
 * Dice with one face loaded: on a loaded die `face` comes up with
 * `probability` and the other five share the rest equally; the other dice are
 * fair. Built on the seeded xoshiro128** source.
 */
export function loadedDice(
  seed: string,
  face: Face,
  probability: number,
  loadedDice: 0 | 1 | 3,
): () => Dice {
  const prng = new Xoshiro128StarStar(seed);
  const other = (1 - probability) / 5;
  const others = ([1, 2, 3, 4, 5, 6] as Face[]).filter((f) => f !== face);
  const draw = (loaded: boolean): Face => {
    const u = prng.nextUint32() / 2 ** 32;
    if (!loaded) return (Math.floor(u * 6) + 1) as Face;
    if (u < probability) return face;
    return others[Math.min(Math.floor((u - probability) / other), 4)]!;
  };
  return () => [draw(loadedDice >= 1), draw(loadedDice === 3), draw(loadedDice === 3)];
}
