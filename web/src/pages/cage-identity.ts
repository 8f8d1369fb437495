/**
 * Who may play, at the cage (Lei 10/2012; Instrução 1/2016): for the picked
 * player, before an amount is typed, whether an identity is on record and
 * whether they may play today, or why not with the law it cites; and the form
 * that records or corrects the identity, each field's problem beside it.
 *
 * Lei 8/2005: reading an identity is recorded by the server, so this reads it
 * only when the cashier asks to see it ("Show and correct"), or to name the
 * document the cashier must sight on a large amount. Eligibility alone reads
 * no personal data.
 */
import { eligibility, identityOf, recordIdentity } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import type {
  DocumentType,
  Eligibility,
  EligibilityRefusal,
  FieldIssue,
  Identity,
  IdentityInput,
  Me,
  PlayerRow,
} from '../api/types.js';
import { lang, t } from '../i18n/i18n.js';
import { issueSentence } from '../i18n/issues.js';
import { lawCitation } from '../i18n/law.js';
import { DOCUMENT_TYPES, issuesByField } from '../logic/people.js';
import { h, replaceChildren } from '../ui/dom.js';
import { draftInput, draftSelect, fieldBlock } from '../ui/fields.js';
import { toast, toastError } from '../ui/status.js';

/** The fields of an identity, in the form's order. */
const FIELDS = [
  'fullName',
  'documentType',
  'documentNumber',
  'issuingPlace',
  'dateOfBirth',
  'nationality',
] as const satisfies readonly (keyof IdentityInput)[];
type Field = (typeof FIELDS)[number];

/** What each document's number looks like, for the hint under the field. */
const NUMBER_EXAMPLES: Readonly<Record<DocumentType, string>> = {
  'macau-id': '1234567(8)',
  'hk-id': 'A123456(3)',
  'mainland-permit': 'C12345678',
  passport: 'K12345678',
  other: 'AB123456',
};

const emptyDraft = (): Record<Field, string> => ({
  fullName: '',
  documentType: 'macau-id',
  documentNumber: '',
  issuingPlace: '',
  dateOfBirth: '',
  nationality: '',
});

const isDocumentType = (value: string): value is DocumentType =>
  (DOCUMENT_TYPES as readonly string[]).includes(value);

/** The refusal of an eligibility answer as a sentence, with `until` where it has one. */
function refusalSentence(refusal: EligibilityRefusal): string {
  return t(`elig.${refusal.code}`, { until: refusal.until ?? '—' });
}

/** The document the person showed, as the sighting question names it: "Hong Kong ID card". */
export const documentName = (type: DocumentType): string => t(`doc.${type}`);

export class PlayerIdentity {
  /** Identity on record or not; may play today, or why not. Shown above the amount. */
  readonly status = h('div', { class: 'elig', 'aria-live': 'polite' });
  /** The identity panel: the recorded identity (once asked for) and the form. */
  readonly panel = h('section', { class: 'panel identity-panel' });
  private eligible: Eligibility | null = null;
  /** undefined until read (Lei 8/2005: a read is recorded); null when none is on record. */
  private identity: Identity | null | undefined = undefined;
  private draft = emptyDraft();
  private issues: ReadonlyMap<Field, readonly FieldIssue[]> = new Map();
  private otherIssues: readonly FieldIssue[] = [];
  private busy = false;

  constructor(
    private readonly player: PlayerRow,
    private readonly me: Me,
  ) {
    this.render();
  }

  /** Reads whether the player may play (no personal data) and draws it. */
  async load(): Promise<void> {
    try {
      this.eligible = await eligibility(this.player.id);
      // Nothing on record: the form is empty, and nothing is read to know it.
      if (this.eligible.identity === 'missing') this.identity = null;
    } catch (error) {
      toastError(error);
    }
    this.render();
  }

  /** The last answer says the player may not play (the server refuses a deposit anyway). */
  get refused(): boolean {
    return this.eligible?.eligible === false;
  }

  /** The identity, read once (the read is recorded), for the sighting question. */
  async forSighting(): Promise<Identity | null> {
    if (this.identity === undefined) await this.read();
    return this.identity ?? null;
  }

  private async read(): Promise<void> {
    try {
      const { identity } = await identityOf(this.player.id);
      this.identity = identity;
      if (identity !== null) this.draft = draftOf(identity);
    } catch (error) {
      toastError(error);
    }
    this.render();
  }

  render(): void {
    this.drawStatus();
    replaceChildren(
      this.panel,
      h('h2', { class: 'panel-title' }, t('identity.title')),
      ...this.panelBody(),
    );
    this.panel.setAttribute('aria-label', t('identity.title'));
  }

