/**
 * Users and login sessions: who may do what at the tables, and who is logged in.
 *
 * The store keeps only secrets' digests. Passwords arrive already hashed by the
 * caller (scrypt, in an encoded string the store never looks inside), and a
 * session is known by the SHA-256 hex of its token: a stolen database copy
 * lets nobody log in.
 */
import { check } from '../journal/index.js';
import { LEDGER_KEY_LENGTH_MAX } from './types.js';

/**
 * The roles of the API (docs/api.md); a user has exactly one. `compliance` is
 * the operator's AML officer (DICJ Instrução 1/2016: large transactions,
 * suspicion flags, reports to the GIF).
 */
export const ROLES = [
  'player',
  'croupier',
  'supervisor',
  'cashier',
  'inspector',
  'compliance',
] as const;
export type Role = (typeof ROLES)[number];

export const USERNAME_LENGTH_MAX = 64;
export const DISPLAY_NAME_LENGTH_MAX = 200;
export const PASSWORD_HASH_LENGTH_MAX = 1_000;

/** A user as anyone may see it: no password hash. */
export interface User {
  readonly id: string;
  /** As it was given at creation; unique regardless of case (see usernameKey). */
  readonly username: string;
  readonly displayName: string;
  readonly role: Role;
  readonly createdAtMs: number;
  /** A disabled user cannot log in, and none of their sessions is found. */
  readonly disabled: boolean;
  /**
   * Set with a password somebody else chose (the first supervisor's one-time
   * password, a supervisor's reset or a new account): until the user changes
   * it, the server refuses everything but changing it and signing out.
   */
  readonly mustChangePassword: boolean;
}

/** A user with the password hash, for checking a password only: never send it anywhere. */
export interface UserWithSecret extends User {
  readonly passwordHash: string;
}

export interface UserInput {
  readonly id: string;
  readonly username: string;
  readonly displayName: string;
  readonly role: Role;
  /** The encoded scrypt hash made by the caller, never the password itself. */
  readonly passwordHash: string;
  /** Whether the user must change this password at first sign-in (default false). */
  readonly mustChangePassword?: boolean;
}

/**
 * id_conflict is reported before username_taken when both apply. Users are
 * never deleted, so neither an id nor a username is ever given out twice.
 */
export const CREATE_USER_ERROR_CODES = ['username_taken', 'id_conflict'] as const;

export type CreateUserResult =
  | { readonly status: 'created'; readonly user: User }
  | { readonly status: 'failed'; readonly code: (typeof CREATE_USER_ERROR_CODES)[number] };

export interface Session {
  /** SHA-256 hex of the token; the token itself is never stored. */
  readonly tokenHash: string;
  readonly userId: string;
  readonly createdAtMs: number;
  /** The session is over from this instant on (expired when nowMs >= expiresAtMs). */
  readonly expiresAtMs: number;
  /** Set by touchSession; null until then. */
  readonly lastSeenAtMs: number | null;
  /** The browser's User-Agent at sign-in (cut to SESSION_DEVICE_LENGTH_MAX); null when unknown. */
  readonly userAgent: string | null;
  /** The client's address at sign-in (behind a trusted proxy, the one it names); null when unknown. */
  readonly address: string | null;
}

export const SESSION_DEVICE_LENGTH_MAX = 300;

export interface SessionInput {
  readonly tokenHash: string;
  readonly userId: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  readonly userAgent?: string | null;
  readonly address?: string | null;
}

/**
 * user_not_found and user_disabled are checked by the insert itself, so a
 * session is never created for a user disabled a moment before.
 * token_conflict means the hash is stored already: the caller reused a token.
 */
export const CREATE_SESSION_ERROR_CODES = [
  'user_not_found',
  'user_disabled',
  'token_conflict',
] as const;

export type CreateSessionResult =
  | { readonly status: 'created'; readonly session: Session }
  | { readonly status: 'failed'; readonly code: (typeof CREATE_SESSION_ERROR_CODES)[number] };

/**
 * The key that makes usernames unique regardless of case: NFKC folds
 * compatibility forms (a full-width "Ａlice" is "Alice"), then lower case,
 * which in JavaScript does not depend on the locale.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

const TOKEN_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** Malformed input is a programming error (the server validates at its edge). */
export function assertUserInput(u: UserInput): void {
  const text = (value: unknown, max: number): boolean =>
    typeof value === 'string' && value.length > 0 && value.length <= max;
  check(text(u.id, LEDGER_KEY_LENGTH_MAX), () => `user: bad id ${JSON.stringify(u.id)}`);
  check(
    text(u.username, USERNAME_LENGTH_MAX) && u.username.trim() === u.username,
    () => `user ${u.id}: bad username ${JSON.stringify(u.username)}`,
  );
  check(text(u.displayName, DISPLAY_NAME_LENGTH_MAX), () => `user ${u.id}: bad display name`);
  check(ROLES.includes(u.role), () => `user ${u.id}: bad role ${String(u.role)}`);
  assertPasswordHash(u.passwordHash, u.id);
}

