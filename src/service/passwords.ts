/**
 * Passwords are kept as scrypt hashes (N = 2^15, r = 8, p = 1, 32-byte key,
 * 16-byte salt), encoded as `scrypt$N$r$p$salt$key` in base64url, so the cost
 * can be raised later without breaking old hashes.
 */
import {
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const MAX_MEMORY_BYTES = 64 * 1024 * 1024;

function scrypt(
  password: string,
  salt: Buffer,
  keyBytes: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keyBytes, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_BYTES, { N, r: R, p: P, maxmem: MAX_MEMORY_BYTES });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = encoded.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY_BYTES,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/**
 * Checks a password for an unknown or disabled user against a hash of its own
 * kind, so that a failed sign-in costs one scrypt whether or not the username
 * exists: the time of the answer does not tell. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(password, await (dummy ??= hashPassword(generatePassword())));
  return false;
}

export const PASSWORD_LENGTH_MAX = 200;

/** A password for a first supervisor: 18 random bytes, about 144 bits. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export const PASSWORD_LENGTH_MIN = 10;
const DISTINCT_CHARACTERS_MIN = 5;

/**
 * The one test of a new password's strength, for every path that sets one
 * (account creation, a supervisor's reset, changing one's own, the first
 * supervisor's from `cussec serve`'s environment): why it is too
 * weak, or undefined when it will do. Long enough, not the username, and not
 * a few characters repeated.
 */
export function passwordWeakness(password: string, username: string): string | undefined {
  if ([...password].length < PASSWORD_LENGTH_MIN)
    return `a password needs at least ${PASSWORD_LENGTH_MIN} characters`;
  if (password.length > PASSWORD_LENGTH_MAX)
    return `a password has at most ${PASSWORD_LENGTH_MAX} characters`;
  if (password.toLowerCase() === username.toLowerCase())
    return 'a password must not be the username';
  if (new Set(password).size < DISTINCT_CHARACTERS_MIN)
    return `a password needs at least ${DISTINCT_CHARACTERS_MIN} different characters`;
  return undefined;
}
