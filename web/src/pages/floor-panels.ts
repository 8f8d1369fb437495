/** The floor page's panels: table cards, a new table, Art. 8, holidays, accounts. */
import {
  authorize,
  changeFloorSettings,
  changeLimits,
  createTable,
  createUser,
  floorSettings,
  houseOptions,
  propose,
  resetPassword,
  revokeSession,
  setDisabled,
  uploadHolidays,
  users,
  userSessions,
  withdrawProposal,
  setTableOpen,
} from '../api/endpoints.js';
import { ApiError, newKey } from '../api/http.js';
import type {
  Floor,
  FloorTable,
  HouseOptionsChoice,
  HouseOptionsState,
  Proposal,
  SessionInfo,
  User,
} from '../api/types.js';
import { LAYOUT_COUNT_MAX } from '../../../src/compliance/house-options.js';
import {
  BET_KINDS,
  offeredKinds,
  type OptionChange,
  optionChanges,
  spotsOfKinds,
  TOTAL_ODDS_RANGES,
} from '../logic/house-options.js';
import { holidayIssueSentence } from '../i18n/errors.js';
import { lang, t } from '../i18n/i18n.js';
import { matchingAccounts, orderedAccounts } from '../logic/accounts.js';
import { largeCashThresholdMinor } from '../logic/large-cash.js';
import { formatAmount, formatMoney, parseAmount } from '../logic/money.js';
import { h, replaceChildren } from '../ui/dom.js';
import { toast, toastError } from '../ui/status.js';
import { panel, phasePill } from '../ui/widgets.js';
import type { FloorContext } from './floor.js';

const ROLES = ['player', 'croupier', 'supervisor', 'cashier', 'compliance', 'inspector'] as const;

function money(ctx: FloorContext, minor: number | null): string {
  if (minor === null) return '—';
  return ctx.currency() === '' ? formatAmount(minor) : formatMoney(minor, ctx.currency());
}

const percent = (value: number | null): string => (value === null ? '—' : `${value.toFixed(2)}%`);

/** Runs an action, reporting its refusal (translated, with its article) and never throwing. */
async function act(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    toastError(error);
  }
}

/** Said before anything is sent: the server would refuse it as settings that do not fit. */
function checkMinMax(minMinor: number, maxMinor: number): void {
  if (minMinor > maxMinor) throw new Error(t('err.minAboveMax'));
}

function field(id: string, label: string, input: HTMLElement): HTMLElement[] {
  input.id = id;
  return [h('label', { for: id }, label), input];
}

const input = (props: Record<string, string | boolean> = {}): HTMLInputElement =>
  h('input', { class: 'input', autocomplete: 'off', ...props });

export function calendarWarning(floor: Floor | null): HTMLElement | null {
  const next = floor?.calendar.nextYear;
  if (next === undefined || next.status === 'official') return null;
  const key = next.status === 'missing' ? 'floor.calendarMissing' : 'floor.calendarComputed';
  return h('p', { class: 'floor-warning', role: 'alert' }, t(key, { year: next.year }));
}

function stat(label: string, value: string, extra = ''): HTMLElement {
  return h(
    'div',
    { class: `floor-stat ${extra}` },
    h('span', { class: 'floor-stat-label' }, label),
    h('span', { class: 'floor-stat-value' }, value),
  );
}

function countdown(ctx: FloorContext, table: FloorTable): string | null {
  if (table.bettingDeadlineMs === null) return null;
  const s = Math.max(0, Math.ceil((table.bettingDeadlineMs - ctx.now()) / 1000));
  return t('floor.countdown', { s });
}

