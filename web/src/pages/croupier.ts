/**
 * The croupier's console: the procedure of Arts. 2–4 step by step, only the
 * legal actions enabled (the TableView's `allowed`, i.e. the round machine's
 * `can()`), the article behind each; dice entry on lever tables; void roll
 * (Art. 3.3); the table's stakes and worst case; pay all (Art. 4).
 */
import {
  command as sendCommand,
  exposure as fetchExposure,
  players as fetchPlayers,
  tableEvents,
} from '../api/endpoints.js';
import type { LiveStatus } from '../api/live.js';
import { EVENT_TYPES } from '../../../src/table/types.js';
import type {
  CroupierCommand,
  Exposure,
  JournalEntry,
  Me,
  RoundEvent,
  TableView,
} from '../api/types.js';
import { rememberTable } from '../app/session.js';
import { announceFairnessAlert } from '../app/fairness-alert.js';
import { TableFeed } from '../app/table-feed.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { formatMoney } from '../logic/money.js';
import { layoutOdds, type LayoutOdds } from '../logic/paytable.js';
import { h, replaceChildren } from '../ui/dom.js';
import { LayoutBoard } from '../ui/layout-board.js';
import { shell } from '../ui/shell.js';
import { toast, toastError } from '../ui/status.js';
import { Countdown, tableBar } from '../ui/widgets.js';
import {
  diceEntry,
  eventLog,
  exposurePanel,
  procedurePanel,
  stakesPanel,
  type LogLine,
} from './croupier-panels.js';
import type { Page } from './page.js';
import { resultPanel } from './player-panels.js';

const LOG_MAX = 40;

const ROUND_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);
const isRoundEventEntry = (
  entry: JournalEntry,
): entry is Extract<JournalEntry, { type: RoundEvent['type'] }> =>
  ROUND_EVENT_TYPES.has(entry.type);

export function croupierPage(me: Me, tableId: string): Page {
  rememberTable(tableId);
  return new CroupierPage(me, tableId);
}

class CroupierPage implements Page {
  readonly el: HTMLElement;
  private view: TableView | null = null;
  private odds: LayoutOdds | null = null;
  private oddsKey = '';
  private board: LayoutBoard | null = null;
  private exposure: Exposure | null = null;
  private leverPulls = 0;
  private dice: (number | null)[] = [null, null, null];
  private log: LogLine[] = [];
  /** Players' display names by id: a supervisor's log names who bet (a croupier's has no ids). */
  private readonly names = new Map<string, string>();
  private live: LiveStatus = 'connecting';
  private busy = false;
  private readonly countdown = new Countdown();
  private readonly feed: TableFeed;
  private readonly parts = {
    bar: h('div', { class: 'table-bar' }),
    steps: h('div', { class: 'console-steps' }),
    felt: h('div', { class: 'felt felt-console' }),
    right: h('div', { class: 'console-right' }),
  };
  private readonly cleanup: (() => void)[] = [];

  constructor(
    me: Me,
    private readonly tableId: string,
  ) {
    const main = h(
      'main',
      { class: 'page page-croupier' },
      this.parts.bar,
      h('div', { class: 'console' }, this.parts.steps, this.parts.felt, this.parts.right),
    );
    this.el = shell({ me, tableId, active: 'croupier' }, main);
    this.feed = new TableFeed(tableId, {
      onView: (v) => this.onView(v),
      onEvent: (e, seq) => this.onEvent(e, seq),
      onStatus: (s) => {
        this.live = s;
        this.renderBar();
      },
      onAlert: announceFairnessAlert,
    });
    void this.feed.start();
    if (me.user.role === 'supervisor') void this.loadNames();
    const tick = window.setInterval(() => this.tick(), 250);
    this.cleanup.push(
      () => window.clearInterval(tick),
      onLanguage(() => this.rebuild()),
    );
  }

  destroy(): void {
    this.feed.stop();
    for (const c of this.cleanup) c();
  }

  private onView(view: TableView): void {
    if (this.view === null) void this.backfillLog(view.lastEventSeq);
    this.view = view;
    if (typeof view.leverPulls === 'number') this.leverPulls = view.leverPulls;
    else if (view.phase === 'latched') this.leverPulls = 0;
    const key = JSON.stringify(view.paytable);
    if (key !== this.oddsKey) {
      this.oddsKey = key;
      this.odds = layoutOdds(view.paytable);
      this.rebuild();
    } else {
      this.render();
    }
    void this.loadExposure();
  }

  private onEvent(event: RoundEvent, seq: number): void {
    this.countPulls(event);
    if (event.type === 'dice-read' || event.type === 'roll-voided') this.dice = [null, null, null];
    if (this.log.some((l) => l.seq === seq)) return;
    this.log = [{ seq, event, atMs: event.atMs }, ...this.log].slice(0, LOG_MAX);
  }

  /** Art. 2.1: the lever is pulled three times in a row; the events say how many so far. */
  private countPulls(event: RoundEvent): void {
    if (event.type === 'lever-pulled') this.leverPulls = event.pullNo;
    if (event.type === 'dome-covered') this.leverPulls = 0;
  }

