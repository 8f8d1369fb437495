/**
 * Keeps a sealed roll secret while it is stored (Art. 2.1): between the shake
 * and the reveal, the dice and the nonce are written to the database only
 * encrypted, with AES-256-GCM under a key that is not in the database (a key
 * file or environment variable that every node of a floor is given). The
 * commitment is stored in clear beside the ciphertext, as the public already
 * knows it, and is the ciphertext's associated data: a box cannot be moved to
 * another roll.
 *
 * A keyring has one current key, which seals, and older ones, which only
 * open: a key is rotated by putting a new one first and keeping the old one
 * until every roll sealed under it has been revealed (the next round).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { isDice } from '../rules/dice.js';
import type { SealedRoll } from './seal.js';

export const ROLL_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_.-]{1,40}$/;
const NONCE_HEX = /^[0-9a-f]{64}$/;

export interface RollKey {
  /** Stored with each ciphertext, so that a rotated key still opens what it sealed. */
  readonly id: string;
  readonly key: Buffer;
}

/** A sealed roll as the database holds it: the public commitment and the encrypted dice and nonce. */
export interface StoredSeal {
  readonly commitmentHex: string;
  readonly keyId: string;
  /** base64url of the 12-byte IV, the ciphertext and the 16-byte GCM tag. */
  readonly box: string;
}

/** The key or the stored text is wrong: the node cannot seal or reveal. */
export class RollKeyError extends Error {
  override readonly name = 'RollKeyError';
}

export class RollKeyring {
  private readonly byId: ReadonlyMap<string, RollKey>;

  constructor(
    readonly current: RollKey,
    older: readonly RollKey[] = [],
  ) {
    for (const k of [current, ...older]) checkKey(k);
    this.byId = new Map([current, ...older].map((k) => [k.id, k]));
  }

  /** A new random key; `cussec serve` writes one to a file for a single embedded node. */
  static generate(id: string): RollKeyring {
    return new RollKeyring({ id, key: randomBytes(ROLL_KEY_BYTES) });
  }

  /**
   * Keys written as `<id>:<base64 of 32 bytes>`, one per line or comma-separated,
   * the current one first; blank lines and lines starting with # are skipped.
   * `source` names where the text came from, for the error message.
   */
  static parse(text: string, source: string): RollKeyring {
    const keys: RollKey[] = [];
    for (const raw of text.split(/[\n,]/)) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) continue;
      const at = line.indexOf(':');
      const id = line.slice(0, at);
      const key = Buffer.from(line.slice(at + 1), 'base64');
      if (at < 0 || !KEY_ID.test(id) || key.length !== ROLL_KEY_BYTES) {
        throw new RollKeyError(
          `${source}: each key is <id>:<base64 of ${ROLL_KEY_BYTES} bytes>, the id 1 to 40 letters, digits or _.-`,
        );
      }
      if (keys.some((k) => k.id === id)) throw new RollKeyError(`${source}: key id ${id} twice`);
      keys.push({ id, key });
    }
    const [current, ...older] = keys;
    if (current === undefined) throw new RollKeyError(`${source}: no key in it`);
    return new RollKeyring(current, older);
  }

  /** The text `parse` reads back: one key per line, the current first. */
  format(): string {
    return [...this.byId.values()].map((k) => `${k.id}:${k.key.toString('base64')}\n`).join('');
  }

  /** Encrypts the dice and nonce under the current key; the commitment stays in clear. */
  seal(roll: SealedRoll): StoredSeal {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(roll.commitmentHex, 'utf8'));
    const plain = Buffer.from(`${roll.dice.join(',')}:${roll.nonceHex}`, 'utf8');
    const box = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      commitmentHex: roll.commitmentHex,
      keyId: this.current.id,
      box: box.toString('base64url'),
    };
  }

  /** Decrypts a stored seal; a missing key or a box that does not open is a RollKeyError. */
  open(stored: StoredSeal): SealedRoll {
    const k = this.byId.get(stored.keyId);
    if (k === undefined) {
      throw new RollKeyError(
        `a sealed roll is under roll key "${stored.keyId}", which this node was not given (--roll-key-file or CUSSEC_ROLL_KEY)`,
      );
    }
    const box = Buffer.from(stored.box, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', k.key, box.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(stored.commitmentHex, 'utf8'));
      decipher.setAuthTag(box.subarray(box.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(box.subarray(IV_BYTES, box.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const [diceText = '', nonceHex = ''] = plain.split(':');
      const dice = diceText.split(',').map(Number);
      if (isDice(dice) && NONCE_HEX.test(nonceHex))
        return { dice: dice, nonceHex, commitmentHex: stored.commitmentHex };
    } catch {
      // Fall through: a wrong key and a tampered box fail alike.
    }
    throw new RollKeyError(
      `the sealed roll under roll key "${stored.keyId}" does not open with it`,
    );
  }
}

function checkKey(k: RollKey): void {
  if (!KEY_ID.test(k.id))
    throw new RollKeyError(`roll key id "${k.id}": 1 to 40 letters, digits or _.-`);
  if (k.key.length !== ROLL_KEY_BYTES)
    throw new RollKeyError(`roll key ${k.id}: not ${ROLL_KEY_BYTES} bytes`);
}

let processKeyring: RollKeyring | undefined;

/**
 * A key made for this process only, for a table service given none (tests,
 * `cussec play`): a roll it seals survives neither a restart of the process
 * nor a move to another node. `cussec serve` always gives one (docs/dice.md).
 */
export function processRollKeyring(): RollKeyring {
  return (processKeyring ??= RollKeyring.generate('process'));
}
