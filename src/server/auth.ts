/**
 * Who is asking: a session token from the `Authorization: Bearer` header or the
 * `cussec_session` cookie (the browser's, which WebSocket upgrades carry too;
 * read by @fastify/cookie). The sessions themselves are the service's
 * (src/service/sessions.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role, Store, User } from '../ledger/index.js';
import type {} from '@fastify/cookie';
import { type Authenticated, type SessionDevice, tokenHash, touch } from '../service/sessions.js';
import { HttpError } from './http-error.js';

export const SESSION_COOKIE = 'cussec_session';

/** The session token of a request, if it carries one. */
export function requestToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header);
    return match?.[1];
  }
  return request.cookies[SESSION_COOKIE];
}

/** Where a sign-in comes from, for the supervisor's list of sessions (the trusted proxy's client address). */
export const device = (request: FastifyRequest): SessionDevice => ({
  userAgent: request.headers['user-agent'],
  address: request.ip,
});

/** The id of the request's own session (its token's hash), if it carries one. */
export function requestSessionId(request: FastifyRequest): string | undefined {
  const token = requestToken(request);
  return token === undefined ? undefined : tokenHash(token);
}

/** Whether the request's credentials are the browser's cookie (which a browser adds by itself). */
export const cookieAuthenticated = (request: FastifyRequest): boolean =>
  request.headers.authorization === undefined && request.cookies[SESSION_COOKIE] !== undefined;

/**
 * Whether a request claims to be someone: an Authorization header (well formed
 * or not) or a session cookie. A socket refuses such a request unless the claim
 * holds, so a client with a dead session learns it at once instead of watching
 * anonymously.
 */
export function carriesCredentials(request: FastifyRequest): boolean {
  return (
    request.headers.authorization !== undefined || request.cookies[SESSION_COOKIE] !== undefined
  );
}

/** Sets the session cookie; `Secure` when the request came over HTTPS (direct, or said so by a trusted proxy). */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeMs: number,
): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
  });
}

/** Who each authenticated request came from, for its log line. */
const requestUsers = new WeakMap<FastifyRequest, string>();

/**
 * The user and session behind a request, or undefined when it carries no live
 * one. A use moves the session's idle expiry forward (written at most once a
 * minute or so, not on every request).
 */
export async function authenticate(
  store: Store,
  request: FastifyRequest,
  nowMs: number,
  idleMs: number,
): Promise<Authenticated | undefined> {
  const token = requestToken(request);
  if (token === undefined) return undefined;
  const found = await touch(store, tokenHash(token), nowMs, idleMs);
  if (found !== undefined) requestUsers.set(request, found.user.id);
  return found;
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
