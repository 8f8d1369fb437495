/** The inspector's views: journal rows, recall, paytable and odds, fairness. */
import { spotOdds } from '../../../src/math/odds.js';
import { spotById } from '../../../src/rules/index.js';
import type {
  Fairness,
  JournalEntry,
  JournalVerify,
  RecalledRound,
  StaffAction,
  StaffPerson,
  TableView,
} from '../api/types.js';
import { art, lang, t } from '../i18n/i18n.js';
import { spotName } from '../i18n/spot-names.js';
import { faceCounts } from '../logic/hot-cold.js';
import { formatAmount, formatMoney } from '../logic/money.js';
import { layoutOdds, payLabel } from '../logic/paytable.js';
import { diceRow } from '../ui/dice.js';
import { h } from '../ui/dom.js';
import { eventDetail, eventTitle } from '../ui/event-text.js';
import { panel, shortHex } from '../ui/widgets.js';

const pct = (x: number, digits = 2): string => `${(x * 100).toFixed(digits)}%`;
const time = (ms: number): string => new Date(ms).toLocaleString(lang(), { hour12: false });
const raw = (value: unknown): HTMLElement =>
  h(
    'details',
    { class: 'raw' },
    h('summary', {}, t('inspector.raw')),
    h('pre', { class: 'hex-block' }, JSON.stringify(value, null, 2)),
  );

export function verifyLine(v: JournalVerify): HTMLElement {
  return v.ok
    ? h(
        'p',
        { class: 'verify verify-ok', role: 'status' },
        '✔ ',
        t('inspector.verifyOk', { n: v.entries }),
      )
    : h(
        'p',
        { class: 'verify verify-bad', role: 'alert' },
        '✖ ',
        t('inspector.verifyFail', { seq: v.failure.seq ?? '?', reason: v.failure.message }),
      );
}

const person = (p: StaffPerson | null): string =>
  p === null ? '—' : p.displayName === null ? p.id : `${p.displayName} (${p.username})`;

/** The settings a table change left, in the table's words (limits in the currency's units). */
function settingsText(s: StaffAction['settings']): string {
  if (s === null) return '';
  return [
    `${t('floor.stakeMin')} ${formatAmount(s.stakeMinorMin)}`,
    `${t('floor.stakeMax')} ${formatAmount(s.stakeMinorMax)}`,
    `${t('floor.liabilityMax')} ${formatAmount(s.liabilityMinorMax)}`,
    s.bettingTimerMs === null ? null : `${t('floor.timer')} ${s.bettingTimerMs / 1000}`,
  ]
    .filter((p) => p !== null)
    .join(' · ');
}

/** Who did what to which account or table, and when (newest first). */
export function staffTable(actions: readonly StaffAction[]): HTMLElement {
  if (actions.length === 0) return h('p', { class: 'muted' }, t('inspector.noData'));
  const heads = ['inspector.time', 'inspector.type', 'inspector.by', 'inspector.whom'] as const;
  return h(
    'div',
    { class: 'table-scroll', tabindex: 0 },
    h(
      'table',
      { class: 'data staff-actions' },
      h('thead', {}, h('tr', {}, ...heads.map((k) => h('th', { scope: 'col' }, t(k))))),
      h(
        'tbody',
        {},
        actions.map((a) =>
          h(
            'tr',
            { 'data-type': a.type },
            h('td', {}, time(a.atMs)),
            h('td', {}, eventTitle(a.type)),
            h('td', { class: 'staff-by' }, person(a.by)),
            h(
              'td',
              {},
              a.user !== null ? person(a.user) : `${t('app.table')} ${a.tableId ?? ''}`,
              a.settings === null
                ? null
                : h('div', { class: 'small muted' }, settingsText(a.settings)),
            ),
          ),
        ),
      ),
    ),
  );
}