function limitsForm(ctx: FloorContext, table: FloorTable): HTMLElement {
  const id = (name: string): string => `limits-${table.id}-${name}`;
  const major = (minor: number | null): string => (minor === null ? '' : String(minor / 100));
  const min = input({ value: major(table.stakeMinorMin), inputmode: 'decimal' });
  const max = input({ value: major(table.stakeMinorMax), inputmode: 'decimal' });
  const cap = input({ value: major(table.liabilityMinorMax), inputmode: 'decimal' });
  const timer = input({
    value: table.bettingTimerMs === null ? '' : String(table.bettingTimerMs / 1000),
    inputmode: 'numeric',
    placeholder: t('floor.timerNone'),
  });
  const save = (e: Event): void => {
    e.preventDefault();
    void act(async () => {
      const limits: Record<string, number | null> = {};
      for (const [key, el] of [
        ['stakeMinorMin', min],
        ['stakeMinorMax', max],
        ['liabilityMinorMax', cap],
      ] as const) {
        const amount = parseAmount(el.value);
        if (amount === null) throw new Error(t('cage.badAmount'));
        limits[key] = amount;
      }
      checkMinMax(limits['stakeMinorMin']!, limits['stakeMinorMax']!);
      limits['bettingTimerMs'] = timer.value.trim() === '' ? null : Number(timer.value) * 1000;
      await changeLimits(table.id, limits);
      toast(t('floor.saved'), 'ok');
      await ctx.reload();
    });
  };
  return h(
    'details',
    { class: 'floor-limits' },
    h('summary', {}, t('floor.limits')),
    h(
      'form',
      { class: 'form form-grid', onsubmit: save },
      ...field(id('min'), t('floor.stakeMin'), min),
      ...field(id('max'), t('floor.stakeMax'), max),
      ...field(id('cap'), t('floor.liabilityMax'), cap),
      ...field(id('timer'), t('floor.timer'), timer),
      // The round machine's can(): limits change between rounds only.
      table.limitsChangeAllowed ? null : h('p', { class: 'muted' }, t('floor.limitsMidRound')),
      h(
        'button',
        {
          type: 'submit',
          class: 'btn btn-gold',
          'data-focus': `limits:${table.id}`,
          disabled: !table.limitsChangeAllowed,
        },
        t('floor.save'),
      ),
    ),
  );
}

/** Today's report of one table, or of the floor (every table and the totals), in each format. */
function reportLinks(ctx: FloorContext, table: FloorTable | null): HTMLElement {
  const date = ctx.floor()?.today ?? '';
  const base =
    table === null
      ? `/api/v1/reports/daily?date=${date}`
      : `/api/v1/tables/${encodeURIComponent(table.id)}/reports/daily?date=${date}`;
  return h(
    'span',
    { class: 'floor-report' },
    `${t(table === null ? 'floor.floorReport' : 'floor.report')}: `,
    ['html', 'csv', 'json'].map((format) =>
      h(
        'a',
        {
          href: `${base}&format=${format}`,
          target: '_blank',
          rel: 'noopener',
          class: 'floor-link',
        },
        format.toUpperCase(),
      ),
    ),
  );
}

/** Art. 2: a closed table finishes its round and starts no other until opened again. */
function openButton(ctx: FloorContext, table: FloorTable): HTMLElement {
  const closed = table.closedSinceMs !== null;
  return h(
    'button',
    {
      type: 'button',
      class: closed ? 'btn btn-gold' : 'btn btn-red',
      'data-focus': `${closed ? 'open' : 'close'}:${table.id}`,
      onclick: () =>
        void act(async () => {
          if (!closed && !window.confirm(t('floor.confirmClose', { name: table.name }))) return;
          await setTableOpen(table.id, closed);
          toast(t(closed ? 'floor.openedTable' : 'floor.closedTable', { id: table.id }), 'ok');
          await ctx.reload();
        }),
    },
    t(closed ? 'floor.openTable' : 'floor.closeTable'),
  );
}

/** Which node runs the table's timers: this one, another (named), or none at the moment. */
function leaseText(table: FloorTable): string {
  if (table.leaseHeldHere)
    return table.leaseHolder === null
      ? t('floor.leaseHere')
      : t('floor.lease', { node: table.leaseHolder });
  if (table.leaseHolder === null) return t('floor.leaseNone');
  return t('floor.leaseElsewhere', { node: table.leaseHolder });
}

