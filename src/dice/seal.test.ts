import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dice } from '../rules/dice.js';
import { Xoshiro128StarStar } from './random-source.js';
import {
  commitmentMessage,
  type RevealClaim,
  type RollRef,
  rollCommitment,
  sealDice,
  sealRoll,
  verifyReveal,
} from './seal.js';
import { fixedByteSource } from './test-sources.js';

const ref: RollRef = { tableId: 'T-07', roundNo: 1234, rollNo: 2 };

function claimOf(sealed: ReturnType<typeof sealRoll>, at: RollRef = ref): RevealClaim {
  return {
    ...at,
    dice: sealed.dice,
    nonceHex: sealed.nonceHex,
    commitmentHex: sealed.commitmentHex,
  };
}

describe('sealRoll (Art. 2.1: the roll is drawn and sealed before betting opens)', () => {
  it('hashes exactly the agreed message format', () => {
    const nonceHex = 'ab'.repeat(32);
    const message = commitmentMessage(ref, [2, 2, 5], nonceHex);
    expect(message).toBe(`cussec/roll/v1\nT-07\n1234\n2\n2,2,5\n${nonceHex}`);
    const digest = createHash('sha256').update(message, 'utf8').digest('hex');
    expect(rollCommitment(ref, [2, 2, 5], nonceHex)).toBe(digest);
  });

  it('matches a known answer computed independently (Python hashlib)', () => {
    const nonceHex = '6836836db107812cdb9deb4a5cb009ab616ec1f5c9c3bae5db8e6ea4dec8960d';
    expect(rollCommitment({ tableId: 'T-07', roundNo: 1234, rollNo: 1 }, [3, 4, 1], nonceHex)).toBe(
      'c2f797e71a1d869590c325ce075b7bee4f4a30c6f0941758288e2e9263184b04',
    );
  });

  it('draws dice by rejection sampling, then a 32-byte nonce, from the given source', () => {
    // 252 is rejected; 0, 7, 250 give faces 1, 2, 5; the rest of the 8-byte batch is dropped.
    const bytes = [252, 0, 7, 250, 99, 99, 99, 99, ...Array.from({ length: 32 }, (_, i) => i)];
    const sealed = sealRoll(ref, fixedByteSource(bytes));
    expect(sealed.dice).toEqual([1, 2, 5]);
    expect(sealed.nonceHex).toBe(Buffer.from(bytes.slice(8)).toString('hex'));
    expect(sealed.commitmentHex).toBe(rollCommitment(ref, [1, 2, 5], sealed.nonceHex));
  });

  it('uses the CSPRNG by default and gives a fresh nonce every time', () => {
    const a = sealRoll(ref);
    const b = sealRoll(ref);
    expect(a.nonceHex).toMatch(/^[0-9a-f]{64}$/);
    expect(a.commitmentHex).toMatch(/^[0-9a-f]{64}$/);
    expect(a.nonceHex).not.toBe(b.nonceHex);
  });

  it('refuses to seal a roll it could not later verify', () => {
    expect(() => sealRoll({ ...ref, tableId: 'T\n1' })).toThrow(RangeError);
    expect(() => sealRoll({ ...ref, tableId: '' })).toThrow(RangeError);
    expect(() => sealRoll({ ...ref, roundNo: 1.5 })).toThrow(RangeError);
    expect(() => sealRoll({ ...ref, rollNo: -1 })).toThrow(RangeError);
    expect(() => sealDice(ref, [0, 1, 2] as unknown as Dice)).toThrow(RangeError);
  });
});

