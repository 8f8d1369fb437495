/** The croupier console's panels: procedure, dice entry, liability, stakes, event log. */
import type { CroupierCommand, Exposure, RoundEvent, TableView, Triple } from '../api/types.js';
import { art, lang, t } from '../i18n/i18n.js';
import { spotNameById } from '../i18n/spot-names.js';
import { formatMoney } from '../logic/money.js';
import { procedure, stepState, VOID_STEP, type Step } from '../logic/procedure.js';
import { die, diceRow } from '../ui/dice.js';
import { h } from '../ui/dom.js';
import { type DetailOptions, eventDetail, eventTitle } from '../ui/event-text.js';
import { panel } from '../ui/widgets.js';

type Run = (cmd: CroupierCommand, label: string) => void;

const articles = (step: Step): HTMLElement =>
  h(
    'span',
    { class: 'step-arts' },
    step.articles.map((a) => h('span', { class: 'art-badge' }, art(a))),
  );

function stepLabel(step: Step, phase: string, leverPulls: number): string {
  // Art. 2.1: three pulls in a row; the count matters only while they are being made.
  if (step.command === 'pull-lever') {
    if (phase === 'latched') return t('croupier.cmd.pull-lever', { n: 1 });
    if (phase === 'shaking')
      return t('croupier.cmd.pull-lever', { n: Math.min(3, leverPulls + 1) });
    return t('croupier.cmd.pull-lever-3');
  }
  return t(`croupier.cmd.${step.command}` as 'croupier.cmd.cover');
}

/** Art. 3.3: the void roll for dice found stacked or tilted, each confirmed first. */
function voidRoll(voidAllowed: boolean, run: Run): HTMLElement {
  const voidButton = (reason: 'stacked' | 'tilted'): HTMLElement =>
    h(
      'button',
      {
        type: 'button',
        class: 'btn btn-red',
        disabled: !voidAllowed,
        'data-focus': `void:${reason}`,
        // Art. 3.3: a void roll cannot be taken back; the croupier confirms it first.
        onclick: () => {
          if (window.confirm(t('croupier.confirmVoid', { reason: t(`croupier.void.${reason}`) })))
            run({ type: 'void-roll', reason }, t(`croupier.void.${reason}`));
        },
      },
      t(`croupier.void.${reason}`),
    );
  return h(
    'div',
    {
      class: `void-box${voidAllowed ? ' void-live' : ''}`,
      role: 'group',
      'aria-label': t('croupier.cmd.void-roll'),
    },
    h('span', { class: 'void-title' }, t('croupier.cmd.void-roll'), ' ', articles(VOID_STEP)),
    h('span', { class: 'void-btns' }, voidButton('stacked'), voidButton('tilted')),
  );
}

/**
 * The steps; only those the round machine allows are enabled, none while a
 * command is in flight. `diceEntry`, on a lever table once the dome is lifted,
 * opens under the step it belongs to, so the croupier enters the dice where
 * the procedure is, without scrolling mid-round.
 */
