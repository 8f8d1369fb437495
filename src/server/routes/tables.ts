/** A table's routes: its view, bets, the croupier's procedure and the supervisor's settings. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { visibleJournalEntrySchema } from '../../journal/index.js';
import { betResults, type Command } from '../../table/index.js';
import {
  defaultTableSettings,
  markedAuthorization,
  parseTableSettings,
  settingsDocument,
  TABLE_SETTINGS_FIELDS,
} from '../../service/table-settings.js';
import { macauDate } from '../../compliance/index.js';
import type { CommandOutcome } from '../../service/table-service.js';
import { walletBalanceMinor } from '../../service/cage.js';
import { journalPage, tableExists, tableIds } from '../../service/reads.js';
import type { AppContext } from '../context.js';
import { fromRejection, HttpError } from '../http-error.js';
import { registerRoute } from '../route.js';
import { visibleEntries, visibleEvent } from '../visibility.js';
import {
  betAnswerSchema,
  betParams,
  commandAnswer,
  exposureAnswer,
  myBetsAnswer,
  croupierCommandBody,
  id,
  limitsBody,
  pageQuery,
  placeBetBody,
  tableParams,
  tableSummaryAnswer,
  tableViewAnswer,
} from '../schemas.js';
import { tableView } from '../views.js';

/**
 * A new table: its id, and any of its settings (the defaults fill the rest).
 * A field that is not a setting is malformed (invalid_request); settings that
 * do not fit together are parseTableSettings's to refuse (invalid_table_settings).
 */
const createTableBody = z
  .object({
    ...Object.fromEntries(TABLE_SETTINGS_FIELDS.map((field) => [field, z.unknown().optional()])),
    tableId: id,
    name: z.string().min(1).max(64).optional(),
  })
  .strict();

