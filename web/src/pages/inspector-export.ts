/**
 * The inspector's export and its check (docs/export-format.md): the file a
 * regulator takes away, downloaded from GET /api/v1/journal/export, and the
 * verifier of `node verifier/cussec-verify.mjs` (the same file, bundled) run
 * here on a file the inspector picks. The file is read in this browser and
 * never uploaded; SHA-256 comes from @noble/hashes, as the player's seal check
 * takes it (crypto.subtle is missing where the page is not a secure context).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import {
  createVerifier,
  type Host,
  type Summary,
  type Verdict,
} from '../../../verifier/cussec-verify.mjs';
import { getFile } from '../api/http.js';
import type { TableSummary } from '../api/types.js';
import { type Key } from '../i18n/dict.js';
import { t } from '../i18n/i18n.js';
import { formatMoney } from '../logic/money.js';
import { h, replaceChildren } from '../ui/dom.js';
import { toastError } from '../ui/status.js';
import { panel, shortHex } from '../ui/widgets.js';

/** The browser's SHA-256 for the verifier: incremental, over bytes. */
const BROWSER_SHA256: Host = {
  sha256: () => {
    const h256 = sha256.create();
    return { update: (bytes) => void h256.update(bytes), hex: () => bytesToHex(h256.digest()) };
  },
};

/** A file downloaded: its name and size, and what its header says it holds (docs/export-format.md). */
interface Downloaded {
  readonly file: string;
  readonly bytes: number;
  readonly range: { readonly fromSeq: number; readonly toSeq: number };
  readonly head: { readonly seq: number; readonly hash: string };
}

/** What the panel shows of a file being checked, or checked. */
type Check =
  | { readonly state: 'reading'; readonly name: string; readonly pct: number }
  | { readonly state: 'done'; readonly name: string; readonly verdict: Verdict };

export interface ExportPanel {
  readonly el: HTMLElement;
  /** Draws the panel again (new tables, another language), keeping what was typed and checked. */
  render(tables: readonly TableSummary[]): void;
}

/**
 * `canExport`: the download is the inspector's (GET /journal/export); a
 * supervisor, who reads this page too, may still check a file given to them.
 */
export function exportPanel(canExport: boolean): ExportPanel {
  const el = h('div', { class: 'export-panel' });
  const form = { from: '', to: '', table: '' };
  let tables: readonly TableSummary[] = [];
  let busy = false;
  let downloaded: Downloaded | null = null;
  let check: Check | null = null;

  const draw = (): void =>
    replaceChildren(
      el,
      canExport ? panel(t('export.title'), downloadForm()) : null,
      panel(t('export.verifyTitle'), verifyForm()),
    );

  const seqField = (key: 'from' | 'to', label: Key): HTMLElement[] => [
    h('label', { for: `export-${key}` }, t(label)),
    h('input', {
      class: 'input',
      id: `export-${key}`,
      type: 'number',
      min: 1,
      step: 1,
      inputmode: 'numeric',
      value: form[key],
      'data-focus': `export-${key}`,
      oninput: (e) => {
        form[key] = (e.target as HTMLInputElement).value.trim();
      },
    }),
  ];

  function downloadForm(): HTMLElement {
    return h(
      'div',
      { class: 'form' },
      h('p', { class: 'small muted' }, t('export.intro')),
      h(
        'div',
        { class: 'form-grid' },
        ...seqField('from', 'export.from'),
        ...seqField('to', 'export.to'),
        h('p', { class: 'small muted' }, t('export.whole')),
        h('label', { for: 'export-table' }, t('app.table')),
        h(
          'select',
          {
            class: 'input',
            id: 'export-table',
            'data-focus': 'export-table',
            onchange: (e) => {
              form.table = (e.target as HTMLSelectElement).value;
            },
          },
          h('option', { value: '', selected: form.table === '' }, t('export.allTables')),
          tables.map((x) =>
            h('option', { value: x.id, selected: x.id === form.table }, `${x.id} · ${x.name}`),
          ),
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'btn btn-gold',
            disabled: busy,
            'data-focus': 'export-download',
            onclick: () => void download(),
          },
          t(busy ? 'export.downloading' : 'export.download'),
        ),
      ),
      downloaded === null ? null : downloadedView(downloaded),
    );
  }

  async function download(): Promise<void> {
    const query = new URLSearchParams();
    for (const key of ['from', 'to'] as const) {
      if (form[key] === '') continue;
      if (!/^[1-9]\d{0,14}$/.test(form[key])) return toastError(new Error(t('export.badSeq')));
      query.set(key, form[key]);
    }
    if (form.table !== '') query.set('table', form.table);
    busy = true;
    downloaded = null;
    draw();
    try {
      const { blob, fileName } = await getFile(`/journal/export?${query.toString()}`);
      const file = fileName ?? 'cussec-export.ndjson';
      save(blob, file);
      // The header, the file's first line, names the range and the journal's head it was read at.
      const first = (await blob.slice(0, 4_096).text()).split('\n')[0]!;
      const header = JSON.parse(first) as Pick<Downloaded, 'range' | 'head'>;
      downloaded = { file, bytes: blob.size, range: header.range, head: header.head };
    } catch (error) {
      toastError(error);
    } finally {
      busy = false;
      draw();
    }
  }

  function verifyForm(): HTMLElement {
    const input = h('input', {
      type: 'file',
      id: 'export-file',
      accept: '.ndjson,application/x-ndjson',
      // The browser's own picker speaks the browser's language: the label is the button.
      class: 'sr-only',
      onchange: (e) => {
        const file = (e.target as HTMLInputElement).files?.[0];
        if (file !== undefined) void verify(file);
      },
    });
    return h(
      'div',
      { class: 'form' },
      h('p', { class: 'small muted' }, t('export.verifyIntro')),
      input,
      h('label', { for: 'export-file', class: 'btn file-label' }, t('export.pick')),
      check === null ? null : checkView(check),
    );
  }

  async function verify(file: File): Promise<void> {
    check = { state: 'reading', name: file.name, pct: 0 };
    draw();
    const verifier = createVerifier(BROWSER_SHA256);
    const reader = file.stream().getReader();
    let read = 0;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      read += chunk.value.length;
      check = {
        state: 'reading',
        name: file.name,
        pct: Math.floor((100 * read) / (file.size || 1)),
      };
      draw();
      if (!verifier.write(chunk.value)) {
        await reader.cancel();
        break;
      }
    }
    check = { state: 'done', name: file.name, verdict: verifier.end() };
    draw();
  }

  return {
    el,
    render(next) {
      tables = next;
      draw();
    },
  };
}

