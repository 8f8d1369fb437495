import { describe, expect, it } from 'vitest';
import { checkCommitment, commitmentMessage, sha256Hex } from './commitment.js';
import { createHash } from 'node:crypto';

const NONCE = 'ab'.repeat(32);

describe('the sealed roll commitment (Art. 2.1)', () => {
  it('builds the exact message of docs/table.md', () => {
    expect(commitmentMessage({ tableId: 'T1', roundNo: 12, rollNo: 2 }, [2, 2, 5], NONCE)).toBe(
      `cussec/roll/v1\nT1\n12\n2\n2,2,5\n${NONCE}`,
    );
  });

  it('lowercases the nonce, as it was sealed', () => {
    expect(
      commitmentMessage({ tableId: 'T1', roundNo: 1, rollNo: 1 }, [1, 2, 3], 'AB'.repeat(32)),
    ).toContain(NONCE);
  });

  // Digests computed with src/dice/seal.ts (node:crypto) for the same rolls.
  it('hashes to the value the server seals', () => {
    const ref = { tableId: 'T1', roundNo: 12, rollNo: 2 };
    expect(
      checkCommitment(
        ref,
        [2, 2, 5],
        NONCE,
        '6b504f9331cf35a62577737c2c58fce7d7cf3e8acbbb862346d2beb9c833cfe6',
      ),
    ).toBe('match');
    const utf8 = { tableId: '澳門-1', roundNo: 1, rollNo: 1 };
    expect(
      checkCommitment(
        utf8,
        [6, 6, 6],
        '0f'.repeat(32),
        '1EFC5619893F2B5F6253B8DD334A642D4BF3A54DA13AAB246971852E4C8B2348',
      ),
    ).toBe('match');
  });

  it('finds a changed die, roll number or nonce', () => {
    const hex = '6b504f9331cf35a62577737c2c58fce7d7cf3e8acbbb862346d2beb9c833cfe6';
    expect(checkCommitment({ tableId: 'T1', roundNo: 12, rollNo: 2 }, [2, 2, 6], NONCE, hex)).toBe(
      'mismatch',
    );
    expect(checkCommitment({ tableId: 'T1', roundNo: 12, rollNo: 1 }, [2, 2, 5], NONCE, hex)).toBe(
      'mismatch',
    );
    expect(
      checkCommitment({ tableId: 'T1', roundNo: 12, rollNo: 2 }, [2, 2, 5], 'cd'.repeat(32), hex),
    ).toBe('mismatch');
  });
});

describe('SHA-256 in the browser (@noble/hashes)', () => {
  it('matches the standard test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto on every length across the block boundaries, in UTF-8', () => {
    for (let length = 0; length <= 130; length++) {
      const text = '骰'.repeat(length % 7) + 'x'.repeat(length);
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });
});
