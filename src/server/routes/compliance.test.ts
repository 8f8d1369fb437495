import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../journal/index.js';
import { type Role, type Store, type User } from '../../ledger/index.js';
import { withStores } from '../../ledger/testing.js';
import { DEFAULT_PAYTABLE } from '../../rules/index.js';
import {
  createLeverTable,
  leverRound,
  macauMs,
  playLeverRounds,
  REPORT_TABLE_NAME,
  seedReportDay,
  testClock,
  type TestClock,
} from '../../service/compliance-testing.js';
import type { DailyReport } from '../../compliance/index.js';
import { type FairnessReport, FairnessService } from '../../service/fairness.js';
import { type CalendarYear, HolidayCalendarService } from '../../service/holidays.js';
import {
  HouseOptionsService,
  type HouseOptionsView,
  type ProposalView,
} from '../../service/house-options.js';
import type { Command } from '../../table/index.js';
import { simulatedTableSettings } from '../../service/table-settings.js';
import { type App, buildApp } from '../app.js';
import { seedRoles, sessionToken } from '../testing.js';

const T = 'T1';

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly type: string;
  json<T>(): T;
}

interface ErrorAnswer {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly article?: string;
    readonly issues?: readonly { readonly code: string }[];
  };
}

const errorOf = (a: Answer) => a.json<ErrorAnswer>().error;

const ODDS_24 = { ...DEFAULT_PAYTABLE, totalOdds: { '5/16': 24, '6/15': 14 } };