describe('verifyReveal', () => {
  it('accepts the reveal of a sealed roll and returns its dice', () => {
    const sealed = sealRoll(ref);
    expect(verifyReveal(claimOf(sealed))).toEqual({ ok: true, value: sealed.dice });
  });

  it('reads hex in either case', () => {
    const sealed = sealRoll(ref);
    const claim = {
      ...claimOf(sealed),
      nonceHex: sealed.nonceHex.toUpperCase(),
      commitmentHex: sealed.commitmentHex.toUpperCase(),
    };
    expect(verifyReveal(claim).ok).toBe(true);
  });

  const sealed = sealDice(ref, [3, 4, 6], new Xoshiro128StarStar('fixture'));
  const failures: [string, Partial<RevealClaim>, string][] = [
    ['a table id with a newline', { tableId: 'T-07\n' }, 'roll_ref_malformed'],
    ['an empty table id', { tableId: '' }, 'roll_ref_malformed'],
    ['a negative round', { roundNo: -1 }, 'roll_ref_malformed'],
    ['a fractional roll number', { rollNo: 2.5 }, 'roll_ref_malformed'],
    ['two dice', { dice: [3, 4] }, 'dice_malformed'],
    ['a face of 7', { dice: [3, 4, 7] }, 'dice_malformed'],
    ['a face of 0', { dice: [0, 4, 6] }, 'dice_malformed'],
    ['a short nonce', { nonceHex: 'ab' }, 'nonce_malformed'],
    ['a non-hex nonce', { nonceHex: 'zz'.repeat(32) }, 'nonce_malformed'],
    ['a short commitment', { commitmentHex: 'ab'.repeat(31) }, 'commitment_malformed'],
    ['other dice', { dice: [3, 4, 5] }, 'commitment_mismatch'],
    ['dice in another order', { dice: [4, 3, 6] }, 'commitment_mismatch'],
    ['another round', { roundNo: 1235 }, 'commitment_mismatch'],
    ['another roll of the round', { rollNo: 1 }, 'commitment_mismatch'],
    ['another table', { tableId: 'T-08' }, 'commitment_mismatch'],
    ['another nonce', { nonceHex: '00'.repeat(32) }, 'commitment_mismatch'],
    ['another commitment', { commitmentHex: '00'.repeat(32) }, 'commitment_mismatch'],
  ];
  it.each(failures)('refuses %s', (_, change, code) => {
    const result = verifyReveal({ ...claimOf(sealed), ...change });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.error.message.length).toBeGreaterThan(0);
    }
  });

  it('names Art. 2.1 on a mismatch and Art. 1.1 on bad dice', () => {
    const mismatch = verifyReveal({ ...claimOf(sealed), dice: [1, 1, 1] });
    const badDice = verifyReveal({ ...claimOf(sealed), dice: [1, 1, 9] });
    expect(!mismatch.ok && mismatch.error.article).toBe('2.1');
    expect(!badDice.ok && badDice.error.article).toBe('1.1');
  });

  it('breaks on any tampering of table, round, roll, dice or nonce (property)', () => {
    const face = fc.integer({ min: 1, max: 6 });
    const refArb = fc.record({
      tableId: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/\p{Cc}/u.test(s)),
      roundNo: fc.nat(),
      rollNo: fc.nat({ max: 20 }),
    });
    const tamper = fc.oneof(
      fc.record({ tableId: fc.string({ minLength: 1, maxLength: 12 }) }),
      fc.record({ roundNo: fc.nat() }),
      fc.record({ rollNo: fc.nat({ max: 20 }) }),
      fc.record({ dice: fc.tuple(face, face, face) }),
      fc.record({
        nonceHex: fc
          .uint8Array({ minLength: 32, maxLength: 32 })
          .map((b) => Buffer.from(b).toString('hex')),
      }),
    );
    fc.assert(
      fc.property(
        refArb,
        fc.tuple(face, face, face),
        fc.string(),
        tamper,
        (at, dice, seed, change) => {
          const sealedRoll = sealDice(at, dice as unknown as Dice, new Xoshiro128StarStar(seed));
          const original = claimOf(sealedRoll, at);
          expect(verifyReveal(original).ok).toBe(true);
          const tampered = { ...original, ...change };
          const unchanged = Object.entries(change).every(
            ([key, value]) =>
              JSON.stringify(original[key as keyof RevealClaim]) === JSON.stringify(value),
          );
          expect(verifyReveal(tampered).ok).toBe(unchanged);
        },
      ),
      { numRuns: 300 },
    );
  });
});