export function tableRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables',
    summary: 'Every table with its phase and stake limits',
    tag: 'tables',
    roles: 'public',
    response: z.array(tableSummaryAnswer),
    handler: async () => {
      const ids = await tableIds(ctx.store);
      return Promise.all(
        ids.map(async (tableId) => {
          const snap = (await ctx.service.snapshot(tableId))!;
          return {
            id: tableId,
            name: snap.settings.name,
            currency: ctx.store.currency,
            shaker: snap.settings.shaker,
            phase: snap.state.phase,
            roundNo: snap.state.roundNo,
            stakeMinorMin: snap.settings.stakeMinorMin,
            stakeMinorMax: snap.settings.stakeMinorMax,
          };
        }),
      );
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables/:tableId',
    summary:
      'The public view of a table: phase, commitment, stakes by spot, results, legal croupier steps',
    tag: 'tables',
    roles: 'public',
    params: tableParams,
    response: tableViewAnswer,
    handler: ({ params }) => viewOf(ctx, params.tableId),
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables/:tableId/bets',
    summary: 'Place a bet (Art. 5) while betting is open',
    tag: 'bets',
    roles: ['player'],
    params: tableParams,
    body: placeBetBody,
    successStatus: 201,
    response: betAnswerSchema,
    handler: async ({ params, body, user, idempotencyKey }) => {
      const command: Command = {
        type: 'place-bet',
        betId: body.betId,
        playerId: user.id,
        spot: body.spot,
        stakeMinor: body.stakeMinor,
      };
      const outcome = await run(ctx, params.tableId, command, idempotencyKey);
      ctx.metrics.count('cussec_bets_total', {
        result: outcome.ok ? 'placed' : 'refused',
        via: 'http',
      });
      return betAnswer(ctx, outcome, user.id);
    },
  });

  registerRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/v1/tables/:tableId/bets/:betId',
    summary: 'Withdraw a bet placed in the current betting window (Art. 3.4)',
    tag: 'bets',
    roles: ['player'],
    params: betParams,
    response: betAnswerSchema,
    handler: async ({ params, user, idempotencyKey }) => {
      const outcome = await run(
        ctx,
        params.tableId,
        { type: 'withdraw-bet', betId: params.betId, playerId: user.id },
        idempotencyKey,
      );
      return betAnswer(ctx, outcome, user.id);
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables/:tableId/my-bets',
    summary: "The player's bets in the current round and what they won",
    tag: 'bets',
    roles: ['player'],
    params: tableParams,
    response: myBetsAnswer,
    handler: async ({ params, user }) => {
      const snap = await ctx.service.snapshot(params.tableId);
      if (snap === undefined)
        throw new HttpError(404, 'unknown_table', `there is no table "${params.tableId}"`);
      const { bets: standing, settlement } = snap.state;
      const results = new Map(
        (settlement === null ? [] : betResults(standing, settlement)).map((r) => [r.betId, r]),
      );
      const bets = standing
        .filter((b) => b.playerId === user.id)
        .map((b) => {
          const r = results.get(b.betId);
          return {
            betId: b.betId,
            spot: b.spot,
            stakeMinor: b.stakeMinor,
            rollNo: b.rollNo,
            ...(r ? { winMinor: r.winMinor, returnedMinor: r.returnedMinor } : {}),
          };
        });
      return { roundNo: snap.state.roundNo, bets };
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables/:tableId/commands',
    summary: 'A step of the round (Arts. 2–4); the electronic shaker seals its roll itself',
    tag: 'croupier',
    roles: ['croupier'],
    params: tableParams,
    body: croupierCommandBody,
    response: commandAnswer,
    handler: async ({ params, body, user, idempotencyKey }) => {
      const command = { ...body, croupierId: user.id } as Command;
      const outcome = await run(ctx, params.tableId, command, idempotencyKey);
      ctx.metrics.count('cussec_commands_total', {
        type: body.type,
        result: outcome.ok ? 'accepted' : 'refused',
      });
      if (!outcome.ok) throw fromRejection(outcome.rejection);
      // Least privilege: a croupier sees others' bets as stakes on spots, as on the socket.
      const events = outcome.events.map((e) => ({
        seq: e.seq,
        event: visibleEvent(e.event, user),
      }));
      return { events, view: await viewOf(ctx, params.tableId) };
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables/:tableId/exposure',
    summary: 'Stakes of the round and the worst case over the 216 outcomes',
    tag: 'croupier',
    roles: ['croupier', 'supervisor'],
    params: tableParams,
    response: exposureAnswer,
    handler: async ({ params }) => {
      const snap = await ctx.service.snapshot(params.tableId);
      if (snap === undefined)
        throw new HttpError(404, 'unknown_table', `there is no table "${params.tableId}"`);
      const e = snap.book.exposure();
      return {
        stakedMinor: e.stakedMinor,
        worstCase: e.worst,
        // An expectation is fractional; the API's minor units are whole: rounded half up.
        expectedHouseGainMinor: Math.round(e.expectedHouseGainMinor),
        liabilityCapMinor: snap.settings.liabilityMinorMax,
      };
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables/:tableId/events',
    summary: "The table's journal entries after a seq (others' bets without their playerId)",
    tag: 'tables',
    roles: 'any',
    params: tableParams,
    query: pageQuery,
    response: z.array(visibleJournalEntrySchema),
    handler: async ({ params, query, user }) => {
      if (!(await tableExists(ctx.store, params.tableId)))
        throw new HttpError(404, 'unknown_table', `there is no table "${params.tableId}"`);
      const entries = await journalPage(ctx.store, {
        afterSeq: query.after,
        limit: query.limit,
        tableId: params.tableId,
      });
      // Others' bets by spot only, staff-only entries for the staff (visibility.ts).
      return visibleEntries(entries, user);
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables',
    summary: 'Create a table (house options need DICJ authorization, Art. 8)',
    tag: 'supervisor',
    roles: ['supervisor'],
    body: createTableBody,
    successStatus: 201,
    response: tableViewAnswer,
    handler: async ({ body, user }) => {
      const { tableId, name, ...rest } = body;
      // Art. 8: a new table's options carry no authorization (a demonstration server marks one).
      const parsed = parseTableSettings(
        { ...settingsDocument(defaultTableSettings(tableId, name)), ...rest },
        ctx.demo ? markedAuthorization('demonstration', macauDate(ctx.clock()), user.id) : null,
      );
      if (!parsed.ok)
        throw new HttpError(400, parsed.error.code, parsed.error.message, parsed.error.article);
      const created = await ctx.service.createTable(parsed.value, user.id);
      if (created === 'exists')
        throw new HttpError(409, 'table_exists', `table "${tableId}" exists`);
      return viewOf(ctx, tableId);
    },
  });

  registerRoute(app, ctx, {
    method: 'PATCH',
    url: '/api/v1/tables/:tableId/limits',
    summary: "Change a table's limits between rounds",
    tag: 'supervisor',
    roles: ['supervisor'],
    params: tableParams,
    body: limitsBody,
    response: tableViewAnswer,
    handler: async ({ params, body, user }) => {
      const limits = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      const outcome = await ctx.service.changeLimits(params.tableId, limits, user.id);
      if (!outcome.ok) throw fromRejection(outcome.rejection);
      return viewOf(ctx, params.tableId);
    },
  });

  // Art. 2: a round opens only at a table opened for play; closing lets the round in progress finish.
  for (const [verb, open] of [
    ['open', true],
    ['close', false],
  ] as const) {
    registerRoute(app, ctx, {
      method: 'POST',
      url: `/api/v1/tables/:tableId/${verb}`,
      summary: open
        ? 'Open a closed table for play'
        : 'Close a table for play (the round in progress is finished)',
      tag: 'supervisor',
      roles: ['supervisor'],
      params: tableParams,
      response: tableViewAnswer,
      handler: async ({ params, user }) => {
        const outcome = await ctx.service.setOpen(params.tableId, open, user.id);
        if (!outcome.ok) throw fromRejection(outcome.rejection);
        // Every node hears of the entry (its commit's notice) and tells the table's sockets.
        ctx.floor.journaled();
        return viewOf(ctx, params.tableId);
      },
    });
  }
}

async function run(
  ctx: AppContext,
  tableId: string,
  command: Command,
  idempotencyKey: string | undefined,
): Promise<CommandOutcome> {
  return ctx.service.execute({ tableId, command, ...(idempotencyKey ? { idempotencyKey } : {}) });
}

async function betAnswer(
  ctx: AppContext,
  outcome: CommandOutcome,
  playerId: string,
): Promise<z.output<typeof betAnswerSchema>> {
  if (!outcome.ok) throw fromRejection(outcome.rejection);
  const event = outcome.events[0]?.event;
  return {
    bet: event && 'bet' in event ? event.bet : null,
    seq: outcome.events[0]?.seq ?? null,
    balanceMinor: outcome.balanceMinor ?? (await walletBalance(ctx, playerId)),
  };
}

/**
 * The wallet's balance now: for answers that carry no balance of their own (a
 * bet refused, or an idempotent answer recorded before answers kept one).
 */
export async function walletBalance(ctx: AppContext, playerId: string): Promise<number> {
  return walletBalanceMinor(ctx.store, playerId);
}

export async function viewOf(ctx: AppContext, tableId: string) {
  const snap = await ctx.service.snapshot(tableId);
  if (snap === undefined)
    throw new HttpError(404, 'unknown_table', `there is no table "${tableId}"`);
  const history = await ctx.hub.history(tableId, snap.header.recentRoundSeqs);
  return tableView(ctx.service, tableId, history, ctx.hub.lastEventSeq, ctx.clock());
}
