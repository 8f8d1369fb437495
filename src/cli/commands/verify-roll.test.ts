import { describe, expect, it } from 'vitest';
import { sealRoll } from '../../dice/index.js';
import { runCli } from '../testing.js';

const sealed = sealRoll({ tableId: 'T-07', roundNo: 42, rollNo: 1 });
const args = (change: Record<string, string> = {}): string[] => {
  const values: Record<string, string> = {
    table: 'T-07',
    round: '42',
    roll: '1',
    dice: sealed.dice.join(','),
    nonce: sealed.nonceHex,
    commitment: sealed.commitmentHex,
    ...change,
  };
  return ['verify-roll', ...Object.entries(values).flatMap(([k, v]) => [`--${k}`, v])];
};
const otherDice =
  sealed.dice[0] === 6 ? '1,1,1' : `${sealed.dice[0] + 1},${sealed.dice[1]},${sealed.dice[2]}`;

describe('cussec verify-roll (Art. 2.1: the roll was sealed before betting)', () => {
  it('prints "verified" and exits 0 when the reveal matches', async () => {
    const result = await runCli(args());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `verified: table T-07 round 42 roll 1, dice ${sealed.dice.join(',')}\n`,
    );
    expect(result.stderr).toBe('');
  });

  it('prints JSON with --json', async () => {
    const result = await runCli([...args(), '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      verified: true,
      roundNo: 42,
      dice: sealed.dice,
    });
  });

  it.each([
    ['other dice', { dice: otherDice }],
    ['another round', { round: '43' }],
    ['another roll', { roll: '2' }],
    ['another table', { table: 'T-08' }],
    ['another nonce', { nonce: '0'.repeat(64) }],
  ])('exits 1 with one clear line for %s', async (_, change) => {
    const result = await runCli(args(change));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^cussec: not verified: .*do not match the commitment.*\(Art\. 2\.1\)\n$/,
    );
  });

  it('prints a JSON refusal on stdout with --json and still exits 1', async () => {
    const result = await runCli([...args({ round: '43' }), '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      verified: false,
      code: 'commitment_mismatch',
    });
  });

  it.each([
    ['dice', { dice: '1,2,7' }, /three faces 1–6/],
    ['dice', { dice: '1,2' }, /three faces 1–6/],
    ['round', { round: '-1' }, /--round must be a whole number/],
    ['roll', { roll: '1.0' }, /--roll must be a whole number/],
    ['nonce', { nonce: 'abc' }, /nonce must be 64 hex digits/],
    ['commitment', { commitment: 'xyz' }, /commitment must be 64 hex digits/],
    ['table', { table: '' }, /table id must be/],
  ])('exits 2 on a malformed %s', async (_, change, message) => {
    const result = await runCli(args(change));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 when an option is missing', async () => {
    const result = await runCli(['verify-roll', '--table', 'T-07']);
    expect(result.code).toBe(2);
  });
});
