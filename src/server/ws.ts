/**
 * GET /api/v1/tables/:tableId/ws — a table's live events, and a player's bets.
 *
 * Anyone may watch (the display board shows what the layout shows); a request
 * that carries credentials which are not a live session, or that comes from a
 * page of another origin, is refused before the upgrade. What each socket
 * sees of other players' bets is visibility.ts's rule; a socket ends when its
 * session ends (session-sockets.ts). Each socket may send a bounded number of messages per second, each
 * bounded in size and in bets; beyond that it is closed.
 */
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { StoreUnavailableError, type User } from '../ledger/index.js';
import type { CommandOutcome } from '../service/table-service.js';
import { journalHeadSeq, tableExists } from '../service/reads.js';
import type { Command } from '../table/index.js';
import type { Authenticated } from '../service/sessions.js';
import { authenticate, carriesCredentials } from './auth.js';
import type { AppContext } from './context.js';
import { errorBody, type ErrorBody, HttpError } from './http-error.js';
import type { Feed } from './feed.js';
import type { Client } from './hub.js';
import { checkOrigin } from './origin.js';
import { parse } from './route.js';
import { viewOf, walletBalance } from './routes/tables.js';
import {
  type BatchResultAnswer,
  type ServerMessage,
  tableParams,
  type WsMessage,
  wsMessage,
  wsQuery,
} from './schemas.js';

/** Binary frames: the protocol is JSON text. */
export const WS_CLOSE_UNSUPPORTED = 1003;
/** Too many messages a second. */
export const WS_CLOSE_POLICY = 1008;
/** A message over `wsMessageBytesMax` (closed by ws itself, before it is read). */
export const WS_CLOSE_TOO_BIG = 1009;
/** `?after=` is more than `wsBacklogEventsMax` events behind: reconnect without it. */
export const WS_CLOSE_TOO_FAR_BEHIND = 4001;

const WS_URL = '/api/v1/tables/:tableId/ws';

/** Who each upgrade was authenticated as, from preValidation to the socket handler. */
const callers = new WeakMap<object, Authenticated | undefined>();

export function socketRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.route({
    method: 'GET',
    url: WS_URL,
    preValidation: async (request) => {
      // A page of another site may not open a socket with the browser's cookie.
      checkOrigin(request, ctx.allowedOrigins);
      const params = parse(tableParams, request.params, 'params');
      const query = parse(wsQuery, request.query, 'query');
      if (!(await tableExists(ctx.store, params.tableId))) {
        throw new HttpError(404, 'unknown_table', `there is no table "${params.tableId}"`);
      }
      const caller = await authenticate(ctx.store, request, ctx.clock(), ctx.sessionIdleMs);
      if (caller === undefined && carriesCredentials(request)) {
        throw new HttpError(401, 'unauthenticated', 'the session token is not valid: log in again');
      }
      if (caller?.user.mustChangePassword === true) {
        throw new HttpError(403, 'password_change_required', 'change your password first');
      }
      if (query.after !== undefined && query.after > (await journalHeadSeq(ctx.store))) {
        throw new HttpError(
          400,
          'invalid_request',
          `query.after: ${query.after} is past the journal's last entry`,
        );
      }
      callers.set(request.raw, caller);
    },
    // A plain GET (no Upgrade header) gets an answer in the API's shape, not an empty 404.
    handler: async (_request, reply) => {
      void reply.header('upgrade', 'websocket');
      throw new HttpError(426, 'upgrade_required', 'this is a WebSocket: connect with an upgrade');
    },
    wsHandler: (socket, request) => accept(ctx, socket, request),
  });
}

/**
 * Listens at once, so that nothing the client sends while the backlog is read
 * is lost; messages wait until the client has joined the table.
 */