function tableCard(ctx: FloorContext, table: FloorTable): HTMLElement {
  const id = encodeURIComponent(table.id);
  const day = table.day;
  const left = countdown(ctx, table);
  return h(
    'article',
    {
      class: `floor-card${table.closedSinceMs === null ? '' : ' floor-card-closed'}`,
      'data-table': table.id,
      'aria-label': table.name,
    },
    h(
      'header',
      { class: 'floor-card-head' },
      h('h3', {}, table.name, h('small', { class: 'muted' }, ` ${table.id}`)),
      table.phase === null ? null : phasePill(table.phase),
      table.closedSinceMs === null ? null : h('span', { class: 'tag-warn' }, t('floor.closed')),
      left === null ? null : h('span', { class: 'floor-countdown', role: 'timer' }, left),
    ),
    h(
      'div',
      { class: 'floor-stats' },
      stat(t('app.round'), table.roundNo === null ? '—' : String(table.roundNo)),
      stat(t('floor.players'), String(table.players)),
      stat(t('floor.stakes'), money(ctx, table.stakedMinor)),
      stat(t('floor.worst'), money(ctx, table.worstCaseHouseLossMinor)),
      stat(t('floor.handle'), money(ctx, day?.handleMinor ?? 0)),
      stat(t('floor.payouts'), money(ctx, day?.payoutsMinor ?? 0)),
      stat(
        t('floor.hold'),
        `${percent(day?.holdPercentActual ?? null)} (${percent(day?.holdPercentTheoretical ?? null)})`,
      ),
      stat(
        t('floor.alerts'),
        String(table.fairnessAlerts),
        table.fairnessAlerts > 0 ? 'floor-stat-alert' : '',
      ),
    ),
    h(
      'p',
      { class: 'floor-card-foot small' },
      h('span', { class: 'muted floor-lease' }, leaseText(table)),
      ' · ',
      reportLinks(ctx, table),
      ' · ',
      h('a', { href: `#/croupier/${id}`, class: 'floor-link' }, t('nav.croupier')),
      h('a', { href: `#/board/${id}`, class: 'floor-link' }, t('nav.board')),
    ),
    ctx.supervisor ? h('div', { class: 'floor-card-actions' }, openButton(ctx, table)) : null,
    ctx.supervisor ? limitsForm(ctx, table) : null,
  );
}

/** The floor's own report, beside the page title. */
export function floorReportLinks(ctx: FloorContext): HTMLElement {
  return h('p', { class: 'floor-card-foot small floor-reports' }, reportLinks(ctx, null));
}

export function tableCards(ctx: FloorContext): HTMLElement {
  const floor = ctx.floor();
  return h(
    'section',
    { class: 'floor-tables', 'aria-label': t('floor.tables') },
    floor === null
      ? h('p', { class: 'muted' }, t('app.loading'))
      : floor.tables.map((table) => tableCard(ctx, table)),
  );
}

export function createTablePanel(ctx: FloorContext): HTMLElement {
  const id = input({ required: true, placeholder: 'T2', 'data-focus': 'new-table-id' });
  const name = input({ placeholder: t('floor.namePlaceholder') });
  const shaker = h(
    'select',
    { class: 'input' },
    h('option', { value: 'electronic' }, t('inspector.shaker.electronic')),
    h('option', { value: 'lever' }, t('inspector.shaker.lever')),
  );
  const board = h('input', { type: 'checkbox', checked: true });
  const min = input({ value: '10', inputmode: 'decimal' });
  const max = input({ value: '10000', inputmode: 'decimal' });
  const timer = input({ value: '30', inputmode: 'numeric' });
  const submit = (e: Event): void => {
    e.preventDefault();
    void act(async () => {
      const stakeMin = parseAmount(min.value);
      const stakeMax = parseAmount(max.value);
      if (stakeMin === null || stakeMax === null) throw new Error(t('cage.badAmount'));
      checkMinMax(stakeMin, stakeMax);
      await createTable({
        tableId: id.value.trim(),
        ...(name.value.trim() === '' ? {} : { name: name.value.trim() }),
        shaker: shaker.value,
        displayBoard: board.checked,
        stakeMinorMin: stakeMin,
        stakeMinorMax: stakeMax,
        bettingTimerMs: timer.value.trim() === '' ? null : Number(timer.value) * 1000,
      });
      toast(t('floor.created', { id: id.value.trim() }), 'ok');
      await ctx.reload();
      ctx.rerender();
    });
  };
  return panel(
    t('floor.create'),
    h(
      'form',
      { class: 'form form-grid', onsubmit: submit },
      ...field('new-table-id', t('floor.tableId'), id),
      ...field('new-table-name', t('floor.tableName'), name),
      ...field('new-table-shaker', t('floor.shaker'), shaker),
      ...field('new-table-min', t('floor.stakeMin'), min),
      ...field('new-table-max', t('floor.stakeMax'), max),
      ...field('new-table-timer', t('floor.timer'), timer),
      h('label', { class: 'check' }, board, ' ', t('floor.displayBoard')),
      h(
        'button',
        { type: 'submit', class: 'btn btn-gold', 'data-focus': 'create-table' },
        t('floor.create'),
      ),
    ),
  );
}

/** A person named by an answer: the name, else the username, else the id. */
const personName = (people: HouseOptionsState['people'], id: string): string =>
  people[id]?.displayName ?? people[id]?.username ?? id;

