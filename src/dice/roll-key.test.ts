import { describe, expect, it } from 'vitest';
import { RollKeyError, RollKeyring } from './roll-key.js';
import { sealDice } from './seal.js';

const roll = sealDice({ tableId: 'T1', roundNo: 3, rollNo: 1 }, [2, 5, 6]);

describe('roll keys', () => {
  it('seals and opens a roll; the box holds neither dice nor nonce', () => {
    const keys = RollKeyring.generate('k1');
    const stored = keys.seal(roll);
    expect(JSON.stringify(stored)).not.toContain(roll.nonceHex);
    expect(stored.commitmentHex).toBe(roll.commitmentHex);
    expect(keys.open(stored)).toEqual(roll);
  });

  it('opens with an older key after a rotation, and seals with the new one', () => {
    const old = RollKeyring.generate('2026-11');
    const stored = old.seal(roll);
    const rotated = RollKeyring.parse(
      `${RollKeyring.generate('2026-12').format()}# kept until its rolls are revealed\n${old.format()}`,
      'keys',
    );
    expect(rotated.open(stored)).toEqual(roll);
    expect(rotated.seal(roll).keyId).toBe('2026-12');
  });

  it('refuses a box moved to another commitment, a wrong key and a missing key', () => {
    const keys = RollKeyring.generate('k1');
    const stored = keys.seal(roll);
    expect(() => keys.open({ ...stored, commitmentHex: '0'.repeat(64) })).toThrow(RollKeyError);
    expect(() => RollKeyring.generate('k1').open(stored)).toThrow(/does not open/);
    expect(() => RollKeyring.generate('k2').open(stored)).toThrow(/was not given/);
  });

  it('refuses key text that is not <id>:<32 bytes in base64>', () => {
    expect(() => RollKeyring.parse('', 'env')).toThrow(/no key/);
    expect(() => RollKeyring.parse('k1:c2hvcnQ=', 'env')).toThrow(/32 bytes/);
    expect(() => RollKeyring.parse(`bad id:${Buffer.alloc(32).toString('base64')}`, 'env')).toThrow(
      RollKeyError,
    );
  });
});
