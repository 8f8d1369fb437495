/**
 * The registers of Instrução 1/2016 and Lei 8/2005, as sections the floor, the
 * compliance page and the inspector's tabs share: the large-transaction
 * register for a range of Macau dates (with its CSV), the compliance
 * officer's queue of suspicion flags (closed or reported with a reason; the
 * inspector reads it), the log of who read whose identity, and the
 * supervisor's form for a casino worker's legitimate cause (Lei 10/2012,
 * art. 2). Each section keeps what was typed across redraws (another
 * language): the page calls `render()`.
 */
import { SUSPICION_RULES } from '../../../src/compliance/people/suspicion.js';
import {
  decideFlag,
  floorSettings,
  gifReportPath,
  identityReads,
  largeTransactions,
  largeTransactionsPath,
  recordWorkerCause,
  staffActions,
  suspicionFlags,
  users,
} from '../api/endpoints.js';
import { API_BASE } from '../api/http.js';
import type {
  IdentityRead,
  LargeTransaction,
  Me,
  SuspicionFlag,
  WorkerCauseBody,
} from '../api/types.js';
import type { Key } from '../i18n/dict.js';
import { lang, t } from '../i18n/i18n.js';
import { issueSentence } from '../i18n/issues.js';
import { largeCashThresholdMinor } from '../logic/large-cash.js';
import { formatAmount, formatMoney } from '../logic/money.js';
import { DOCUMENT_TYPES, macauToday } from '../logic/people.js';
import { h, replaceChildren } from '../ui/dom.js';
import { draftInput, draftSelect, fieldBlock } from '../ui/fields.js';
import { toast, toastError } from '../ui/status.js';

/** A part of a page that keeps its state and draws itself again on `render()`. */
export interface Section {
  readonly el: HTMLElement;
  render(): void;
}

/** What the sections need of their page. */
export interface RegisterContext {
  readonly me: Me;
  /** The house currency ("MOP"), or '' before the page knows it. */
  readonly currency: () => string;
  /** The names of the people the answers name by id (a cashier, who decided a flag). */
  readonly names: NameBook;
}

/**
 * Staff and players by id, as far as the page's role can learn them: the
 * supervisor from the accounts (GET /users), the inspector from the staff
 * actions (who created whom); anyone else knows their own name. An id the book
 * does not hold is shown as the id.
 */
export class NameBook {
  private readonly names = new Map<string, string>();

  constructor(private readonly me: Me) {
    this.names.set(me.user.id, `${me.user.displayName} (@${me.user.username})`);
  }

  /** Reads what the role may read; a refusal leaves the ids as they are. */
  async load(): Promise<void> {
    try {
      if (this.me.user.role === 'supervisor')
        for (const u of await users()) this.names.set(u.id, `${u.displayName} (@${u.username})`);
      else if (this.me.user.role === 'inspector')
        for (const a of await staffActions(500))
          for (const p of [a.by, a.user])
            if (p?.displayName != null)
              this.names.set(p.id, `${p.displayName} (@${p.username ?? p.id})`);
    } catch {
      // The ids stay; the registers are what matters.
    }
  }

  name(id: string): string {
    return this.names.get(id) ?? id;
  }
}

const time = (ms: number): string => new Date(ms).toLocaleString(lang(), { hour12: false });

function money(ctx: RegisterContext, minor: number): string {
  return ctx.currency() === '' ? formatAmount(minor) : formatMoney(minor, ctx.currency());
}

/** A document type's name where the server sent one of the known types, else as sent. */
const documentLabel = (type: string): string =>
  DOCUMENT_TYPES.find((d) => d === type) === undefined ? type : t(`doc.${type as 'other'}`);