export function assertPasswordHash(passwordHash: string, userId: string): void {
  check(
    typeof passwordHash === 'string' &&
      passwordHash.length > 0 &&
      passwordHash.length <= PASSWORD_HASH_LENGTH_MAX,
    () => `user ${userId}: bad password hash`,
  );
}

/** A token hash must be SHA-256 lowercase hex: anything else may be a raw token about to be stored. */
export function assertTokenHash(tokenHash: string): void {
  check(
    typeof tokenHash === 'string' && TOKEN_HASH_PATTERN.test(tokenHash),
    () => 'session: the token hash must be SHA-256 lowercase hex',
  );
}

export function assertSessionInput(s: SessionInput): void {
  assertTokenHash(s.tokenHash);
  check(typeof s.userId === 'string' && s.userId.length > 0, () => 'session: empty user id');
  check(
    Number.isSafeInteger(s.createdAtMs) &&
      Number.isSafeInteger(s.expiresAtMs) &&
      s.expiresAtMs > s.createdAtMs,
    () => 'session: expiresAtMs must be a safe integer after createdAtMs',
  );
  for (const text of [s.userAgent, s.address])
    check(
      text === undefined || text === null || text.length <= SESSION_DEVICE_LENGTH_MAX,
      () => `session: a device or address of at most ${SESSION_DEVICE_LENGTH_MAX} characters`,
    );
}

/** A user row as both engines return it: SQLite keeps `disabled` as 0 or 1, PostgreSQL as a boolean. */
export interface UserRow {
  readonly id: string;
  readonly username: string;
  readonly displayName: string;
  readonly role: Role;
  readonly createdAtMs: number;
  readonly disabled: boolean | number;
  readonly mustChangePassword: boolean | number;
  readonly passwordHash?: string;
}

/** Builds the public user field by field, so a password hash in the row cannot leak through. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    role: row.role,
    createdAtMs: row.createdAtMs,
    disabled: row.disabled === true || row.disabled === 1,
    mustChangePassword: row.mustChangePassword === true || row.mustChangePassword === 1,
  };
}

export function toUserWithSecret(row: UserRow): UserWithSecret {
  check(row.passwordHash !== undefined, () => `user ${row.id}: row read without its hash`);
  return { ...toUser(row), passwordHash: row.passwordHash };
}

/** A session joined with its user, as findSession reads it in one query. */
export interface SessionUserRow extends UserRow {
  readonly tokenHash: string;
  readonly userId: string;
  readonly sessionCreatedAtMs: number;
  readonly expiresAtMs: number;
  readonly lastSeenAtMs: number | null;
  readonly userAgent: string | null;
  readonly address: string | null;
}

export function toSessionAndUser(row: SessionUserRow): { session: Session; user: User } {
  return {
    session: {
      tokenHash: row.tokenHash,
      userId: row.userId,
      createdAtMs: row.sessionCreatedAtMs,
      expiresAtMs: row.expiresAtMs,
      lastSeenAtMs: row.lastSeenAtMs,
      userAgent: row.userAgent,
      address: row.address,
    },
    user: toUser(row),
  };
}

/**
 * Why a session insert (which requires an enabled user and a new token hash)
 * wrote nothing, given the user as read right after it.
 */
export function sessionRefusal(user: User | undefined): CreateSessionResult {
  if (user === undefined) return { status: 'failed', code: 'user_not_found' };
  if (user.disabled) return { status: 'failed', code: 'user_disabled' };
  return { status: 'failed', code: 'token_conflict' };
}

export function newSession(input: SessionInput): Session {
  return {
    tokenHash: input.tokenHash,
    userId: input.userId,
    createdAtMs: input.createdAtMs,
    expiresAtMs: input.expiresAtMs,
    lastSeenAtMs: null,
    userAgent: input.userAgent ?? null,
    address: input.address ?? null,
  };
}

export function assertInstant(ms: number, what: string): void {
  check(Number.isSafeInteger(ms), () => `${what} must be a safe integer of ms, got ${String(ms)}`);
}

export function assertTouch(nowMs: number, expiresAtMs: number | undefined): void {
  assertInstant(nowMs, 'nowMs');
  if (expiresAtMs !== undefined) {
    assertInstant(expiresAtMs, 'expiresAtMs');
    check(expiresAtMs > nowMs, () => 'session: a new expiry must lie after nowMs');
  }
}