const yesNo = (value: boolean): string => t(value ? 'app.yes' : 'app.no');

/** The options in force, in words: shaker, layouts, board, announcing, odds, bets offered. */
function optionsSummary(options: HouseOptionsChoice): string {
  const kinds = offeredKinds(options.paytable.spots);
  return [
    t(`inspector.shaker.${options.shaker}`),
    `${t('floor.layouts')}: ${options.layoutCount}`,
    `${t('floor.displayBoard')}: ${yesNo(options.displayBoard)}`,
    `${t('floor.announceAloud')}: ${yesNo(options.announceAloud)}`,
    `5/16: ${options.paytable.totalOdds['5/16']}:1`,
    `6/15: ${options.paytable.totalOdds['6/15']}:1`,
    `${t('floor.bets')}: ${kinds.size}/${BET_KINDS.length}`,
  ].join(' · ');
}

/** One change of a proposal against the options in force, in words. */
function changeText(change: OptionChange): string {
  switch (change.option) {
    case 'shaker':
      return `${t('floor.shaker')}: ${t(`inspector.shaker.${change.from as 'lever'}`)} → ${t(`inspector.shaker.${change.to as 'lever'}`)}`;
    case 'layoutCount':
      return `${t('floor.layouts')}: ${change.from} → ${change.to}`;
    case 'odds5/16':
    case 'odds6/15':
      return `${change.option.slice(4)}: ${change.from}:1 → ${change.to}:1 (Art. 6.6)`;
    case 'displayBoard':
    case 'announceAloud':
      return `${t(`floor.${change.option}`)}: ${yesNo(change.from)} → ${yesNo(change.to)}`;
    case 'spots':
      return [
        ...change.added.map((k) => `+ ${t(`bet.${k}`)}`),
        ...change.removed.map((k) => `− ${t(`bet.${k}`)}`),
      ].join(' · ');
  }
}

function proposalRow(
  ctx: FloorContext,
  state: HouseOptionsState,
  p: Proposal,
  redraw: () => void,
): HTMLElement {
  const tableId = state.tableId;
  const open = p.status === 'pending' || p.status === 'authorized';
  const reference = input({ placeholder: 'DICJ/2026/…' });
  const on = input({ type: 'date', value: ctx.floor()?.today ?? '' });
  const record = (e: Event): void => {
    e.preventDefault();
    void act(async () => {
      await authorize(tableId, p.proposalId, {
        reference: reference.value,
        authorizedOn: on.value,
      });
      redraw();
    });
  };
  const withdraw = (): void => {
    if (!window.confirm(t('floor.confirmWithdraw', { date: p.adoptionDate }))) return;
    void act(async () => {
      await withdrawProposal(tableId, p.proposalId);
      toast(t('floor.withdrawn'), 'ok');
      redraw();
    });
  };
  const changes = optionChanges(state.current, p.options);
  return h(
    'li',
    { class: `proposal proposal-${p.status}`, 'data-proposal': p.proposalId },
    h('strong', {}, t('floor.proposalFor', { date: p.adoptionDate })),
    ' · ',
    h('span', { class: 'proposal-status' }, t(`floor.status.${p.status}`)),
    h(
      'div',
      { class: 'small muted proposal-by' },
      t('floor.proposedBy', { name: personName(state.people, p.proposedBy), date: p.requestDate }),
    ),
    h(
      'ul',
      { class: 'proposal-changes small' },
      changes.length === 0
        ? h('li', {}, t('floor.noChange'))
        : changes.map((c) => h('li', {}, changeText(c))),
    ),
    p.authorization === null
      ? null
      : h(
          'div',
          { class: 'small proposal-authorization' },
          t('floor.authorizationLine', {
            reference: p.authorization.reference,
            date: p.authorization.authorizationDate,
            name: personName(state.people, p.authorization.inspectorId),
          }),
        ),
    open && ctx.supervisor
      ? h(
          'button',
          {
            type: 'button',
            class: 'btn btn-red',
            'data-focus': `withdraw:${p.adoptionDate}`,
            onclick: withdraw,
          },
          t('floor.withdraw'),
        )
      : null,
    p.status === 'pending' && ctx.me.user.role === 'inspector'
      ? h(
          'form',
          { class: 'form form-inline', onsubmit: record },
          ...field(`ref-${p.proposalId}`, t('floor.reference'), reference),
          ...field(`on-${p.proposalId}`, t('floor.authorizedOn'), on),
          h(
            'button',
            { type: 'submit', class: 'btn btn-gold', 'data-focus': `authorize:${p.adoptionDate}` },
            t('floor.authorize'),
          ),
        )
      : null,
  );
}