  private drawStatus(): void {
    const e = this.eligible;
    this.status.className = `elig ${e === null ? '' : e.eligible ? 'elig-ok' : 'elig-refused'}`;
    if (e === null) {
      replaceChildren(this.status, h('p', { class: 'muted small' }, t('app.loading')));
      this.status.removeAttribute('data-eligible');
      return;
    }
    this.status.dataset['eligible'] = String(e.eligible);
    replaceChildren(
      this.status,
      h(
        'p',
        { class: 'elig-identity' },
        h(
          'span',
          { class: e.identity === 'recorded' ? 'tag-ok' : 'tag-warn' },
          t(e.identity === 'recorded' ? 'identity.recorded' : 'identity.none'),
        ),
        e.kind === 'demonstration' || e.kind === 'simulated'
          ? h('span', { class: 'tag-info' }, t(`identity.${e.kind}`))
          : null,
      ),
      h(
        'p',
        { class: 'elig-verdict' },
        h(
          'strong',
          {},
          e.refusal === null
            ? t('elig.mayPlay', { date: e.macauDate })
            : refusalSentence(e.refusal),
        ),
        e.refusal === null
          ? null
          : h('span', { class: 'art-badge' }, lawCitation(lang(), e.refusal.law)),
      ),
      e.warnings.length === 0
        ? null
        : h(
            'ul',
            { class: 'elig-warnings' },
            e.warnings.map((w) =>
              h('li', { 'data-order': w.orderId }, t('elig.warning', { order: w.orderId })),
            ),
          ),
    );
  }

  private panelBody(): (HTMLElement | null)[] {
    if (this.identity === undefined)
      return [
        h('p', { class: 'small muted' }, t('identity.readNote')),
        this.eligible === null
          ? null
          : h(
              'button',
              {
                type: 'button',
                class: 'btn',
                'data-focus': 'show-identity',
                onclick: () => void this.read(),
              },
              t('identity.show'),
            ),
      ];
    return [
      this.identity === null
        ? h('p', { class: 'notice-required small' }, t('identity.missing'))
        : h(
            'p',
            { class: 'small muted identity-version' },
            t('identity.version', {
              version: this.identity.version,
              date: new Date(this.identity.updatedAtMs).toLocaleString(lang(), { hour12: false }),
              by:
                this.identity.updatedBy === this.me.user.id
                  ? this.me.user.displayName
                  : this.identity.updatedBy,
            }),
          ),
      this.form(),
    ];
  }

  private form(): HTMLElement {
    const type = isDocumentType(this.draft.documentType) ? this.draft.documentType : 'other';
    const errorsOf = (f: Field): string[] =>
      (this.issues.get(f) ?? []).map((i) => issueSentence(lang(), i, type));
    const text = (f: Field, props: Record<string, string | boolean> = {}) =>
      draftInput(this.draft, f, props);
    const controls: Record<Field, HTMLInputElement | HTMLSelectElement> = {
      fullName: text('fullName', { autocomplete: 'off', spellcheck: false }),
      documentType: draftSelect(
        this.draft,
        'documentType',
        DOCUMENT_TYPES.map((d) => ({ value: d, label: documentName(d) })),
        () => this.render(),
      ),
      documentNumber: text('documentNumber', { spellcheck: false, autocapitalize: 'characters' }),
      issuingPlace: text('issuingPlace'),
      dateOfBirth: text('dateOfBirth', { type: 'date', max: '9999-12-31' }),
      nationality: text('nationality'),
    };
    return h(
      'form',
      {
        class: 'form identity-form',
        novalidate: true,
        onsubmit: (e) => {
          e.preventDefault();
          void this.save();
        },
      },
      h(
        'div',
        { class: 'fields' },
        FIELDS.map((f) =>
          fieldBlock('identity', {
            name: f,
            label: t(`identity.${f}`),
            control: controls[f],
            hint: f === 'documentNumber' ? t('doc.example', { x: NUMBER_EXAMPLES[type] }) : null,
            errors: errorsOf(f),
          }),
        ),
      ),
      this.otherIssues.length === 0
        ? null
        : h(
            'p',
            { class: 'field-error', role: 'alert' },
            this.otherIssues.map((i) => `${i.path}: ${issueSentence(lang(), i)}`).join(' '),
          ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'submit', class: 'btn btn-gold', 'data-focus': 'save-identity' },
          t('identity.save'),
        ),
      ),
    );
  }

  private async save(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const type = isDocumentType(this.draft.documentType) ? this.draft.documentType : 'other';
      const saved = await recordIdentity(this.player.id, { ...this.draft, documentType: type });
      this.identity = saved;
      this.draft = draftOf(saved);
      this.issues = new Map();
      this.otherIssues = [];
      this.render();
      toast(t('identity.saved', { name: this.player.displayName, version: saved.version }), 'ok');
      await this.load();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'identity_invalid') {
        const sorted = issuesByField(error.issues, FIELDS);
        this.issues = sorted.byField;
        this.otherIssues = sorted.other;
        this.render();
        // The first field to correct takes the keyboard, its problem read with it.
        const first = FIELDS.find((f) => sorted.byField.has(f));
        if (first !== undefined) document.getElementById(`identity-${first}`)?.focus();
      }
      toastError(error);
    } finally {
      this.busy = false;
    }
  }
}

const draftOf = (i: Identity): Record<Field, string> => ({
  fullName: i.fullName,
  documentType: i.documentType,
  documentNumber: i.documentNumber,
  issuingPlace: i.issuingPlace,
  dateOfBirth: i.dateOfBirth,
  nationality: i.nationality,
});
