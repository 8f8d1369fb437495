/**
 * Who is asking: a session token from the `Authorization: Bearer` header or the
 * `cussec_session` cookie (the browser's, which WebSocket upgrades carry too;
 * read by @fastify/cookie). The store knows sessions by the SHA-256 of the
 * token only.
 *
 * A session ends at the first of: logout, its absolute lifetime
 * (SESSION_TTL_MS from login), or `idleMs` without a request (the expiry
 * slides forward as the user acts, up to the lifetime).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role, Session, Store, User } from '../ledger/index.js';
import type {} from '@fastify/cookie';
import { HttpError } from './http-error.js';

export const SESSION_COOKIE = 'cussec_session';
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

/** The session token of a request, if it carries one. */
export function requestToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header);
    return match?.[1];
  }
  return request.cookies[SESSION_COOKIE];
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

export interface Authenticated {
  readonly user: User;
  readonly session: Session;
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