function dataTable(
  label: string,
  className: string,
  heads: readonly (readonly [Key, string?])[],
  rows: readonly HTMLElement[],
): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': label },
    h(
      'table',
      { class: `data ${className}` },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          heads.map(([k, cls]) => h('th', { scope: 'col', class: cls ?? '' }, t(k))),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/** The large-transaction register (Instrução 1/2016) for a range of Macau dates, and its CSV. */
export class LargeTransactionRegister implements Section {
  readonly el = h('section', { class: 'panel large-register' });
  private readonly range: { from: string; to: string };
  private rows: LargeTransaction[] | null = null;
  /** The house's own threshold where the floor set one (read by the roles that may), else the law's. */
  private houseMinor: number | null | undefined = undefined;
  private readonly csv = h('a', { class: 'btn', download: '', 'data-focus': 'large-csv' });

  constructor(private readonly ctx: RegisterContext) {
    const today = macauToday(Date.now());
    this.range = { from: today, to: today };
    this.render();
    void this.load();
  }

  private async load(): Promise<void> {
    if (this.range.to < this.range.from) {
      toast(t('large.badRange'), 'error');
      return;
    }
    try {
      this.rows = await largeTransactions(this.range.from, this.range.to);
      const role = this.ctx.me.user.role;
      if (this.houseMinor === undefined && (role === 'supervisor' || role === 'inspector'))
        this.houseMinor = (await floorSettings()).settings.largeCashThresholdMinor;
    } catch (error) {
      toastError(error);
    }
    this.render();
  }

  render(): void {
    const threshold = largeCashThresholdMinor(this.ctx.currency(), this.houseMinor ?? null);
    const date = (key: 'from' | 'to') =>
      draftInput(this.range, key, {
        type: 'date',
        max: '9999-12-31',
        'data-focus': `large-${key}`,
      });
    const from = date('from');
    const to = date('to');
    const link = (): void => {
      this.csv.href = API_BASE + largeTransactionsPath(this.range.from, this.range.to, 'csv');
    };
    from.addEventListener('input', link);
    to.addEventListener('input', link);
    link();
    this.csv.textContent = t('large.csv');
    this.el.setAttribute('aria-label', t('large.title'));
    replaceChildren(
      this.el,
      h('h2', { class: 'panel-title' }, t('large.title')),
      threshold === null
        ? null
        : h('p', { class: 'small muted' }, t('large.help', { amount: money(this.ctx, threshold) })),
      h(
        'form',
        {
          class: 'toolbar range-form',
          onsubmit: (e) => {
            e.preventDefault();
            void this.load();
          },
        },
        h('label', { for: 'large-from' }, t('large.from')),
        Object.assign(from, { id: 'large-from' }),
        h('label', { for: 'large-to' }, t('large.to')),
        Object.assign(to, { id: 'large-to' }),
        h(
          'button',
          { type: 'submit', class: 'btn btn-gold', 'data-focus': 'large-show' },
          t('large.show'),
        ),
        this.csv,
      ),
      this.table(),
    );
  }

  private table(): HTMLElement {
    if (this.rows === null) return h('p', { class: 'muted' }, t('app.loading'));
    if (this.rows.length === 0) return h('p', { class: 'muted' }, t('large.none'));
    const total = this.rows.reduce((sum, r) => sum + r.amountMinor, 0);
    const kind = (k: string): string =>
      k === 'deposit' || k === 'withdrawal' ? t(`cage.kind.${k}`) : k;
    const reason = (r: string): string =>
      r === 'single' || r === 'linked' ? t(`large.reason.${r}`) : r;
    return h(
      'div',
      {},
      h(
        'p',
        { class: 'small large-count' },
        t('large.count', { n: this.rows.length, total: money(this.ctx, total) }),
      ),
      dataTable(
        t('large.title'),
        'large-rows',
        [
          ['cage.time'],
          ['cage.player'],
          ['excl.document'],
          ['cage.amount', 'num'],
          ['cage.kind'],
          ['large.reason'],
          ['large.by'],
          ['large.sighted'],
          ['large.seq', 'num'],
        ],
        this.rows.map((r) =>
          h(
            'tr',
            { 'data-large': r.id },
            h('td', { class: 'nowrap' }, time(r.atMs)),
            h(
              'td',
              {},
              h('strong', {}, r.fullName ?? '—'),
              r.username === null ? null : h('div', { class: 'cell-note' }, `@${r.username}`),
            ),
            h(
              'td',
              {},
              h('span', { class: 'cell-note' }, documentLabel(r.documentType)),
              h('div', { class: 'doc-number' }, r.documentNumber),
            ),
            h('td', { class: 'num nowrap' }, money(this.ctx, r.amountMinor)),
            h('td', {}, kind(r.kind)),
            h('td', {}, reason(r.reason)),
            h(
              'td',
              {},
              r.by !== null
                ? this.ctx.names.name(r.by)
                : r.tableId === null
                  ? '—'
                  : t('app.tableNamed', { id: r.tableId }),
            ),
            h('td', {}, t(r.sighted ? 'app.yes' : 'app.no')),
            h('td', { class: 'num' }, r.journalSeq === null ? '—' : `#${r.journalSeq}`),
          ),
        ),
      ),
    );
  }
}

/** A flag's rule and figures as a sentence in the user's language (src/compliance/people/suspicion.ts). */
function flagDetail(ctx: RegisterContext, flag: SuspicionFlag): string {
  const d = flag.details;
  const m = (key: string): string => money(ctx, d[key] ?? 0);
  if (flag.rule === 'structuring')
    return t('flags.detail.structuring', {
      deposits: d['deposits'] ?? 0,
      percent: SUSPICION_RULES.structuring.depositPercentOfThresholdMin,
      total: m('totalMinor'),
    });
  if (flag.rule === 'cash-in-out-little-play')
    return t('flags.detail.cash-in-out-little-play', {
      withdrawal: m('withdrawalMinor'),
      deposits: m('depositsMinor'),
      staked: m('stakedMinor'),
    });
  return flag.message;
}

const ruleName = (rule: string): string =>
  rule in SUSPICION_RULES ? t(`flags.rule.${rule as 'structuring'}`) : rule;

const FILTERS = ['open', 'closed', 'reported', 'all'] as const;
type Filter = (typeof FILTERS)[number];

/**
 * The queue of suspicion flags (Instrução 1/2016): each flag's rule, player,
 * figures and journal entries, its report to the GIF (JSON) and, once decided,
 * who decided what, when and why. The compliance officer closes a flag or
 * marks it reported, with a reason, after a question; the inspector reads.
 */
export class FlagQueue implements Section {
  readonly el = h('section', { class: 'panel flag-queue' });
  private filter: Filter = 'open';
  private flags: SuspicionFlag[] | null = null;
  /** What was typed as each flag's reason, kept across redraws. */
  private readonly reasons = new Map<string, string>();
  private readonly missingReason = new Set<string>();

  constructor(
    private readonly ctx: RegisterContext,
    private readonly canDecide: boolean,
  ) {
    this.render();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.flags = await suspicionFlags(this.filter === 'all' ? undefined : this.filter);
    } catch (error) {
      toastError(error);
    }
    this.render();
  }

  render(): void {
    this.el.setAttribute('aria-label', t('flags.title'));
    const select = h(
      'select',
      {
        class: 'input',
        id: 'flags-filter',
        'data-focus': 'flags-filter',
        onchange: (e) => {
          this.filter = (e.target as HTMLSelectElement).value as Filter;
          void this.load();
        },
      },
      FILTERS.map((f) =>
        h(
          'option',
          { value: f, selected: f === this.filter },
          f === 'all' ? t('flags.all') : t(`flags.status.${f}`),
        ),
      ),
    );
    replaceChildren(
      this.el,
      h('h2', { class: 'panel-title' }, t('flags.title')),
      h('p', { class: 'small muted' }, t('flags.help')),
      h(
        'div',
        { class: 'toolbar' },
        h('label', { for: 'flags-filter' }, t('flags.status')),
        select,
      ),
      this.flags === null
        ? h('p', { class: 'muted' }, t('app.loading'))
        : this.flags.length === 0
          ? h('p', { class: 'muted' }, t('flags.none'))
          : h(
              'ul',
              { class: 'flags' },
              this.flags.map((f) => this.flagItem(f)),
            ),
    );
  }

  private flagItem(flag: SuspicionFlag): HTMLElement {
    const player = flag.username === null ? flag.playerId : `@${flag.username}`;
    return h(
      'li',
      { class: `flag flag-${flag.status}`, 'data-flag': flag.id, 'data-status': flag.status },
      h(
        'div',
        { class: 'flag-head' },
        h('strong', { class: 'flag-rule' }, ruleName(flag.rule)),
        h(
          'span',
          {
            class:
              flag.status === 'open'
                ? 'tag-warn'
                : flag.status === 'reported'
                  ? 'tag-info'
                  : 'tag-ok',
          },
          t(`flags.status.${flag.status}`),
        ),
        h('span', { class: 'flag-player' }, player),
        h('span', { class: 'small muted' }, `${t('flags.raised')} ${time(flag.raisedAtMs)}`),
      ),
      h('p', { class: 'flag-detail' }, flagDetail(this.ctx, flag)),
      h(
        'p',
        { class: 'small muted flag-links' },
        flag.journalSeqs.length === 0
          ? null
          : t('flags.seqs', { seqs: flag.journalSeqs.map((s) => `#${s}`).join(', ') }),
        ' ',
        h(
          'a',
          {
            href: API_BASE + gifReportPath(flag.id),
            download: '',
            class: 'flag-gif',
            'data-focus': `gif:${flag.id}`,
          },
          t('flags.gif'),
        ),
      ),
      flag.status === 'open' ? null : this.decision(flag),
      this.canDecide && flag.status === 'open' ? this.decideForm(flag, player) : null,
    );
  }

  private decision(flag: SuspicionFlag): HTMLElement {
    const by =
      flag.decidedBy === null
        ? '—'
        : flag.decidedBy === this.ctx.me.user.id
          ? this.ctx.me.user.displayName
          : this.ctx.names.name(flag.decidedBy);
    return h(
      'p',
      { class: 'flag-decision' },
      t('flags.decided', {
        status: t(`flags.status.${flag.status}`),
        by,
        date: flag.decidedAtMs === null ? '—' : time(flag.decidedAtMs),
      }),
      flag.reason === null ? null : h('q', { class: 'flag-reason' }, flag.reason),
    );
  }

  private decideForm(flag: SuspicionFlag, player: string): HTMLElement {
    const id = `reason-${flag.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const missing = this.missingReason.has(flag.id);
    const reason = h('textarea', {
      class: 'input flag-reason-input',
      id,
      rows: 2,
      maxlength: 2000,
      'data-focus': `reason:${flag.id}`,
      ...(missing ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` } : {}),
      oninput: (e) => this.reasons.set(flag.id, (e.target as HTMLTextAreaElement).value),
    });
    reason.value = this.reasons.get(flag.id) ?? '';
    const button = (decision: 'closed' | 'reported', cls: string, label: Key) =>
      h(
        'button',
        {
          type: 'button',
          class: `btn ${cls}`,
          'data-focus': `${decision}:${flag.id}`,
          onclick: () => void this.decide(flag, player, decision),
        },
        t(label),
      );
    return h(
      'div',
      { class: 'form flag-decide' },
      h('label', { for: id }, t('flags.reasonLabel')),
      reason,
      missing ? h('p', { class: 'field-error', id: `${id}-error` }, t('flags.needReason')) : null,
      h(
        'div',
        { class: 'actions' },
        button('closed', '', 'flags.close'),
        button('reported', 'btn-red', 'flags.report'),
      ),
    );
  }

  private async decide(flag: SuspicionFlag, player: string, decision: 'closed' | 'reported') {
    const reason = (this.reasons.get(flag.id) ?? '').trim();
    if (reason === '') {
      this.missingReason.add(flag.id);
      this.render();
      document.getElementById(`reason-${flag.id.replace(/[^A-Za-z0-9_-]/g, '_')}`)?.focus();
      return;
    }
    this.missingReason.delete(flag.id);
    const words = { player, rule: ruleName(flag.rule) };
    const question = decision === 'closed' ? 'flags.confirmClose' : 'flags.confirmReport';
    if (!window.confirm(t(question, words))) return;
    try {
      await decideFlag(flag.id, { decision, reason });
      this.reasons.delete(flag.id);
      toast(t(`flags.done.${decision}`), 'ok');
    } catch (error) {
      toastError(error);
    }
    await this.load();
  }
}

