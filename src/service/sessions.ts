/**
 * Login sessions. A session ends at the first of: logout, its absolute
 * lifetime (SESSION_TTL_MS from login), or `idleMs` without use (the expiry
 * slides forward as the user acts, up to the lifetime). The store knows a
 * session by the SHA-256 of its token only; the token itself goes to the
 * client once and is kept nowhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Session, SESSION_DEVICE_LENGTH_MAX, type Store, type User } from '../ledger/index.js';
import { verifyAgainstDummy, verifyPassword } from './passwords.js';

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** A session unused this long ends (`cussec serve --session-idle-minutes`). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

export const tokenHash = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The expiry of a session used at `nowMs`: idle time ahead, never past its lifetime. */
export function slidingExpiryMs(createdAtMs: number, nowMs: number, idleMs: number): number {
  return Math.min(createdAtMs + SESSION_TTL_MS, nowMs + idleMs);
}

export interface Authenticated {
  readonly user: User;
  readonly session: Session;
}

/**
 * The enabled user with this username and password, or undefined. The same
 * answer, in the same time (one scrypt either way), for an unknown user, a
 * disabled one and a wrong password: no probing for usernames.
 */
export async function checkCredentials(
  store: Store,
  username: string,
  password: string,
): Promise<User | undefined> {
  const user = await store.findUserByUsername(username);
  const valid =
    user !== undefined && !user.disabled
      ? await verifyPassword(password, user.passwordHash)
      : await verifyAgainstDummy(password);
  if (!valid || user === undefined) return undefined;
  const { passwordHash: _, ...withoutSecret } = user;
  return withoutSecret;
}

/** Where a session signs in from: the browser's User-Agent and the client's address. */
export interface SessionDevice {
  readonly userAgent: string | undefined;
  readonly address: string | undefined;
}

const deviceText = (text: string | undefined): string | null =>
  text === undefined || text === '' ? null : text.slice(0, SESSION_DEVICE_LENGTH_MAX);

/** A new session of the user, as its token; undefined when the user is gone or disabled. */
export async function startSession(
  store: Store,
  userId: string,
  nowMs: number,
  idleMs: number,
  device?: SessionDevice,
): Promise<string | undefined> {
  const token = newToken();
  const created = await store.createSession({
    tokenHash: tokenHash(token),
    userId,
    createdAtMs: nowMs,
    expiresAtMs: slidingExpiryMs(nowMs, nowMs, idleMs),
    userAgent: deviceText(device?.userAgent),
    address: deviceText(device?.address),
  });
  return created.status === 'created' ? token : undefined;
}

/** Logout. */
export async function endSession(store: Store, hash: string): Promise<void> {
  await store.deleteSession(hash);
}

/** The live session of this token hash, its idle expiry moved forward; undefined when it is over. */
export async function touch(
  store: Store,
  hash: string,
  nowMs: number,
  idleMs: number,
): Promise<Authenticated | undefined> {
  const found = await store.findSession(hash, nowMs);
  if (found === undefined) return undefined;
  const expiresAtMs = slidingExpiryMs(found.session.createdAtMs, nowMs, idleMs);
  // Slide only when it gains more than a twentieth of the idle time: one write per few minutes.
  if (expiresAtMs - found.session.expiresAtMs > idleMs / 20)
    await store.touchSession(hash, nowMs, expiresAtMs);
  return found;
}

/** Whether the session of this token hash is live at nowMs (its user enabled). */
export async function sessionLive(store: Store, hash: string, nowMs: number): Promise<boolean> {
  return (await sessionExpiresAtMs(store, hash, nowMs)) !== undefined;
}

/** When the session of this token hash ends as the store holds it now; undefined when it is over. */
export async function sessionExpiresAtMs(
  store: Store,
  hash: string,
  nowMs: number,
): Promise<number | undefined> {
  return (await store.findSession(hash, nowMs))?.session.expiresAtMs;
}
