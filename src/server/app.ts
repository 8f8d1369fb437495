/**
 * The HTTP and WebSocket server: fastify with the API routes, the sockets, the
 * web app's static files, health and metrics. `buildApp` wires it without
 * listening, so tests call it in-process (`app.inject`).
 */
import { existsSync } from 'node:fs';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { WebSocket } from 'ws';
import type { Store } from '../ledger/index.js';
import { CommandRouter, type CommandRouterOptions } from '../service/command-router.js';
import { walletBalanceMinor } from '../service/cage.js';
import { PeopleAdmission } from '../service/bet-admission.js';
import { Floor } from '../service/floor.js';
import { HolidayCalendarService } from '../service/holidays.js';
import { CashChecks } from '../service/cash-checks.js';
import { People } from '../service/people.js';
import { journalHeadSeq, tableIds } from '../service/reads.js';
import { ReadWorkers } from '../service/read-workers.js';
import { startPowerWorkers } from '../service/fairness.js';
import { type BatchTiming, type PublishedEvent, TableService } from '../service/table-service.js';
import type { RandomSource } from '../dice/index.js';
import type { RollKeyring } from '../dice/roll-key.js';
import { SESSION_IDLE_MS } from '../service/sessions.js';
import { type AppContext, DEFAULT_LIMITS, type ServerLimits } from './context.js';
import {
  clientErrorHandler,
  errorBody,
  errorHandler,
  frameworkErrors,
  HttpError,
} from './http-error.js';
import { Hub } from './hub.js';
import { Metrics } from './metrics.js';
import { cageRoutes } from './routes/cage.js';
import { peopleRoutes } from './routes/people.js';
import { complianceRoutes } from './routes/compliance.js';
import { healthRoutes } from './routes/health.js';
import { inspectorRoutes } from './routes/inspector.js';
import { exportRoutes } from './routes/export.js';
import { journalRoutes } from './routes/journal.js';
import { sessionRoutes } from './routes/session.js';
import { tableRoutes } from './routes/tables.js';
import { LoginThrottle } from './login-throttle.js';
import { LogSink } from './log-sink.js';
import { RequestLog } from './request-log.js';
import { userRoutes } from './routes/users.js';
import { SESSION_SWEEP_MS, SessionSockets } from './session-sockets.js';
import { stakesOf } from './views.js';
import { socketRoutes } from './ws.js';
import { forwardRoutes } from './forward.js';

export interface AppOptions {
  readonly store: Store;
  readonly clock?: () => number;
  readonly random?: RandomSource;
  readonly limits?: Partial<ServerLimits>;
  /** The folder of an SQLite database: /readyz checks that its disk has room to commit. */
  readonly sqliteDir?: string;
  /** The built web app (dist/web); not served when absent. */
  readonly webRoot?: string;
  /** Seals stored rolls (docs/dice.md); `cussec serve` always gives one. */
  readonly rollKeys?: RollKeyring;
  /** Serve HTTPS with this PEM certificate and key. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  /**
   * Which proxies' X-Forwarded-For/-Proto/-Host to believe (fastify's
   * trustProxy: addresses or CIDRs, comma-separated), so that the client
   * address and scheme are the real ones (docs/deployment.md).
   */
  readonly trustProxy?: string;
  /** Origins besides the server's own whose pages may use its cookie and sockets. */
  readonly allowedOrigins?: readonly string[];
  /** A session unused this long ends; SESSION_IDLE_MS by default. */
  readonly sessionIdleMs?: number;
  /** How often sockets' sessions are checked against the store. */
  readonly sessionSweepMs?: number;
  /** pino options, or false for no logs (tests). */
  readonly logger?: boolean | object;
  /** A demonstration server: new tables get a demonstration authorization (AppContext.demo). */
  readonly demo?: boolean;
  /**
   * A node of a floor: each table's commands run on the node holding its lease,
   * the others pass them there (command-router.ts). Without it every command
   * runs on this node.
   */
  readonly node?: Omit<CommandRouterOptions, 'store'>;
  /**
   * Check each JSON answer against its route's `response` schema and fail the
   * request when it differs (AppContext.checkAnswers). On by default under
   * vitest, so every server test proves the published schemas; off in service.
   */
  readonly checkAnswers?: boolean;
}