/** The purposes the server records a read with, in words; another is shown as sent. */
const PURPOSES = ['cage', 'inspection', 'review', 'history', 'register', 'gif-report'] as const;

/** Lei 8/2005: who read whose identity, when and why, newest first (the inspector's). */
export class IdentityReadsLog implements Section {
  readonly el = h('section', { class: 'panel identity-reads' });
  private reads: IdentityRead[] | null = null;
  private more = false;

  constructor(private readonly ctx: RegisterContext) {
    this.render();
    void this.load();
  }

  private async load(before?: number): Promise<void> {
    try {
      const page = await identityReads(before);
      this.reads = [...(before === undefined ? [] : (this.reads ?? [])), ...page];
      this.more = page.length === 200;
    } catch (error) {
      toastError(error);
    }
    this.render();
  }

  render(): void {
    const who = (id: string): string => this.ctx.names.name(id);
    const purpose = (p: string): string =>
      (PURPOSES as readonly string[]).includes(p) ? t(`reads.purpose.${p as 'cage'}`) : p;
    this.el.setAttribute('aria-label', t('reads.title'));
    replaceChildren(
      this.el,
      h('h2', { class: 'panel-title' }, t('reads.title')),
      h('p', { class: 'small muted' }, t('reads.help')),
      this.reads === null
        ? h('p', { class: 'muted' }, t('app.loading'))
        : this.reads.length === 0
          ? h('p', { class: 'muted' }, t('reads.none'))
          : dataTable(
              t('reads.title'),
              'reads',
              [['cage.time'], ['reads.reader'], ['reads.subject'], ['reads.purpose']],
              this.reads.map((r) =>
                h(
                  'tr',
                  { 'data-read': String(r.id) },
                  h('td', { class: 'nowrap' }, time(r.atMs)),
                  h('td', {}, who(r.readerId)),
                  h('td', {}, who(r.subjectId)),
                  h('td', {}, purpose(r.purpose)),
                ),
              ),
            ),
      this.more
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn',
              'data-focus': 'reads-more',
              onclick: () => void this.load(this.reads?.at(-1)?.id),
            },
            t('inspector.more'),
          )
        : null,
    );
  }
}

