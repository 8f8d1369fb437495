/**
 * Who is asking: a session token from the `Authorization: Bearer` header or the
 * `cussec_session` cookie (the browser's, which WebSocket upgrades carry too).
 * The store knows sessions by the SHA-256 of the token only.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Role, Store, User } from '../ledger/index.js';
import { HttpError } from './http-error.js';

export const SESSION_COOKIE = 'cussec_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export const tokenHash = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session token of a request, if it carries one. */
export function requestToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header);
    return match?.[1];
  }
  return cookie(request.headers.cookie, SESSION_COOKIE);
}

/**
 * Whether a request claims to be someone: an Authorization header (well formed
 * or not) or a session cookie. A socket refuses such a request unless the claim
 * holds, so a client with a dead session learns it at once instead of watching
 * anonymously.
 */
export function carriesCredentials(request: FastifyRequest): boolean {
  return (
    request.headers.authorization !== undefined ||
    cookie(request.headers.cookie, SESSION_COOKIE) !== undefined
  );
}

function cookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export function sessionCookie(token: string, secure: boolean): string {
  const attributes = [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${SESSION_TTL_MS / 1000}`,
  ];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

export const clearedSessionCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

/** Who each authenticated request came from, for its log line. */
const requestUsers = new WeakMap<FastifyRequest, string>();

/** The user behind a request, or undefined when it carries no live session. */
export async function authenticate(
  store: Store,
  request: FastifyRequest,
  nowMs: number,
): Promise<User | undefined> {
  const token = requestToken(request);
  if (token === undefined) return undefined;
  const found = await store.findSession(tokenHash(token), nowMs);
  if (found !== undefined) requestUsers.set(request, found.user.id);
  return found?.user;
}

/** The id of the user a request was authenticated as, if it was. */
export function requestUserId(request: FastifyRequest): string | null {
  return requestUsers.get(request) ?? null;
}

/** Refuses a request whose user is absent (401) or has none of `roles` (403). */
export function requireRole(user: User | undefined, roles: readonly Role[] | 'any'): User {
  if (user === undefined)
    throw new HttpError(401, 'unauthenticated', 'log in first: POST /api/v1/session');
  if (roles !== 'any' && !roles.includes(user.role)) {
    throw new HttpError(
      403,
      'forbidden',
      `this needs the role ${roles.join(' or ')}; you are ${user.role}`,
    );
  }
  return user;
}