/** A number input inside a legal range, prefilled with what is in force. */
function rangeInput(id: string, value: number, [min, max]: readonly [number, number]) {
  return input({
    id,
    type: 'number',
    min: String(min),
    max: String(max),
    step: '1',
    value: String(value),
    inputmode: 'numeric',
  });
}

/** Art. 8: every house option, prefilled with what is in force, proposed for a date. */
function proposeForm(ctx: FloorContext, state: HouseOptionsState, redraw: () => void): HTMLElement {
  const { tableId, current } = state;
  const earliest = ctx.floor()?.calendar.earliestAdoptionDate ?? null;
  const date = input({ type: 'date', value: earliest ?? '', 'data-focus': 'adoption-date' });
  const shaker = h(
    'select',
    { class: 'input' },
    (['electronic', 'lever'] as const).map((s) =>
      h('option', { value: s, selected: s === current.shaker }, t(`inspector.shaker.${s}`)),
    ),
  );
  const layouts = rangeInput(`adopt-layouts-${tableId}`, current.layoutCount, [
    1,
    LAYOUT_COUNT_MAX,
  ]);
  const odds516 = rangeInput(
    `adopt-516-${tableId}`,
    current.paytable.totalOdds['5/16'],
    TOTAL_ODDS_RANGES['5/16'],
  );
  const odds615 = rangeInput(
    `adopt-615-${tableId}`,
    current.paytable.totalOdds['6/15'],
    TOTAL_ODDS_RANGES['6/15'],
  );
  const board = h('input', { type: 'checkbox', checked: current.displayBoard });
  const aloud = h('input', { type: 'checkbox', checked: current.announceAloud });
  const offered = offeredKinds(current.paytable.spots);
  const kinds = BET_KINDS.map(({ kind }) => ({
    kind,
    box: h('input', { type: 'checkbox', checked: offered.has(kind), 'data-kind': kind }),
  }));
  const submit = (e: Event): void => {
    e.preventDefault();
    void act(async () => {
      const options: HouseOptionsChoice = {
        shaker: shaker.value === 'lever' ? 'lever' : 'electronic',
        layoutCount: Number(layouts.value),
        displayBoard: board.checked,
        announceAloud: aloud.checked,
        paytable: {
          spots: spotsOfKinds(new Set(kinds.filter((k) => k.box.checked).map((k) => k.kind))),
          totalOdds: { '5/16': Number(odds516.value), '6/15': Number(odds615.value) },
        },
      };
      const proposalId = newKey('p').slice(0, 14);
      await propose(tableId, { proposalId, options, adoptionDate: date.value });
      toast(t('floor.proposed', { date: date.value }), 'ok');
      redraw();
    });
  };
  const range = (total: '5/16' | '6/15'): string =>
    t('floor.oddsRange', {
      total,
      min: TOTAL_ODDS_RANGES[total][0],
      max: TOTAL_ODDS_RANGES[total][1],
    });
  return h(
    'form',
    { class: 'form form-grid propose-form', onsubmit: submit },
    earliest === null
      ? null
      : h('p', { class: 'floor-earliest small' }, t('floor.earliest', { date: earliest })),
    ...field(`adopt-${tableId}`, t('floor.adoptionDate'), date),
    ...field(`adopt-shaker-${tableId}`, t('floor.shaker'), shaker),
    ...field(layouts.id, t('floor.layouts'), layouts),
    ...field(odds516.id, range('5/16'), odds516),
    ...field(odds615.id, range('6/15'), odds615),
    h('label', { class: 'check' }, board, ' ', t('floor.displayBoard')),
    h('label', { class: 'check' }, aloud, ' ', t('floor.announceAloud')),
    h(
      'fieldset',
      { class: 'bet-kinds' },
      h('legend', {}, t('floor.betsOffered')),
      kinds.map(({ kind, box }) => h('label', { class: 'check' }, box, ' ', t(`bet.${kind}`))),
    ),
    h(
      'button',
      { type: 'submit', class: 'btn btn-gold', 'data-focus': 'propose' },
      t('floor.propose'),
    ),
  );
}