export function journalTable(entries: readonly JournalEntry[]): HTMLElement {
  if (entries.length === 0) return h('p', { class: 'muted' }, t('inspector.noData'));
  return h(
    'div',
    { class: 'table-scroll', tabindex: 0 },
    h(
      'table',
      { class: 'data' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            'inspector.seq',
            'inspector.time',
            'app.table',
            'inspector.type',
            'inspector.details',
            'inspector.hash',
          ].map((k) => h('th', { scope: 'col' }, t(k as 'inspector.seq'))),
        ),
      ),
      h(
        'tbody',
        {},
        entries.map((e) =>
          h(
            'tr',
            {},
            h('td', { class: 'num' }, String(e.seq)),
            h('td', {}, time(e.atMs)),
            h('td', {}, e.tableId),
            h('td', {}, eventTitle(e.type)),
            h('td', {}, eventDetail(e.payload), raw(e.payload)),
            h('td', {}, shortHex(e.hash)),
          ),
        ),
      ),
    ),
  );
}

/**
 * Game recall (the server's recalledRoundAnswer): per round its dice and how
 * they were sealed or read, the void rolls, every bet with its roll and what it
 * returned (withdrawn ones marked), and each player's balance before and after,
 * with the whole record available raw.
 */
export function recallView(
  rounds: readonly RecalledRound[] | null,
  view: TableView | null,
): HTMLElement {
  if (rounds === null || rounds.length === 0)
    return h('p', { class: 'muted' }, t('inspector.noData'));
  const money = (m: number | null): string =>
    m === null ? '—' : formatMoney(m, view?.currency ?? '');
  // Newest first: what an inspector asks about is usually what just happened.
  return h(
    'div',
    { class: 'recall' },
    [...rounds].reverse().map((r) => recallRound(r, money)),
  );
}

/** How the round's dice were read: the electronic shaker's seal checked, or the croupier who read them. */
function sealLine(result: RecalledRound['result']): HTMLElement | null {
  if (result === null) return null;
  if (result.method === 'lever')
    return h('span', { class: 'muted' }, t('inspector.readBy', { who: result.croupierId }));
  return h(
    'span',
    { class: result.verified ? 'verify verify-ok' : 'verify verify-bad' },
    result.verified ? '✔ ' : '✖ ',
    t(result.verified ? 'inspector.sealOk' : 'inspector.sealBad'),
  );
}

/** Art. 3.3: each void roll with its reason, its opened seal and whether it matched. */
function voidLines(r: RecalledRound): HTMLElement[] {
  return r.rolls.flatMap((roll) => {
    const v = roll.voided;
    if (v === null) return [];
    return [
      h(
        'li',
        {},
        t('inspector.voidRoll', { n: roll.rollNo, reason: t(`croupier.void.${v.reason}`) }),
        v.openedSeal === null ? '' : ` · ${v.openedSeal.dice.join('-')}`,
        v.sealVerified === null
          ? ''
          : ` · ${t(v.sealVerified ? 'inspector.sealOk' : 'inspector.sealBad')}`,
        ' ',
        h('span', { class: 'art-badge' }, art('3.3')),
      ),
    ];
  });
}

