/** The cashier's routes: players' balances, deposits and withdrawals. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { walletAccount } from '../../ledger/index.js';
import { type CageOutcome, deposit, withdraw } from '../../service/cage.js';
import type { AppContext } from '../context.js';
import { fromRejection, HttpError } from '../http-error.js';
import { registerRoute } from '../route.js';
import { cageBody, playerParams } from '../schemas.js';

export function cageRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/players',
    summary: 'Players with their wallet balances',
    tag: 'cage',
    roles: ['cashier', 'supervisor'],
    response: z.array(
      z.strictObject({
        id: z.string(),
        username: z.string(),
        displayName: z.string(),
        balanceMinor: z.number().int(),
      }),
    ),
    handler: async () => {
      const players = await ctx.store.listUsers({ role: 'player', limit: 1_000 });
      return Promise.all(
        players.map(async (p) => ({
          id: p.id,
          username: p.username,
          displayName: p.displayName,
          balanceMinor: (await ctx.store.getAccount(walletAccount(p.id).id))?.balanceMinor ?? 0,
        })),
      );
    },
  });

  for (const [path, move, summary] of [
    ['deposits', deposit, "Move money from the cage into a player's wallet"],
    ['withdrawals', withdraw, 'Pay a player out of their wallet at the cage'],
  ] as const) {
    registerRoute(app, ctx, {
      method: 'POST',
      url: `/api/v1/players/:playerId/${path}`,
      summary,
      tag: 'cage',
      roles: ['cashier'],
      params: playerParams,
      body: cageBody,
      response: z.strictObject({ balanceMinor: z.number().int(), transferId: z.string() }),
      handler: async ({ params, body, user, idempotencyKey }) => {
        const player = await ctx.store.getUser(params.playerId);
        if (player?.role !== 'player')
          throw new HttpError(404, 'unknown_player', `there is no player "${params.playerId}"`);
        const outcome: CageOutcome = await move(ctx.store, {
          playerId: player.id,
          amountMinor: body.amountMinor,
          cashierId: user.id,
          idempotencyKey: idempotencyKey ?? randomUUID(),
        });
        if (!outcome.ok) throw fromRejection(outcome.rejection);
        ctx.metrics.count('cussec_cage_movements_total', { kind: path });
        ctx.hub.sendToUser(player.id, { type: 'wallet', balanceMinor: outcome.balanceMinor });
        return { balanceMinor: outcome.balanceMinor, transferId: outcome.transferId };
      },
    });
  }
}
