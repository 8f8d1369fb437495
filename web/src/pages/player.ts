/**
 * The player's table: the layout, chips, balance and stake, the countdown, the
 * sealed roll's commitment, the dice and lit winners, and what each bet won.
 * State lives here; player-panels.ts draws the side panels.
 */
import { spotById, type Spot } from '../../../src/rules/index.js';
import { me as fetchMe, myBets, placeBet, withdrawBet } from '../api/endpoints.js';
import { ApiError, newKey } from '../api/http.js';
import type { BatchAnswer, LiveStatus } from '../api/live.js';
import type { Me, RoundEvent, TableView, Triple } from '../api/types.js';
import { RollCheck } from '../app/roll-check.js';
import { rememberTable } from '../app/session.js';
import { TableFeed } from '../app/table-feed.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { spotName } from '../i18n/spot-names.js';
import { lang } from '../i18n/i18n.js';
import * as book from '../logic/bet-book.js';
import { chipsFor } from '../logic/chips.js';
import { secondsLeft } from '../logic/clock.js';
import { formatMoney } from '../logic/money.js';
import { layoutOdds, type LayoutOdds } from '../logic/paytable.js';
import { h, replaceChildren } from '../ui/dom.js';
import { LayoutBoard } from '../ui/layout-board.js';
import { shell } from '../ui/shell.js';
import { toast, toastError } from '../ui/status.js';
import { Announcer, diceSentence, eventSentence } from '../ui/announcer.js';
import { Countdown, tableBar } from '../ui/widgets.js';
import {
  betsPanel,
  chipRack,
  netSentence,
  resultPanel,
  roundResult,
  sealPanel,
  type Trend,
  trendsPanel,
  winsBySpot,
} from './player-panels.js';
import type { Page } from './page.js';

const TICK_MS = 250;
/** Taps waiting for the server beyond this many are dropped (a stuck connection must not pile up bets). */
const PENDING_MAX = 8;

export function playerPage(me: Me, tableId: string): Page {
  rememberTable(tableId);
  const page = new PlayerPage(me, tableId);
  return page;
}

class PlayerPage implements Page {
  readonly el: HTMLElement;
  private view: TableView | null = null;
  private odds: LayoutOdds | null = null;
  private oddsKey = '';
  private board: LayoutBoard | null = null;
  private bets: book.BetBook = book.emptyBook(0);
  private repeatBets: book.RepeatBet[] = [];
  private balance: number | null;
  private chip = 0;
  private live: LiveStatus = 'connecting';
  private voided = false;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private wasOpen = false;
  private trend: Trend = 'bigSmall';
  private readonly seal = new RollCheck();
  private readonly countdown = new Countdown();
  private readonly feed: TableFeed;
  private readonly main = h('main', { class: 'page page-player' });
  private readonly parts = {
    bar: h('div', { class: 'table-bar' }),
    layoutHost: h('div', { class: 'felt' }),
    // The messages' strip sits above the rack (ui/status.ts).
    rack: h('div', { class: 'rack', role: 'toolbar', 'data-dock': 'bottom' }),
    side: h('div', { class: 'side' }),
  };
  private readonly announcer = new Announcer();
  private readonly cleanup: (() => void)[] = [];

