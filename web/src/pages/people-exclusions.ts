/**
 * The exclusion register (Lei 10/2012, arts. 2 and 6), as the supervisor, the
 * compliance officer and the inspector read it: every order, found by id,
 * DICJ reference, document or name; for the inspector and the supervisor an
 * order entered by hand, a revocation requested (asked first: it frees the
 * person 30 days later), and a file of the DICJ's loaded, its format told by
 * its extension, with the rows recorded, those already on record and the bad
 * ones with each problem named.
 *
 * The search box is built once and never drawn again (as at the cage), so a
 * name typed with a Chinese input method stays as typed; only the list follows.
 */
import {
  exclusions,
  loadExclusions,
  recordExclusion,
  requestRevocation,
} from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import type { ExclusionFileAnswer, ExclusionOrder, FieldIssue } from '../api/types.js';
import type { Key } from '../i18n/dict.js';
import { lang, t } from '../i18n/i18n.js';
import { issueSentence } from '../i18n/issues.js';
import {
  canRequestRevocation,
  DOCUMENT_TYPES,
  effectiveUntil,
  EXCLUSION_KINDS,
  exclusionFileFormat,
  issuesByField,
  macauToday,
  matchingOrders,
  orderState,
  revocationEffectiveOn,
} from '../logic/people.js';
import { h, replaceChildren } from '../ui/dom.js';
import { draftInput, draftSelect, fieldBlock } from '../ui/fields.js';
import { toast, toastError } from '../ui/status.js';
import type { Section } from './people-registers.js';

/** The server's page of orders, and how many pages are read at most (100,000 orders). */
const PAGE = 1_000;
const PAGES_MAX = 100;
/** Rows drawn at once; a search narrows a longer list. */
const ROWS_SHOWN_MAX = 200;
const BAD_ROWS_SHOWN_MAX = 200;

const FIELDS = [
  'id',
  'kind',
  'dicjReference',
  'documentType',
  'documentNumber',
  'fullName',
  'dateOfBirth',
  'from',
  'to',
] as const satisfies readonly (keyof ExclusionOrder)[];
type Field = (typeof FIELDS)[number];

/** Each field's label, as the form and a bad row of a file name it. */
const LABELS: Readonly<Record<Field | 'revocationRequestedOn', Key>> = {
  id: 'excl.id',
  kind: 'excl.kind',
  dicjReference: 'excl.reference',
  documentType: 'identity.documentType',
  documentNumber: 'identity.documentNumber',
  fullName: 'excl.fullName',
  dateOfBirth: 'excl.dateOfBirth',
  from: 'excl.from',
  to: 'excl.to',
  revocationRequestedOn: 'excl.revocationAsked',
};

function pathLabel(path: string): string {
  if (path === '(file)') return t('excl.wholeFile');
  if (path === '(record)') return t('excl.wholeRecord');
  return path in LABELS ? t(LABELS[path as Field]) : path;
}

const emptyDraft = (): Record<Field, string> => ({
  id: '',
  kind: 'self',
  dicjReference: '',
  documentType: 'macau-id',
  documentNumber: '',
  fullName: '',
  dateOfBirth: '',
  from: '',
  to: '',
});

/** The state cell: in force until when, from when, or over; and a revocation asked. */
function stateCell(order: ExclusionOrder, today: string): HTMLElement {
  const state = orderState(order, today);
  const tag = state === 'in-force' ? 'tag-warn' : state === 'upcoming' ? 'tag-info' : 'tag-muted';
  return h(
    'td',
    { class: `order-state order-${state}` },
    h(
      'span',
      { class: tag },
      t(`excl.state.${state}`, { from: order.from, until: effectiveUntil(order) }),
    ),
    order.revocationRequestedOn === null
      ? null
      : h(
          'div',
          { class: 'cell-note' },
          t('excl.revocation', {
            asked: order.revocationRequestedOn,
            effective: revocationEffectiveOn(order.revocationRequestedOn),
          }),
        ),
  );
}