function recallRound(r: RecalledRound, money: (m: number | null) => string): HTMLElement {
  const dice = r.result?.dice ?? null;
  const commitment = r.result?.method === 'electronic' ? r.result.commitmentHex : '';
  const title = [
    `${t('app.round')} ${r.roundNo}`,
    t(`inspector.status.${r.status}`),
    time(r.startedAtMs),
  ].join(' · ');
  const sealed = sealLine(r.result);
  const voids = voidLines(r);
  const { bets, players } = r;
  // Players by name where the cage registered one, the id beside it (and on hover in the bets).
  const names = new Map(
    players.flatMap((p) => (p.displayName === null ? [] : [[p.playerId, p.displayName] as const])),
  );
  const playerCell = (id: string, withId: boolean): HTMLElement => {
    const name = names.get(id);
    if (name === undefined) return h('td', {}, id);
    return withId
      ? h('td', {}, name, ' ', h('span', { class: 'muted' }, id))
      : h('td', { title: id }, name);
  };
  return panel(
    title,
    h(
      'div',
      { class: 'recall-head' },
      dice === null ? null : diceRow(dice, 'dice-row recall-dice'),
      dice === null
        ? h('span', { class: 'muted' }, t('verify.pending'))
        : h(
            'strong',
            {},
            `${dice.join('-')} · ${t('app.total')} ${dice.reduce((a, b) => a + b, 0)}`,
          ),
      commitment === ''
        ? null
        : h('span', { class: 'small' }, `${t('inspector.commitment')}: `, shortHex(commitment)),
      sealed,
    ),
    voids.length === 0 ? null : h('ul', { class: 'recall-voids' }, voids),
    bets.length === 0
      ? null
      : h(
          'div',
          { class: 'table-scroll', tabindex: 0 },
          h(
            'table',
            { class: 'data' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, t('inspector.spot')),
                h('th', { scope: 'col' }, t('inspector.player')),
                h('th', { scope: 'col', class: 'num' }, t('app.roll')),
                h('th', { scope: 'col', class: 'num' }, t('inspector.stake')),
                h('th', { scope: 'col', class: 'num' }, t('inspector.returned')),
              ),
            ),
            h(
              'tbody',
              {},
              bets.map((b) => {
                const withdrawn = b.withdrawnAtMs !== null;
                return h(
                  'tr',
                  { class: withdrawn ? 'withdrawn' : '' },
                  h('td', {}, spotNameOf(b.spot)),
                  playerCell(b.playerId, false),
                  h('td', { class: 'num' }, String(b.rollNo)),
                  h('td', { class: 'num' }, money(b.stakeMinor)),
                  h(
                    'td',
                    { class: 'num' },
                    withdrawn ? t('inspector.withdrawn') : money(b.returnedMinor),
                  ),
                );
              }),
            ),
          ),
        ),
    players.length === 0
      ? null
      : h(
          'div',
          { class: 'table-scroll', tabindex: 0 },
          h(
            'table',
            { class: 'data recall-players' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, t('inspector.player')),
                h('th', { scope: 'col', class: 'num' }, t('inspector.balanceBefore')),
                h('th', { scope: 'col', class: 'num' }, t('inspector.stake')),
                h('th', { scope: 'col', class: 'num' }, t('inspector.returned')),
                h('th', { scope: 'col', class: 'num' }, t('inspector.balanceAfter')),
              ),
            ),
            h(
              'tbody',
              {},
              players.map((p) =>
                h(
                  'tr',
                  {},
                  playerCell(p.playerId, true),
                  h('td', { class: 'num' }, money(p.balanceBeforeMinor)),
                  h('td', { class: 'num' }, money(p.stakedMinor)),
                  h('td', { class: 'num' }, money(p.returnedMinor)),
                  h('td', { class: 'num' }, money(p.balanceAfterMinor)),
                ),
              ),
            ),
          ),
        ),
    raw(r),
  );
}

function spotNameOf(id: string): string {
  const spot = spotById(id);
  return spot === undefined ? id : spotName(spot, lang());
}

/** Arts. 5, 6 and 8: what this table offers, at what odds, and the exact figures behind them. */
export function paytableView(v: TableView): HTMLElement {
  const odds = layoutOdds(v.paytable);
  const money = (m: number): string => formatMoney(m, v.currency);
  const options = h(
    'dl',
    { class: 'kvs options' },
    kv(t('inspector.shaker'), `${t(`inspector.shaker.${v.shaker}`)} (${art('1.2')})`),
    kv(t('inspector.displayBoard'), v.displayBoard ? t('app.yes') : t('app.no')),
    kv(
      t('inspector.timer'),
      v.bettingTimerMs === null ? '—' : `${Math.round(v.bettingTimerMs / 1000)} s`,
    ),
    kv(t('inspector.stakeLimits'), `${money(v.stakeMinorMin)} – ${money(v.stakeMinorMax)}`),
    kv(t('inspector.liabilityMax'), money(v.liabilityMinorMax)),
    kv(t('inspector.totalOdds', { k: '5/16' }), `${v.paytable.totalOdds['5/16']}:1 (18–30)`),
    kv(t('inspector.totalOdds', { k: '6/15' }), `${v.paytable.totalOdds['6/15']}:1 (14–18)`),
    kv(t('inspector.offered', { n: odds.offered.size }), ''),
  );
  const rows = [...odds.offered].map((id) => {
    const spot = spotById(id)!;
    const o = spotOdds(odds.compiled, spot);
    return h(
      'tr',
      {},
      h(
        'td',
        {},
        spotName(spot, lang()),
        lang() === 'pt' ? null : h('small', { class: 'muted', lang: 'pt' }, ` ${spot.names.pt}`),
      ),
      h('td', {}, art(spot.article)),
      h('td', { class: 'num' }, payLabel(o.pays)),
      h('td', { class: 'num' }, `${o.ways}/216`),
      h('td', { class: 'num' }, pct(o.probability)),
      h('td', { class: 'num' }, pct(o.houseEdge)),
    );
  });
  return h(
    'div',
    { class: 'two-col' },
    panel(t('inspector.houseOptions'), options),
    panel(
      t('inspector.paytable'),
      h(
        'div',
        { class: 'table-scroll', tabindex: 0 },
        h(
          'table',
          { class: 'data' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...[
                'inspector.spot',
                'app.article',
                'inspector.pays',
                'inspector.ways',
                'inspector.probability',
                'inspector.houseEdge',
              ].map((k, i) =>
                h(
                  'th',
                  { scope: 'col', class: i >= 2 ? 'num' : '' },
                  k === 'app.article' ? '' : t(k as 'inspector.spot'),
                ),
              ),
            ),
          ),
          h('tbody', {}, rows),
        ),
      ),
    ),
  );
}

