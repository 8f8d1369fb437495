/**
 * GET /api/v1/tables/:tableId/ws — a table's live events, and a player's bets.
 *
 * Anyone may watch (the display board shows what the layout shows); a token
 * that is present but not a live session is refused before the upgrade. Each
 * socket may send a bounded number of messages per second, each bounded in
 * size; beyond that it is closed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '@fastify/websocket';
import type { WebSocket } from 'ws';
import type { User } from '../ledger/index.js';
import type { Command } from '../table/index.js';
import { authenticate, requestToken } from './auth.js';
import type { AppContext } from './context.js';
import { errorBody, HttpError } from './http-error.js';
import { parse } from './route.js';
import { tableParams, wsMessage, wsQuery } from './schemas.js';
import { viewOf } from './routes/tables.js';
import type { Client } from './hub.js';

export const WS_CLOSE_POLICY = 1008;
export const WS_CLOSE_TOO_BIG = 1009;

export function socketRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/api/v1/tables/:tableId/ws',
    {
      websocket: true,
      preValidation: async (request) => {
        const params = parse(tableParams, request.params, 'params');
        parse(wsQuery, request.query, 'query');
        if ((await ctx.store.getTable(params.tableId)) === undefined) {
          throw new HttpError(404, 'unknown_table', `there is no table "${params.tableId}"`);
        }
        if (
          requestToken(request) !== undefined &&
          (await authenticate(ctx.store, request, ctx.clock())) === undefined
        ) {
          throw new HttpError(
            401,
            'unauthenticated',
            'the session token is not valid: log in again',
          );
        }
      },
    },
    (socket, request) => {
      void open(ctx, socket, request).catch((error: unknown) => {
        request.log.error({ err: error }, 'websocket failed');
        socket.close(1011, 'internal error');
      });
    },
  );
}

async function open(ctx: AppContext, socket: WebSocket, request: FastifyRequest): Promise<void> {
  const { tableId } = parse(tableParams, request.params, 'params');
  const query = parse(wsQuery, request.query, 'query');
  const user = await authenticate(ctx.store, request, ctx.clock());
  const afterSeq = query.after ?? ctx.hub.lastEventSeq;
  const client = ctx.hub.join(tableId, socket, user, afterSeq);
  socket.on('message', messageHandler(ctx, tableId, client));
  const view = await viewOf(ctx, tableId);
  socket.send(JSON.stringify({ type: 'hello', tableId, view, user: user ?? null }));
  await ctx.hub.resume(tableId, client);
}

function messageHandler(
  ctx: AppContext,
  tableId: string,
  client: Client,
): (data: Buffer, isBinary: boolean) => void {
  let windowStartMs = 0;
  let inWindow = 0;
  return (data, isBinary) => {
    const now = ctx.clock();
    if (now - windowStartMs >= 1_000) {
      windowStartMs = now;
      inWindow = 0;
    }
    if (++inWindow > ctx.limits.wsMessagesPerSecondMax) {
      client.socket.close(WS_CLOSE_POLICY, 'too many messages: slow down');
      return;
    }
    if (isBinary || data.length > ctx.limits.wsMessageBytesMax) {
      client.socket.close(WS_CLOSE_TOO_BIG, 'messages are JSON text of at most 16 KiB');
      return;
    }
    void handleMessage(ctx, tableId, client, data.toString('utf8')).catch(() =>
      client.socket.close(1011, 'internal error'),
    );
  };
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
    return reply(client, null, errorBody('invalid_json', 'a message must be a JSON object'));
  }
  const requestId =
    typeof raw === 'object' && raw !== null && 'requestId' in raw
      ? String((raw as { requestId: unknown }).requestId).slice(0, 64)
      : null;
  let message;
  try {
    message = parse(wsMessage, raw, 'message');
  } catch (error) {
    const e = error as HttpError;
    return reply(client, requestId, errorBody(e.code, e.message));
  }
  const user = playerOf(client.user);
  if (user === undefined)
    return reply(client, requestId, errorBody('forbidden', 'only a logged-in player may bet'));
  const command: Command =
    message.type === 'place-bet'
      ? {
          type: 'place-bet',
          betId: message.betId,
          playerId: user.id,
          spot: message.spot,
          stakeMinor: message.stakeMinor,
        }
      : { type: 'withdraw-bet', betId: message.betId, playerId: user.id };
  const outcome = await ctx.service.execute({
    tableId,
    command,
    idempotencyKey: `${user.id}:ws:${message.type}:${message.betId}`,
  });
  ctx.metrics.count('cussec_bets_total', { result: outcome.ok ? 'placed' : 'refused', via: 'ws' });
  if (!outcome.ok) return reply(client, message.requestId, { error: outcome.rejection });
  const balance = await ctx.store.getAccount(`wallet:${user.id}`);
  const event = outcome.events[0];
  ctx.hub.send(
    client,
    JSON.stringify({
      type: 'ack',
      requestId: message.requestId,
      seq: event?.seq ?? null,
      bet: event && 'bet' in event.event ? event.event.bet : null,
      balanceMinor: balance?.balanceMinor ?? 0,
    }),
  );
}

const playerOf = (user: User | undefined): User | undefined =>
  user?.role === 'player' ? user : undefined;

function reply(client: Client, requestId: string | null, body: object): void {
  client.socket.send(JSON.stringify({ type: 'error', requestId, ...body }));
}
