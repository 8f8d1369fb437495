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
import { Floor } from '../service/floor.js';
import { TableService } from '../service/table-service.js';
import type { RandomSource } from '../dice/index.js';
import { type AppContext, DEFAULT_LIMITS, type ServerLimits } from './context.js';
import { errorBody, errorHandler, HttpError } from './http-error.js';
import { Hub } from './hub.js';
import { Metrics } from './metrics.js';
import { cageRoutes } from './routes/cage.js';
import { complianceRoutes } from './routes/compliance.js';
import { healthRoutes } from './routes/health.js';
import { inspectorRoutes } from './routes/inspector.js';
import { journalRoutes } from './routes/journal.js';
import { sessionRoutes } from './routes/session.js';
import { tableRoutes } from './routes/tables.js';
import { LoginThrottle } from './login-throttle.js';
import { userRoutes } from './routes/users.js';
import { stakesOf } from './views.js';
import { socketRoutes } from './ws.js';

export interface AppOptions {
  readonly store: Store;
  readonly clock?: () => number;
  readonly random?: RandomSource;
  readonly limits?: Partial<ServerLimits>;
  /** The folder of an SQLite database: /readyz checks that its disk has room to commit. */
  readonly sqliteDir?: string;
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
    // The floor hands this node's commits and the other nodes' to the hub, in seq order.
    publish: (tableId, events) => floor.committed(tableId, events),
  });
  // Several nodes on one PostgreSQL: events from the others, and the betting timers of leased tables.
  const floor = new Floor({
    store: options.store,
    service,
    clock,
    publish: (tableId, events) => hub.publish(tableId, events),
  });
  await floor.start();
  hub.setStakesSource(async (tableId) => {
    const snap = await service.snapshot(tableId);
    return snap === undefined ? undefined : stakesOf(snap.state);
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
    loginThrottle: new LoginThrottle(),
  };
  const logger =
    options.logger === false
      ? false
      : {
          level: 'info',
          redact: REDACTED,
          ...(typeof options.logger === 'object' ? options.logger : {}),
        };
  // Fastify's own 503 while closing has another body shape: ours answers instead (below).
  const fastify = Fastify({ logger, bodyLimit: limits.bodyBytesMax, return503OnClosing: false });
  fastify.setErrorHandler(errorHandler);
  let ready = true;
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (ready || request.url === '/healthz' || request.url === '/readyz') return done();
    done(new HttpError(503, 'shutting_down', 'the server is shutting down; try again shortly'));
  });
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
  healthRoutes(fastify, ctx, () => ready, options.sqliteDir);
  sessionRoutes(fastify, ctx);
  tableRoutes(fastify, ctx);
  cageRoutes(fastify, ctx);
  userRoutes(fastify, ctx);
  journalRoutes(fastify, ctx);
  inspectorRoutes(fastify, ctx);
  complianceRoutes(fastify, ctx);
  socketRoutes(fastify, ctx);
  if (options.webRoot !== undefined && existsSync(options.webRoot)) {
    await fastify.register(fastifyStatic, { root: options.webRoot, prefix: '/', wildcard: false });
  }
  return {
    fastify,
    ctx,
    async shutdown() {
      ready = false;
      // Stop taking commands and let the queued ones commit, answer every socket request
      // already made, and only then close the sockets: nothing acknowledged is lost.
      await service.drainAll();
      floor.stop();
      await hub.idle();
      hub.closeAll(1001, 'server shutting down');
      await fastify.close();
    },
  };
}
