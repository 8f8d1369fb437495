/**
 * Compliance, running: Art. 8 house options (proposals, DICJ authorizations,
 * automatic adoption between rounds), the holiday lists Art. 8 counts working
 * days with, fairness monitoring (Art. 1.1) with changes of dice, and daily
 * reports. This module also wires the services: it follows the table service's
 * commits (fairness, adoption after each round is paid) and adopts due
 * proposals every minute.
 *
 * Refusals of src/compliance carry snake_case codes, the same in the journal
 * and in the API's answer (`table_mid_round`), with the article.
 */
import { floorRoutes } from './floor.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isIsoDate, REASON_LENGTH_MAX, REFERENCE_LENGTH_MAX } from '../../compliance/index.js';
import { type JournalEntry, payloadSchema } from '../../journal/index.js';
import { REPORT_FORMATS, renderTableDay } from '../../service/daily-report.js';
import { FairnessService, TABLE_HELD, TABLE_HOLD_RELEASED } from '../../service/fairness.js';
import { HolidayCalendarService } from '../../service/holidays.js';
import { HouseOptionsService, type ServiceResult } from '../../service/house-options.js';
import type { ServiceRejection } from '../../service/table-service.js';
import { floorDayJson, readFloorDay, renderFloorDay } from '../../service/floor-report.js';
import { tableIds } from '../../service/reads.js';
import type { AppContext } from '../context.js';
import { HttpError, statusOf } from '../http-error.js';
import { registerRoute, textBody } from '../route.js';
import {
  calendarYearAnswer,
  decisionAnswer,
  fairnessAnswer,
  floorDayAnswer,
  houseOptionsAnswer,
  id,
  tableDayAnswer,
  tableParams,
} from '../schemas.js';

/** How often due proposals are adopted, besides after every round paid. */
export const ADOPTION_INTERVAL_MS = 60_000;

/** The dates the API takes: the calendar's days and the day after must both be real dates. */
export const ISO_DATE_MIN = '1970-01-01';
export const ISO_DATE_MAX = '9999-12-30';
const isoDate = z
  .string()
  .refine(
    (d) => isIsoDate(d) && d >= ISO_DATE_MIN && d <= ISO_DATE_MAX,
    `a YYYY-MM-DD date from ${ISO_DATE_MIN} to ${ISO_DATE_MAX}`,
  );

const proposalParams = z.object({ tableId: id, proposalId: id }).strict();

const proposalBody = z
  .object({
    proposalId: id,
    /** The options, whole or in part: missing fields keep those in force. */
    options: z.record(z.string(), z.unknown()),
    adoptionDate: isoDate,
  })
  .strict();

const authorizationBody = z
  .object({ reference: z.string().min(1).max(REFERENCE_LENGTH_MAX), authorizedOn: isoDate })
  .strict();

const withdrawalBody = z
  .object({ reason: z.string().min(1).max(REASON_LENGTH_MAX).optional() })
  .strict()
  .optional();

const diceChangedBody = z
  .object({
    reason: z.string().min(1).max(REASON_LENGTH_MAX),
    diceSetId: z.string().min(1).max(64).optional(),
  })
  .strict();

const acknowledgementBody = z
  .object({ note: z.string().min(1).max(REASON_LENGTH_MAX).optional() })
  .strict()
  .optional();

const reportQuery = z
  .object({ date: isoDate, format: z.enum(REPORT_FORMATS).default('json') })
  .strict();

/** A refusal as an HTTP error: its code unchanged, the article, 404/400/409 by kind. */
function httpRefusal(rejection: ServiceRejection): HttpError {
  const { code } = rejection;
  const status =
    code === 'proposal_unknown' ? 404 : code === 'command_invalid' ? 400 : statusOf(code);
  return new HttpError(status, code, rejection.message, rejection.article);
}

function valueOf<T>(result: ServiceResult<T>): T {
  if (!result.ok) throw httpRefusal(result.rejection);
  return result.value;
}

const noTable = (tableId: string): HttpError =>
  new HttpError(404, 'unknown_table', `there is no table "${tableId}"`);