/** The register's list, its search and, for those who may, the order form and the file loader. */
export class ExclusionRegister implements Section {
  readonly el = h('section', { class: 'panel excl-register' });
  private readonly listHost = h('div', { class: 'excl-list' });
  private readonly countLine = h('p', { class: 'small muted excl-count', 'aria-live': 'polite' });
  private readonly find = h('input', {
    class: 'input excl-find',
    type: 'search',
    autocomplete: 'off',
    'data-focus': 'find-order',
    oninput: () => this.drawList(),
  });
  private readonly file = h('input', {
    type: 'file',
    id: 'exclusion-file',
    accept: '.json,.csv,application/json,text/csv',
    // The browser's own picker speaks the browser's language: the label is the button.
    class: 'sr-only',
    onchange: () => void this.loadFile(),
  });
  private orders: ExclusionOrder[] | null = null;
  private draft = emptyDraft();
  private issues: ReadonlyMap<Field, readonly FieldIssue[]> = new Map();
  private otherIssues: readonly FieldIssue[] = [];
  private idTaken = false;
  private loaded: { readonly file: string; readonly answer: ExclusionFileAnswer } | null = null;
  /** Which of the folded parts (an order by hand, a file) are open, kept across redraws. */
  private readonly open = { add: false, bulk: false };

