/** Logging in and out, and who am I. */
import { type User, usernameKey, walletAccount } from '../../ledger/index.js';
import {
  clearSessionCookie,
  newToken,
  requestToken,
  SESSION_TTL_MS,
  setSessionCookie,
  slidingExpiryMs,
  tokenHash,
} from '../auth.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { verifyAgainstDummy, verifyPassword } from '../passwords.js';
import { registerRoute } from '../route.js';
import { loginBody, userAnswer } from '../schemas.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export function sessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/session',
    summary: 'Log in with a username and password; sets the session cookie and returns the token',
    tag: 'session',
    roles: 'public',
    body: loginBody,
    response: z.strictObject({ token: z.string(), user: userAnswer }),
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
      const user = await ctx.store.findUserByUsername(body.username);
      // The same answer, in the same time (one scrypt either way), for an unknown
      // user and a wrong password: no probing for usernames.
      const valid =
        user !== undefined && !user.disabled
          ? await verifyPassword(body.password, user.passwordHash)
          : await verifyAgainstDummy(body.password);
      if (!valid || user === undefined) {
        ctx.loginThrottle.failed(key, request.ip, ctx.clock());
        ctx.metrics.count('cussec_logins_total', { result: 'refused' });
        throw new HttpError(401, 'invalid_credentials', 'the username or the password is wrong');
      }
      ctx.loginThrottle.succeeded(key, request.ip);
      const token = newToken();
      const now = ctx.clock();
      const expiresAtMs = slidingExpiryMs(now, now, ctx.sessionIdleMs);
      await ctx.store.createSession({
        tokenHash: tokenHash(token),
        userId: user.id,
        createdAtMs: now,
        expiresAtMs,
      });
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
      await ctx.store.deleteSession(hash);
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
    response: z.strictObject({
      user: userAnswer,
      wallet: z.strictObject({ balanceMinor: z.number().int(), currency: z.string() }).nullable(),
    }),
    handler: async ({ user }) => {
      const account =
        user.role === 'player' ? await ctx.store.getAccount(walletAccount(user.id).id) : undefined;
      return {
        user,
        wallet:
          user.role === 'player'
            ? { balanceMinor: account?.balanceMinor ?? 0, currency: ctx.store.currency }
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