  constructor(
    private me: Me,
    private readonly tableId: string,
  ) {
    this.balance = me.wallet?.balanceMinor ?? null;
    this.repeatBets = loadRepeat(tableId);
    this.main.append(
      this.parts.bar,
      h(
        'div',
        { class: 'play-area' },
        h('div', { class: 'play-main' }, this.parts.layoutHost, this.parts.rack),
        this.parts.side,
      ),
      this.announcer.el,
    );
    this.el = shell({ me, tableId, active: 'table' }, this.main);
    // The summary feed: the table's course and this player's own bets, each event applied
    // to the view as it comes (no refetch of the whole view after every burst).
    this.feed = new TableFeed(
      tableId,
      {
        onView: (v) => this.onView(v),
        onEvent: (e) => this.onEvent(e),
        onStatus: (s) => {
          this.live = s;
          this.renderBar();
          this.markLayout();
        },
        // A deposit or withdrawal at the cage shows at once, not at the next payout.
        onWallet: (balanceMinor) => {
          this.balance = balanceMinor;
          this.renderRack();
        },
      },
      'events',
    );
    void this.feed.start();
    const tick = window.setInterval(() => this.tick(), TICK_MS);
    const keys = (e: KeyboardEvent) => this.onKey(e);
    document.addEventListener('keydown', keys);
    this.cleanup.push(
      () => window.clearInterval(tick),
      () => document.removeEventListener('keydown', keys),
      onLanguage(() => this.rebuild()),
    );
  }

  destroy(): void {
    this.feed.stop();
    this.announcer.stop();
    for (const c of this.cleanup) c();
  }

  private onView(view: TableView): void {
    const first = this.view === null;
    const newRound = view.roundNo !== this.bets.roundNo;
    this.view = view;
    if (newRound) {
      // The round changed: what was staked in the last one is what "repeat" places again.
      if (this.bets.bets.length > 0) this.saveRepeat(book.repeatable(this.bets));
      this.bets = book.emptyBook(view.roundNo);
      this.voided = view.rollNo > 1 && view.phase !== 'paid' && view.phase !== 'revealed';
    }
    // A new round starts with no bets; only the page's first view (or a jump) needs them fetched.
    if (first || (newRound && view.phase !== 'covered')) void this.loadBets();
    if (view.phase === 'betting')
      this.seal.sawCommitment(view.roundNo, view.rollNo, view.commitmentHex);
    this.seal.update(view, () => this.renderSide());
    const key = JSON.stringify(view.paytable);
    if (key !== this.oddsKey) {
      this.oddsKey = key;
      this.odds = layoutOdds(view.paytable);
      this.rebuild();
    } else {
      this.render();
    }
  }

  private onEvent(event: RoundEvent): void {
    this.announce(event);
    // The summary feed sends this player's own bet events only (from this page or another).
    switch (event.type) {
      case 'betting-opened':
        this.seal.sawCommitment(event.roundNo, event.rollNo, event.commitmentHex);
        break;
      case 'roll-voided':
        // Art. 3.3 and 3.4: the roll is repeated; the bets stand and more may be added.
        this.voided = true;
        toast(t('player.voidNotice'), 'info', '3.4');
        break;
      case 'round-settled':
        this.voided = false;
        void this.loadBets().then(() => this.sayResult(event.roundNo, event.dice));
        break;
      case 'prizes-paid':
        void this.loadBalance();
        break;
      case 'bet-placed':
        if (event.roundNo === this.bets.roundNo) {
          this.bets = book.withBet(this.bets, event.bet);
          this.render();
        }
        break;
      case 'bet-withdrawn':
        this.bets = book.withoutBet(this.bets, event.bet.betId);
        this.render();
        break;
    }
  }

  /**
   * The round's moments, said in the page's language. The dice are said once
   * the round is settled, together with what it did to the player.
   */
  private announce(event: RoundEvent): void {
    if (event.type === 'dice-revealed' || event.type === 'dice-read') return;
    const seconds =
      event.type === 'betting-opened' && event.deadlineMs !== null
        ? Math.round((event.deadlineMs - event.atMs) / 1000)
        : null;
    const sentence = eventSentence(event, seconds);
    if (sentence !== null) this.say(sentence);
  }

  private sayResult(roundNo: number, dice: Triple): void {
    if (this.bets.roundNo !== roundNo) return;
    const net = netSentence(this.bets, (minor) => this.money(minor));
    this.say(net === null ? diceSentence(dice) : `${diceSentence(dice)}. ${net}.`);
  }

