/**
 * A small seeded pseudo-random generator (mulberry32) for simulations and
 * tests, so that a whole run replays exactly from its seed. It is NOT the dice
 * of a real table: those come from the electronic shaker's CSPRNG (src/dice)
 * or from physical dice read by the croupier.
 */
import type { Dice, Face } from '../rules/index.js';

export interface Prng {
  /** The next 32-bit unsigned integer. */
  uint32(): number;
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  dice(): Dice;
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
}

export function createPrng(seed: number): Prng {
  let a = seed >>> 0;
  const uint32 = (): number => {
    // mulberry32 by Tommy Ettinger: one add and three multiply-xorshift rounds.
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  // A float in [0, 1); the slight bias of scaling is irrelevant to a simulation.
  const unit = (): number => uint32() / 0x1_0000_0000;
  const int = (min: number, max: number): number => min + Math.floor(unit() * (max - min + 1));
  return {
    uint32,
    int,
    chance: (p) => unit() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick: no items');
      return items[int(0, items.length - 1)]!;
    },
    dice: () => [int(1, 6) as Face, int(1, 6) as Face, int(1, 6) as Face],
    hex: (bytes) =>
      Array.from({ length: bytes }, () => int(0, 255).toString(16).padStart(2, '0')).join(''),
  };
}
