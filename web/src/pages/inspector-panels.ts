/** The inspector's views: journal rows, recall, paytable and odds, fairness. */
import { spotOdds } from '../../../src/math/odds.js';
import { isRecord, spotById } from '../../../src/rules/index.js';
import type {
  JournalEntry,
  JournalVerify,
  StaffAction,
  StaffPerson,
  TableView,
} from '../api/types.js';
import { DICT, type Key } from '../i18n/dict.js';
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
/** A scalar field of a loosely specified answer, as text. */
const str = (v: unknown, fallback = ''): string =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;
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
        t('inspector.verifyFail', { seq: v.failure?.seq ?? '?', reason: v.failure?.reason ?? '' }),
      );
}

const person = (p: StaffPerson | null): string =>
  p === null ? '—' : p.displayName === null ? p.id : `${p.displayName} (${p.username})`;

/** The settings a table change left, in the table's words (limits in the currency's units). */
function settingsText(s: Record<string, unknown> | null): string {
  if (s === null) return '';
  const money = (k: string): string | null =>
    typeof s[k] === 'number' ? formatAmount(s[k]) : null;
  const parts = [
    money('stakeMinorMin') === null ? null : `${t('floor.stakeMin')} ${money('stakeMinorMin')}`,
    money('stakeMinorMax') === null ? null : `${t('floor.stakeMax')} ${money('stakeMinorMax')}`,
    money('liabilityMinorMax') === null
      ? null
      : `${t('floor.liabilityMax')} ${money('liabilityMinorMax')}`,
    typeof s['bettingTimerMs'] === 'number'
      ? `${t('floor.timer')} ${s['bettingTimerMs'] / 1000}`
      : null,
  ];
  return parts.filter((p) => p !== null).join(' · ');
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
 * Game recall (docs/api.md; `src/service/recall.ts` is the shape the server
 * sends): per round its dice and how they were sealed or read, the void rolls,
 * every bet with its roll and what it returned (withdrawn ones marked), and each
 * player's balance before and after. Fields missing from an answer are left
 * out, and the whole record is available raw.
 */
export function recallView(data: unknown, view: TableView | null): HTMLElement {
  const rounds = Array.isArray(data)
    ? data
    : isRecord(data) && Array.isArray(data['rounds'])
      ? (data['rounds'] as unknown[])
      : null;
  if (rounds === null)
    return data === null ? h('p', { class: 'muted' }, t('inspector.noData')) : raw(data);
  if (rounds.length === 0) return h('p', { class: 'muted' }, t('inspector.noData'));
  const money = (m: unknown): string =>
    typeof m === 'number' ? formatMoney(m, view?.currency ?? '') : '—';
  // Newest first: what an inspector asks about is usually what just happened.
  return h(
    'div',
    { class: 'recall' },
    rounds
      .filter(isRecord)
      .reverse()
      .map((r) => recallRound(r, money)),
  );
}

function recallRound(r: Record<string, unknown>, money: (m: unknown) => string): HTMLElement {
  const result = isRecord(r['result']) ? r['result'] : null;
  const diceOf = (x: unknown): number[] | null =>
    Array.isArray(x) && x.length === 3 && x.every((d) => typeof d === 'number') ? x : null;
  const dice = diceOf(result?.['dice']) ?? diceOf(r['dice']);
  const commitment = str(result?.['commitmentHex'] ?? r['commitmentHex']);
  const status = str(r['status']);
  const statusKey = `inspector.status.${status}`;
  const title = [
    `${t('app.round')} ${str(r['roundNo'], '?')}`,
    statusKey in DICT ? t(statusKey as Key) : status,
    typeof r['startedAtMs'] === 'number' ? time(r['startedAtMs']) : '',
  ]
    .filter((x) => x !== '')
    .join(' · ');
  const sealed =
    typeof result?.['verified'] === 'boolean'
      ? h(
          'span',
          { class: result['verified'] ? 'verify verify-ok' : 'verify verify-bad' },
          result['verified'] ? '✔ ' : '✖ ',
          t(result['verified'] ? 'inspector.sealOk' : 'inspector.sealBad'),
        )
      : typeof result?.['croupierId'] === 'string'
        ? h('span', { class: 'muted' }, t('inspector.readBy', { who: result['croupierId'] }))
        : null;
  const voids = (Array.isArray(r['rolls']) ? (r['rolls'] as unknown[]) : [])
    .filter(isRecord)
    .filter((roll) => isRecord(roll['voided']))
    .map((roll) => {
      const v = roll['voided'] as Record<string, unknown>;
      const reason = str(v['reason']);
      const seal = isRecord(v['openedSeal']) ? diceOf(v['openedSeal']['dice']) : null;
      return h(
        'li',
        {},
        t('inspector.voidRoll', {
          n: str(roll['rollNo'], '?'),
          reason:
            reason === 'stacked' || reason === 'tilted' ? t(`croupier.void.${reason}`) : reason,
        }),
        seal === null ? '' : ` · ${seal.join('-')}`,
        typeof v['sealVerified'] === 'boolean'
          ? ` · ${t(v['sealVerified'] ? 'inspector.sealOk' : 'inspector.sealBad')}`
          : '',
        ' ',
        h('span', { class: 'art-badge' }, art('3.3')),
      );
    });
  const bets = (Array.isArray(r['bets']) ? r['bets'] : []) as unknown[];
  const players = (Array.isArray(r['players']) ? (r['players'] as unknown[]) : []).filter(isRecord);
  // Players by name where the cage registered one, the id beside it (and on hover in the bets).
  const names = new Map(
    players
      .filter((p) => typeof p['displayName'] === 'string')
      .map((p) => [str(p['playerId']), p['displayName'] as string]),
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
              bets.filter(isRecord).map((b) => {
                const withdrawn = typeof b['withdrawnAtMs'] === 'number';
                return h(
                  'tr',
                  { class: withdrawn ? 'withdrawn' : '' },
                  h('td', {}, typeof b['spot'] === 'string' ? spotNameOf(b['spot']) : ''),
                  playerCell(str(b['playerId']), false),
                  h('td', { class: 'num' }, str(b['rollNo'])),
                  h('td', { class: 'num' }, money(b['stakeMinor'])),
                  h(
                    'td',
                    { class: 'num' },
                    withdrawn ? t('inspector.withdrawn') : money(b['returnedMinor']),
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
                  playerCell(str(p['playerId']), true),
                  h('td', { class: 'num' }, money(p['balanceBeforeMinor'])),
                  h('td', { class: 'num' }, money(p['stakedMinor'])),
                  h('td', { class: 'num' }, money(p['returnedMinor'])),
                  h('td', { class: 'num' }, money(p['balanceAfterMinor'])),
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

/** The server's chi-square report when it has the monitor's shape, and the face counts of the recent history. */
export function fairnessView(data: unknown, view: TableView | null): HTMLElement {
  const spans =
    isRecord(data) && Array.isArray(data['spans'])
      ? (data['spans'] as unknown[]).filter(isRecord)
      : null;
  const server =
    spans === null
      ? data === null
        ? null
        : raw(data)
      : h(
          'div',
          { class: 'spans' },
          spans.map((s) =>
            panel(
              `${t(s['span'] === 'window' ? 'inspector.span.window' : 'inspector.span.since-dice-change')} · ${t('inspector.rolls')} ${str(s['rolls'], '?')}`,
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
                      'inspector.test',
                      'inspector.statistic',
                      'inspector.df',
                      'inspector.pValue',
                      '',
                    ].map((k) =>
                      h('th', { scope: 'col' }, k === '' ? '' : t(k as 'inspector.test')),
                    ),
                  ),
                ),
                h(
                  'tbody',
                  {},
                  (Array.isArray(s['tests']) ? (s['tests'] as unknown[]) : [])
                    .filter(isRecord)
                    .map(testRow),
                ),
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

function testRow(test: Record<string, unknown>): HTMLElement {
  const p = typeof test['pValue'] === 'number' ? test['pValue'] : null;
  const stat = typeof test['statistic'] === 'number' ? test['statistic'].toFixed(3) : '—';
  const verdict =
    p === null
      ? h('span', { class: 'muted' }, str(test['note'], '—'))
      : h(
          'span',
          { class: p >= 0.01 ? 'won' : 'lossy' },
          t(p >= 0.01 ? 'inspector.pass' : 'inspector.fail'),
        );
  const name = str(test['test'] ?? test['name']);
  const label = name === 'faces' ? t('board.faces') : name === 'totals' ? t('board.totals') : name;
  return h(
    'tr',
    {},
    h('td', {}, label),
    h('td', { class: 'num' }, stat),
    h('td', { class: 'num' }, str(test['df'])),
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