interface Services {
  readonly houseOptions: HouseOptionsService;
  readonly holidays: HolidayCalendarService;
  readonly fairness: FairnessService;
}

export function complianceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const services = startServices(app, ctx);
  houseOptionRoutes(app, ctx, services);
  holidayRoutes(app, ctx, services);
  fairnessRoutes(app, ctx, services);
  reportRoutes(app, ctx);
  floorRoutes(app, ctx, services);
}

/** The services, their listeners and the adoption timer, stopped when the server closes. */
function startServices(app: FastifyInstance, ctx: AppContext): Services {
  const { store, service: tables, clock, holidays } = ctx;
  const houseOptions = new HouseOptionsService({ store, tables, holidays, clock });
  const fairness = new FairnessService({
    store,
    tables,
    clock,
    onAlert: (tableId, entries) => alerted(app, ctx, tableId, entries),
    onError: (tableId, error) => app.log.error({ err: error, tableId }, 'fairness monitor failed'),
  });
  ctx.metrics.watchFairness(() => fairness.openAlerts());
  // Loading every table's monitor (kept state plus the rolls since) at start, not on the first read.
  ctx.warmups.push(() => fairness.openAlerts());
  const adoptionFailed = (tableId: string, error: unknown): void =>
    app.log.error({ err: error, tableId }, 'automatic adoption of house options failed');
  // Art. 8: a proposal due today is adopted as soon as its table is between rounds.
  const unsubscribe = tables.onCommit((tableId, entries) => {
    held(app, ctx, tableId, entries);
    if (!entries.some((e) => e.type === 'prizes-paid')) return;
    houseOptions.adoptDue(tableId).catch((error: unknown) => adoptionFailed(tableId, error));
  });
  let sweeping = false;
  const timer = setInterval(() => {
    // A sweep slower than the interval (a first read of long journals) is not started twice.
    if (sweeping) return;
    sweeping = true;
    houseOptions
      .adoptDueAll(adoptionFailed)
      .catch((error: unknown) => adoptionFailed('*', error))
      .finally(() => {
        sweeping = false;
      });
  }, ADOPTION_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    unsubscribe();
    fairness.close();
    done();
  });
  return { houseOptions, holidays, fairness };
}

/**
 * Alerts go to the log and the metrics (the supervisor's and inspector's
 * alerting), to the staff's sockets of the table at once, and stay in the journal.
 */
function alerted(
  app: FastifyInstance,
  ctx: AppContext,
  tableId: string,
  entries: readonly JournalEntry[],
): void {
  for (const entry of entries) {
    if (entry.type !== 'fairness-alert-raised' && entry.type !== 'fairness-alert-cleared') continue;
    const alert = entry.payload;
    if (entry.type === 'fairness-alert-raised') {
      ctx.metrics.count('cussec_fairness_alerts_total', {
        table: tableId,
        span: alert.span,
        test: alert.test,
      });
      app.log.warn({ tableId, seq: entry.seq, alert }, 'fairness alert raised (Art. 1.1)');
    } else {
      app.log.info({ tableId, seq: entry.seq, alert }, 'fairness alert cleared');
    }
    ctx.hub.notifyStaff(tableId, {
      type: 'fairness-alert',
      tableId,
      seq: entry.seq,
      raised: entry.type === 'fairness-alert-raised',
      alert: entry.payload,
    });
  }
}

/**
 * Art. 1.1: a table held or released goes to the log and to the staff's
 * sockets, whose consoles fetch the view again (its `allowed` follows the hold).
 */
function held(
  app: FastifyInstance,
  ctx: AppContext,
  tableId: string,
  entries: readonly JournalEntry[],
): void {
  for (const entry of entries) {
    if (entry.type !== TABLE_HELD && entry.type !== TABLE_HOLD_RELEASED) continue;
    const isHeld = entry.type === TABLE_HELD;
    app.log.warn(
      { tableId, seq: entry.seq, hold: entry.payload },
      isHeld ? 'table held (Art. 1.1)' : 'table hold released (Art. 1.1)',
    );
    ctx.hub.notifyStaff(tableId, {
      type: 'table-hold',
      tableId,
      seq: entry.seq,
      held: isHeld,
      detail: entry.payload,
    });
  }
}