function accept(ctx: AppContext, socket: WebSocket, request: FastifyRequest): void {
  const { tableId } = parse(tableParams, request.params, 'params');
  const query = parse(wsQuery, request.query, 'query');
  const caller = callers.get(request.raw);
  const user = caller?.user;
  if (caller !== undefined) ctx.sessions.add(caller.session, caller.user.id, socket);
  const allow = rateLimiter(ctx.limits.wsMessagesPerSecondMax);
  let client: Client | undefined;
  const waiting: string[] = [];
  // A message is acted on only while its session is live: past its end, the socket closes (4401).
  const live = (): Promise<boolean> =>
    caller === undefined ? Promise.resolve(true) : ctx.sessions.live(caller.session.tokenHash);
  // Each message's session check starts when it arrives, but messages are acted on in the
  // order they came: a check that answers sooner does not let its message overtake.
  let turns: Promise<unknown> = Promise.resolve();
  const dispatch = (joined: Client, text: string): void => {
    const checked = live();
    const turn = turns.then(() => checked);
    turns = turn.catch(() => undefined);
    ctx.hub.track(
      turn
        .then((acting) => (acting ? handleMessage(ctx, tableId, joined, text) : undefined))
        .catch((error: unknown) => {
          if (error instanceof StoreUnavailableError) {
            // The session could not be read: the client may send the message again; the socket stays open.
            let raw: unknown = null;
            try {
              raw = JSON.parse(text);
            } catch {
              // No requestId to echo.
            }
            reply(ctx, joined, requestIdOf(raw), errorBody(error.code, error.message));
            return;
          }
          request.log.error({ err: error }, 'websocket message failed');
          joined.socket.close(1011, 'internal error');
        }),
    );
  };
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (!allow()) {
      socket.close(WS_CLOSE_POLICY, 'too many messages: slow down');
      return;
    }
    if (isBinary) {
      socket.close(WS_CLOSE_UNSUPPORTED, 'messages are JSON text');
      return;
    }
    const text = data.toString('utf8');
    if (caller !== undefined)
      void ctx.sessions.activity(caller.session.tokenHash).catch(() => undefined);
    if (client === undefined) waiting.push(text);
    else dispatch(client, text);
  });
  open(ctx, socket, tableId, {
    user,
    feed: query.feed ?? 'all',
    raw: (request.raw as { socket?: Socket }).socket,
    after: query.after,
  })
    .then((joined) => {
      client = joined;
      if (joined !== undefined) for (const text of waiting.splice(0)) dispatch(joined, text);
    })
    .catch((error: unknown) => {
      request.log.error({ err: error }, 'websocket failed');
      socket.close(1011, 'internal error');
    });
}

/** Messages a second, counted in one-second windows of the monotonic clock (the tables may run on a test clock). */
function rateLimiter(perSecondMax: number): () => boolean {
  let windowStartMs = -Infinity;
  let inWindow = 0;
  return () => {
    const now = performance.now();
    if (now - windowStartMs >= 1_000) {
      windowStartMs = now;
      inWindow = 0;
    }
    return ++inWindow <= perSecondMax;
  };
}

async function open(
  ctx: AppContext,
  socket: WebSocket,
  tableId: string,
  options: {
    user: User | undefined;
    feed: Feed;
    raw: Socket | undefined;
    after: number | undefined;
  },
): Promise<Client | undefined> {
  const { user, after } = options;
  if (after !== undefined && (await ctx.hub.backlogTooLong(tableId, after))) {
    socket.close(
      WS_CLOSE_TOO_FAR_BEHIND,
      `more than ${ctx.limits.wsBacklogEventsMax} events behind: reconnect without ?after`,
    );
    return undefined;
  }
  const client = ctx.hub.join(tableId, socket, {
    ...options,
    afterSeq: after ?? ctx.hub.lastEventSeq,
  });
  const view = await viewOf(ctx, tableId);
  const hello: ServerMessage = { type: 'hello', tableId, view, user: user ?? null };
  ctx.hub.greet(client, JSON.stringify(hello));
  await ctx.hub.resume(tableId, client);
  return client;
}

async function handleMessage(
  ctx: AppContext,
  tableId: string,
  client: Client,
  text: string,
): Promise<void> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return reply(ctx, client, null, errorBody('invalid_json', 'a message must be a JSON object'));
  }
  const requestId = requestIdOf(raw);
  let message: WsMessage;
  try {
    message = parse(wsMessage, raw, 'message');
  } catch (error) {
    const e = error as HttpError;
    return reply(ctx, client, requestId, errorBody(e.code, e.message));
  }
  const user = client.user?.role === 'player' ? client.user : undefined;
  if (user === undefined) {
    return reply(ctx, client, message.requestId, errorBody('forbidden', 'only a player may bet'));
  }
  try {
    await execute(ctx, tableId, client, user, message);
  } catch (error) {
    // The database is away: the client may send the message again; the socket stays open.
    if (!(error instanceof StoreUnavailableError)) throw error;
    reply(ctx, client, message.requestId, errorBody(error.code, error.message));
  }
}