export function houseOptionsPanel(ctx: FloorContext): HTMLElement {
  const tables = ctx.floor()?.tables ?? [];
  const body = h('div', { class: 'floor-options' });
  const picker = h(
    'select',
    { class: 'input', id: 'options-table', onchange: () => void show() },
    tables.map((x) => h('option', { value: x.id }, `${x.name} (${x.id})`)),
  );
  async function show(): Promise<void> {
    const tableId = picker.value;
    if (tableId === '') return;
    await act(async () => {
      const state = await houseOptions(tableId);
      const redraw = (): void => void show();
      replaceChildren(
        body,
        h(
          'p',
          { class: 'small options-in-force' },
          h('strong', {}, t('floor.inForce')),
          state.adoptedOn === null ? ': ' : ` (${state.adoptedOn}): `,
          optionsSummary(state.current),
        ),
        state.proposals.length === 0
          ? null
          : h(
              'ul',
              { class: 'proposals' },
              [...state.proposals].reverse().map((p) => proposalRow(ctx, state, p, redraw)),
            ),
        ctx.supervisor ? proposeForm(ctx, state, redraw) : null,
      );
    });
  }
  void show();
  return panel(
    t('floor.options'),
    h(
      'div',
      { class: 'options-picker' },
      h('label', { for: 'options-table', class: 'small' }, t('app.table')),
      picker,
    ),
    body,
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(t('err.holidayFileNotJson'));
  }
}

export function holidaysPanel(ctx: FloorContext): HTMLElement {
  const years = ctx.floor()?.calendar.years ?? [];
  const file = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    id: 'holiday-file',
    // The browser's own picker speaks the browser's language: the label is the button.
    class: 'sr-only',
    onchange: (e) => {
      const chosen = (e.target as HTMLInputElement).files?.[0];
      if (chosen === undefined) return;
      void act(async () => {
        const doc = parseJson(await chosen.text());
        try {
          const loaded = await uploadHolidays(doc);
          toast(t('floor.uploaded', { year: loaded.year }), 'ok');
        } catch (error) {
          // The list's first problem, naming the bad date, in the page's language.
          const sentence =
            error instanceof ApiError ? holidayIssueSentence(lang(), error.issues, doc) : undefined;
          if (sentence === undefined) throw error;
          toast(sentence, 'error', '8');
        }
        await ctx.reload();
        ctx.rerender();
      });
    },
  });
  return panel(
    t('floor.holidays'),
    h(
      'ul',
      { class: 'holiday-years' },
      years.map((y) =>
        h(
          'li',
          { 'data-year': String(y.year) },
          `${y.year} · `,
          h(
            'span',
            { class: y.official ? 'tag-ok' : 'tag-warn' },
            t(y.official ? 'floor.official' : 'floor.computed'),
          ),
        ),
      ),
    ),
    ctx.supervisor ? file : null,
    ctx.supervisor
      ? h('label', { for: 'holiday-file', class: 'btn file-label' }, t('floor.upload'))
      : null,
  );
}

/** "Chrome on Windows", from a User-Agent, or the text itself when it names neither. */
function deviceName(userAgent: string | null): string {
  if (userAgent === null) return t('floor.unknownDevice');
  const browser = /(Edg|Firefox|Chrome|Safari)\//.exec(userAgent)?.[1];
  const system = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(userAgent)?.[1];
  if (browser === undefined) return userAgent.slice(0, 60);
  const name = browser === 'Edg' ? 'Edge' : browser;
  return system === undefined ? name : `${name} · ${system.replace('Mac OS X', 'macOS')}`;
}

function sessionItem(
  ctx: FloorContext,
  user: User,
  s: SessionInfo,
  again: () => void,
): HTMLElement {
  const when = (ms: number | null): string =>
    ms === null ? '—' : new Date(ms).toLocaleString(lang(), { hour12: false });
  const device = deviceName(s.userAgent);
  const end = (): void => {
    if (!window.confirm(t('floor.confirmRevoke', { name: user.displayName, device }))) return;
    void act(async () => {
      await revokeSession(user.id, s.id);
      toast(t('floor.revoked'), 'ok');
      again();
    });
  };
  return h(
    'li',
    { class: `small session${s.current ? ' session-current' : ''}` },
    h('strong', { title: s.userAgent ?? '' }, device),
    s.address === null ? null : ` · ${t('floor.sessionFrom', { address: s.address })}`,
    h(
      'div',
      { class: 'muted' },
      t('floor.sessionTimes', { start: when(s.createdAtMs), seen: when(s.lastSeenAtMs) }),
    ),
    // Ending the session one works in is signing out, not this list's business.
    s.current
      ? h('span', { class: 'tag-info' }, t('floor.thisSession'))
      : h(
          'button',
          {
            type: 'button',
            class: 'btn btn-small',
            'data-focus': `revoke:${user.username}`,
            onclick: end,
          },
          t('floor.revoke'),
        ),
  );
}

