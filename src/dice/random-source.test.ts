import { describe, expect, it } from 'vitest';
import { cryptoRandomSource, Xoshiro128StarStar } from './random-source.js';

describe('Xoshiro128StarStar', () => {
  it('matches the reference output for state 1, 2, 3, 4', () => {
    const prng = Xoshiro128StarStar.fromState([1, 2, 3, 4]);
    const out = Array.from({ length: 6 }, () => prng.nextUint32());
    expect(out).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('replays exactly from a seed, and "42" and 42 are the same seed', () => {
    const a = new Uint8Array(37);
    const b = new Uint8Array(37);
    new Xoshiro128StarStar(42).fill(a);
    new Xoshiro128StarStar('42').fill(b);
    expect(a).toEqual(b);
  });

  it('gives different streams for different seeds', () => {
    const a = new Uint8Array(32);
    const b = new Uint8Array(32);
    new Xoshiro128StarStar(1).fill(a);
    new Xoshiro128StarStar(2).fill(b);
    expect(a).not.toEqual(b);
  });

  it('writes each output little-endian and cuts a partial last word', () => {
    const prng = Xoshiro128StarStar.fromState([1, 2, 3, 4]);
    const bytes = new Uint8Array(6);
    prng.fill(bytes);
    // 11520 = 0x00002d00, then 0.
    expect([...bytes]).toEqual([0x00, 0x2d, 0x00, 0x00, 0, 0]);
    expect(prng.nextUint32()).toBe(5927040);
  });
});

describe('cryptoRandomSource', () => {
  it('fills the whole buffer', () => {
    const bytes = new Uint8Array(4096);
    cryptoRandomSource.fill(bytes);
    // 4096 zero bytes from a CSPRNG has probability 2^-32768.
    expect(bytes.some((b) => b !== 0)).toBe(true);
  });
});
