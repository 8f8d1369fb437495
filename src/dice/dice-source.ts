/**
 * Sources of rolls, injected wherever dice are needed so that the table, the
 * simulator and the tests never care where the dice came from (as in
 * boardgame.io, randomness is an input, not a hidden global).
 */
import { type Dice, isDice } from '../rules/dice.js';
import { FaceSampler } from './face-sampler.js';
import { cryptoRandomSource, type RandomSource, Xoshiro128StarStar } from './random-source.js';

export interface DiceSource {
  /** One roll of the three dice (Art. 1.1: faces 1–6), die one, two, three. */
  roll(): Dice;
  /** Fills `faces` with faces 1–6, three per roll: the bulk path for fairness tests. */
  fillFaces(faces: Uint8Array): void;
}

/** Rolls drawn from any byte source through the unbiased face sampler. */
export function createDiceSource(random: RandomSource, bufferBytes?: number): DiceSource {
  const sampler = new FaceSampler(random, bufferBytes);
  return {
    roll: () => [sampler.next(), sampler.next(), sampler.next()],
    fillFaces: (faces) => sampler.fill(faces),
  };
}

/**
 * Rolls from the operating system's CSPRNG, batched for bulk testing. A live
 * table seals each roll with `sealRoll`, which keeps no future faces in memory.
 */
export function cryptoDiceSource(): DiceSource {
  return createDiceSource(cryptoRandomSource);
}

/** Deterministic rolls from a seed (xoshiro128**), for simulations and tests; never for a live table. */
export function seededDiceSource(seed: string | number): DiceSource {
  return createDiceSource(new Xoshiro128StarStar(seed));
}

/**
 * The given rolls in order, for tests that need particular dice. Running out
 * is a bug in the test, so it throws rather than inventing dice.
 */
export function scriptedDiceSource(rolls: readonly Dice[]): DiceSource {
  for (const dice of rolls) {
    if (!isDice(dice)) throw new RangeError(`not three faces 1–6: ${JSON.stringify(dice)}`);
  }
  let next = 0;
  const roll = (): Dice => {
    const dice = rolls[next++];
    if (dice === undefined)
      throw new RangeError(`scripted dice ran out after ${rolls.length} rolls`);
    return dice;
  };
  return {
    roll,
    fillFaces(faces) {
      if (faces.length % 3 !== 0) throw new RangeError('faces must come in threes');
      for (let i = 0; i < faces.length; i += 3) faces.set(roll(), i);
    },
  };
}