  /** The log starts with the table's recent events, so a croupier taking over sees what happened. */
  private async backfillLog(lastSeq: number): Promise<void> {
    try {
      const entries = await tableEvents(this.tableId, Math.max(0, lastSeq - LOG_MAX), LOG_MAX);
      const known = new Set(this.log.map((l) => l.seq));
      // The table's journal also holds entries that are not round events (the table's
      // creation, changes of its limits): only round events go in the log.
      const older = entries
        .filter(isRoundEventEntry)
        .filter((e) => !known.has(e.seq))
        .reverse()
        .map((e) => ({ seq: e.seq, event: e.payload, atMs: e.atMs }));
      for (const { event } of [...older].reverse()) this.countPulls(event);
      this.log = [...this.log, ...older].slice(0, LOG_MAX);
      this.renderRight();
    } catch (error) {
      toastError(error);
    }
  }

  private async loadNames(): Promise<void> {
    try {
      for (const p of await fetchPlayers()) this.names.set(p.id, p.displayName || p.username);
      this.renderRight();
    } catch (error) {
      toastError(error);
    }
  }

  private async loadExposure(): Promise<void> {
    try {
      this.exposure = await fetchExposure(this.tableId);
      this.renderRight();
    } catch (error) {
      this.exposure = null;
      toastError(error);
    }
  }

  /**
   * Sends one command; the answer's view is applied at once, the socket's events
   * follow. While it is in flight the steps are disabled (one command at a time,
   * and the croupier sees it is being done).
   */
  private run(cmd: CroupierCommand, label: string): void {
    if (this.busy) return;
    this.busy = true;
    this.renderSteps();
    void sendCommand(this.tableId, cmd)
      .then((answer) => {
        toast(t('croupier.done', { cmd: label }), 'ok');
        this.busy = false;
        // Through the feed: a fetch started before the command must not draw over its answer.
        this.feed.apply(answer.view);
        this.focusNext();
      })
      .catch((error: unknown) => {
        this.busy = false;
        this.renderSteps();
        toastError(error);
      });
  }

  /** Keyboard flow: after a step, focus goes to the next legal one. */
  private focusNext(): void {
    const next = this.parts.steps.querySelector<HTMLButtonElement>(
      'button.step-btn:not(:disabled)',
    );
    next?.focus();
  }

  private rebuild(): void {
    if (this.odds === null) return;
    this.board = new LayoutBoard({ odds: this.odds, mode: 'croupier' });
    this.parts.felt.replaceChildren(
      h(
        'p',
        { class: 'felt-caption' },
        t('croupier.stakesIn', { currency: this.view?.currency ?? '' }),
      ),
      this.board.el,
    );
    this.render();
  }

  private render(): void {
    const v = this.view;
    if (v === null) return;
    const settled =
      v.lastRound !== null &&
      v.lastRound.roundNo === v.roundNo &&
      (v.phase === 'revealed' || v.phase === 'paid');
    this.board?.update({
      stakes: new Map(Object.entries(v.stakesBySpotMinor)),
      lit: new Set(settled ? (v.lastRound?.winningSpots ?? []) : []), // Art. 3.2
      wins: new Map(),
      open: false,
      currency: v.currency,
    });
    this.renderBar();
    this.renderSteps();
    this.renderRight();
  }

  private renderBar(): void {
    const v = this.view;
    if (v === null) return;
    const details = `${t(`inspector.shaker.${v.shaker}`)} · ${t('croupier.betCount')} ${v.betCount} · ${t('croupier.staked')} ${formatMoney(v.totalStakeMinor, v.currency)}`;
    replaceChildren(this.parts.bar, ...tableBar(v, this.countdown.el, details, this.live));
  }

  private renderSteps(): void {
    const v = this.view;
    if (v === null) return;
    // On a lever table the dice are entered under their step once the dome is lifted.
    const entry =
      v.shaker === 'lever' && v.allowed['read-dice'] === true
        ? diceEntry(
            v,
            this.dice,
            (dice) => {
              this.dice = dice;
              this.renderSteps();
            },
            (dice) => this.run({ type: 'read-dice', dice: [...dice] }, t('croupier.cmd.read-dice')),
          )
        : null;
    const typing = document.activeElement?.classList.contains('dice-typed') === true;
    replaceChildren(
      this.parts.steps,
      procedurePanel(v, this.leverPulls, this.busy, (cmd, label) => this.run(cmd, label), entry),
      // The dice as revealed (or the last result), to announce them (Art. 3.2).
      resultPanel(v),
    );
    // Redrawn while the croupier types the faces: the keyboard stays in the box.
    const input = this.parts.steps.querySelector<HTMLInputElement>('.dice-typed');
    if (typing && input !== null) {
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }
  }

  private renderRight(): void {
    const v = this.view;
    if (v === null) return;
    replaceChildren(
      this.parts.right,
      exposurePanel(v, this.exposure),
      stakesPanel(v),
      eventLog(this.log, { currency: v.currency, nameOf: (id) => this.names.get(id) }),
    );
  }

  private tick(): void {
    const v = this.view;
    if (v === null) return;
    this.countdown.showBetting(v, this.feed.clock.now());
  }
}
