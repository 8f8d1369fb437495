/**
 * Cross-site request forgery: a browser adds the session cookie to a request
 * whichever page makes it, so a request that changes state on the strength
 * of the cookie, and every WebSocket upgrade, must come from a page of this
 * server. Browsers say which in the `Origin` header; it must be this server's
 * own origin (the scheme and host the request was made to, as a trusted proxy
 * reports them) or one of the origins configured (`--allowed-origin`).
 * A request without `Origin` is not a browser's and passes.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

export function checkOrigin(request: FastifyRequest, allowed: ReadonlySet<string>): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (origin === `${request.protocol}://${request.host}` || allowed.has(origin)) return;
  throw new HttpError(
    403,
    'cross_origin',
    `a request from ${origin.slice(0, 100)} may not act with this server's session`,
  );
}
