/**
 * Where `cussec serve` gets the key that seals stored rolls (docs/dice.md):
 * the CUSSEC_ROLL_KEY environment variable, else `--roll-key-file`, else, for
 * an embedded SQLite database only, a key file beside the data that it makes
 * on first start (mode 0600). A floor node (PostgreSQL) has no such default:
 * every node must be given the same key, so one without it refuses to start.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RollKeyError, RollKeyring } from '../dice/roll-key.js';

export const ROLL_KEY_ENV = 'CUSSEC_ROLL_KEY';
export const ROLL_KEY_FILE_NAME = 'roll-key';

export interface RollKeySourceOptions {
  readonly env: string | undefined;
  readonly keyFile: string | undefined;
  /** The SQLite file, or undefined for PostgreSQL. */
  readonly sqlitePath: string | undefined;
}

export interface RollKeySource {
  readonly keys: RollKeyring;
  readonly from: string;
  /**
   * Writes a key made on this start to its file (mode 0600). Called once the
   * node knows it can open every sealed roll, so a node whose key file was
   * lost refuses to start without leaving a new key where the old one belongs.
   */
  readonly keep: () => void;
}

export function rollKeys(options: RollKeySourceOptions): RollKeySource {
  const kept = () => undefined;
  if (options.env !== undefined && options.env !== '')
    return { keys: RollKeyring.parse(options.env, ROLL_KEY_ENV), from: ROLL_KEY_ENV, keep: kept };
  if (options.keyFile !== undefined)
    return { keys: readKeyFile(options.keyFile), from: options.keyFile, keep: kept };
  if (options.sqlitePath === undefined) {
    throw new RollKeyError(
      `a floor node (PostgreSQL) needs the roll key every node shares: --roll-key-file or ${ROLL_KEY_ENV} (docs/dice.md)`,
    );
  }
  const file = join(dirname(options.sqlitePath), ROLL_KEY_FILE_NAME);
  if (existsSync(file)) return { keys: readKeyFile(file), from: file, keep: kept };
  const keys = RollKeyring.generate(`local-${randomBytes(4).toString('hex')}`);
  return {
    keys,
    from: file,
    keep: () => writeFileSync(file, keys.format(), { mode: 0o600, flag: 'wx' }),
  };
}

function readKeyFile(file: string): RollKeyring {
  let text: string;
  try {
    // Like ssh with a private key: a key file others may read is refused, not used.
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0)
      throw new RollKeyError(`${file}: others may read it; chmod 600 ${file}`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof RollKeyError) throw error;
    throw new RollKeyError(`${file}: cannot read the roll key file (${(error as Error).message})`);
  }
  return RollKeyring.parse(text, file);
}
