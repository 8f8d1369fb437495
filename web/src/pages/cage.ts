/**
 * The cashier's cage: find a player, see the balance, deposit or withdraw, the
 * player's history at the cage and a receipt to print. The search box is built
 * once and never redrawn (typing, and a Chinese input method's composition,
 * stay in it); only the list under it follows the text. Balances follow the
 * wallets live (read again every few seconds while the page is shown). An
 * amount above the floor's threshold (GET /floor-settings) asks first.
 *
 * The selected player's side is a list of panels (balance and moves, identity,
 * history, receipt). Who may play (Lei 10/2012) shows above the amount as soon
 * as a player is picked, and the identity panel records or corrects the
 * player's identity (cage-identity.ts). Instrução 1/2016: a large amount,
 * alone or with the player's other cash moves of the Macau day, is sent only
 * once the cashier confirms the document was sighted; the question names the
 * document. A move the page did not see as large (another cashier's of the same
 * day) is asked when the server answers `document_sighting_required`.
 */
import { cageMoves, deposit, floorSettings, players, tables, withdraw } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import type { CageMove, Me, PlayerRow } from '../api/types.js';
import { lang, onLanguage, t } from '../i18n/i18n.js';
import { matchingAccounts } from '../logic/accounts.js';
import { amountInWords } from '../logic/amount-words.js';
import {
  type LargeCashReason,
  largeCashReason,
  largeCashThresholdMinor,
} from '../logic/large-cash.js';
import { formatAmount, formatMoney, parseAmount } from '../logic/money.js';
import { h, replaceChildren } from '../ui/dom.js';
import { shell } from '../ui/shell.js';
import { toast, toastError } from '../ui/status.js';
import { panel } from '../ui/widgets.js';
import { documentName, PlayerIdentity } from './cage-identity.js';
import type { Page } from './page.js';

/** How often the balances are read again while the page is shown. */
const REFRESH_MS = 2_000;

type Kind = CageMove['kind'];

/** Refusals that say the player may not play (Lei 10/2012; Instrução 1/2016): the status is read again. */
const ELIGIBILITY_REFUSALS: readonly string[] = [
  'identity_missing',
  'under_age',
  'excluded',
  'casino_worker',
];

class CagePage implements Page {
  readonly el: HTMLElement;
  private readonly main = h('main', { class: 'page page-cage' });
  private readonly search: HTMLInputElement;
  private readonly listHost = h('div', { class: 'players-list' });
  private readonly side = h('div', { class: 'cage-side' });
  private list: PlayerRow[] = [];
  private selected: string | null = null;
  private moves: CageMove[] = [];
  private receipt: CageMove | null = null;
  /** The selected player's identity and eligibility. */
  private person: PlayerIdentity | null = null;
  private currency = '';
  private thresholdMinor: number | null = null;
  /** Instrução 1/2016: the house's own large-cash figure, where the floor set one (else the law's). */
  private houseLargeMinor: number | null = null;
  private busy = false;
  /** Built once, like the search box: an amount typed stays while the side is drawn again. */
  private readonly amount: HTMLInputElement;
  private readonly largeLine = h('p', { class: 'cage-large', hidden: true, 'aria-live': 'polite' });
  /** The selected player's moves are being read (the history says so, not "none"). */
  private movesLoading = false;
  private readonly timer: number;
  private readonly off: () => void;