// Who, then why, then when: four to a row on a desktop, the period on a row of its own.
const WORKER_FIELDS = [
  'documentType',
  'documentNumber',
  'kind',
  'approvalReference',
  'id',
  'from',
  'to',
] as const satisfies readonly (keyof WorkerCauseBody)[];
type WorkerField = (typeof WORKER_FIELDS)[number];
const WORKER_LABELS: Readonly<Record<WorkerField, Key>> = {
  id: 'worker.id',
  documentType: 'identity.documentType',
  documentNumber: 'identity.documentNumber',
  kind: 'worker.kind',
  approvalReference: 'worker.approval',
  from: 'worker.from',
  to: 'worker.to',
};

const emptyCause = (): Record<WorkerField, string> => ({
  id: '',
  documentType: 'macau-id',
  documentNumber: '',
  kind: 'training',
  approvalReference: '',
  from: '',
  to: '',
});

/** Lei 10/2012, art. 2: a worker's training or exceptional entry, with its approval and period (the supervisor's). */
export class WorkerCauseForm implements Section {
  readonly el = h('section', { class: 'panel worker-causes' });
  private draft = emptyCause();
  private reversed = false;

  constructor() {
    this.render();
  }

  render(): void {
    const text = (f: WorkerField, props: Record<string, string | boolean> = {}) =>
      draftInput(this.draft, f, { ...props, 'data-focus': `cause:${f}` });
    const controls: Record<WorkerField, HTMLInputElement | HTMLSelectElement> = {
      id: text('id', { spellcheck: false }),
      documentType: draftSelect(
        this.draft,
        'documentType',
        DOCUMENT_TYPES.map((d) => ({ value: d, label: t(`doc.${d}`) })),
      ),
      documentNumber: text('documentNumber', { spellcheck: false }),
      kind: draftSelect(this.draft, 'kind', [
        { value: 'training', label: t('worker.kind.training') },
        { value: 'exceptional-entry', label: t('worker.kind.exceptional-entry') },
      ]),
      approvalReference: text('approvalReference'),
      from: text('from', { type: 'date', max: '9999-12-31' }),
      to: text('to', { type: 'date', max: '9999-12-31' }),
    };
    const reversed = { path: 'to', code: 'period_reversed', message: '' };
    this.el.setAttribute('aria-label', t('worker.title'));
    replaceChildren(
      this.el,
      h('h2', { class: 'panel-title' }, t('worker.title')),
      h('p', { class: 'small muted' }, t('worker.help')),
      h(
        'form',
        {
          class: 'form',
          onsubmit: (e) => {
            e.preventDefault();
            void this.save();
          },
        },
        h(
          'div',
          { class: 'fields' },
          WORKER_FIELDS.map((f) =>
            fieldBlock('cause', {
              name: f,
              label: t(WORKER_LABELS[f]),
              control: Object.assign(controls[f], { required: true }),
              errors: f === 'to' && this.reversed ? [issueSentence(lang(), reversed)] : [],
            }),
          ),
        ),
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            { type: 'submit', class: 'btn btn-gold', 'data-focus': 'save-cause' },
            t('worker.save'),
          ),
        ),
      ),
    );
  }

  private async save(): Promise<void> {
    const d = this.draft;
    // Said here, in the page's language: the server refuses it too (worker_cause_invalid).
    this.reversed = d.from !== '' && d.to !== '' && d.to < d.from;
    if (this.reversed) {
      this.render();
      return;
    }
    const documentType = DOCUMENT_TYPES.find((x) => x === d.documentType) ?? 'other';
    try {
      const cause = await recordWorkerCause({
        ...d,
        documentType,
        kind: d.kind === 'exceptional-entry' ? 'exceptional-entry' : 'training',
      });
      toast(t('worker.saved', { id: cause.id, from: cause.from, to: cause.to }), 'ok');
      this.draft = emptyCause();
      this.render();
    } catch (error) {
      toastError(error);
    }
  }
}
