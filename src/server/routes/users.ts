/** The supervisor's user management, and changing one's own password. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  changeOwnPassword,
  createUser,
  listSessions,
  resetPassword,
  revokeSession,
  setDisabled,
} from '../../service/accounts.js';
import { listUsers } from '../../service/accounts.js';
import { parsedIdentity } from '../../service/people.js';
import { SESSION_TTL_MS, startSession } from '../../service/sessions.js';
import { device, requestSessionId, setSessionCookie } from '../auth.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { registerRoute } from '../route.js';
import {
  createUserBody,
  id,
  userParams,
  passwordText,
  sessionAnswer,
  userAnswer,
  userSessionAnswer,
} from '../schemas.js';

const sessionParams = z
  .object({ userId: id, sessionId: z.string().regex(/^[0-9a-f]{64}$/, 'a session id') })
  .strict();

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/users',
    summary: 'Every user',
    tag: 'users',
    roles: ['supervisor'],
    response: z.array(userAnswer),
    handler: () => listUsers(ctx.store),
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/users',
    summary:
      'Create a user with a role (a player gets a wallet); the password must be changed at first sign-in',
    tag: 'users',
    roles: ['supervisor'],
    body: createUserBody,
    successStatus: 201,
    response: userAnswer,
    handler: async ({ body, user }) => {
      const { identity, ...account } = body;
      const person =
        identity === undefined
          ? undefined
          : account.role === 'player'
            ? await ctx.people.admitNewPlayer({ ...identity, kind: 'real' })
            : parsedIdentity({ ...identity, kind: 'real' });
      const created = await createUser(
        ctx.store,
        { ...account, displayName: account.displayName ?? account.username },
        user.id,
      );
      if (person !== undefined) await ctx.people.recordIdentity(created.id, person, user.id);
      return created;
    },
  });

  registerRoute(app, ctx, {
    method: 'PATCH',
    url: '/api/v1/users/:userId',
    summary: 'Disable a user (their sessions and sockets end at once) or enable them again',
    tag: 'users',
    roles: ['supervisor'],
    params: userParams,
    body: z.object({ disabled: z.boolean() }).strict(),
    response: userAnswer,
    handler: async ({ params, body, user }) => {
      const changed = await setDisabled(ctx.store, params.userId, body.disabled, user.id);
      if (changed.disabled) ctx.sessions.endUserSessions(changed.id);
      return changed;
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/users/:userId/password',
    summary: "Reset a user's password: their sessions end and they must change it at next sign-in",
    tag: 'users',
    roles: ['supervisor'],
    params: userParams,
    body: z.object({ password: passwordText }).strict(),
    response: userAnswer,
    handler: async ({ params, body, user }) => {
      const changed = await resetPassword(ctx.store, params.userId, body.password, user.id);
      ctx.sessions.endUserSessions(changed.id);
      return changed;
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/users/:userId/sessions',
    summary:
      "A user's live sessions (id, created, expires, last seen, device and address, whether it is the caller's own)",
    tag: 'users',
    roles: ['supervisor'],
    params: userParams,
    response: z.array(userSessionAnswer),
    handler: async ({ params, request }) => {
      const own = requestSessionId(request);
      const sessions = await listSessions(ctx.store, params.userId, ctx.clock());
      return sessions.map((s) => ({ ...s, current: s.id === own }));
    },
  });

  registerRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/v1/users/:userId/sessions/:sessionId',
    summary: "End one of a user's sessions",
    tag: 'users',
    roles: ['supervisor'],
    params: sessionParams,
    successStatus: 204,
    handler: async ({ params, user, request }) => {
      // Ending the session one works in is signing out: that is the sign-out button's, not this.
      if (params.sessionId === requestSessionId(request))
        throw new HttpError(
          409,
          'current_session',
          'this is your current session: sign out instead',
        );
      await revokeSession(ctx.store, params.userId, params.sessionId, user.id, ctx.clock());
      ctx.sessions.endSession(params.sessionId);
      return undefined;
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/me/password',
    summary:
      'Change your own password; every session of yours ends and this answer starts a new one',
    tag: 'session',
    roles: 'any',
    allowedBeforePasswordChange: true,
    body: z.object({ currentPassword: passwordText, newPassword: passwordText }).strict(),
    response: sessionAnswer,
    handler: async ({ body, user, request, reply }) => {
      await changeOwnPassword(ctx.store, user, {
        current: body.currentPassword,
        next: body.newPassword,
      });
      ctx.sessions.endUserSessions(user.id);
      const token = await startSession(
        ctx.store,
        user.id,
        ctx.clock(),
        ctx.sessionIdleMs,
        device(request),
      );
      if (token === undefined)
        throw new HttpError(401, 'unauthenticated', 'sign in again with the new password');
      // The cookie lives as long as a session may; the server ends it sooner when idle.
      setSessionCookie(request, reply, token, SESSION_TTL_MS);
      return { token, user: { ...user, mustChangePassword: false } };
    },
  });
}
