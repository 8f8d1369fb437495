/**
 * `#/floor`: the supervisor runs the casino from here (an inspector may look,
 * and records the DICJ's authorizations). Every table at a glance, kept live by
 * a `summary`-feed socket per table: each event refetches `GET /floor`
 * (coalesced). Below: a new table, the Art. 8 house options, the holiday lists
 * and the accounts. The panels are in floor-panels.ts. Then who may play
 * (Lei 10/2012; Instrução 1/2016): the exclusion register (entered by the
 * supervisor or the inspector), the large-transaction register and, for the
 * supervisor, the workers' causes (people-exclusions.ts, people-registers.ts).
 */
import { floor as fetchFloor, tables as fetchTables } from '../api/endpoints.js';
import { LiveTable } from '../api/live.js';
import type { Floor, Me } from '../api/types.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { h, replaceChildren } from '../ui/dom.js';
import { shell } from '../ui/shell.js';
import { toastError } from '../ui/status.js';
import {
  accountsPanel,
  calendarWarning,
  createTablePanel,
  floorReportLinks,
  holidaysPanel,
  houseOptionsPanel,
  settingsPanel,
  tableCards,
} from './floor-panels.js';
import type { Page } from './page.js';
import { ExclusionRegister } from './people-exclusions.js';
import {
  LargeTransactionRegister,
  NameBook,
  type Section,
  WorkerCauseForm,
} from './people-registers.js';

/** Events come in bursts (a bet, a round's steps): one refetch per burst. */
const REFETCH_MS = 250;

export interface FloorContext {
  readonly me: Me;
  readonly supervisor: boolean;
  readonly currency: () => string;
  readonly floor: () => Floor | null;
  /** Fetches the floor again and redraws. */
  readonly reload: () => Promise<void>;
  /** Redraws the lower panels too (after a new table or holiday year). */
  readonly rerender: () => void;
  readonly now: () => number;
}

export function floorPage(me: Me): Page {
  const main = h('main', { class: 'page page-floor' });
  const el = shell({ me, tableId: null, active: 'floor' }, main);
  let state: Floor | null = null;
  let currency = '';
  let timer = 0;
  const sockets = new Map<string, LiveTable>();
  const cards = h('div', { class: 'floor-cards' });
  const banner = h('div', { class: 'floor-banner' });
  const lower = h('div', { class: 'floor-grid' });
  const registersHost = h('div', { class: 'registers' });
  let registers: Section[] = [];

  const ctx: FloorContext = {
    me,
    supervisor: me.user.role === 'supervisor',
    currency: () => currency,
    floor: () => state,
    reload: async () => {
      try {
        state = await fetchFloor();
        follow();
        drawLive();
      } catch (error) {
        toastError(error);
      }
    },
    now: () => Date.now(),
    rerender: () => render(),
  };

  const schedule = (): void => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void ctx.reload(), REFETCH_MS);
  };

  /** One summary socket per table, opened as tables appear. */
  function follow(): void {
    for (const table of state?.tables ?? []) {
      if (sockets.has(table.id)) continue;
      const live = new LiveTable(
        table.id,
        // The summary feed sends no bets: its `stakes` messages keep the card live while they come.
        { onHello: schedule, onEvent: schedule, onStakes: schedule, onStatus: () => undefined },
        'summary',
      );
      sockets.set(table.id, live);
      live.start();
    }
  }

  function drawLive(): void {
    replaceChildren(banner, calendarWarning(state), state === null ? null : floorReportLinks(ctx));
    replaceChildren(cards, tableCards(ctx));
  }

  function render(): void {
    drawLive();
    replaceChildren(
      lower,
      ctx.supervisor ? createTablePanel(ctx) : null,
      houseOptionsPanel(ctx),
      settingsPanel(ctx),
      holidaysPanel(ctx),
      ctx.supervisor ? accountsPanel(ctx) : null,
    );
    for (const section of registers) section.render();
  }

  /** Made once: what was typed in them, and the lists read, stay across redraws. */
  function makeRegisters(): void {
    const names = new NameBook(me);
    registers = [
      new ExclusionRegister(true),
      new LargeTransactionRegister({ me, currency: () => currency, names }),
      ...(ctx.supervisor ? [new WorkerCauseForm()] : []),
    ];
    // The cashiers' names, once read, replace their ids in the register.
    void names.load().then(() => registers.forEach((r) => r.render()));
    replaceChildren(
      registersHost,
      registers.map((r) => r.el),
    );
  }

  replaceChildren(
    main,
    h('div', { class: 'table-bar' }, h('h1', { class: 'table-name' }, t('floor.title'))),
    banner,
    cards,
    lower,
    registersHost,
  );
  // The countdowns tick between refetches.
  const tick = window.setInterval(() => {
    if (state?.tables.some((x) => x.bettingDeadlineMs !== null))
      replaceChildren(cards, tableCards(ctx));
  }, 1000);
  void (async () => {
    try {
      currency = (await fetchTables())[0]?.currency ?? '';
    } catch (error) {
      toastError(error);
    }
    await ctx.reload();
    makeRegisters();
    render();
  })();
  const off = onLanguage(() => {
    replaceChildren(
      main.querySelector('.table-bar')!,
      h('h1', { class: 'table-name' }, t('floor.title')),
    );
    render();
  });
  return {
    el,
    destroy: () => {
      off();
      window.clearTimeout(timer);
      window.clearInterval(tick);
      for (const live of sockets.values()) live.stop();
    },
  };
}