export interface App {
  readonly fastify: FastifyInstance;
  readonly ctx: AppContext;
  /**
   * Starts the worker threads of the reads and of the fairness figures and
   * waits until each is ready (modules loaded, its connection open), and
   * loads each table's fairness monitor: `cussec serve` does it before it
   * listens, so no read pays for a thread's start or a monitor's restore.
   */
  warm(): Promise<void>;
  /** Stops taking commands, lets the commit in flight finish, closes sockets and the server. */
  shutdown(): Promise<void>;
}

/** How long a browser keeps to HTTPS after an answer's Strict-Transport-Security: 180 days. */
const HSTS_MAX_AGE_S = 180 * 24 * 60 * 60;

/** Request fields that must never reach a log line. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
];

/** Where log lines go unless a test gives its own stream: stdout. */
const STDOUT_FD = 1;

/**
 * pino's options: the redactions, then the caller's. Logging never blocks or
 * kills the server: without a stream of the caller's, the lines go to stdout
 * through a LogSink, which drops (and counts, in the metrics) what the output
 * cannot take.
 */
function loggerOptions(given: true | object | undefined, metrics: Metrics): object {
  const options: { stream?: unknown } = typeof given === 'object' ? given : {};
  const sink = options.stream ?? new LogSink(STDOUT_FD);
  if (sink instanceof LogSink) metrics.watchLogSink(sink);
  return { level: 'info', redact: REDACTED, ...options, stream: sink };
}

/**
 * An error on an open socket. A frame ws could not read (bad UTF-8, a reserved
 * opcode, a message too big) is the client's mistake, and ws has already
 * closed the socket with the matching code: logged at info, not as a failure.
 */
function socketError(
  error: Error & { code?: string },
  socket: WebSocket,
  request: FastifyRequest,
): void {
  if (typeof error.code === 'string' && error.code.startsWith('WS_ERR_'))
    request.log.info(
      { code: error.code, message: error.message },
      'websocket client sent a bad frame',
    );
  else request.log.error({ err: error }, 'websocket failed');
  socket.terminate();
}