  private async loadBets(): Promise<void> {
    try {
      const answer = await myBets(this.tableId);
      if (this.view !== null && answer.roundNo !== this.view.roundNo) return;
      this.bets = { roundNo: answer.roundNo, bets: answer.bets };
      this.render();
    } catch (error) {
      this.fail(error);
    }
  }

  private async loadBalance(): Promise<void> {
    try {
      this.me = await fetchMe();
      this.balance = this.me.wallet?.balanceMinor ?? null;
      this.render();
    } catch (error) {
      this.fail(error);
    }
  }

  // ---- actions ----------------------------------------------------------

  private bettingOpen(): boolean {
    const v = this.view;
    if (v === null || v.phase !== 'betting') return false;
    const left = secondsLeft(v.bettingDeadlineMs, this.feed.clock.now());
    return left === null || left > 0;
  }

  private refuseClosed(): void {
    // Art. 2.1: bets start after the shake; Art. 3.1: they end with the bell.
    const phase = this.view?.phase ?? 'idle';
    const before = ['idle', 'paid', 'covered', 'latched', 'shaking', 'shaken', 'voided'].includes(
      phase,
    );
    toast(
      t(before ? 'err.betting_not_open' : 'err.betting_closed'),
      'error',
      before ? '2.1' : '3.1',
    );
  }