const kv = (label: string, value: string): HTMLElement =>
  h('div', { class: 'kv' }, h('dt', {}, label), h('dd', {}, value));

const SPAN_TITLE = {
  window: 'inspector.span.window',
  'since-dice-change': 'inspector.span.since-dice-change',
} as const;

/** The server's chi-square report over both spans, and the face counts of the recent history. */
export function fairnessView(data: Fairness | null, view: TableView | null): HTMLElement {
  const server =
    data === null
      ? null
      : h(
          'div',
          { class: 'spans' },
          data.spans.map((s) =>
            panel(
              `${t(SPAN_TITLE[s.span])} · ${t('inspector.rolls')} ${s.rolls}`,
              h(
                'table',
                { class: 'data' },
                h(
                  'thead',
                  {},
                  h(
                    'tr',
                    {},
                    (
                      [
                        'inspector.test',
                        'inspector.statistic',
                        'inspector.df',
                        'inspector.pValue',
                      ] as const
                    ).map((k) => h('th', { scope: 'col' }, t(k))),
                    h('th', { scope: 'col' }, ''),
                  ),
                ),
                h('tbody', {}, s.tests.map(testRow)),
              ),
            ),
          ),
          raw(data),
        );
  return h(
    'div',
    { class: 'two-col' },
    h('div', {}, server ?? h('p', { class: 'muted' }, t('app.loading'))),
    view === null ? null : facesPanel(view),
  );
}

function testRow(test: Fairness['spans'][number]['tests'][number]): HTMLElement {
  const p = test.pValue;
  const verdict =
    p === null
      ? h('span', { class: 'muted' }, test.note ?? '—')
      : h(
          'span',
          { class: p >= 0.01 ? 'won' : 'lossy' },
          t(p >= 0.01 ? 'inspector.pass' : 'inspector.fail'),
        );
  return h(
    'tr',
    {},
    h('td', {}, t(test.test === 'faces' ? 'board.faces' : 'board.totals')),
    h('td', { class: 'num' }, test.statistic === null ? '—' : test.statistic.toFixed(3)),
    h('td', { class: 'num' }, String(test.df)),
    h('td', { class: 'num' }, p === null ? '—' : p.toFixed(4)),
    h('td', {}, verdict),
  );
}

/** Art. 1.1: each face should show on 1/6 of the dice; observed against expected over the view's history. */
function facesPanel(view: TableView): HTMLElement {
  const counts = faceCounts(view.history.map((r) => r.dice));
  const expected = (view.history.length * 3) / 6;
  return panel(
    `${t('board.faces')} · ${t('inspector.fromHistory', { n: view.history.length })}`,
    h(
      'table',
      { class: 'data' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, t('board.faces')),
          h('th', { class: 'num' }, t('inspector.observed')),
          h('th', { class: 'num' }, t('inspector.expected')),
        ),
      ),
      h(
        'tbody',
        {},
        counts.map((c) =>
          h(
            'tr',
            {},
            h('td', {}, diceRow([c.value])),
            h('td', { class: 'num' }, String(c.count)),
            h('td', { class: 'num' }, expected.toFixed(1)),
          ),
        ),
      ),
    ),
  );
}