export async function buildApp(options: AppOptions): Promise<App> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const clock = options.clock ?? Date.now;
  const metrics = new Metrics();
  const hub = new Hub(options.store, metrics, limits);
  await hub.start();
  const fanOut = (tableId: string, events: readonly PublishedEvent[]): void => {
    const end = metrics.fanoutSeconds.startTimer();
    hub.publish(tableId, events);
    end();
  };
  const router =
    options.node === undefined
      ? undefined
      : new CommandRouter({ store: options.store, ...options.node });
  const holidays = new HolidayCalendarService(options.store);
  // Who may play (Lei 10/2012, Instrução 1/2016): asked before every bet, on every path to a table.
  const people = new People({ store: options.store, calendar: () => holidays.calendar(), clock });
  const admission = new PeopleAdmission(people, options.store);
  people.onChange(() => admission.changed());
  const service = new TableService({
    store: options.store,
    admission,
    ...(router ? { placement: router } : {}),
    clock,
    ...(options.random ? { random: options.random } : {}),
    ...(options.rollKeys ? { rollKeys: options.rollKeys } : {}),
    // The floor hands this node's commits and the other nodes' to the hub, in seq order.
    publish: (tableId, events) => floor.committed(tableId, events),
    observe: (timing) => observeBatch(metrics, timing),
  });
  const sessionIdleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  const sessions = new SessionSockets(options.store, clock, sessionIdleMs);
  sessions.start(options.sessionSweepMs ?? SESSION_SWEEP_MS);
  // Several nodes on one PostgreSQL: events from the others, and the betting timers of leased tables.
  const floor = new Floor({
    store: options.store,
    service,
    clock,
    publish: fanOut,
    ...(router ? { takeLease: (tableId: string) => router.take(tableId) } : {}),
    walletMoved: walletPush(options.store, hub),
    sessionsEnded: (change) => void sessions.journaled(change).catch(() => undefined),
    // Every socket of the table fetches its view again: what the console allows has changed (Art. 2).
    tableOpened: (tableId, seq, open) =>
      hub.notifyTable(tableId, { type: 'table-open', tableId, seq, open }),
    registersChanged: () => admission.changed(),
  });
  await floor.start();
  metrics.watch({
    connections: () => options.store.connections(),
    leasesHeld: () => floor.leasesHeld(),
    journal: async () => ({
      headSeq: await journalHeadSeq(options.store),
      deliveredSeq: hub.lastEventSeq,
    }),
    roundsByPhase: () => roundsByPhase(options.store, service),
    sockets: () => hub.clientCount(),
    ...(options.store.cluster.hearsJournal
      ? { noticeQueueUsage: () => options.store.cluster.noticeQueueUsage() }
      : {}),
  });
  hub.setStakesSource(async (tableId) => {
    const snap = await service.snapshot(tableId);
    return snap === undefined ? undefined : stakesOf(snap.state);
  });
  const reads = new ReadWorkers(options.store);
  const ctx: AppContext = {
    store: options.store,
    service,
    people,
    cash: new CashChecks(people),
    holidays,
    reads,
    hub,
    floor,
    nodeUrl: options.node?.nodeUrl ?? (() => undefined),
    metrics,
    clock,
    routes: [],
    sessionIdleMs,
    sessions,
    allowedOrigins: new Set(options.allowedOrigins ?? []),
    limits,
    loginThrottle: new LoginThrottle(),
    demo: options.demo ?? false,
    checkAnswers: options.checkAnswers ?? process.env['VITEST'] !== undefined,
    warmups: [],
  };
  const logger = options.logger === false ? false : loggerOptions(options.logger, metrics);
  // Fastify's own 503 while closing has another body shape: ours answers instead (below).
  const fastify = Fastify({
    logger,
    logController: new RequestLog(),
    bodyLimit: limits.bodyBytesMax,
    return503OnClosing: false,
    frameworkErrors,
    clientErrorHandler,
    ...(options.tls ? { https: { cert: options.tls.cert, key: options.tls.key } } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
  }) as unknown as FastifyInstance;
  fastify.setErrorHandler(errorHandler);
  // JSON only: fastify would read text/plain too, and a string body is then a 400, not the 415 it is.
  fastify.removeContentTypeParser('text/plain');
  let ready = true;
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (ready || request.url === '/healthz' || request.url === '/readyz') return done();
    done(new HttpError(503, 'shutting_down', 'the server is shutting down; try again shortly'));
  });
  // Once shutting down, every answer closes its connection. The server's close ends the idle
  // connections once and then waits for the others: one kept alive after an answer begun before
  // (or a client asking again at once) would hold it open for the keep-alive timeout (72 s).
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (!ready) void reply.header('connection', 'close');
    done(null, payload);
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
  await fastify.register(fastifyCookie);
  securityHeaders(fastify);
  await fastify.register(websocket, {
    options: { maxPayload: limits.wsMessageBytesMax },
    errorHandler: socketError,
  });
  healthRoutes(fastify, ctx, () => ready, options.sqliteDir);
  sessionRoutes(fastify, ctx);
  tableRoutes(fastify, ctx);
  cageRoutes(fastify, ctx);
  userRoutes(fastify, ctx);
  journalRoutes(fastify, ctx);
  exportRoutes(fastify, ctx);
  inspectorRoutes(fastify, ctx);
  complianceRoutes(fastify, ctx);
  peopleRoutes(fastify, ctx);
  socketRoutes(fastify, ctx);
  if (router !== undefined) forwardRoutes(fastify, options.store, service, router);
  if (options.webRoot !== undefined && existsSync(options.webRoot)) {
    // Compressed at build (src/server/precompress.ts); Vite names the files of assets/ by their hash.
    await fastify.register(fastifyStatic, {
      root: options.webRoot,
      prefix: '/',
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', cacheControlOf(path));
      },
    });
  }
  return {
    fastify,
    ctx,
    async warm() {
      await Promise.all([reads.start(), startPowerWorkers(), ...ctx.warmups.map((w) => w())]);
    },
    async shutdown() {
      ready = false;
      // Stop taking commands and let the queued ones commit, answer every socket request
      // already made, and only then close the sockets: nothing acknowledged is lost.
      await service.drainAll();
      floor.stop();
      sessions.stop();
      await hub.idle();
      hub.closeAll(1001, 'server shutting down');
      await fastify.close();
      await reads.close();
    },
  };
}