async function execute(
  ctx: AppContext,
  tableId: string,
  client: Client,
  user: User,
  message: WsMessage,
): Promise<void> {
  if (message.type === 'place-bets' || message.type === 'withdraw-bets')
    return batch(ctx, tableId, client, user, message);
  // No idempotency key: the round refuses a bet id twice (duplicate_bet_id), and a client
  // that lost its connection sees its bet-placed event in the backlog when it resumes.
  const command: Command =
    message.type === 'place-bet'
      ? { type: 'place-bet', betId: message.betId, playerId: user.id, ...stake(message) }
      : { type: 'withdraw-bet', betId: message.betId, playerId: user.id };
  const outcome = await ctx.service.execute({ tableId, command });
  if (message.type === 'place-bet') countBet(ctx, outcome);
  if (!outcome.ok) return reply(ctx, client, message.requestId, { error: outcome.rejection });
  const event = outcome.events[0];
  ctx.hub.send(
    client,
    JSON.stringify({
      type: 'ack',
      requestId: message.requestId,
      seq: event?.seq ?? null,
      bet: event && 'bet' in event.event ? event.event.bet : null,
      balanceMinor: outcome.balanceMinor ?? (await walletBalance(ctx, user.id)),
    } satisfies ServerMessage),
  );
}

/**
 * Up to BETS_PER_MESSAGE_MAX bets placed, or withdrawn, in one message. They
 * are queued in the same turn, so they commit in one transaction, in order;
 * each is accepted or refused on its own, as if sent one by one.
 */
async function batch(
  ctx: AppContext,
  tableId: string,
  client: Client,
  user: User,
  message: Extract<WsMessage, { type: 'place-bets' | 'withdraw-bets' }>,
): Promise<void> {
  const commands: Command[] =
    message.type === 'place-bets'
      ? message.bets.map((bet) => ({
          type: 'place-bet',
          betId: bet.betId,
          playerId: user.id,
          ...stake(bet),
        }))
      : message.betIds.map((betId) => ({ type: 'withdraw-bet', betId, playerId: user.id }));
  const outcomes = await Promise.all(
    commands.map((command) => ctx.service.execute({ tableId, command })),
  );
  const results = outcomes.map((outcome, i): BatchResultAnswer => {
    if (message.type === 'place-bets') countBet(ctx, outcome);
    const betId = (commands[i] as { betId: string }).betId;
    if (!outcome.ok) return { betId, ok: false, error: outcome.rejection };
    const event = outcome.events[0];
    return {
      betId,
      ok: true,
      seq: event?.seq ?? null,
      bet: event && 'bet' in event.event ? event.event.bet : null,
    };
  });
  // The balance right after the message's last bet taken, in ledger order.
  const last = outcomes.findLast((o) => o.ok && o.balanceMinor !== undefined);
  ctx.hub.send(
    client,
    JSON.stringify({
      type: 'batch-ack',
      requestId: message.requestId,
      results,
      balanceMinor:
        last?.ok && last.balanceMinor !== undefined
          ? last.balanceMinor
          : await walletBalance(ctx, user.id),
    } satisfies ServerMessage),
  );
}

const stake = (bet: { spot: string; stakeMinor: number }) => ({
  spot: bet.spot,
  stakeMinor: bet.stakeMinor,
});

function countBet(ctx: AppContext, outcome: CommandOutcome): void {
  ctx.metrics.count('cussec_bets_total', { result: outcome.ok ? 'placed' : 'refused', via: 'ws' });
}

/** Only a requestId the client could have meant is echoed: a string or a number. */
function requestIdOf(raw: unknown): string | null {
  const given =
    typeof raw === 'object' && raw !== null && 'requestId' in raw ? raw.requestId : null;
  return typeof given === 'string' || (typeof given === 'number' && Number.isFinite(given))
    ? String(given).slice(0, 64)
    : null;
}

function reply(ctx: AppContext, client: Client, requestId: string | null, body: ErrorBody): void {
  const message: ServerMessage = { type: 'error', requestId, ...body };
  ctx.hub.send(client, JSON.stringify(message));
}
