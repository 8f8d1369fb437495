/** The cashier's routes: players' balances, deposits and withdrawals. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { cageMoves, cashierMove, playerBalances } from '../../service/cage.js';
import type { AppContext } from '../context.js';
import { fromRejection, HttpError } from '../http-error.js';
import { registerRoute } from '../route.js';
import {
  cageBody,
  cageMoveAnswer,
  cageMoveItemAnswer,
  cageMovesQuery,
  playerBalanceAnswer,
  playerParams,
} from '../schemas.js';

export function cageRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/players',
    summary: 'Players with their wallet balances',
    tag: 'cage',
    roles: ['cashier', 'supervisor'],
    response: z.array(playerBalanceAnswer),
    handler: () => playerBalances(ctx.store),
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/players/:playerId/cage-moves',
    summary:
      "A player's deposits and withdrawals, newest first: time, kind, amount, cashier, balance after",
    tag: 'cage',
    roles: ['cashier', 'supervisor'],
    params: playerParams,
    query: cageMovesQuery,
    response: z.array(cageMoveItemAnswer),
    handler: async ({ params, query }) => {
      const moves = await cageMoves(ctx.store, params.playerId, {
        limit: query.limit,
        ...(query.before === undefined ? {} : { beforeSeq: query.before }),
      });
      if (moves === undefined)
        throw new HttpError(404, 'unknown_player', `there is no player "${params.playerId}"`);
      return moves;
    },
  });

  for (const [path, kind, summary] of [
    ['deposits', 'deposit', "Move money from the cage into a player's wallet"],
    ['withdrawals', 'withdrawal', 'Pay a player out of their wallet at the cage'],
  ] as const) {
    registerRoute(app, ctx, {
      method: 'POST',
      url: `/api/v1/players/:playerId/${path}`,
      summary,
      tag: 'cage',
      roles: ['cashier'],
      params: playerParams,
      body: cageBody,
      response: cageMoveAnswer,
      handler: async ({ params, body, user, idempotencyKey }) => {
        const outcome = await cashierMove(ctx.store, ctx.cash, kind, {
          playerId: params.playerId,
          amountMinor: body.amountMinor,
          cashierId: user.id,
          idempotencyKey: idempotencyKey ?? randomUUID(),
          documentSighted: body.documentSighted ?? false,
        });
        if (!outcome.ok) throw fromRejection(outcome.rejection);
        ctx.metrics.count('cussec_cage_movements_total', { kind: path });
        // Every node hears of the entry (its commit's notice) and tells the player's sockets there.
        ctx.floor.journaled();
        return { balanceMinor: outcome.balanceMinor, transferId: outcome.transferId };
      },
    });
  }
}