  /** `canWrite`: the inspector and the supervisor enter orders (POST /exclusions). */
  constructor(private readonly canWrite: boolean) {
    this.render();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const all: ExclusionOrder[] = [];
      let after: string | undefined;
      for (let page = 0; page < PAGES_MAX; page++) {
        const batch = await exclusions(after, PAGE);
        all.push(...batch);
        if (batch.length < PAGE) break;
        after = batch.at(-1)!.id;
      }
      this.orders = all;
    } catch (error) {
      toastError(error);
    }
    this.drawList();
  }

  private drawList(): void {
    if (this.orders === null) {
      replaceChildren(this.listHost, h('p', { class: 'muted' }, t('app.loading')));
      return;
    }
    const found = matchingOrders(this.orders, this.find.value);
    const shown = found.slice(0, ROWS_SHOWN_MAX);
    this.countLine.textContent = t('excl.count', {
      shown: found.length,
      total: this.orders.length,
    });
    replaceChildren(
      this.listHost,
      this.orders.length === 0
        ? h('p', { class: 'muted' }, t('excl.none'))
        : found.length === 0
          ? h('p', { class: 'muted' }, t('excl.noMatch'))
          : this.orderTable(shown),
      found.length > shown.length
        ? h('p', { class: 'small muted' }, t('excl.tooMany', { n: ROWS_SHOWN_MAX }))
        : null,
    );
  }

  private orderTable(shown: readonly ExclusionOrder[]): HTMLElement {
    const today = macauToday(Date.now());
    const heads: Key[] = [
      'excl.id',
      'excl.kind',
      'excl.reference',
      'excl.document',
      'excl.person',
      'excl.period',
      'excl.state',
    ];
    return h(
      'div',
      { class: 'table-scroll', tabindex: 0, 'aria-label': t('excl.title') },
      h(
        'table',
        { class: 'data excl-orders' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            heads.map((k) => h('th', { scope: 'col' }, t(k))),
            this.canWrite
              ? h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('excl.revoke')))
              : null,
          ),
        ),
        h(
          'tbody',
          {},
          shown.map((o) => this.orderRow(o, today)),
        ),
      ),
    );
  }

  private orderRow(o: ExclusionOrder, today: string): HTMLElement {
    return h(
      'tr',
      { 'data-order': o.id },
      h('td', {}, h('strong', {}, o.id)),
      h('td', {}, t(`excl.kind.${o.kind}`)),
      h('td', {}, o.dicjReference),
      h(
        'td',
        {},
        h('span', { class: 'cell-note' }, t(`doc.${o.documentType}`)),
        h('div', { class: 'doc-number' }, o.documentNumber),
      ),
      h('td', {}, o.fullName ?? '—', h('div', { class: 'cell-note' }, o.dateOfBirth ?? '')),
      h('td', { class: 'nowrap' }, `${o.from} – ${o.to}`),
      stateCell(o, today),
      this.canWrite
        ? h(
            'td',
            {},
            canRequestRevocation(o, today)
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'btn btn-small',
                    'data-focus': `revoke:${o.id}`,
                    'aria-label': t('excl.revokeOf', { order: o.id }),
                    onclick: () => void this.revoke(o),
                  },
                  t('excl.revoke'),
                )
              : null,
          )
        : null,
    );
  }

  /** Lei 10/2012, art. 6: asked first, since it frees the person 30 days later. */
  private async revoke(order: ExclusionOrder): Promise<void> {
    const today = macauToday(Date.now());
    const effective = revocationEffectiveOn(today);
    if (!window.confirm(t('excl.confirmRevoke', { today, order: order.id, effective }))) return;
    try {
      const changed = await requestRevocation(order.id, today);
      this.orders = (this.orders ?? []).map((o) => (o.id === changed.id ? changed : o));
      toast(t('excl.revoked', { effective }), 'ok');
      this.drawList();
    } catch (error) {
      toastError(error);
    }
  }

  private addForm(): HTMLElement {
    const documentType = DOCUMENT_TYPES.find((d) => d === this.draft.documentType);
    const errorsOf = (f: Field): string[] => [
      ...(f === 'id' && this.idTaken ? [t('err.exclusion_exists')] : []),
      ...(this.issues.get(f) ?? []).map((i) => issueSentence(lang(), i, documentType)),
    ];
    const text = (f: Field, props: Record<string, string | boolean> = {}) =>
      draftInput(this.draft, f, { ...props, 'data-focus': `order:${f}` });
    const controls: Record<Field, HTMLInputElement | HTMLSelectElement> = {
      id: text('id', { spellcheck: false }),
      kind: draftSelect(
        this.draft,
        'kind',
        EXCLUSION_KINDS.map((k) => ({ value: k, label: t(`excl.kind.${k}`) })),
      ),
      dicjReference: text('dicjReference', { spellcheck: false }),
      documentType: draftSelect(
        this.draft,
        'documentType',
        DOCUMENT_TYPES.map((d) => ({ value: d, label: t(`doc.${d}`) })),
      ),
      documentNumber: text('documentNumber', { spellcheck: false }),
      fullName: text('fullName'),
      dateOfBirth: text('dateOfBirth', { type: 'date', max: '9999-12-31' }),
      from: text('from', { type: 'date', max: '9999-12-31' }),
      to: text('to', { type: 'date', max: '9999-12-31' }),
    };
    return h(
      'form',
      {
        class: 'form excl-add',
        novalidate: true,
        onsubmit: (e) => {
          e.preventDefault();
          void this.add();
        },
      },
      h(
        'div',
        { class: 'fields' },
        FIELDS.map((f) =>
          fieldBlock('order', {
            name: f,
            label: t(LABELS[f]),
            control: controls[f],
            errors: errorsOf(f),
          }),
        ),
      ),
      this.otherIssues.length === 0
        ? null
        : h(
            'p',
            { class: 'field-error' },
            this.otherIssues
              .map((i) => `${pathLabel(i.path)}: ${issueSentence(lang(), i, documentType)}`)
              .join(' '),
          ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'submit', class: 'btn btn-gold', 'data-focus': 'add-order' },
          t('excl.save'),
        ),
      ),
    );
  }

  private async add(): Promise<void> {
    const kind = EXCLUSION_KINDS.find((k) => k === this.draft.kind) ?? 'self';
    const documentType = DOCUMENT_TYPES.find((d) => d === this.draft.documentType) ?? 'other';
    const orNull = (text: string): string | null => (text.trim() === '' ? null : text);
    try {
      const order = await recordExclusion({
        ...this.draft,
        kind,
        documentType,
        fullName: orNull(this.draft.fullName),
        dateOfBirth: orNull(this.draft.dateOfBirth),
        revocationRequestedOn: null,
      });
      this.orders = [...(this.orders ?? []).filter((o) => o.id !== order.id), order].sort((a, b) =>
        a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
      );
      this.draft = {
        ...emptyDraft(),
        kind: this.draft.kind,
        documentType: this.draft.documentType,
      };
      [this.issues, this.otherIssues, this.idTaken] = [new Map(), [], false];
      toast(t('excl.added', { order: order.id }), 'ok');
      this.render();
    } catch (error) {
      const invalid = error instanceof ApiError && error.code === 'exclusion_order_invalid';
      this.idTaken = error instanceof ApiError && error.code === 'exclusion_exists';
      ({ byField: this.issues, other: this.otherIssues } = invalid
        ? issuesByField(error.issues, FIELDS)
        : { byField: new Map(), other: [] });
      this.render();
      const first = this.idTaken ? 'id' : FIELDS.find((f) => this.issues.has(f));
      if (first !== undefined) document.getElementById(`order-${first}`)?.focus();
      toastError(error);
    }
  }

  private async loadFile(): Promise<void> {
    const chosen = this.file.files?.[0];
    this.file.value = '';
    if (chosen === undefined) return;
    const format = exclusionFileFormat(chosen.name);
    if (format === null) {
      toast(t('excl.badExtension'), 'error');
      return;
    }
    try {
      const answer = await loadExclusions(format, await chosen.text());
      this.loaded = { file: chosen.name, answer };
      toast(
        t('excl.loaded', {
          file: chosen.name,
          recorded: answer.recorded,
          existing: answer.existing.length,
          bad: answer.bad.length,
        }),
        answer.bad.length === 0 ? 'ok' : 'info',
      );
    } catch (error) {
      toastError(error);
    }
    this.render();
    await this.load();
  }

  private bulkPanel(): HTMLElement {
    return h(
      'div',
      { class: 'excl-bulk' },
      h('p', { class: 'small muted' }, t('excl.bulkHelp')),
      this.file,
      h('label', { for: 'exclusion-file', class: 'btn file-label' }, t('excl.pickFile')),
      this.loaded === null ? null : this.bulkResult(this.loaded.file, this.loaded.answer),
    );
  }

  private bulkResult(name: string, answer: ExclusionFileAnswer): HTMLElement {
    const rows = answer.bad.flatMap((b) => b.issues.map((issue) => ({ row: b.row, issue })));
    return h(
      'div',
      { class: 'excl-loaded' },
      h(
        'p',
        { class: 'excl-loaded-line' },
        h(
          'strong',
          {},
          t('excl.loaded', {
            file: name,
            recorded: answer.recorded,
            existing: answer.existing.length,
            bad: answer.bad.length,
          }),
        ),
      ),
      answer.existing.length === 0
        ? null
        : h(
            'p',
            { class: 'small excl-existing' },
            t('excl.existing', {
              ids:
                answer.existing.slice(0, 20).join(', ') + (answer.existing.length > 20 ? ' …' : ''),
            }),
          ),
      rows.length === 0
        ? null
        : h(
            'div',
            { class: 'table-scroll', tabindex: 0, 'aria-label': t('excl.problem') },
            h(
              'table',
              { class: 'data bad-rows' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  h('th', { scope: 'col', class: 'num' }, t('excl.row')),
                  h('th', { scope: 'col' }, t('excl.field')),
                  h('th', { scope: 'col' }, t('excl.problem')),
                ),
              ),
              h(
                'tbody',
                {},
                rows.slice(0, BAD_ROWS_SHOWN_MAX).map(({ row, issue }) =>
                  h(
                    'tr',
                    { 'data-row': String(row), 'data-code': issue.code },
                    h('td', { class: 'num' }, row === 0 ? '—' : String(row)),
                    h('td', {}, pathLabel(issue.path)),
                    // The server's English detail, for the DICJ's staff, in the tooltip.
                    h('td', { title: issue.message }, issueSentence(lang(), issue)),
                  ),
                ),
              ),
            ),
          ),
    );
  }

  render(): void {
    this.find.placeholder = t('excl.find');
    this.find.setAttribute('aria-label', t('excl.find'));
    this.el.setAttribute('aria-label', t('excl.title'));
    replaceChildren(
      this.el,
      h('h2', { class: 'panel-title' }, t('excl.title')),
      h('div', { class: 'toolbar excl-toolbar' }, this.find, this.countLine),
      this.listHost,
      this.canWrite ? this.folded('add', t('excl.add'), this.addForm()) : null,
      this.canWrite ? this.folded('bulk', t('excl.bulk'), this.bulkPanel()) : null,
    );
    this.drawList();
  }

  /** A part the register's readers seldom need, folded under its title until opened. */
  private folded(part: 'add' | 'bulk', title: string, body: HTMLElement): HTMLElement {
    return h(
      'details',
      {
        class: `excl-more excl-more-${part}`,
        open: this.open[part],
        ontoggle: (e) => {
          this.open[part] = (e.target as HTMLDetailsElement).open;
        },
      },
      h('summary', { class: 'panel-subtitle', 'data-focus': `open:${part}` }, title),
      body,
    );
  }
}
