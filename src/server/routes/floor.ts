/**
 * The supervisor's floor at a glance: every table's round, stakes, liability,
 * today's figures against the theoretical hold and open fairness alerts, with
 * the Art. 8 calendar's state (the earliest legal adoption date for a proposal
 * made today, and whether next year's holiday list is loaded and official).
 */
import type { FastifyInstance } from 'fastify';
import { earliestAdoptionDate, macauDate } from '../../compliance/index.js';
import type { FairnessService } from '../../service/fairness.js';
import type { HolidayCalendarService } from '../../service/holidays.js';
import { leaseKey } from '../../service/command-router.js';
import { tableIds } from '../../service/reads.js';
import { can } from '../../table/index.js';
import type { AppContext } from '../context.js';
import { registerRoute } from '../route.js';
import { floorAnswer, floorSettingsAnswer } from '../schemas.js';
import {
  changeFloorSettings,
  type FloorSettingsState,
  floorSettingsChange,
  readFloorSettings,
} from '../../service/floor-settings.js';

export interface FloorServices {
  readonly holidays: HolidayCalendarService;
  readonly fairness: FairnessService;
}

export function floorRoutes(app: FastifyInstance, ctx: AppContext, s: FloorServices): void {
  floorSettingsRoutes(app, ctx);
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/floor',
    summary:
      "Every table's round, stakes, liability, today's hold against theoretical, fairness alerts; the Art. 8 calendar's state",
    tag: 'supervisor',
    roles: ['supervisor', 'inspector'],
    response: floorAnswer,
    handler: async () => {
      const today = macauDate(ctx.clock());
      const ids = await tableIds(ctx.store);
      const tables = [];
      for (const tableId of ids) tables.push(await tableLine(ctx, s, tableId, today));
      return {
        today,
        node: ctx.nodeUrl() ?? null,
        calendar: await calendarState(s, today),
        tables,
      };
    },
  });
}

/**
 * Who runs the table's timers and takes its commands: the table row's
 * lease_holder (written by the node that took the lease, under its epoch),
 * while some node holds the lease; null while none does.
 */
async function leaseOf(ctx: AppContext, tableId: string) {
  const key = leaseKey(tableId);
  const leaseHeldHere = ctx.store.cluster.holds(key);
  const taken = leaseHeldHere || (await ctx.store.cluster.leaseTaken(key));
  const leaseHolder = taken ? ((await ctx.store.getTable(tableId))?.leaseHolder ?? null) : null;
  return { leaseHeldHere, leaseHolder };
}

async function tableLine(ctx: AppContext, s: FloorServices, tableId: string, today: string) {
  const snap = await ctx.service.snapshot(tableId);
  const day = await ctx.reads.tableDay(tableId, today);
  const fairness = await s.fairness.evaluate(tableId);
  const exposure = snap?.book.exposure();
  const state = snap?.state;
  return {
    id: tableId,
    name: snap?.settings.name ?? tableId,
    shaker: snap?.settings.shaker ?? null,
    phase: state?.phase ?? null,
    roundNo: state?.roundNo ?? null,
    bettingDeadlineMs: state?.bettingDeadlineMs ?? null,
    stakeMinorMin: snap?.settings.stakeMinorMin ?? null,
    stakeMinorMax: snap?.settings.stakeMinorMax ?? null,
    liabilityMinorMax: snap?.settings.liabilityMinorMax ?? null,
    bettingTimerMs: snap?.settings.bettingTimerMs ?? null,
    // The round machine's answer: limits change between rounds only (table_mid_round).
    limitsChangeAllowed:
      snap !== undefined && can(snap.config, snap.state, { type: 'change-limits' }),
    players: new Set(state?.bets.map((b) => b.playerId) ?? []).size,
    stakedMinor: exposure?.stakedMinor ?? 0,
    worstCaseHouseLossMinor: exposure?.worst.houseLossMinor ?? 0,
    ...(await leaseOf(ctx, tableId)),
    closedSinceMs: state?.closedSinceMs ?? null,
    day:
      day === undefined
        ? null
        : {
            rounds: day.report.rounds,
            handleMinor: day.report.handleMinor,
            payoutsMinor: day.report.payoutsMinor,
            holdMinor: day.report.holdMinor,
            holdPercentActual: day.report.holdPercentActual,
            holdPercentTheoretical: day.report.holdPercentTheoretical,
          },
    fairnessAlerts: fairness?.activeAlerts.length ?? 0,
  };
}

async function calendarState(s: FloorServices, today: string) {
  const years = await s.holidays.list();
  const nextYear = Number(today.slice(0, 4)) + 1;
  const next = years.find((y) => y.year === nextYear);
  const earliest = earliestAdoptionDate(await s.holidays.calendar(), today);
  return {
    years: years.map((y) => ({ year: y.year, official: y.official, origin: y.origin })),
    nextYear: {
      year: nextYear,
      status: next === undefined ? 'missing' : next.official ? 'official' : 'computed',
    },
    earliestAdoptionDate: earliest.ok ? earliest.value : null,
  };
}

/** The floor's settings (service/floor-settings.ts): every staff role that acts on them reads them. */
function floorSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/floor-settings',
    summary: "The floor's settings in force (the cage's confirmation threshold …) and who set them",
    tag: 'supervisor',
    roles: ['supervisor', 'cashier', 'inspector'],
    response: floorSettingsAnswer,
    handler: async () => settingsAnswer(ctx, await readFloorSettings(ctx.store)),
  });

  registerRoute(app, ctx, {
    method: 'PATCH',
    url: '/api/v1/floor-settings',
    summary:
      "Set some of the floor's settings (journaled with who set them); the others keep theirs",
    tag: 'supervisor',
    roles: ['supervisor'],
    body: floorSettingsChange,
    response: floorSettingsAnswer,
    handler: async ({ body, user }) =>
      settingsAnswer(ctx, await changeFloorSettings(ctx.store, body, user.id)),
  });
}

async function settingsAnswer(ctx: AppContext, state: FloorSettingsState) {
  const user = state.by === null ? undefined : await ctx.store.getUser(state.by);
  return {
    settings: state.settings,
    seq: state.seq,
    changedAtMs: state.atMs,
    changedBy:
      state.by === null
        ? null
        : {
            id: state.by,
            username: user?.username ?? null,
            displayName: user?.displayName ?? null,
          },
  };
}