  constructor(private readonly me: Me) {
    this.el = shell({ me, tableId: null, active: 'cage' }, this.main);
    this.search = h('input', {
      class: 'input search',
      type: 'search',
      autocomplete: 'off',
      'aria-label': t('cage.search'),
      placeholder: t('cage.search'),
      'data-focus': 'search',
      oninput: () => this.drawList(),
    });
    this.amount = h('input', {
      id: 'cage-amount',
      class: 'input',
      inputmode: 'decimal',
      autocomplete: 'off',
      placeholder: '1,000',
      'data-focus': 'amount',
      oninput: () => this.sayLarge(),
    });
    this.layout();
    this.off = onLanguage(() => {
      this.search.placeholder = t('cage.search');
      this.search.setAttribute('aria-label', t('cage.search'));
      this.person?.render();
      this.layout();
    });
    this.timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void this.refresh();
    }, REFRESH_MS);
    void this.start();
  }

  destroy(): void {
    window.clearInterval(this.timer);
    this.off();
  }

  private money(minor: number): string {
    return this.currency === '' ? formatAmount(minor) : formatMoney(minor, this.currency);
  }

  private async start(): Promise<void> {
    try {
      const [rows, summaries, settings] = await Promise.all([players(), tables(), floorSettings()]);
      this.list = rows;
      this.currency = summaries[0]?.currency ?? '';
      this.thresholdMinor = settings.settings.cageConfirmationAboveMinor;
      this.houseLargeMinor = settings.settings.largeCashThresholdMinor;
      this.selected ??= rows[0]?.id ?? null;
      this.follow();
      await this.loadMoves();
    } catch (error) {
      toastError(error);
    }
    this.layout();
  }

  /** The balances again: the list and the selected balance change in place, nothing else. */
  private async refresh(): Promise<void> {
    try {
      const rows = await players();
      const changed = rows.some(
        (r) => this.list.find((p) => p.id === r.id)?.balanceMinor !== r.balanceMinor,
      );
      this.list = rows;
      if (!changed) return;
      this.drawList();
      this.drawBalance();
    } catch {
      // A missed read is retried at the next tick; the page keeps what it shows.
    }
  }

  /** The selected player's identity and eligibility, read afresh. */
  private follow(): void {
    const p = this.list.find((x) => x.id === this.selected);
    this.person = p === undefined ? null : new PlayerIdentity(p, this.me);
    void this.person?.load();
  }

  private async loadMoves(): Promise<void> {
    const id = this.selected;
    const moves = id === null ? [] : await cageMoves(id);
    // Another player picked meanwhile: theirs are read by their own pick.
    if (this.selected === id) this.moves = moves;
  }

  private layout(): void {
    replaceChildren(
      this.main,
      h(
        'div',
        { class: 'table-bar' },
        h('h1', { class: 'table-name' }, t('cage.title')),
        h('span', { class: 'live-badge live-live' }, t('cage.live')),
      ),
      h(
        'div',
        { class: 'two-col cage-cols' },
        panel(t('cage.players'), this.search, this.listHost),
        this.side,
      ),
    );
    this.drawList();
    this.drawSide();
  }

  private drawList(): void {
    const shown = matchingAccounts(this.list, this.search.value);
    replaceChildren(
      this.listHost,
      shown.length === 0
        ? h('p', { class: 'muted' }, t('cage.noPlayer'))
        : h(
            'table',
            { class: 'data players' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, t('cage.player')),
                h('th', { scope: 'col', class: 'num' }, t('cage.balance')),
                h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('cage.player'))),
              ),
            ),
            h(
              'tbody',
              {},
              shown.map((p) => this.playerRow(p)),
            ),
          ),
    );
  }

  private playerRow(p: PlayerRow): HTMLElement {
    return h(
      'tr',
      { class: p.id === this.selected ? 'selected' : '', 'data-player': p.username },
      h(
        'td',
        {},
        h('strong', {}, p.displayName),
        h('small', { class: 'muted' }, ` @${p.username}`),
      ),
      h('td', { class: 'num player-balance' }, this.money(p.balanceMinor)),
      h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'btn',
            'aria-label': t('cage.pick', { name: p.displayName }),
            'aria-pressed': String(p.id === this.selected),
            'data-focus': `pick:${p.id}`,
            onclick: () => void this.pick(p.id),
          },
          '›',
        ),
      ),
    );
  }

  private async pick(id: string): Promise<void> {
    this.selected = id;
    this.receipt = null;
    this.follow();
    // The new player's side at once (an amount may be typed while the history is read).
    this.moves = [];
    this.movesLoading = true;
    // An amount typed for the player before is not this one's.
    this.amount.value = '';
    this.drawList();
    this.drawSide();
    this.amount.focus();
    try {
      await this.loadMoves();
    } catch (error) {
      toastError(error);
    }
    this.movesLoading = false;
    if (this.selected === id) this.drawSide();
  }

  /** The selected player's panels: balance and moves, history, receipt. */
  private drawSide(): void {
    const p = this.list.find((x) => x.id === this.selected);
    replaceChildren(
      this.side,
      p === undefined ? null : this.movePanel(p),
      this.person?.panel ?? null,
      p === undefined ? null : this.historyPanel(),
      p === undefined || this.receipt === null ? null : this.receiptPanel(p, this.receipt),
    );
  }

  private drawBalance(): void {
    const p = this.list.find((x) => x.id === this.selected);
    const shown = this.side.querySelector('.cage-balance strong');
    if (p !== undefined && shown !== null) shown.textContent = this.money(p.balanceMinor);
  }

  /**
   * Said while typing: an amount this large will need the document sighted.
   * (Not for a player who may not play: their deposit is refused whatever the amount.)
   */
  private sayLarge(): void {
    const typed = parseAmount(this.amount.value);
    const reason =
      typed === null || this.person?.refused === true ? null : this.largeReason('deposit', typed);
    this.largeLine.hidden = reason === null;
    this.largeLine.textContent =
      reason === null ? '' : t(reason === 'single' ? 'cage.largeNow' : 'cage.largeNowLinked');
  }

  private movePanel(p: PlayerRow): HTMLElement {
    const amount = this.amount;
    this.sayLarge();
    const button = (kind: Kind, cls: string, label: string): HTMLElement =>
      h(
        'button',
        {
          type: kind === 'deposit' ? 'submit' : 'button',
          class: `btn ${cls}`,
          'data-focus': kind === 'deposit' ? 'deposit' : 'withdraw',
          ...(kind === 'deposit' ? {} : { onclick: () => void this.move(kind, amount) }),
        },
        label,
      );
    const largeMinor = this.largeMinor();
    return panel(
      p.displayName,
      h(
        'p',
        { class: 'cage-balance' },
        t('cage.balance'),
        ': ',
        h('strong', {}, this.money(p.balanceMinor)),
      ),
      this.person?.status ?? null,
      h(
        'form',
        {
          class: 'form',
          onsubmit: (e) => {
            e.preventDefault();
            void this.move('deposit', amount);
          },
        },
        h(
          'label',
          { for: 'cage-amount' },
          t('cage.amount'),
          this.currency === '' ? '' : ` (${this.currency})`,
        ),
        amount,
        this.largeLine,
        this.thresholdMinor === null
          ? null
          : h(
              'p',
              { class: 'small muted' },
              t('cage.threshold', { amount: this.money(this.thresholdMinor) }),
            ),
        largeMinor === null
          ? null
          : h(
              'p',
              { class: 'small muted' },
              t('cage.largeNote', { amount: this.money(largeMinor) }),
            ),
        h(
          'div',
          { class: 'actions' },
          button('deposit', 'btn-gold', t('cage.deposit')),
          button('withdrawal', 'btn-red', t('cage.withdraw')),
        ),
      ),
    );
  }

  /** Instrução 1/2016: whether this move is large, alone or with the player's moves of today here. */
  private largeReason(kind: Kind, amountMinor: number): LargeCashReason | null {
    const move = { atMs: Date.now(), kind, amountMinor };
    return largeCashReason(move, this.moves, this.largeMinor());
  }

  /** The large-cash threshold in force: the house's, or the law's in the house currency. */
  private largeMinor(): number | null {
    return largeCashThresholdMinor(this.currency, this.houseLargeMinor);
  }

  /**
   * Instrução 1/2016: the cashier confirms the player's document was sighted,
   * the question naming the document (its identity is read for it, a read the
   * server records). False when declined, or when no identity is on record
   * (the server then refuses the move, and says why).
   */
  private async confirmSighting(
    p: PlayerRow,
    words: { name: string; kind: string; amount: string },
    reason: LargeCashReason,
  ): Promise<boolean | null> {
    const identity = await this.person?.forSighting();
    if (identity === undefined || identity === null) return null;
    const thresholdMinor = this.largeMinor();
    const why =
      thresholdMinor === null
        ? null
        : t(reason === 'single' ? 'cage.sightingSingle' : 'cage.sightingLinked', {
            threshold: this.money(thresholdMinor),
          });
    const question = t('cage.confirmSighting', {
      ...words,
      document: documentName(identity.documentType),
      number: identity.documentNumber,
      holder: identity.fullName,
    });
    return (
      window.confirm(why === null ? question : `${why}\n\n${question}`) && p.id === this.selected
    );
  }

  private async move(kind: Kind, input: HTMLInputElement): Promise<void> {
    const amount = parseAmount(input.value);
    const p = this.list.find((x) => x.id === this.selected);
    if (amount === null || p === undefined) {
      toast(t('cage.badAmount'), 'error');
      return;
    }
    if (this.busy) return;
    const words = { name: p.displayName, kind: t(`cage.kind.${kind}`), amount: this.money(amount) };
    this.busy = true;
    try {
      // Who may not play brings no money in: the server says why, without a sighting asked first.
      const barred = kind === 'deposit' && this.person?.refused === true;
      const reason = barred ? null : this.largeReason(kind, amount);
      let sighted = false;
      if (reason !== null) {
        // The sighting question names the player, kind and amount: it is the confirmation too.
        const asked = await this.confirmSighting(p, words, reason);
        if (asked === false) return;
        sighted = asked === true;
      } else if (this.thresholdMinor !== null && amount > this.thresholdMinor) {
        // Above the floor's threshold the cashier confirms first (the supervisor sets it).
        if (!window.confirm(t('cage.confirm', words))) return;
      }
      const answer = await this.send(p, kind, amount, sighted, words);
      if (answer === null) return;
      this.list = this.list.map((x) =>
        x.id === p.id ? { ...x, balanceMinor: answer.balanceMinor } : x,
      );
      toast(t('cage.done', { ...words, balance: this.money(answer.balanceMinor) }), 'ok');
      input.value = '';
      await this.loadMoves();
      this.receipt = this.moves.find((m) => m.transferId === answer.transferId) ?? null;
      this.drawList();
      this.drawSide();
    } catch (error) {
      // The refusal says why; the status above the amount is read again to show until when.
      if (error instanceof ApiError && ELIGIBILITY_REFUSALS.includes(error.code))
        void this.person?.load();
      toastError(error);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Sends the move; when the server finds it large where the page did not
   * (another cashier's moves of the day), asks for the sighting and sends it
   * again with it. Null when the cashier declines.
   */
  private async send(
    p: PlayerRow,
    kind: Kind,
    amount: number,
    sighted: boolean,
    words: { name: string; kind: string; amount: string },
  ) {
    const once = (seen: boolean) =>
      kind === 'deposit' ? deposit(p.id, amount, seen) : withdraw(p.id, amount, seen);
    try {
      return await once(sighted);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'document_sighting_required' || sighted)
        throw error;
      const alone = amount >= (this.largeMinor() ?? Infinity);
      const asked = await this.confirmSighting(p, words, alone ? 'single' : 'linked');
      if (asked === null) throw error;
      return asked ? once(true) : null;
    }
  }

  private historyPanel(): HTMLElement {
    const time = (ms: number): string => new Date(ms).toLocaleString(lang(), { hour12: false });
    const heads = ['cage.time', 'cage.kind', 'cage.amount', 'cage.cashier', 'cage.balanceAfter'];
    return panel(
      t('cage.history'),
      this.moves.length === 0
        ? h('p', { class: 'muted' }, t(this.movesLoading ? 'app.loading' : 'cage.noHistory'))
        : h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { class: 'data cage-history' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  heads.map((k, i) =>
                    h(
                      'th',
                      { scope: 'col', class: i === 2 || i === 4 ? 'num' : '' },
                      t(k as 'cage.time'),
                    ),
                  ),
                  h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('cage.receipt'))),
                ),
              ),
              h(
                'tbody',
                {},
                this.moves.map((m) =>
                  h(
                    'tr',
                    { 'data-move': m.kind },
                    h('td', {}, time(m.atMs)),
                    h('td', {}, t(`cage.kind.${m.kind}`)),
                    h(
                      'td',
                      { class: 'num' },
                      `${m.kind === 'deposit' ? '+' : '−'}${this.money(m.amountMinor)}`,
                    ),
                    h('td', {}, m.cashier.displayName ?? m.cashier.id),
                    h(
                      'td',
                      { class: 'num' },
                      m.balanceAfterMinor === null ? '—' : this.money(m.balanceAfterMinor),
                    ),
                    h(
                      'td',
                      {},
                      h(
                        'button',
                        {
                          type: 'button',
                          class: 'btn btn-small',
                          'data-focus': `receipt:${m.seq}`,
                          onclick: () => {
                            this.receipt = m;
                            this.drawSide();
                          },
                        },
                        t('cage.receipt'),
                      ),
                    ),
                  ),
                ),
              ),
            ),
          ),
    );
  }

  /** A receipt to print (print CSS shows it alone): the amount in figures and in words. */
  private receiptPanel(p: PlayerRow, m: CageMove): HTMLElement {
    const line = (label: string, value: string, cls = ''): HTMLElement =>
      h('div', { class: `receipt-line ${cls}` }, h('dt', {}, label), h('dd', {}, value));
    return h(
      'section',
      { class: 'panel receipt', 'aria-label': t('cage.receiptTitle') },
      h('h2', { class: 'receipt-title' }, t('cage.receiptTitle')),
      h(
        'dl',
        {},
        line(t('cage.time'), new Date(m.atMs).toLocaleString(lang(), { hour12: false })),
        line(t('cage.player'), `${p.displayName} (@${p.username})`),
        line(t('cage.kind'), t(`cage.kind.${m.kind}`)),
        line(t('cage.amount'), this.money(m.amountMinor), 'receipt-amount'),
        line(
          t('cage.inWords'),
          this.currency === '' ? '—' : amountInWords(m.amountMinor, this.currency, lang()),
          'receipt-words',
        ),
        line(
          t('cage.balanceAfter'),
          m.balanceAfterMinor === null ? '—' : this.money(m.balanceAfterMinor),
        ),
        line(t('cage.cashier'), m.cashier.displayName ?? m.cashier.id),
        // The journal entry's number: the inspector finds the move by it.
        line(t('cage.receiptNo'), `#${m.seq}`),
      ),
      h('p', { class: 'receipt-signature' }, `${t('cage.signature')}: `),
      h(
        'button',
        {
          type: 'button',
          class: 'btn btn-gold no-print',
          'data-focus': 'print',
          onclick: () => window.print(),
        },
        t('cage.print'),
      ),
    );
  }
}

export function cagePage(me: Me): Page {
  return new CagePage(me);
}
