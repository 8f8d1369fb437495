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
import { optionsAuthorizationAnswer, recallQuery, tableParams } from '../schemas.js';

const int = z.number().int();
const dice = z.tuple([int, int, int]).readonly();
const sealedRoll = z.strictObject({ dice, nonceHex: z.string(), commitmentHex: z.string() });

/** A round as the journal and the ledger recorded it (service/recall.ts). */
const recalledRoundAnswer = z.strictObject({
  tableId: z.string(),
  roundNo: int,
  status: z.enum(['open', 'settled', 'paid']),
  firstSeq: int,
  lastSeq: int,
  startedAtMs: int,
  paidAtMs: int.nullable(),
  rolls: z
    .array(
      z.strictObject({
        rollNo: int,
        commitmentHex: z.string().nullable(),
        bettingOpenedAtMs: int.nullable(),
        bellRungAtMs: int.nullable(),
        bellAutomatic: z.boolean().nullable(),
        voided: z
          .strictObject({
            reason: z.enum(['stacked', 'tilted']),
            atMs: int,
            croupierId: z.string().nullable(),
            openedSeal: sealedRoll.nullable(),
            sealVerified: z.boolean().nullable(),
          })
          .nullable(),
      }),
    )
    .readonly(),
  result: z
    .discriminatedUnion('method', [
      z.strictObject({
        method: z.literal('electronic'),
        rollNo: int,
        dice,
        nonceHex: z.string(),
        commitmentHex: z.string(),
        verified: z.boolean(),
        atMs: int,
      }),
      z.strictObject({
        method: z.literal('lever'),
        rollNo: int,
        dice,
        croupierId: z.string(),
        atMs: int,
      }),
    ])
    .nullable(),
  winningSpots: z.array(z.string()).readonly(),
  bets: z
    .array(
      z.strictObject({
        betId: z.string(),
        playerId: z.string(),
        spot: z.string(),
        stakeMinor: int,
        rollNo: int,
        placedAtMs: int,
        withdrawnAtMs: int.nullable(),
        winMinor: int.nullable(),
        returnedMinor: int.nullable(),
      }),
    )
    .readonly(),
  totalStakeMinor: int,
  totalReturnedMinor: int.nullable(),
  players: z
    .array(
      z.strictObject({
        playerId: z.string(),
        displayName: z.string().nullable(),
        balanceBeforeMinor: int.nullable(),
        balanceAfterMinor: int.nullable(),
        stakedMinor: int,
        returnedMinor: int.nullable(),
      }),
    )
    .readonly(),
  authorization: optionsAuthorizationAnswer.nullable(),
});

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
