/**
 * Turning random bytes into die faces without bias.
 *
 * Art. 1.1 wants every face equally likely. 256 is not a multiple of 6, so
 * `byte % 6` would favour faces 1–4 (43/256 against 42/256). Rejection sampling
 * fixes it: bytes 252..255 are thrown away and the remaining 252 = 6 · 42 map
 * onto the faces exactly 42 each. On average 256/252 bytes make a face.
 */
import type { Face } from '../rules/dice.js';
import type { RandomSource } from './random-source.js';

/** Bytes at or above this are rejected: 252 is the largest multiple of 6 that fits in a byte. */
export const BYTE_ACCEPT_LIMIT = 252;

/** The face an accepted byte stands for (byte < 252). */
export function faceOfByte(byte: number): Face {
  return ((byte % 6) + 1) as Face;
}

/**
 * Draws faces from a random source through a buffer, refilled in batches so
 * that bulk tests call the source rarely. A buffer holds future faces, so the
 * live shaker uses a fresh, small sampler per roll (see seal.ts).
 */
export class FaceSampler {
  private readonly buffer: Uint8Array;
  private position: number;

  constructor(
    private readonly random: RandomSource,
    bufferBytes = 65_536,
  ) {
    if (!Number.isInteger(bufferBytes) || bufferBytes < 1) {
      throw new RangeError(`bufferBytes must be a positive integer, got ${bufferBytes}`);
    }
    this.buffer = new Uint8Array(bufferBytes);
    this.position = bufferBytes;
  }

  /** One face 1–6. */
  next(): Face {
    for (;;) {
      if (this.position === this.buffer.length) this.refill();
      const byte = this.buffer[this.position++]!;
      if (byte < BYTE_ACCEPT_LIMIT) return faceOfByte(byte);
    }
  }

  /** Fills `out[start..end)` with faces 1–6: the bulk path, a tight loop over the buffer. */
  fill(out: Uint8Array, start = 0, end = out.length): void {
    const buffer = this.buffer;
    let position = this.position;
    for (let i = start; i < end;) {
      if (position === buffer.length) {
        this.random.fill(buffer);
        position = 0;
      }
      const byte = buffer[position++]!;
      if (byte < BYTE_ACCEPT_LIMIT) out[i++] = (byte % 6) + 1;
    }
    this.position = position;
  }

  private refill(): void {
    this.random.fill(this.buffer);
    this.position = 0;
  }
}