/** The file just downloaded, and the head to note: what ties the file to the floor. */
function downloadedView(d: Downloaded): HTMLElement {
  const { file, bytes, range, head } = d;
  const size = byteSize(bytes);
  return h(
    'div',
    { role: 'status' },
    h(
      'p',
      { class: 'verify verify-ok' },
      t('export.downloaded', { file, size, from: range.fromSeq, to: range.toSeq }),
    ),
    h('p', { class: 'small' }, t('export.head', { seq: head.seq }), ' ', shortHex(head.hash)),
  );
}

function checkView(check: Check): HTMLElement {
  if (check.state === 'reading')
    return h(
      'p',
      { class: 'small', role: 'status' },
      t('export.checking', { file: check.name, pct: check.pct }),
      h('progress', { max: 100, value: check.pct, class: 'export-progress' }),
    );
  const { verdict } = check;
  if (verdict.ok)
    return h(
      'div',
      { class: 'export-verdict' },
      h(
        'p',
        { class: 'verify verify-ok', role: 'status' },
        '✔ ',
        t('export.ok', { file: check.name }),
      ),
      summaryList(verdict.summary),
    );
  return h(
    'div',
    { class: 'export-verdict', role: 'alert' },
    h(
      'p',
      { class: 'verify verify-bad' },
      '✖ ',
      verdict.seq === null
        ? t('export.failLine', { line: verdict.line })
        : t('export.failAt', { seq: verdict.seq, line: verdict.line }),
    ),
    h('p', {}, t(`verifier.${verdict.code}`)),
    h(
      'details',
      { class: 'raw' },
      h('summary', {}, t('export.detail')),
      h('pre', { class: 'hex-block' }, verdict.message),
    ),
  );
}

/** What the verifier checked, line by line, in the page's language. */
function summaryList(s: Summary): HTMLElement {
  const sum = (counts: Record<string, number>): number =>
    Object.values(counts).reduce((a, b) => a + b, 0);
  const money = (minor: number): string => formatMoney(minor, s.currency);
  const items = [
    s.ledger === 'whole'
      ? t('export.sum.whole')
      : t('export.sum.range', { from: s.range.fromSeq, to: s.range.toSeq }),
    s.table === null ? null : t('export.sum.table', { table: s.table }),
    h(
      'span',
      {},
      t('export.sum.chain', { n: s.entries, anchor: s.anchor.seq, last: s.last.seq }),
      ' ',
      shortHex(s.last.hash),
    ),
    s.contextEntries === 0 ? null : t('export.sum.context', { n: s.contextEntries }),
    t('export.sum.byRule', { n: sum(s.byRule) }),
    t('export.sum.chainOnly', { n: sum(s.chainOnly) }),
    t('export.sum.rounds', { n: s.rounds, bets: s.betsSettled }),
    t('export.sum.money', { staked: money(s.stakesMinor), returned: money(s.returnsMinor) }),
    t('export.sum.seals', { n: s.reveals + s.voidRolls }),
    t('export.sum.transfers', { n: s.transfers }),
    s.accounts === null ? null : t('export.sum.accounts', { n: s.accounts }),
    t('export.sum.adoptions', { n: s.adoptions }),
    t('export.sum.forfeits', { n: s.forfeits }),
  ];
  const marked = s.marked.map((m) =>
    h(
      'li',
      { class: 'export-marked' },
      t('export.sum.marked', {
        table: m.tableId,
        n: m.rounds,
        mark: t(
          m.mark === 'demonstration' ? 'export.mark.demonstration' : 'export.mark.simulation',
        ),
      }),
    ),
  );
  return h(
    'ul',
    { class: 'export-summary' },
    items.map((item) => (item === null ? null : h('li', {}, item))),
    marked,
  );
}

/** Saves bytes under a name through the browser's download. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: name, class: 'sr-only' });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the URL once the click's task has run.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "84 KB", "1.2 MB": a file's size for a person. */
function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