interface World {
  readonly app: App;
  readonly store: Store;
  readonly clock: TestClock;
  readonly users: Record<Role, User>;
  /** An in-process request as `role` (a fresh session at the test clock's time), or anonymous. */
  call(role: Role | null, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Answer>;
}

async function world(store: Store, start = macauMs('2026-03-02', 10)): Promise<World> {
  const clock = testClock(start);
  const app = await buildApp({ store, clock: clock.now, logger: false });
  const users = await seedRoles(store);
  return {
    app,
    store,
    clock,
    users,
    async call(role, method, url, body) {
      const token = role === null ? undefined : await sessionToken(store, users[role], clock.now());
      const response = await app.fastify.inject({
        method,
        url,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return {
        status: response.statusCode,
        json: <T>() => response.json<T>(),
        body: response.body,
        type: String(response.headers['content-type']),
      };
    },
  };
}

/** The store, and the names of the methods the server called on it. */
function watched(target: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const store = new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
  return { store, calls };
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const proposals = `/api/v1/tables/${T}/house-options/proposals`;

withStores('compliance routes', (h) => {
  describe('house options (Art. 8)', () => {
    it("opens no betting at a new table until its options carry the DICJ's authorization", async () => {
      const w = await world(await h.open());
      try {
        const table = { tableId: 'N1', shaker: 'lever', bettingTimerMs: null };
        // No back door: a client cannot bring its own authorization.
        const smuggled = await w.call('supervisor', 'POST', '/api/v1/tables', {
          ...table,
          authorization: { mark: 'dicj', reference: 'mine' },
        });
        expect(smuggled.status).toBe(400);
        const created = await w.call('supervisor', 'POST', '/api/v1/tables', table);
        expect(created.status).toBe(201);
        expect(created.json<{ optionsAuthorized: boolean }>().optionsAuthorized).toBe(false);
        const commands = '/api/v1/tables/N1/commands';
        const refused = await w.call('croupier', 'POST', commands, { type: 'cover' });
        expect(refused.status).toBe(409);
        expect(errorOf(refused)).toMatchObject({
          code: 'house_options_unauthorized',
          article: '8',
        });

        // Art. 8: the options in force are proposed three working days ahead and authorized.
        const urlOf = '/api/v1/tables/N1/house-options/proposals';
        const proposal = { proposalId: 'P1', options: {}, adoptionDate: '2026-03-06' };
        expect((await w.call('supervisor', 'POST', urlOf, proposal)).status).toBe(201);
        const dicj = { reference: 'DICJ/2026/0007', authorizedOn: '2026-03-03' };
        w.clock.at('2026-03-03');
        expect((await w.call('inspector', 'POST', `${urlOf}/P1/authorization`, dicj)).status).toBe(
          200,
        );
        w.clock.at('2026-03-05');
        const adopter = new HouseOptionsService({
          store: w.store,
          tables: w.app.ctx.service,
          holidays: new HolidayCalendarService(w.store),
          clock: w.clock.now,
        });
        expect(await adopter.adoptDue('N1')).toBeNull();
        expect((await w.call('croupier', 'POST', commands, { type: 'cover' })).status).toBe(409);
        w.clock.at('2026-03-06', 9);
        expect(await adopter.adoptDue('N1')).toBe('P1');
        const view = (await w.call(null, 'GET', '/api/v1/tables/N1')).json<{
          optionsAuthorized: boolean;
        }>();
        expect(view.optionsAuthorized).toBe(true);
        expect((await w.call('croupier', 'POST', commands, { type: 'cover' })).status).toBe(200);
        const changed = (await w.store.readJournal({ fromSeq: 1, limit: 100, tableId: 'N1' })).find(
          (e) => e.type === 'table-settings-changed',
        );
        expect(changed?.payload).toMatchObject({
          settings: {
            authorization: { mark: 'dicj', reference: 'DICJ/2026/0007', proposalId: 'P1' },
          },
        });
      } finally {
        await w.app.shutdown();
      }
    });

    it('marks the authorization of a table created on a demonstration server', async () => {
      const store = await h.open();
      const app = await buildApp({ store, logger: false, demo: true });
      try {
        const users = await seedRoles(store);
        const token = await sessionToken(store, users.supervisor, Date.now());
        const created = await app.fastify.inject({
          method: 'POST',
          url: '/api/v1/tables',
          headers: { authorization: `Bearer ${token}` },
          payload: { tableId: 'D1' },
        });
        expect(created.json<{ optionsAuthorized: boolean }>().optionsAuthorized).toBe(true);
        const [entry] = await store.readJournal({ fromSeq: 1, limit: 1, tableId: 'D1' });
        expect(entry?.payload).toMatchObject({
          settings: { authorization: { mark: 'demonstration', proposalId: null } },
        });
      } finally {
        await app.shutdown();
      }
    });

    it('answers a refusal with the very code it journaled, in snake_case', async () => {
      const w = await world(await h.open());
      try {
        await createLeverTable(w.app.ctx.service, T);
        const late = await w.call('supervisor', 'POST', proposals, {
          proposalId: 'P1',
          options: { paytable: ODDS_24 },
          adoptionDate: '2026-03-04',
        });
        expect(late.status).toBe(409);
        const { code } = errorOf(late);
        expect(code).toBe('request_not_timely');
        const journal = await w.store.readJournal({ fromSeq: 1, limit: 100, tableId: T });
        const refused = journal.flatMap((e) =>
          e.type === 'house-options-refused' ? [e.payload.code] : [],
        );
        expect(refused).toEqual([code]);
      } finally {
        await w.app.shutdown();
      }
    });

    it('proposes, records the DICJ authorization, and adopts after the round is paid', async () => {
      const w = await world(await h.open());
      try {
        await createLeverTable(w.app.ctx.service, T);
        const body = {
          proposalId: 'P1',
          options: { paytable: ODDS_24 },
          adoptionDate: '2026-03-06',
        };
        expect((await w.call('croupier', 'POST', proposals, body)).status).toBe(403);
        const created = await w.call('supervisor', 'POST', proposals, body);
        expect(created.status).toBe(201);
        expect(created.json<ProposalView>()).toMatchObject({ proposalId: 'P1', status: 'pending' });

        const late = await w.call('supervisor', 'POST', proposals, {
          ...body,
          proposalId: 'P2',
          adoptionDate: '2026-03-04',
        });
        expect(late.status).toBe(409);
        expect(errorOf(late)).toMatchObject({ code: 'request_not_timely', article: '8' });
        const again = await w.call('supervisor', 'POST', proposals, body);
        expect(errorOf(again)).toMatchObject({ code: 'proposal_id_taken', article: '8' });
        const badOdds = await w.call('supervisor', 'POST', proposals, {
          ...body,
          proposalId: 'P3',
          options: { paytable: { ...ODDS_24, totalOdds: { '5/16': 31, '6/15': 14 } } },
        });
        expect(errorOf(badOdds)).toMatchObject({ code: 'paytable_invalid', article: '6.6' });
        const badDate = await w.call('supervisor', 'POST', proposals, {
          ...body,
          adoptionDate: '2026-02-30',
        });
        expect(badDate.status).toBe(400);

        const authorization = `${proposals}/P1/authorization`;
        const dicj = { reference: 'DICJ/2026/0042', authorizedOn: '2026-03-02' };
        expect((await w.call('supervisor', 'POST', authorization, dicj)).status).toBe(403);
        const authorized = await w.call('inspector', 'POST', authorization, dicj);
        expect(authorized.status).toBe(200);
        expect(authorized.json<ProposalView>()).toMatchObject({
          status: 'authorized',
          authorization: { reference: 'DICJ/2026/0042' },
        });
        const unknown = await w.call('inspector', 'POST', `${proposals}/P9/authorization`, dicj);
        expect(unknown.status).toBe(404);
        expect(errorOf(unknown).code).toBe('proposal_unknown');

        // 6 March: mid-round nothing changes; the pay-all of the round adopts it.
        w.clock.at('2026-03-06', 9);
        // The server names the croupier itself: the HTTP bodies carry no croupierId.
        const commands = leverRound({ dice: [1, 1, 3] }).map((c: Command) =>
          Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'croupierId')),
        );
        for (const command of commands.slice(0, -1)) {
          const step = await w.call('croupier', 'POST', `/api/v1/tables/${T}/commands`, command);
          expect(step.status, String(command['type'])).toBe(200);
        }
        const view = `/api/v1/tables/${T}/house-options`;
        expect((await w.call('inspector', 'GET', view)).json<HouseOptionsView>()).toMatchObject({
          current: { version: 1 },
          betweenRounds: false,
        });
        await w.call('croupier', 'POST', `/api/v1/tables/${T}/commands`, { type: 'pay-all' });
        await until(
          async () =>
            (await w.call('inspector', 'GET', view)).json<HouseOptionsView>().current.version === 2,
        );
        const table = (await w.call(null, 'GET', `/api/v1/tables/${T}`)).json<{
          paytable: { totalOdds: unknown };
        }>();
        expect(table.paytable.totalOdds).toEqual({ '5/16': 24, '6/15': 14 });
        const state = (await w.call('supervisor', 'GET', view)).json<HouseOptionsView>();
        expect(state.proposals.map((p) => `${p.proposalId}:${p.status}`)).toEqual(['P1:adopted']);
        expect((await w.call('croupier', 'GET', view)).status).toBe(403);

        const closed = await w.call('supervisor', 'POST', `${proposals}/P1/withdrawal`, {});
        expect(errorOf(closed)).toMatchObject({ code: 'proposal_closed', article: '8' });
        expect((await w.call('inspector', 'GET', `/api/v1/tables/T9/house-options`)).status).toBe(
          404,
        );
      } finally {
        await w.app.shutdown();
      }
    });

    it('withdraws a pending proposal', async () => {
      const w = await world(await h.open());
      try {
        await createLeverTable(w.app.ctx.service, T);
        const body = {
          proposalId: 'P1',
          options: { displayBoard: false },
          adoptionDate: '2026-03-09',
        };
        expect((await w.call('supervisor', 'POST', proposals, body)).status).toBe(201);
        const withdrawn = await w.call('supervisor', 'POST', `${proposals}/P1/withdrawal`, {
          reason: 'not needed',
        });
        expect(withdrawn.status).toBe(200);
        expect(withdrawn.json<ProposalView>()).toMatchObject({
          status: 'withdrawn',
          closed: { reason: 'withdrawn' },
        });
      } finally {
        await w.app.shutdown();
      }
    });
  });

  it('lists holiday years to anyone logged in and loads a year for a supervisor', async () => {
    const w = await world(await h.open());
    try {
      const listed = await w.call('player', 'GET', '/api/v1/holidays');
      expect(listed.status).toBe(200);
      expect(listed.json<CalendarYear[]>().map((y) => y.year)).toEqual([2026, 2027]);
      expect((await w.call(null, 'GET', '/api/v1/holidays')).status).toBe(401);
      const list = {
        year: 2028,
        source: 'test list',
        official: false,
        days: [{ date: '2028-01-01', name: "New Year's Day", kind: 'holiday' }],
      };
      expect((await w.call('inspector', 'POST', '/api/v1/holidays', list)).status).toBe(403);
      const invalid = await w.call('supervisor', 'POST', '/api/v1/holidays', {
        ...list,
        days: [{ date: '2028-02-30', name: 'x', kind: 'holiday' }, list.days[0], list.days[0]],
      });
      expect(invalid.status).toBe(400);
      expect(errorOf(invalid)).toMatchObject({ code: 'holiday_list_invalid', article: '8' });
      expect(errorOf(invalid).issues!.map((i) => i.code)).toEqual([
        'holiday_date_invalid',
        'holiday_date_duplicate',
      ]);
      const loaded = await w.call('supervisor', 'POST', '/api/v1/holidays', list);
      expect(loaded.status).toBe(201);
      expect(loaded.json<CalendarYear>()).toMatchObject({
        year: 2028,
        origin: 'loaded',
        loadedBy: w.users.supervisor.id,
      });
      const after = (await w.call('croupier', 'GET', '/api/v1/holidays')).json<CalendarYear[]>();
      expect(after.map((y) => `${y.year}:${y.origin}`)).toEqual([
        '2026:bundled',
        '2027:bundled',
        '2028:loaded',
      ]);
    } finally {
      await w.app.shutdown();
    }
  });

  it('records new dice at a lever table between rounds, for a croupier or a supervisor', async () => {
    const w = await world(await h.open());
    try {
      await createLeverTable(w.app.ctx.service, T);
      await w.app.ctx.service.createTable({
        ...simulatedTableSettings('E1'),
        bettingTimerMs: null,
      });
      const url = `/api/v1/tables/${T}/dice-changed`;
      const first = await w.call('croupier', 'POST', url, { reason: 'new shift' });
      expect(first.status).toBe(201);
      expect(first.json<unknown>()).toMatchObject({
        type: 'dice-changed',
        diceSetId: '2026-03-02#1',
      });
      const named = await w.call('supervisor', 'POST', url, {
        reason: 'chipped',
        diceSetId: 'S-77',
      });
      expect(named.json<unknown>()).toMatchObject({
        diceSetId: 'S-77',
        changedBy: w.users.supervisor.id,
      });
      expect((await w.call('inspector', 'POST', url, { reason: 'x' })).status).toBe(403);
      expect((await w.call('croupier', 'POST', url, {})).status).toBe(400);
      const electronic = await w.call('croupier', 'POST', '/api/v1/tables/E1/dice-changed', {
        reason: 'x',
      });
      expect(electronic.status).toBe(409);
      expect(errorOf(electronic)).toMatchObject({ code: 'dice_not_physical', article: '1.2' });
      await w.call('croupier', 'POST', `/api/v1/tables/${T}/commands`, { type: 'cover' });
      const midRound = await w.call('croupier', 'POST', url, { reason: 'x' });
      expect(midRound.status).toBe(409);
      expect(errorOf(midRound).code).toBe('table_mid_round');
    } finally {
      await w.app.shutdown();
    }
  });

  it('shows the fairness figures, alerts and detection power to inspectors and supervisors', async () => {
    const w = await world(await h.open());
    await createLeverTable(w.app.ctx.service, T);
    await playLeverRounds(
      w.app.ctx.service,
      T,
      Array.from({ length: 30 }, () => ({ dice: [6, 6, 6] as const })),
      30,
    );
    const raised = async () =>
      (await w.call('inspector', 'GET', '/api/v1/journal?after=0&limit=1000'))
        .json<JournalEntry[]>()
        .filter((e) => e.type === 'fairness-alert-raised');
    // The app's own monitor journals the alerts once the rounds are paid.
    await until(async () => (await raised()).length === 2);
    const view = async (role: 'inspector' | 'supervisor' | 'player') => {
      const token = await sessionToken(w.store, w.users[role], w.clock.now());
      return w.app.fastify.inject({
        url: `/api/v1/tables/${T}/fairness`,
        headers: { authorization: `Bearer ${token}` },
      });
    };
    try {
      const inspector = await view('inspector');
      expect(inspector.statusCode).toBe(200);
      expect(inspector.json<unknown>()).toMatchObject({ tableId: T, rollSeq: 30 });
      const answer = (await view('supervisor')).json<FairnessReport>();
      expect(answer.window).toMatchObject({ span: 'window', rolls: 30 });
      expect(answer.activeAlerts.map((a) => `${a.span}/${a.test}`).sort()).toEqual([
        'since-dice-change/faces',
        'window/faces',
      ]);
      expect(answer.detectionPower).toHaveLength(6);
      expect((await view('player')).statusCode).toBe(403);
      // A second monitor made after the play restores from the journal, alerts included.
      const fairness = new FairnessService({ store: w.store, tables: w.app.ctx.service });
      const restored = await fairness.evaluate(T);
      fairness.close();
      expect(restored?.activeAlerts).toEqual(answer.activeAlerts);
      // It raised none again.
      expect(await raised()).toHaveLength(2);
    } finally {
      await w.app.shutdown();
    }
  });

  it("pushes fairness alerts to the staff's sockets of the table, never to players", async () => {
    const w = await world(await h.open());
    await createLeverTable(w.app.ctx.service, T);
    await w.app.fastify.ready();
    const listen = async (role: Role) => {
      const messages: Record<string, unknown>[] = [];
      const token = await sessionToken(w.store, w.users[role], w.clock.now());
      const socket = await w.app.fastify.injectWS(
        `/api/v1/tables/${T}/ws`,
        { headers: { authorization: `Bearer ${token}` } },
        {
          onInit: (ws) =>
            ws.on('message', (d: Buffer) =>
              messages.push(JSON.parse(d.toString('utf8')) as Record<string, unknown>),
            ),
        },
      );
      const alerts = () => messages.filter((m) => m['type'] === 'fairness-alert');
      return { socket, alerts, events: () => messages.filter((m) => m['type'] === 'event') };
    };
    const inspector = await listen('inspector');
    const croupier = await listen('croupier');
    const player = await listen('player');
    try {
      await playLeverRounds(
        w.app.ctx.service,
        T,
        Array.from({ length: 30 }, () => ({ dice: [6, 6, 6] as const })),
        30,
      );
      await until(() =>
        Promise.resolve(inspector.alerts().length === 2 && croupier.alerts().length === 2),
      );
      expect(inspector.alerts()).toEqual(croupier.alerts());
      for (const alert of inspector.alerts()) {
        expect(alert).toMatchObject({
          tableId: T,
          raised: true,
          alert: { type: 'fairness-alert-raised', test: 'faces' },
        });
        expect((alert['alert'] as { pValue: number }).pValue).toBeLessThan(0.001);
      }
      // The player saw the whole game, and not one alert.
      expect(player.events().length).toBeGreaterThan(30 * 8);
      expect(player.alerts()).toEqual([]);
    } finally {
      for (const s of [inspector, croupier, player]) s.socket.terminate();
      await w.app.shutdown();
    }
  });

  it("serves a table's day as JSON, CSV and a printable page", async () => {
    const { store, calls } = watched(await h.open());
    await seedReportDay(store);
    const w = await world(store, macauMs('2026-03-08'));
    try {
      const url = `/api/v1/tables/${T}/reports/daily?date=2026-03-06`;
      const json = await w.call('inspector', 'GET', url);
      expect(json.status).toBe(200);
      expect(json.json<{ tableName: string; report: DailyReport }>()).toMatchObject({
        tableName: REPORT_TABLE_NAME,
        report: { rounds: 2, voidRolls: 1, handleMinor: 21_000, holdMinor: -68_000 },
      });
      const csv = await w.call('supervisor', 'GET', `${url}&format=csv`);
      expect(csv.type).toBe('text/csv; charset=utf-8');
      const options =
        ',18 from 00:00:00; 24 from 14:05:00,14 from 00:00:00,lever from 00:00:00,' +
        'SIMULATION: not a DICJ authorization from 00:00:00';
      expect(csv.body.split('\r\n')[1]).toMatch(/^T1,2026-03-06,MOP,2,1,5,21000,89000,-68000,/);
      expect(csv.body.split('\r\n')[1]!.endsWith(`any-triple${options}`)).toBe(true);
      const html = await w.call('inspector', 'GET', `${url}&format=html`);
      expect(html.type).toBe('text/html; charset=utf-8');
      expect(html.body).toContain('Salon &lt;Privé&gt; &amp; &quot;VIP&quot;');
      expect(html.body).toContain('Generated 2026-03-08 12:00:00 (UTC+8)');
      expect((await w.call('croupier', 'GET', url)).status).toBe(403);
      expect((await w.call('inspector', 'GET', `${url}&format=pdf`)).status).toBe(400);
      const badDate = `/api/v1/tables/${T}/reports/daily?date=2026-13-01`;
      expect((await w.call('inspector', 'GET', badDate)).status).toBe(400);
      const noTable = '/api/v1/tables/T9/reports/daily?date=2026-03-06';
      expect((await w.call('inspector', 'GET', noTable)).status).toBe(404);

      // The floor's day: every table of the floor with the floor's totals, in the three formats.
      const floorUrl = '/api/v1/reports/daily?date=2026-03-06';
      const floor = await w.call('supervisor', 'GET', floorUrl);
      expect(floor.status).toBe(200);
      const floorJson = floor.json<{
        tables: { tableId: string; report: DailyReport }[];
        totals: { rounds: number; handleMinor: number; holdMinor: number };
      }>();
      const days = floorJson.tables.map((x) => x.report);
      expect(floorJson.tables.find((x) => x.tableId === T)?.report).toMatchObject({ rounds: 2 });
      expect(floorJson.totals).toMatchObject({
        rounds: days.reduce((n, r) => n + r.rounds, 0),
        handleMinor: days.reduce((n, r) => n + r.handleMinor, 0),
        holdMinor: days.reduce((n, r) => n + r.holdMinor, 0),
      });
      const floorCsv = await w.call('inspector', 'GET', `${floorUrl}&format=csv`);
      const floorRows = floorCsv.body.split('\r\n').filter((l) => l.startsWith('T1,2026-03-06,'));
      expect(floorRows).toHaveLength(1);
      expect(floorRows[0]!.endsWith(options)).toBe(true);
      const floorHtml = await w.call('inspector', 'GET', `${floorUrl}&format=html`);
      expect(floorHtml.type).toBe('text/html; charset=utf-8');
      expect(floorHtml.body).toContain('Salon &lt;Privé&gt; &amp; &quot;VIP&quot;');
      expect(floorHtml.body).toContain('<tfoot><tr><td>The floor</td>');
      expect((await w.call('croupier', 'GET', floorUrl)).status).toBe(403);
      const recall = await w.call('inspector', 'GET', `/api/v1/tables/${T}/recall?rounds=2`);
      expect(recall.status).toBe(200);
      expect(recall.json<{ status: string }[]>().map((r) => r.status)).toEqual(['paid', 'paid']);
      // The day and the recall were read on a worker's own connection, off the event loop
      // that takes the bets: never through the server's store.
      expect(calls.filter((c) => c === 'readSettlements' || c === 'accountMovesSince')).toEqual([]);
    } finally {
      await w.app.shutdown();
    }
  });
});
