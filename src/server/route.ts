/**
 * Routes are declared once, with zod schemas for what they take: the same
 * declaration validates requests, types the handler, and writes the OpenAPI
 * document. A handler gets typed, validated data and the authenticated user.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Role, User } from '../ledger/index.js';
import { authenticate, cookieAuthenticated, requireRole } from './auth.js';
import type { AppContext } from './context.js';
import { HttpError } from './http-error.js';
import { checkOrigin } from './origin.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteInput<B, Q, P> {
  readonly body: B;
  readonly query: Q;
  readonly params: P;
  /** The caller; undefined only on public routes. */
  readonly user: User;
  /**
   * The Idempotency-Key header scoped to its caller (`<userId>:<key>`): a key
   * belongs to the user who sent it, so two users' same key are two commands.
   */
  readonly idempotencyKey: string | undefined;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

export interface RouteSpec<B = unknown, Q = unknown, P = unknown, R = unknown> {
  readonly method: Method;
  /** Fastify style: /api/v1/tables/:tableId */
  readonly url: string;
  readonly summary: string;
  readonly tag: string;
  /** Who may call it: roles, any logged-in user, or everyone. */
  readonly roles: readonly Role[] | 'any' | 'public';
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  readonly params?: z.ZodType<P>;
  readonly successStatus?: number;
  /**
   * The answer's shape, for /openapi.json; the handler must return it (the
   * compiler checks). Not checked at run time: the handler builds it.
   */
  readonly response?: z.ZodType<R>;
  /**
   * The media types of the text bodies (textBody) it may answer instead of
   * JSON, e.g. a report's text/csv: /openapi.json lists them as strings.
   */
  readonly textAnswers?: readonly string[];
  /**
   * Whether a user who must change their password (a password somebody else
   * chose) may call it; only signing out, reading oneself and changing it may.
   */
  readonly allowedBeforePasswordChange?: true;
  /**
   * The answer: a value sent as JSON, or a text body (textBody) when the
   * handler set another content-type (a report's CSV or HTML), which
   * `response` does not describe. A handler never sends the reply itself:
   * fastify sends what it returns, once.
   */
  readonly handler: (input: RouteInput<B, Q, P>) => Promise<R | TextBody>;
}

declare const TEXT_BODY: unique symbol;
/** A body in another format than JSON, whose content-type the handler set. */
export type TextBody = string & { readonly [TEXT_BODY]: true };
export const textBody = (text: string): TextBody => text as TextBody;

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A route that declares no query takes none: an unknown parameter is refused, as everywhere. */
export const NO_QUERY = z.object({}).strict();

export function parse<T>(schema: z.ZodType<T> | undefined, data: unknown, where: string): T {
  if (schema === undefined) return undefined as T;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.length > 0 ? `${where}.${issue.path.join('.')}` : where;
  throw new HttpError(400, 'invalid_request', `${path}: ${issue.message}`);
}

/**
 * An answer that its published schema does not describe is the server's bug:
 * it fails loudly (a 500 naming the field) where the check is on. A text body
 * is another format, which the schema does not describe.
 */
function checkAnswer(spec: Pick<RouteSpec, 'method' | 'url' | 'response'>, result: unknown): void {
  if (spec.response === undefined || typeof result === 'string') return;
  const checked = spec.response.safeParse(result);
  if (checked.success) return;
  const issue = checked.error.issues[0]!;
  throw new Error(
    `${spec.method} ${spec.url}: the answer does not fit its response schema at ` +
      `${issue.path.join('.') || '(root)'}: ${issue.message}`,
  );
}

export function registerRoute<B, Q, P, R>(
  app: FastifyInstance,
  ctx: AppContext,
  spec: RouteSpec<B, Q, P, R>,
): void {
  ctx.routes.push(spec as RouteSpec);
  app.route({
    method: spec.method,
    url: spec.url,
    handler: async (request, reply) => {
      // A page elsewhere may not act with the browser's cookie (cross-site request forgery).
      if (spec.method !== 'GET' && cookieAuthenticated(request))
        checkOrigin(request, ctx.allowedOrigins);
      const user = (await authenticate(ctx.store, request, ctx.clock(), ctx.sessionIdleMs))?.user;
      const caller = spec.roles === 'public' ? (user as User) : requireRole(user, spec.roles);
      // Public routes answer everyone alike, so a pending change does not block them.
      if (
        spec.roles !== 'public' &&
        caller.mustChangePassword &&
        spec.allowedBeforePasswordChange !== true
      ) {
        throw new HttpError(
          403,
          'password_change_required',
          'change your password first: POST /api/v1/me/password',
        );
      }
      const keyHeader = request.headers['idempotency-key'];
      const idempotencyKey = typeof keyHeader === 'string' ? keyHeader : undefined;
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw new HttpError(
          400,
          'invalid_request',
          'Idempotency-Key: 1 to 128 letters, digits or _.:-',
        );
      }
      const input: RouteInput<B, Q, P> = {
        body: parse(spec.body, request.body, 'body'),
        query: parse(spec.query ?? (NO_QUERY as z.ZodType<Q>), request.query, 'query'),
        params: parse(spec.params, request.params, 'params'),
        user: caller,
        idempotencyKey:
          idempotencyKey === undefined || caller === undefined
            ? undefined
            : `${caller.id}:${idempotencyKey}`,
        request,
        reply,
      };
      const result = await spec.handler(input);
      if (ctx.checkAnswers) checkAnswer(spec, result);
      if (spec.successStatus !== undefined) void reply.status(spec.successStatus);
      return result;
    },
  });
}