/** The people a list of proposals names (proposer, inspector, who withdrew), by id. */
async function peopleOf(
  ctx: AppContext,
  proposals: readonly {
    proposedBy: string;
    authorization: { inspectorId: string } | null;
    closed: { reason: string; by?: string } | null;
  }[],
) {
  const ids = new Set<string>();
  for (const p of proposals) {
    ids.add(p.proposedBy);
    if (p.authorization !== null) ids.add(p.authorization.inspectorId);
    if (p.closed?.by !== undefined) ids.add(p.closed.by);
  }
  const people: Record<
    string,
    { id: string; username: string | null; displayName: string | null }
  > = {};
  for (const id of ids) {
    const user = await ctx.store.getUser(id);
    people[id] = { id, username: user?.username ?? null, displayName: user?.displayName ?? null };
  }
  return people;
}

function houseOptionRoutes(app: FastifyInstance, ctx: AppContext, s: Services): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables/:tableId/house-options',
    summary: 'The house options in force (Art. 8) and every proposal with its status',
    tag: 'compliance',
    roles: ['supervisor', 'inspector'],
    params: tableParams,
    response: houseOptionsAnswer,
    handler: async ({ params }) => {
      const view = await s.houseOptions.view(params.tableId);
      if (view === undefined) throw noTable(params.tableId);
      return { ...view, people: await peopleOf(ctx, view.proposals) };
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables/:tableId/house-options/proposals',
    summary: 'Propose house options for a date, three working days ahead at least (Art. 8)',
    tag: 'compliance',
    roles: ['supervisor'],
    params: tableParams,
    body: proposalBody,
    successStatus: 201,
    response: decisionAnswer,
    handler: async ({ params, body, user }) =>
      valueOf(await s.houseOptions.propose(params.tableId, body, user.id)),
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables/:tableId/house-options/proposals/:proposalId/authorization',
    summary: "Record the DICJ's authorization of a proposal: its reference and date (Art. 8)",
    tag: 'compliance',
    roles: ['inspector'],
    params: proposalParams,
    body: authorizationBody,
    response: decisionAnswer,
    handler: async ({ params, body, user }) =>
      valueOf(await s.houseOptions.authorize(params.tableId, params.proposalId, body, user.id)),
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables/:tableId/house-options/proposals/:proposalId/withdrawal',
    summary: 'Withdraw a proposal not yet adopted',
    tag: 'compliance',
    roles: ['supervisor'],
    params: proposalParams,
    body: withdrawalBody,
    response: decisionAnswer,
    handler: async ({ params, body, user }) =>
      valueOf(
        await s.houseOptions.withdraw(params.tableId, params.proposalId, user.id, body?.reason),
      ),
  });
}

function holidayRoutes(app: FastifyInstance, ctx: AppContext, s: Services): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/holidays',
    summary: 'The public-holiday lists Art. 8 counts working days with, shipped and loaded',
    tag: 'compliance',
    roles: 'any',
    response: z.array(calendarYearAnswer),
    handler: async () => s.holidays.list(),
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/holidays',
    summary: "Load a year's list of Macau public holidays; it replaces any list of that year",
    tag: 'compliance',
    roles: ['supervisor'],
    body: z.record(z.string(), z.unknown()),
    successStatus: 201,
    response: calendarYearAnswer,
    handler: async ({ body, user }) => {
      const loaded = await s.holidays.load(body, user.id);
      if (loaded.ok) return loaded.value;
      // Every problem of the list, so the supervisor fixes the file in one go.
      const { message, article, issues } = loaded.error;
      throw new HttpError(400, 'holiday_list_invalid', message, article, issues);
    },
  });
}

export const FAIRNESS_URL = '/api/v1/tables/:tableId/fairness';

function fairnessRoutes(app: FastifyInstance, ctx: AppContext, s: Services): void {
  fairnessView(app, ctx, s);
  diceChangedRoute(app, ctx, s);
  holdRoute(app, ctx, s);
}