/** A committed batch's timings into the histograms: its commit, each bet's and each settlement's answer. */
function observeBatch(metrics: Metrics, timing: BatchTiming): void {
  metrics.commitSeconds.observe(timing.commitMs / 1000);
  for (const { type, answeredMs } of timing.commands) {
    if (type === 'place-bet') metrics.betAckSeconds.observe(answeredMs / 1000);
    else if (type === 'pay-all') metrics.settlementSeconds.observe(answeredMs / 1000);
  }
}

async function roundsByPhase(store: Store, service: TableService): Promise<Map<string, number>> {
  const phases = new Map<string, number>();
  for (const tableId of await tableIds(store)) {
    const phase = (await service.snapshot(tableId))?.state.phase;
    if (phase !== undefined) phases.set(phase, (phases.get(phase) ?? 0) + 1);
  }
  return phases;
}

/**
 * A hashed file never changes under its name: a year, and no revalidation.
 * index.html names the current hashes, so the browser asks again every time
 * (a 304 when it did not change), and a new release is seen at once.
 */
function cacheControlOf(path: string): string {
  return /[/\\]assets[/\\]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The browser's protections, all by helmet: a Content-Security-Policy that
 * lets the web app load its own scripts, styles and sockets only (no inline
 * script or style, no framing: frame-ancestors 'none', and the older
 * X-Frame-Options: DENY to match), and Strict-Transport-Security (180 days).
 * HSTS goes on every answer: a browser heeds it only on one that came over
 * HTTPS (RFC 6797, 8.1), served directly or by a proxy in front.
 *
 * helmet's middleware is built once, here, and only sets its headers on each
 * request: @fastify/helmet built it anew on every request, parsing the CSP's
 * directives each time (about 5% of a node's CPU under load).
 */
function securityHeaders(fastify: FastifyInstance): void {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    hsts: { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true },
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    headers(request.raw, reply.raw, (error?: unknown) =>
      done(error instanceof Error ? error : undefined),
    );
  });
}

/**
 * A player's balance, to their sockets on this node, each time the floor says
 * their wallet moved (it calls on every node). One read at a time a player:
 * two reads in flight at once could answer out of order and leave the page on
 * the older balance. A move during a read asks for one more read after it, so
 * the last message sent is read after the last move.
 */
function walletPush(store: Store, hub: Hub): (playerId: string) => void {
  /** Players with a read in flight, and whether another move came meanwhile. */
  const reading = new Map<string, boolean>();
  const push = async (playerId: string): Promise<void> => {
    do {
      reading.set(playerId, false);
      const balanceMinor = await walletBalanceMinor(store, playerId).catch(() => undefined);
      if (balanceMinor !== undefined) hub.sendToUser(playerId, { type: 'wallet', balanceMinor });
    } while (reading.get(playerId) === true);
    reading.delete(playerId);
  };
  return (playerId) => {
    if (reading.has(playerId)) reading.set(playerId, true);
    else void push(playerId);
  };
}