  private async bet(spot: Spot, stakeMinor = this.chip): Promise<boolean> {
    if (!this.bettingOpen()) {
      this.refuseClosed();
      return false;
    }
    try {
      const answer = await placeBet(this.tableId, newKey('b'), spot.id, stakeMinor);
      if (answer.bet !== null) this.bets = book.withBet(this.bets, answer.bet);
      this.balance = answer.balanceMinor;
      this.say(
        t('player.betPlaced', { stake: this.money(stakeMinor), name: spotName(spot, lang()) }),
      );
      this.render();
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  private async withdraw(bet: {
    betId: string;
    spot: string;
    stakeMinor: number;
  }): Promise<boolean> {
    try {
      const answer = await withdrawBet(this.tableId, bet.betId);
      this.bets = book.withoutBet(this.bets, bet.betId);
      this.balance = answer.balanceMinor;
      const spot = spotById(bet.spot);
      this.say(
        t('player.betWithdrawn', {
          stake: this.money(bet.stakeMinor),
          name: spot === undefined ? bet.spot : spotName(spot, lang()),
        }),
      );
      this.render();
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  private async withdrawOn(spot: Spot | undefined): Promise<void> {
    if (!this.bettingOpen()) {
      this.refuseClosed();
      return;
    }
    const rollNo = this.view?.rollNo ?? 0;
    const bet = book.lastWithdrawable(this.bets, rollNo, spot?.id);
    if (bet !== undefined) {
      await this.withdraw(bet);
      return;
    }
    // Art. 3.4: a bet placed before a void roll stands.
    const stands = this.bets.bets.some(
      (b) => (spot === undefined || b.spot === spot.id) && !book.isWithdrawable(b, rollNo),
    );
    if (stands) toast(t('err.bet_stands_after_void'), 'error', '3.4');
    else toast(t('player.nothingToWithdraw'));
  }

  /** Withdraws every bet of this roll in one socket message (Art. 3.4: earlier rolls' bets stand). */
  private async clearAll(): Promise<void> {
    if (!this.bettingOpen()) {
      this.refuseClosed();
      return;
    }
    const rollNo = this.view?.rollNo ?? 0;
    const betIds = this.bets.bets.filter((b) => book.isWithdrawable(b, rollNo)).map((b) => b.betId);
    if (betIds.length === 0) {
      toast(t('player.nothingToWithdraw'));
      return;
    }
    for (const chunk of chunks(betIds)) {
      const answer = await this.feed.request({ type: 'withdraw-bets', betIds: chunk });
      for (const r of answer.results) if (r.ok) this.bets = book.withoutBet(this.bets, r.betId);
      if (!this.took(answer)) return;
    }
    this.say(t('player.cleared'));
  }

  /**
   * Why Repeat cannot place last round's bets now, or null when it can. It is
   * for an empty layout, once a round: a second press would double the bets
   * without a word, and after a void roll the round's bets stand (Art. 3.4),
   * so repeating would pile last round's stakes on top of them.
   */
  private repeatRefusal(): string | null {
    if (this.bets.bets.length === 0) return null;
    const rollNo = this.view?.rollNo ?? 0;
    const standing = this.bets.bets.some((b) => !book.isWithdrawable(b, rollNo));
    return t(standing ? 'player.repeatStands' : 'player.repeatUsed');
  }

  /** Places last round's bets again in one socket message (one transaction on the server). */
  private async repeat(): Promise<void> {
    if (this.repeatBets.length === 0) {
      toast(t('player.nothingToRepeat'));
      return;
    }
    if (!this.bettingOpen()) {
      this.refuseClosed();
      return;
    }
    const refusal = this.repeatRefusal();
    if (refusal !== null) {
      toast(refusal, 'info');
      return;
    }
    const bets = this.repeatBets
      .filter((r) => this.odds?.offered.has(r.spot) === true)
      .map((r) => ({ betId: newKey('b'), spot: r.spot, stakeMinor: r.stakeMinor }));
    for (const chunk of chunks(bets)) {
      const answer = await this.feed.request({ type: 'place-bets', bets: chunk });
      for (const r of answer.results)
        if (r.ok && r.bet !== null) this.bets = book.withBet(this.bets, r.bet);
      if (!this.took(answer)) return;
    }
    this.say(t('player.repeated', { stake: this.money(book.totalStake(this.bets)) }));
  }

  /** Shows a batch's outcome: the balance after it, and its first refusal if any (false then). */
  private took(answer: BatchAnswer): boolean {
    this.balance = answer.balanceMinor;
    this.render();
    const refused = answer.results.find((r) => !r.ok);
    if (refused !== undefined && !refused.ok) {
      this.fail(new ApiError(409, refused.error));
      return false;
    }
    return true;
  }

  /**
   * Actions run one after another, in the order the player made them: two quick
   * taps on a spot are two chips, not one (each waits for the server's answer to
   * the one before, so balances and bet ids never cross).
   */
  private run(action: () => Promise<unknown> | void): void {
    if (this.pending >= PENDING_MAX) return;
    this.pending++;
    this.queue = this.queue
      .then(action)
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        this.pending--;
      });
  }

  /** Clear and Repeat act on everything at once: a second click while busy is not a second request. */
  private runAlone(action: () => Promise<unknown>): void {
    if (this.pending === 0) this.run(action);
  }

  /** 1–6 pick a chip; U, C and R are Undo, Clear and Repeat (shown on the page and in docs/web.md). */
  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (
      target !== null &&
      (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')
    )
      return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const n = Number(e.key);
    const chips = this.chips();
    if (Number.isInteger(n) && n >= 1 && n <= chips.length) {
      this.chip = chips[n - 1]!;
      this.say(t('player.chip', { value: this.money(this.chip) }));
      this.renderRack();
      return;
    }
    const action = SHORTCUTS[e.key.toLowerCase()];
    if (action === undefined || e.repeat) return;
    e.preventDefault();
    if (action === 'undo') this.run(() => this.withdrawOn(undefined));
    else if (action === 'clear') this.runAlone(() => this.clearAll());
    else this.runAlone(() => this.repeat());
  }

  // ---- drawing ------------------------------------------------------------

  private chips(): number[] {
    return this.view === null ? [] : chipsFor(this.view.stakeMinorMin, this.view.stakeMinorMax);
  }

  private money(minor: number): string {
    return formatMoney(minor, this.view?.currency ?? this.me.wallet?.currency ?? '');
  }

  /** A refusal in the player's language, naming the table's limits in its currency. */
  private fail(error: unknown): void {
    const v = this.view;
    toastError(
      error,
      v === null
        ? undefined
        : { min: this.money(v.stakeMinorMin), max: this.money(v.stakeMinorMax) },
    );
  }

  private say(text: string): void {
    this.announcer.say(text);
  }

  private saveRepeat(bets: book.RepeatBet[]): void {
    this.repeatBets = bets;
    try {
      localStorage.setItem(repeatKey(this.tableId), JSON.stringify(bets));
    } catch {
      // Kept for this page only.
    }
  }

  /** The layout again (new paytable or language), keeping the focused spot. */
  private rebuild(): void {
    if (this.odds === null) return;
    const focused = this.board?.focusedSpot()?.id;
    this.board = new LayoutBoard({
      odds: this.odds,
      mode: 'player',
      onBet: (spot) => {
        // The chip in hand when the spot was tapped, even if the bet waits its turn.
        const chip = this.chip;
        this.run(() => this.bet(spot, chip));
      },
      onWithdraw: (spot) => this.run(() => this.withdrawOn(spot)),
    });
    this.parts.layoutHost.replaceChildren(this.board.el);
    if (focused !== undefined) this.board.focusSpot(focused);
    this.render();
  }

  /** This round's dice once revealed (Art. 3.2), until the next round starts. */
  private revealedDice(): Triple | null {
    const v = this.view;
    if (v === null || v.lastRound === null || v.lastRound.roundNo !== v.roundNo) return null;
    return v.phase === 'revealed' || v.phase === 'paid' ? v.lastRound.dice : null;
  }

  private render(): void {
    const v = this.view;
    if (v === null) return;
    const chips = this.chips();
    if (!chips.includes(this.chip)) this.chip = chips[0] ?? 0;
    const settledHere = this.revealedDice() !== null;
    this.board?.update({
      stakes: book.stakesBySpot(this.bets),
      // Art. 3.2: the winning combinations light up once the result is announced.
      lit: new Set(settledHere ? (v.lastRound?.winningSpots ?? []) : []),
      wins: settledHere ? winsBySpot(this.bets) : new Map(),
      open: this.bettingOpen(),
      currency: v.currency,
    });
    this.renderBar();
    this.renderRack();
    this.renderSide();
    this.markLayout();
  }

  /**
   * A dropped connection and closed betting are marked on the layout itself
   * (dimmed, with a banner across it), not only in the bar: a player must not
   * tap a layout that looks live when it is not.
   */
  private markLayout(): void {
    const host = this.parts.layoutHost;
    const offline = this.live !== 'live';
    // After the reveal the lit winners are the news (Art. 3.2): they stay bright, the rest dim.
    const showingResult = this.view?.phase === 'revealed' || this.view?.phase === 'paid';
    const closed = !offline && this.view !== null && !this.bettingOpen() && !showingResult;
    host.classList.toggle('felt-offline', offline);
    host.classList.toggle('felt-closed', closed);
    host.classList.toggle('showing-result', !offline && this.revealedDice() !== null);
    host.dataset['state'] = offline ? t('player.offline') : closed ? t('player.closed') : '';
  }

  private renderBar(): void {
    const v = this.view;
    if (v === null) return;
    const details = t('player.limits', {
      min: this.money(v.stakeMinorMin),
      max: this.money(v.stakeMinorMax),
    });
    replaceChildren(this.parts.bar, ...tableBar(v, this.countdown.el, details, this.live));
  }

  private renderRack(): void {
    const v = this.view;
    if (v === null) return;
    // Withdrawing is possible only while betting is open, and only this roll's bets (Art. 3.4).
    const canUndo = this.bettingOpen() && book.lastWithdrawable(this.bets, v.rollNo) !== undefined;
    const repeatRefusal = this.repeatRefusal();
    const dice = this.revealedDice();
    const money = (minor: number): string => this.money(minor);
    replaceChildren(
      this.parts.rack,
      dice !== null
        ? roundResult(dice, this.bets, money)
        : chipRack(this.chips(), this.chip, (value) => {
            this.chip = value;
            this.renderRack();
          }),
      dice !== null ? null : this.actions(canUndo, repeatRefusal),
      h(
        'dl',
        { class: 'wallet' },
        h(
          'div',
          {},
          h('dt', {}, t('player.balance')),
          h('dd', { class: 'balance' }, this.balance === null ? '—' : money(this.balance)),
        ),
        h(
          'div',
          {},
          h('dt', {}, t('player.atStake')),
          h('dd', { class: 'at-stake' }, money(book.totalStake(this.bets))),
        ),
      ),
    );
  }

  /** Undo, Clear and Repeat; Repeat once a round, on an empty layout (repeatRefusal). */
  private actions(canUndo: boolean, repeatRefusal: string | null): HTMLElement {
    return h(
      'div',
      { class: 'actions' },
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          'data-focus': 'undo',
          'aria-keyshortcuts': 'U',
          title: t('player.shortcut', { key: 'U' }),
          disabled: !canUndo,
          onclick: () => this.run(() => this.withdrawOn(undefined)),
        },
        '↶ ',
        t('player.undo'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          'data-focus': 'clear',
          'aria-keyshortcuts': 'C',
          title: t('player.shortcut', { key: 'C' }),
          disabled: !canUndo,
          onclick: () => this.runAlone(() => this.clearAll()),
        },
        '✕ ',
        t('player.clear'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'btn btn-gold',
          'data-focus': 'repeat',
          'aria-keyshortcuts': 'R',
          title: repeatRefusal ?? t('player.shortcut', { key: 'R' }),
          disabled: this.repeatBets.length === 0 || !this.bettingOpen() || repeatRefusal !== null,
          onclick: () => this.runAlone(() => this.repeat()),
        },
        '⟳ ',
        t('player.repeat'),
      ),
    );
  }