/** Art. 1.1: a supervisor acknowledges the severe alert that holds a table (docs/compliance.md). */
function holdRoute(app: FastifyInstance, ctx: AppContext, s: Services): void {
  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables/:tableId/hold/acknowledgement',
    summary:
      'Acknowledge the severe fairness alert that holds a table between rounds: it may play again',
    tag: 'supervisor',
    roles: ['supervisor'],
    params: tableParams,
    body: acknowledgementBody,
    response: payloadSchema('table-hold-released'),
    handler: async ({ params, body, user }) =>
      valueOf(await s.fairness.acknowledgeHold(params.tableId, user.id, body?.note ?? null)),
  });
}

/** The one fairness route: the figures of both spans, the active alerts and the detection power. */
function fairnessView(app: FastifyInstance, ctx: AppContext, s: Pick<Services, 'fairness'>): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: FAIRNESS_URL,
    summary:
      'Faces and totals chi-square over the window and since the dice changed, alerts, detection power',
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    params: tableParams,
    response: fairnessAnswer,
    handler: async ({ params }) => {
      const report = await s.fairness.evaluate(params.tableId);
      if (report === undefined) throw noTable(params.tableId);
      return report;
    },
  });
}

function diceChangedRoute(app: FastifyInstance, ctx: AppContext, s: Services): void {
  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/tables/:tableId/dice-changed',
    summary: 'New dice at a lever table, between rounds: restarts the since-change span',
    tag: 'croupier',
    roles: ['croupier', 'supervisor'],
    params: tableParams,
    body: diceChangedBody,
    successStatus: 201,
    response: payloadSchema('dice-changed'),
    handler: async ({ params, body, user }) =>
      valueOf(
        await s.fairness.changeDice(params.tableId, {
          reason: body.reason,
          changedBy: user.id,
          ...(body.diceSetId === undefined ? {} : { diceSetId: body.diceSetId }),
        }),
      ),
  });
}

function reportRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/reports/daily',
    summary:
      "The floor's day: every table's figures and the floor's totals (json, csv or a printable html page)",
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    query: reportQuery,
    response: floorDayAnswer,
    textAnswers: ['text/csv', 'text/html'],
    handler: async ({ query, reply }) => {
      const floor = await readFloorDay(
        {
          currency: ctx.store.currency,
          tableIds: await tableIds(ctx.store),
          // On the read workers, as each table's own report.
          tableDay: (tableId) => ctx.reads.tableDay(tableId, query.date),
        },
        query.date,
      );
      const rendered = renderFloorDay(floor, query.format);
      const disposition = query.format === 'csv' ? 'attachment' : 'inline';
      void reply
        .header('content-type', rendered.contentType)
        .header('content-disposition', `${disposition}; filename="${rendered.fileName}"`);
      return query.format === 'json' ? floorDayJson(floor) : textBody(rendered.body);
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/tables/:tableId/reports/daily',
    summary:
      "A table's day: rounds, voids, handle, payouts, hold actual and theoretical, biggest win, the house options in force (json, csv or a printable html page)",
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    params: tableParams,
    query: reportQuery,
    response: tableDayAnswer,
    textAnswers: ['text/csv', 'text/html'],
    handler: async ({ params, query, reply }) => {
      // On a worker thread: a day's bets are tens of thousands to fold (read-workers.ts).
      const day = await ctx.reads.tableDay(params.tableId, query.date);
      if (day === undefined) throw noTable(params.tableId);
      if (query.format === 'json')
        return {
          tableId: day.tableId,
          tableName: day.tableName,
          report: day.report,
          optionsInForce: day.optionsInForce,
        };
      const rendered = renderTableDay(day, query.format, ctx.clock());
      const disposition = query.format === 'csv' ? 'attachment' : 'inline';
      void reply
        .header('content-type', rendered.contentType)
        .header('content-disposition', `${disposition}; filename="${rendered.fileName}"`);
      return textBody(rendered.body);
    },
  });
}