export function procedurePanel(
  v: TableView,
  leverPulls: number,
  busy: boolean,
  run: Run,
  diceEntry: HTMLElement | null = null,
): HTMLElement {
  const voidAllowed = v.allowed['void-roll'] === true && !busy;
  const voidBox = voidRoll(voidAllowed, run);
  // Once the dome is lifted the croupier reads the dice or voids the roll (Art. 3.3): both
  // sit under the step that reads them, where the procedure is; otherwise the void waits below.
  const revealStep = v.shaker === 'lever' ? 'read-dice' : 'reveal-dice';
  const steps = procedure(v.shaker).map((step, i) => {
    const label = stepLabel(step, v.phase, leverPulls);
    const allowed = v.allowed[step.command] === true && !busy;
    const onclick = (): void => {
      // Lever tables: the reading needs the three faces, entered below.
      if (step.command === 'read-dice')
        document.querySelector<HTMLElement>('.dice-entry input')?.focus();
      else run({ type: step.command }, label);
    };
    return h(
      'li',
      { class: `step step-${stepState(i, v.phase)}` },
      h('span', { class: 'step-no', 'aria-hidden': 'true' }, String(i + 1)),
      h(
        'div',
        { class: 'step-body' },
        h(
          'button',
          {
            type: 'button',
            class: 'step-btn',
            disabled: !allowed,
            'data-focus': `step:${step.command}`,
            onclick,
          },
          h('span', { class: 'step-label' }, label),
          articles(step),
        ),
        step.command === 'read-dice' ? diceEntry : null,
        step.command === revealStep && voidAllowed ? voidBox : null,
      ),
    );
  });
  return panel(
    t('croupier.procedure'),
    h('ol', { class: 'steps' }, steps),
    voidAllowed ? null : voidBox,
    v.phase === 'revealed' ? payNotice(v) : null,
    // Art. 2: closed by the supervisor, the table finishes its round and starts no other.
    v.closedSinceMs === null || v.closedSinceMs === undefined
      ? null
      : h('p', { class: 'notice notice-closed', role: 'status' }, t('err.table_closed')),
  );
}

/** Art. 4: before "Pay all", what it will pay, in the table's currency, and to how many bets. */
function payNotice(v: TableView): HTMLElement {
  const total = v.lastRound?.totalReturnedMinor;
  return h(
    'div',
    { class: 'notice notice-pay' },
    total === undefined
      ? null
      : h(
          'p',
          { class: 'pay-total' },
          t('croupier.payTotal', {
            amount: formatMoney(total, v.currency),
            n: v.lastRound?.payoutCount ?? 0,
          }),
        ),
    h('p', {}, t('croupier.payFirst')),
  );
}

/**
 * Art. 1.1 and 3.2: on a lever table the croupier enters the three faces read
 * from the dice, typed (225) or picked, under the procedure's step.
 */
export function diceEntry(
  v: TableView,
  dice: (number | null)[],
  set: (d: (number | null)[]) => void,
  submit: (d: Triple) => void,
): HTMLElement {
  const allowed = v.allowed['read-dice'] === true;
  const complete = dice.every((d) => d !== null);
  const typed = h('input', {
    class: 'input dice-typed',
    inputmode: 'numeric',
    maxlength: 5,
    'aria-label': t('croupier.diceHint'),
    placeholder: '2 2 5',
    disabled: !allowed,
    'data-focus': 'dice-typed',
    value: complete ? dice.join('') : '',
    oninput: (e) => {
      const faces = (e.target as HTMLInputElement).value
        .replace(/[^1-6]/g, '')
        .slice(0, 3)
        .split('')
        .map(Number);
      if (faces.length === 3) set(faces);
    },
    onkeydown: (e) => {
      if ((e as KeyboardEvent).key === 'Enter' && complete && allowed)
        submit(dice as unknown as Triple);
    },
  });
  const pickers = [0, 1, 2].map((i) =>
    h(
      'div',
      { class: 'die-picker', role: 'radiogroup', 'aria-label': t('croupier.dieN', { n: i + 1 }) },
      [1, 2, 3, 4, 5, 6].map((f) =>
        h(
          'button',
          {
            type: 'button',
            role: 'radio',
            class: 'pick',
            'aria-checked': String(dice[i] === f),
            'aria-label': `${t('croupier.dieN', { n: i + 1 })}: ${f}`,
            disabled: !allowed,
            'data-focus': `pick:${i}:${f}`,
            onclick: () => set(dice.map((d, j) => (j === i ? f : d))),
          },
          die(f),
        ),
      ),
    ),
  );
  return h(
    'div',
    { class: 'dice-entry-box', role: 'group', 'aria-label': t('croupier.diceEntry') },
    h('div', { class: 'dice-entry' }, typed, ...pickers),
    h(
      'button',
      {
        type: 'button',
        class: 'btn btn-gold btn-wide',
        disabled: !allowed || !complete,
        'data-focus': 'dice-submit',
        onclick: () => submit(dice as unknown as Triple),
      },
      t('croupier.cmd.read-dice'),
      complete ? ` ${dice.join('-')}` : '',
      ' ',
      h('span', { class: 'art-badge' }, art('3.2')),
    ),
  );
}

