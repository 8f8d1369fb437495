/**
 * Seeded draws for simulations and tests: whole numbers, coin flips, picks,
 * dice and hex, all from one xoshiro128** stream, so that a whole run replays
 * exactly from its seed. Like the generator beneath it this is NOT
 * cryptographic: a live table's dice come from `sealRoll` (the CSPRNG) or from
 * physical dice read by the croupier.
 */
import type { Dice } from '../rules/dice.js';
import { createDiceSource } from './dice-source.js';
import { type RandomSource, randomHex, Xoshiro128StarStar } from './random-source.js';

/** A seeded generator; it is also a {@link RandomSource}, so it can seal a simulated roll. */
export interface Prng extends RandomSource {
  /** The next 32-bit unsigned integer. */
  uint32(): number;
  /** A whole number from `min` to `max`, both included, every one equally likely. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Three faces 1–6 through the unbiased face sampler (Art. 1.1). */
  dice(): Dice;
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
}

const UINT32_COUNT = 0x1_0000_0000;

/** Seeds as `Xoshiro128StarStar` does: 42 and "42" give the same run. */
export function createPrng(seed: string | number): Prng {
  const generator = new Xoshiro128StarStar(seed);
  const uint32 = (): number => generator.nextUint32();
  const int = (min: number, max: number): number => {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
      throw new RangeError(`int: need whole numbers min <= max, got ${min} and ${max}`);
    }
    const count = max - min + 1;
    if (count > UINT32_COUNT) throw new RangeError(`int: at most 2^32 values, got ${count}`);
    // Rejection sampling, as the face sampler does for bytes: `uint32 % count`
    // alone would favour the low values unless count divides 2^32, so outputs at
    // or above the largest multiple of count are drawn again.
    const acceptLimit = UINT32_COUNT - (UINT32_COUNT % count);
    let drawn = uint32();
    while (drawn >= acceptLimit) drawn = uint32();
    return min + (drawn % count);
  };
  // A four-byte buffer is one output: no faces are drawn ahead of the other draws.
  const faces = createDiceSource(generator, 4);
  return {
    fill: (target) => generator.fill(target),
    uint32,
    int,
    chance: (p) => uint32() / UINT32_COUNT < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick: no items');
      return items[int(0, items.length - 1)]!;
    },
    dice: () => faces.roll(),
    hex: (bytes) => randomHex(generator, bytes),
  };
}
