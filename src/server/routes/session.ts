/** Logging in and out, and who am I. */
import { type User, usernameKey } from '../../ledger/index.js';
import { walletBalanceMinor } from '../../service/cage.js';
import {
  checkCredentials,
  endSession,
  SESSION_TTL_MS,
  startSession,
  tokenHash,
} from '../../service/sessions.js';
import { clearSessionCookie, device, requestToken, setSessionCookie } from '../auth.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { registerRoute } from '../route.js';
import { loginBody, meAnswer, sessionAnswer } from '../schemas.js';
import type { FastifyInstance } from 'fastify';

export function sessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/session',
    summary: 'Log in with a username and password; sets the session cookie and returns the token',
    tag: 'session',
    roles: 'public',
    body: loginBody,
    response: sessionAnswer,
    handler: async ({ body, request, reply }) => {
      const key = usernameKey(body.username);
      const waitMs = ctx.loginThrottle.waitMs(key, request.ip, ctx.clock());
      if (waitMs > 0) {
        // Refused before the password is checked: a right one does not get through either.
        ctx.metrics.count('cussec_logins_total', { result: 'throttled' });
        const seconds = Math.ceil(waitMs / 1000);
        void reply.header('retry-after', String(seconds));
        throw new HttpError(
          429,
          'too_many_attempts',
          `too many failed logins: try again in ${seconds} s`,
        );
      }
      const user = await checkCredentials(ctx.store, body.username, body.password);
      const token =
        user === undefined
          ? undefined
          : await startSession(ctx.store, user.id, ctx.clock(), ctx.sessionIdleMs, device(request));
      if (user === undefined || token === undefined) {
        ctx.loginThrottle.failed(key, request.ip, ctx.clock());
        ctx.metrics.count('cussec_logins_total', { result: 'refused' });
        throw new HttpError(401, 'invalid_credentials', 'the username or the password is wrong');
      }
      ctx.loginThrottle.succeeded(key, request.ip);
      ctx.metrics.count('cussec_logins_total', { result: 'ok' });
      // The cookie lives as long as a session may; the server ends it sooner when idle.
      setSessionCookie(request, reply, token, SESSION_TTL_MS);
      return { token, user: publicUser(user) };
    },
  });

  registerRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/v1/session',
    summary: 'Log out',
    tag: 'session',
    roles: 'any',
    allowedBeforePasswordChange: true,
    successStatus: 204,
    handler: async ({ request, reply }) => {
      const hash = tokenHash(requestToken(request)!);
      await endSession(ctx.store, hash);
      // Its sockets end with it: a bet cannot follow a logout.
      ctx.sessions.endSession(hash);
      clearSessionCookie(request, reply);
      return undefined;
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/me',
    summary: 'The logged-in user, with the wallet for a player',
    tag: 'session',
    roles: 'any',
    allowedBeforePasswordChange: true,
    response: meAnswer,
    handler: async ({ user }) => {
      return {
        user,
        wallet:
          user.role === 'player'
            ? {
                balanceMinor: await walletBalanceMinor(ctx.store, user.id),
                currency: ctx.store.currency,
              }
            : null,
      };
    },
  });
}

/** A user as the API shows it: the fields named here and no others, so no secret slips out. */
function publicUser(user: User): User {
  const { id, username, displayName, role, createdAtMs, disabled, mustChangePassword } = user;
  return { id, username, displayName, role, createdAtMs, disabled, mustChangePassword };
}
