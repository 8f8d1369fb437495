import { describe, expect, it } from 'vitest';
import { isDice } from '../rules/dice.js';
import {
  createDiceSource,
  cryptoDiceSource,
  scriptedDiceSource,
  seededDiceSource,
} from './dice-source.js';
import { cyclingByteSource } from './test-sources.js';

describe('dice sources', () => {
  it('roll three faces 1–6 from the CSPRNG (Art. 1.1)', () => {
    const source = cryptoDiceSource();
    for (let i = 0; i < 1000; i++) expect(isDice(source.roll())).toBe(true);
    const faces = new Uint8Array(3000);
    source.fillFaces(faces);
    expect(faces.every((f) => f >= 1 && f <= 6)).toBe(true);
  });

  it('replay exactly from a seed', () => {
    const a = seededDiceSource('table-7');
    const b = seededDiceSource('table-7');
    const rollsA = Array.from({ length: 50 }, () => a.roll());
    const rollsB = Array.from({ length: 50 }, () => b.roll());
    expect(rollsA).toEqual(rollsB);
    expect(rollsA.every(isDice)).toBe(true);
  });

  it('roll die one, two, three in the order the sampler draws them', () => {
    const source = createDiceSource(cyclingByteSource());
    expect(source.roll()).toEqual([1, 2, 3]);
    expect(source.roll()).toEqual([4, 5, 6]);
  });

  it('give scripted rolls in order and refuse to invent more', () => {
    const source = scriptedDiceSource([
      [1, 1, 1],
      [2, 3, 4],
    ]);
    const faces = new Uint8Array(3);
    source.fillFaces(faces);
    expect([...faces]).toEqual([1, 1, 1]);
    expect(source.roll()).toEqual([2, 3, 4]);
    expect(() => source.roll()).toThrow(/ran out/);
  });

  it('refuse scripted dice that are not three faces 1–6', () => {
    expect(() => scriptedDiceSource([[1, 2, 7] as never])).toThrow(RangeError);
  });
});
