/**
 * The inspector's game recall: a table's last rounds as the journal and the
 * ledger recorded them. (The fairness of its dice, Art. 1.1, is in
 * routes/compliance.ts with the monitor that journals its alerts.)
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { registerRoute } from '../route.js';
import { recallQuery, recalledRoundAnswer, tableParams } from '../schemas.js';

export function inspectorRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables/:tableId/recall',
    summary:
      'The last rounds: bets, rolls (void ones too), dice with commitment, wins, balances before and after',
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    params: tableParams,
    query: recallQuery,
    response: z.array(recalledRoundAnswer),
    handler: async ({ params, query }) => {
      // On a worker thread: a long recall must not hold the bets (read-workers.ts).
      const rounds = await ctx.reads.recall(params.tableId, query.rounds);
      if (rounds === undefined) throw unknownTable(params.tableId);
      return rounds;
    },
  });
}

const unknownTable = (tableId: string): HttpError =>
  new HttpError(404, 'unknown_table', `there is no table "${tableId}"`);