function sessionList(ctx: FloorContext, user: User, host: HTMLElement): void {
  void act(async () => {
    const list = await userSessions(user.id);
    const again = (): void => sessionList(ctx, user, host);
    replaceChildren(
      host,
      list.length === 0
        ? h('p', { class: 'small muted' }, t('floor.noSessions'))
        : h(
            'ul',
            { class: 'sessions' },
            list.map((s) => sessionItem(ctx, user, s, again)),
          ),
    );
  });
}

/** An amount field of the settings, in major units; empty is null. */
function amountField(id: string, minor: number | null, help: string): HTMLInputElement {
  return input({
    id,
    inputmode: 'decimal',
    value: minor === null ? '' : String(minor / 100),
    placeholder: help,
    'aria-describedby': `${id}-help`,
  });
}

/** What an amount field holds: minor units, null when empty; a typed amount that is not one throws. */
function amountOf(field: HTMLInputElement): number | null {
  const text = field.value.trim();
  const minor = text === '' ? null : parseAmount(text);
  if (minor === null && text !== '') throw new Error(t('cage.badAmount'));
  return minor;
}

/**
 * The floor's settings (docs/server.md): the cage's confirmation threshold,
 * and the house's large-cash figure of Instrução 1/2016 (empty: the law's; a
 * house may be stricter, never laxer, and the server refuses a figure above
 * the law's with `threshold_above_law`).
 */
export function settingsPanel(ctx: FloorContext): HTMLElement {
  const body = h('div', { class: 'floor-settings' });
  const law = largeCashThresholdMinor(ctx.currency());
  const show = async (): Promise<void> => {
    await act(async () => {
      const state = await floorSettings();
      const amount = amountField(
        'cage-threshold',
        state.settings.cageConfirmationAboveMinor,
        t('floor.cageThresholdHelp'),
      );
      const largeHelp = t('floor.largeThresholdHelp', {
        amount: law === null ? '—' : money(ctx, law),
      });
      const large = amountField(
        'large-threshold',
        state.settings.largeCashThresholdMinor,
        largeHelp,
      );
      // Empty is the law's figure: the box shows it, faintly, rather than the whole sentence.
      if (law !== null) large.placeholder = formatAmount(law);
      const save = (e: Event): void => {
        e.preventDefault();
        void act(async () => {
          await changeFloorSettings({
            cageConfirmationAboveMinor: amountOf(amount),
            largeCashThresholdMinor: amountOf(large),
          });
          toast(t('floor.saved'), 'ok');
          await show();
        });
      };
      replaceChildren(
        body,
        h(
          'form',
          { class: 'form form-grid', onsubmit: save },
          ...field('cage-threshold', t('floor.cageThreshold'), amount),
          h('p', { class: 'small muted', id: 'cage-threshold-help' }, t('floor.cageThresholdHelp')),
          ...field('large-threshold', t('floor.largeThreshold'), large),
          h('p', { class: 'small muted', id: 'large-threshold-help' }, largeHelp),
          ctx.supervisor
            ? h(
                'button',
                { type: 'submit', class: 'btn btn-gold', 'data-focus': 'save-settings' },
                t('floor.save'),
              )
            : null,
        ),
        h(
          'p',
          { class: 'small muted settings-by' },
          state.changedBy === null || state.changedAtMs === null
            ? t('floor.settingsDefault')
            : t('floor.settingsBy', {
                name: state.changedBy.displayName ?? state.changedBy.id,
                date: new Date(state.changedAtMs).toLocaleString(lang(), { hour12: false }),
              }),
        ),
      );
      amount.disabled = large.disabled = !ctx.supervisor;
    });
  };
  void show();
  return panel(t('floor.settings'), body);
}

