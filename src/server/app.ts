/**
 * The HTTP and WebSocket server: fastify with the API routes, the sockets, the
 * web app's static files, health and metrics. `buildApp` wires it without
 * listening, so tests call it in-process (`app.inject`).
 */
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Store } from '../ledger/index.js';
import { TableService } from '../service/table-service.js';
import type { RandomSource } from '../dice/index.js';
import { type AppContext, DEFAULT_LIMITS, type ServerLimits } from './context.js';
import { errorBody, errorHandler } from './http-error.js';
import { Hub } from './hub.js';
import { Metrics } from './metrics.js';
import { cageRoutes } from './routes/cage.js';
import { healthRoutes } from './routes/health.js';
import { journalRoutes } from './routes/journal.js';
import { sessionRoutes } from './routes/session.js';
import { tableRoutes } from './routes/tables.js';
import { userRoutes } from './routes/users.js';
import { socketRoutes } from './ws.js';

export interface AppOptions {
  readonly store: Store;
  readonly clock?: () => number;
  readonly random?: RandomSource;
  readonly limits?: Partial<ServerLimits>;
  /** The built web app (dist/web); not served when absent. */
  readonly webRoot?: string;
  readonly secureCookies?: boolean;
  /** pino options, or false for no logs (tests). */
  readonly logger?: boolean | object;
}

export interface App {
  readonly fastify: FastifyInstance;
  readonly ctx: AppContext;
  /** Stops taking commands, lets the commit in flight finish, closes sockets and the server. */
  shutdown(): Promise<void>;
}

/** Request fields that must never reach a log line. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
];

export async function buildApp(options: AppOptions): Promise<App> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const clock = options.clock ?? Date.now;
  const metrics = new Metrics();
  const hub = new Hub(options.store, metrics, limits);
  await hub.start();
  const service = new TableService({
    store: options.store,
    clock,
    ...(options.random ? { random: options.random } : {}),
    publish: (tableId, events) => hub.publish(tableId, events),
  });
  const ctx: AppContext = {
    store: options.store,
    service,
    hub,
    metrics,
    clock,
    routes: [],
    secureCookies: options.secureCookies ?? false,
    limits,
  };
  const logger =
    options.logger === false
      ? false
      : {
          level: 'info',
          redact: REDACTED,
          ...(typeof options.logger === 'object' ? options.logger : {}),
        };
  const fastify = Fastify({ logger, bodyLimit: limits.bodyBytesMax });
  fastify.setErrorHandler(errorHandler);
  fastify.setNotFoundHandler((request, reply) => {
    void reply
      .status(404)
      .send(errorBody('not_found', `nothing at ${request.method} ${request.url.split('?')[0]}`));
  });
  fastify.addHook('onResponse', async (request, reply) => {
    metrics.count('cussec_http_requests_total', {
      route: request.routeOptions.url ?? 'unknown',
      status: String(reply.statusCode),
    });
  });
  await fastify.register(websocket, { options: { maxPayload: limits.wsMessageBytesMax } });
  let ready = true;
  healthRoutes(fastify, ctx, () => ready);
  sessionRoutes(fastify, ctx);
  tableRoutes(fastify, ctx);
  cageRoutes(fastify, ctx);
  userRoutes(fastify, ctx);
  journalRoutes(fastify, ctx);
  socketRoutes(fastify, ctx);
  if (options.webRoot !== undefined && existsSync(options.webRoot)) {
    await fastify.register(fastifyStatic, { root: options.webRoot, prefix: '/', wildcard: false });
  }
  return {
    fastify,
    ctx,
    async shutdown() {
      ready = false;
      await service.drainAll();
      hub.closeAll(1001, 'server shutting down');
      await fastify.close();
    },
  };
}