  private renderSide(): void {
    const v = this.view;
    if (v === null) return;
    replaceChildren(
      this.parts.side,
      resultPanel(v),
      this.voided
        ? h('p', { class: 'notice notice-void', role: 'note' }, t('player.voidNotice'))
        : null,
      betsPanel(v, this.bets, (minor) => this.money(minor)),
      trendsPanel(v.history, this.trend, (trend) => {
        this.trend = trend;
        this.renderSide();
      }),
      sealPanel(v, this.seal.current()),
      h('p', { class: 'keys-help' }, t('player.keys')),
    );
  }

  private tick(): void {
    const v = this.view;
    if (v === null) return;
    this.countdown.showBetting(v, this.feed.clock.now());
    // When the timer runs out the layout must show betting closed even before the bell event arrives.
    const open = this.bettingOpen();
    if (open !== this.wasOpen) {
      this.wasOpen = open;
      this.render();
    }
  }
}

/** The rack's keyboard shortcuts (the buttons carry them in aria-keyshortcuts). */
const SHORTCUTS: Readonly<Record<string, 'undo' | 'clear' | 'repeat'>> = {
  u: 'undo',
  c: 'clear',
  r: 'repeat',
};

/** A socket message carries at most this many bets (BETS_PER_MESSAGE_MAX, docs/api.md). */
const BETS_PER_MESSAGE_MAX = 20;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BETS_PER_MESSAGE_MAX)
    out.push(items.slice(i, i + BETS_PER_MESSAGE_MAX));
  return out;
}

const repeatKey = (tableId: string): string => `cussec.repeat.${tableId}`;

function loadRepeat(tableId: string): book.RepeatBet[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(repeatKey(tableId)) ?? '[]');
    return Array.isArray(parsed)
      ? (parsed as book.RepeatBet[]).filter(
          (b) => typeof b.spot === 'string' && Number.isSafeInteger(b.stakeMinor),
        )
      : [];
  } catch {
    return [];
  }
}