function userRow(ctx: FloorContext, user: User, redraw: () => void): HTMLElement {
  const self = user.id === ctx.me.user.id;
  const more = h('div', { class: 'user-more' });
  const password = input({
    type: 'password',
    autocomplete: 'new-password',
    placeholder: t('password.new'),
    'aria-label': `${t('floor.reset')} ${user.username}`,
    'data-focus': `reset-pass:${user.username}`,
  });
  const reset = (e: Event): void => {
    e.preventDefault();
    void act(async () => {
      await resetPassword(user.id, password.value);
      toast(t('floor.resetDone', { name: user.displayName }), 'ok');
      redraw();
    });
  };
  return h(
    'tr',
    { 'data-user': user.username, class: user.disabled === true ? 'user-disabled' : '' },
    h(
      'td',
      {},
      h('strong', {}, user.displayName),
      h('small', { class: 'muted' }, ` @${user.username}`),
    ),
    h('td', {}, t(`role.${user.role}`)),
    h(
      'td',
      {},
      user.disabled === true ? h('span', { class: 'tag-warn' }, t('floor.disabled')) : null,
      user.mustChangePassword === true
        ? h('span', { class: 'tag-info' }, t('floor.mustChange'))
        : null,
    ),
    h(
      'td',
      { class: 'user-actions' },
      self
        ? null
        : h(
            'button',
            {
              type: 'button',
              class: user.disabled === true ? 'btn' : 'btn btn-red',
              'data-focus': `${user.disabled === true ? 'enable' : 'disable'}:${user.username}`,
              onclick: () => {
                const disable = user.disabled !== true;
                if (
                  disable &&
                  !window.confirm(t('floor.confirmDisable', { name: user.displayName }))
                )
                  return;
                void act(async () => {
                  await setDisabled(user.id, disable);
                  redraw();
                });
              },
            },
            t(user.disabled === true ? 'floor.enable' : 'floor.disable'),
          ),
      h(
        'form',
        { class: 'form-inline', onsubmit: reset },
        password,
        h(
          'button',
          { type: 'submit', class: 'btn', 'data-focus': `reset:${user.username}` },
          t('floor.reset'),
        ),
      ),
      h(
        'button',
        { type: 'button', class: 'btn btn-ghost', onclick: () => sessionList(ctx, user, more) },
        t('floor.sessions'),
      ),
      more,
    ),
  );
}

function newUserForm(redraw: () => void): HTMLElement {
  const username = input({ required: true, 'data-focus': 'new-username' });
  const display = input({});
  const password = input({ type: 'password', autocomplete: 'new-password', required: true });
  const role = h(
    'select',
    { class: 'input' },
    ROLES.map((r) => h('option', { value: r }, t(`role.${r}`))),
  );
  const submit = (e: Event): void => {
    e.preventDefault();
    void act(async () => {
      const made = await createUser({
        username: username.value.trim(),
        password: password.value,
        role: role.value,
        ...(display.value.trim() === '' ? {} : { displayName: display.value.trim() }),
      });
      toast(t('floor.userCreated', { name: made.displayName }), 'ok');
      redraw();
    });
  };
  return h(
    'form',
    { class: 'form form-grid', onsubmit: submit },
    ...field('new-username', t('login.username'), username),
    ...field('new-display', t('floor.displayName'), display),
    ...field('new-role', t('floor.role'), role),
    ...field('new-password', t('login.password'), password),
    h('p', { class: 'small muted' }, t('password.rule')),
    h(
      'button',
      { type: 'submit', class: 'btn btn-gold', 'data-focus': 'create-user' },
      t('floor.newUser'),
    ),
  );
}

export function accountsPanel(ctx: FloorContext): HTMLElement {
  const body = h('div', { class: 'floor-users' });
  const rows = h('tbody', {});
  const find = h('input', {
    class: 'input users-find',
    autocomplete: 'off',
    type: 'search',
    placeholder: t('floor.findUser'),
    'aria-label': t('floor.findUser'),
    'data-focus': 'find-user',
    oninput: () => show(),
  });
  let listed: User[] = [];
  function show(): void {
    const found = matchingAccounts(listed, find.value);
    replaceChildren(
      rows,
      found.length === 0
        ? h('tr', {}, h('td', { class: 'muted' }, t('floor.noUserFound')))
        : found.map((u) => userRow(ctx, u, () => void redraw())),
    );
  }
  async function redraw(): Promise<void> {
    await act(async () => {
      listed = orderedAccounts(await users());
      show();
      replaceChildren(
        body,
        find,
        h('table', { class: 'data users' }, rows),
        h('h3', { class: 'panel-subtitle' }, t('floor.newUser')),
        newUserForm(() => void redraw()),
      );
    });
  }
  void redraw();
  return panel(t('floor.users'), body);
}