const row = (label: string, value: Node | string): HTMLElement =>
  h('div', { class: 'kv' }, h('dt', {}, label), h('dd', {}, value));

export function exposurePanel(v: TableView, e: Exposure | null): HTMLElement {
  const money = (m: number): string => formatMoney(m, v.currency);
  if (e === null)
    return panel(t('croupier.exposure'), h('p', { class: 'muted' }, t('app.loading')));
  const share =
    e.liabilityCapMinor > 0 ? Math.max(0, e.worstCase.houseLossMinor) / e.liabilityCapMinor : 0;
  return panel(
    t('croupier.exposure'),
    h(
      'dl',
      { class: 'kvs' },
      row(t('croupier.staked'), money(e.stakedMinor)),
      row(t('croupier.betCount'), String(v.betCount)),
      row(
        t('croupier.worstCase'),
        h(
          'span',
          { class: 'worst' },
          diceRow(e.worstCase.dice, 'dice-row'),
          ` ${e.worstCase.dice.join('-')}`,
        ),
      ),
      row(
        t('croupier.houseLoss'),
        h(
          'strong',
          { class: e.worstCase.houseLossMinor > 0 ? 'lossy' : 'won' },
          money(e.worstCase.houseLossMinor),
        ),
      ),
      row(t('croupier.expectedGain'), money(Math.round(e.expectedHouseGainMinor))),
      row(t('croupier.liabilityCap'), money(e.liabilityCapMinor)),
    ),
    h(
      'div',
      {
        class: 'meter',
        role: 'meter',
        'aria-label': t('croupier.houseLoss'),
        'aria-valuemin': 0,
        'aria-valuemax': 100,
        'aria-valuenow': Math.round(share * 100),
      },
      h('span', { style: `width: ${Math.min(100, share * 100).toFixed(1)}%` }),
    ),
  );
}

export function stakesPanel(v: TableView): HTMLElement {
  const entries = Object.entries(v.stakesBySpotMinor)
    .filter(([, m]) => m > 0)
    .sort((a, b) => b[1] - a[1]);
  const max = entries[0]?.[1] ?? 1;
  return panel(
    t('croupier.stakes'),
    entries.length === 0
      ? h('p', { class: 'muted' }, t('croupier.noStakes'))
      : h(
          'ul',
          { class: 'stake-bars' },
          entries.map(([spot, m]) =>
            h(
              'li',
              {},
              h('span', { class: 'sb-name' }, spotNameById(spot, lang())),
              h(
                'span',
                { class: 'sb-bar', 'aria-hidden': 'true' },
                h('span', { style: `width:${((m / max) * 100).toFixed(1)}%` }),
              ),
              h('span', { class: 'sb-amt' }, formatMoney(m, v.currency)),
            ),
          ),
        ),
  );
}

export interface LogLine {
  readonly seq: number;
  readonly event: RoundEvent;
  readonly atMs: number;
}

const clock = (ms: number): string =>
  new Date(ms).toLocaleTimeString(lang() === 'zh-Hant' ? 'zh-Hant' : lang(), { hour12: false });

export function eventLog(lines: readonly LogLine[], options: DetailOptions): HTMLElement {
  if (lines.length === 0)
    return panel(t('croupier.events'), h('p', { class: 'muted' }, t('inspector.noData')));
  return panel(
    t('croupier.events'),
    h(
      'ol',
      // It scrolls: a keyboard user can focus it to scroll it.
      { class: 'event-log', 'aria-live': 'off', tabindex: 0, 'aria-label': t('croupier.events') },
      lines.map(({ event, atMs }) =>
        h(
          'li',
          {},
          h('time', {}, clock(atMs)),
          h('span', { class: 'ev-type' }, eventTitle(event.type)),
          h('span', { class: 'ev-detail' }, eventDetail(event, options)),
        ),
      ),
    ),
  );
}
