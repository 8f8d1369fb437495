/**
 * Where random bytes come from. The electronic shaker (Art. 1.2, Art. 2.1)
 * draws from the operating system's CSPRNG through `node:crypto`; tests and
 * seeded simulations inject a deterministic source instead, so a run replays
 * exactly from its seed. Nothing here uses Math.random.
 */
import { createHash, randomFillSync } from 'node:crypto';

/** Fills a buffer with random bytes, each uniform on 0..255. */
export interface RandomSource {
  fill(target: Uint8Array): void;
}

/** The operating system's CSPRNG: the only source fit for a live table. */
export const cryptoRandomSource: RandomSource = {
  fill(target) {
    randomFillSync(target);
  },
};

/** `bytes` bytes drawn from `random`, as lowercase hex (a nonce, a seeded id). */
export function randomHex(random: RandomSource, bytes: number): string {
  const buffer = new Uint8Array(bytes);
  random.fill(buffer);
  return Buffer.from(buffer).toString('hex');
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * xoshiro128** (Blackman & Vigna, 2018): a small, fast, well-tested PRNG with
 * 128 bits of state. Deterministic and NOT cryptographic — for tests and
 * simulations only, never for a live table.
 */
export class Xoshiro128StarStar implements RandomSource {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /**
   * Seeds from any string or number: SHA-256 of its decimal/text form gives the
   * 128-bit state, so seeds 42 and "42" are the same run and nearby seeds give
   * unrelated streams. `fromState` sets the raw state (for reference vectors).
   */
  constructor(seed: string | number) {
    const digest = createHash('sha256').update(String(seed), 'utf8').digest();
    this.s0 = digest.readUInt32LE(0);
    this.s1 = digest.readUInt32LE(4);
    this.s2 = digest.readUInt32LE(8);
    this.s3 = digest.readUInt32LE(12);
    // The all-zero state is the one state xoshiro never leaves; 2^-128 odds, but cheap to rule out.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  static fromState(state: readonly [number, number, number, number]): Xoshiro128StarStar {
    const prng = new Xoshiro128StarStar(0);
    [prng.s0, prng.s1, prng.s2, prng.s3] = state.map((w) => w >>> 0) as [
      number,
      number,
      number,
      number,
    ];
    return prng;
  }

  /** The next 32-bit output, as an unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Bytes of successive outputs, little-endian; a partial last word is cut, not kept. */
  fill(target: Uint8Array): void {
    let i = 0;
    for (; i + 4 <= target.length; i += 4) {
      const w = this.nextUint32();
      target[i] = w & 0xff;
      target[i + 1] = (w >>> 8) & 0xff;
      target[i + 2] = (w >>> 16) & 0xff;
      target[i + 3] = w >>> 24;
    }
    if (i < target.length) {
      let w = this.nextUint32();
      for (; i < target.length; i++, w >>>= 8) target[i] = w & 0xff;
    }
  }
}
