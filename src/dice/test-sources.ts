/** Byte sources for tests: exact, inspectable, no randomness. */
import type { RandomSource } from './random-source.js';

/** Bytes 0, 1, …, 255, 0, 1, … forever: every byte value equally often. */
export function cyclingByteSource(): RandomSource & { readonly bytesDrawn: () => number } {
  let next = 0;
  return {
    fill(target) {
      for (let i = 0; i < target.length; i++) target[i] = next++ & 0xff;
    },
    bytesDrawn: () => next,
  };
}

/** The given bytes in order, then throws: for tests that check exactly which bytes are used. */
export function fixedByteSource(bytes: readonly number[]): RandomSource {
  let next = 0;
  return {
    fill(target) {
      for (let i = 0; i < target.length; i++) {
        const byte = bytes[next++];
        if (byte === undefined) throw new RangeError('fixed byte source ran out');
        target[i] = byte;
      }
    },
  };
}
