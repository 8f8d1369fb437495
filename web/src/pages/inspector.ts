/**
 * The inspector's page (read-only): the journal and its hash-chain check, game
 * recall, the paytable with exact odds and the house options (Art. 8), and the
 * fairness statistics (Art. 1.1), and what the staff did to accounts and
 * tables (who, to whom, when); who may play (Lei 10/2012; Instrução 1/2016):
 * the exclusion register, the large-transaction register and the suspicion
 * flags with their decisions; and who read whose identity (Lei 8/2005, the
 * inspector's only). Tabs keep each view on one screen.
 */
import {
  fairness,
  journal,
  recall,
  staffActions,
  tables,
  tableView,
  verifyJournal,
} from '../api/endpoints.js';
import { LiveTable } from '../api/live.js';
import type {
  Fairness,
  JournalEntry,
  Me,
  RecalledRound,
  StaffAction,
  TableSummary,
  TableView,
} from '../api/types.js';
import { announceFairnessAlert } from '../app/fairness-alert.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { h, replaceChildren } from '../ui/dom.js';
import { shell } from '../ui/shell.js';
import { toastError } from '../ui/status.js';
import {
  fairnessView,
  journalTable,
  paytableView,
  recallView,
  staffTable,
  verifyLine,
} from './inspector-panels.js';
import { exportPanel } from './inspector-export.js';
import type { Page } from './page.js';
import { ExclusionRegister } from './people-exclusions.js';
import {
  FlagQueue,
  IdentityReadsLog,
  LargeTransactionRegister,
  NameBook,
  type Section,
} from './people-registers.js';

type Tab = 'journal' | 'recall' | 'paytable' | 'fairness' | 'staff' | 'export' | 'people' | 'reads';
const ALL_TABS: readonly Tab[] = [
  'journal',
  'recall',
  'paytable',
  'fairness',
  'staff',
  'export',
  'people',
  'reads',
];
const STAFF_PAGE = 200;
const TAB_TITLE = {
  staff: 'inspector.staff',
  journal: 'inspector.journal',
  recall: 'inspector.recall',
  paytable: 'inspector.paytable',
  fairness: 'inspector.fairness',
  export: 'inspector.export',
  people: 'inspector.people',
  reads: 'inspector.reads',
} as const;
const JOURNAL_PAGE = 200;
const RECALL_DEFAULT = 10;

export function inspectorPage(me: Me, tableId: string | undefined): Page {
  const main = h('main', { class: 'page page-inspector' });
  const el = shell({ me, tableId: tableId ?? null, active: 'inspector' }, main);
  const state = {
    tab: 'journal' as Tab,
    tables: [] as TableSummary[],
    tableId: tableId ?? null,
    entries: [] as JournalEntry[],
    verified: null as Awaited<ReturnType<typeof verifyJournal>> | null,
    view: null as TableView | null,
    recall: null as RecalledRound[] | null,
    rounds: RECALL_DEFAULT,
    fairness: null as Fairness | null,
    staff: [] as StaffAction[],
  };
  const body = h('div', { class: 'tab-body', role: 'tabpanel', id: 'inspector-panel' });
  // Kept across renders: what the inspector typed and the file checked stay.
  const exporter = exportPanel(me.user.role === 'inspector');
  const inspector = me.user.role === 'inspector';
  // The flags and the identity reads are the inspector's (a supervisor reads this page too).
  const TABS = inspector ? ALL_TABS : ALL_TABS.filter((x) => x !== 'reads');
  let people: Section[] | null = null;
  let reads: IdentityReadsLog | null = null;
  const names = new NameBook(me);
  const registers = { me, currency: () => state.tables[0]?.currency ?? '', names };
  let namesRead = false;
  /** Made when first shown, then kept: the lists read and what was typed stay. */
  function sections(tab: 'people' | 'reads'): Section[] {
    if (!namesRead) {
      namesRead = true;
      // The staff's names, once read, replace their ids in what is shown.
      void names.load().then(() => {
        if (state.tab === 'people' || state.tab === 'reads') render();
      });
    }
    if (tab === 'reads') return [(reads ??= new IdentityReadsLog(registers))];
    people ??= [
      new ExclusionRegister(true),
      new LargeTransactionRegister(registers),
      ...(inspector ? [new FlagQueue(registers, false)] : []),
    ];
    return people;
  }

  const load = async (what: () => Promise<void>): Promise<void> => {
    try {
      await what();
    } catch (error) {
      toastError(error);
    }
    render();
  };
  const loadTable = (): Promise<void> =>
    load(async () => {
      if (state.tableId === null) return;
      const id = state.tableId;
      state.view = await tableView(id);
      if (state.tab === 'recall') state.recall = await recall(id, state.rounds);
      if (state.tab === 'fairness') state.fairness = await fairness(id);
      if (state.tab === 'staff') state.staff = await staffActions(STAFF_PAGE);
    });
  const moreJournal = (): Promise<void> =>
    load(async () => {
      const after = state.entries.at(-1)?.seq ?? 0;
      state.entries = [...state.entries, ...(await journal(after, JOURNAL_PAGE))];
    });

  const tabButton = (tab: Tab): HTMLElement =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `tab-${tab}`,
        class: 'tab',
        'aria-selected': String(state.tab === tab),
        'aria-controls': 'inspector-panel',
        tabindex: state.tab === tab ? 0 : -1,
        'data-focus': `tab:${tab}`,
        onclick: () => {
          state.tab = tab;
          void loadTable();
        },
        onkeydown: (e) => {
          // Arrow keys move between tabs, as the ARIA tabs pattern expects.
          const k = (e as KeyboardEvent).key;
          if (k !== 'ArrowRight' && k !== 'ArrowLeft') return;
          const i = TABS.indexOf(state.tab) + (k === 'ArrowRight' ? 1 : TABS.length - 1);
          state.tab = TABS[i % TABS.length]!;
          void loadTable().then(() => document.getElementById(`tab-${state.tab}`)?.focus());
        },
      },
      t(TAB_TITLE[tab]),
    );

  const tablePicker = (): HTMLElement =>
    h(
      'label',
      { class: 'picker' },
      t('inspector.tables'),
      ' ',
      h(
        'select',
        {
          class: 'input',
          'data-focus': 'table-picker',
          onchange: (e) => {
            state.tableId = (e.target as HTMLSelectElement).value;
            location.hash = `#/inspector/${encodeURIComponent(state.tableId)}`;
          },
        },
        state.tables.map((x) =>
          h('option', { value: x.id, selected: x.id === state.tableId }, `${x.id} · ${x.name}`),
        ),
      ),
    );

  function tabContent(): Node {
    switch (state.tab) {
      case 'journal':
        return h(
          'div',
          {},
          h(
            'div',
            { class: 'toolbar' },
            h(
              'button',
              {
                type: 'button',
                class: 'btn btn-gold',
                'data-focus': 'verify',
                onclick: () =>
                  void load(async () => {
                    state.verified = await verifyJournal();
                  }),
              },
              t('inspector.verify'),
            ),
            state.verified === null ? null : verifyLine(state.verified),
          ),
          journalTable(state.entries),
          h(
            'button',
            {
              type: 'button',
              class: 'btn',
              'data-focus': 'more',
              onclick: () => void moreJournal(),
            },
            t('inspector.more'),
          ),
        );
      case 'recall':
        return h(
          'div',
          {},
          h(
            'div',
            { class: 'toolbar' },
            h(
              'label',
              {},
              t('inspector.rounds'),
              ' ',
              h('input', {
                class: 'input',
                type: 'number',
                min: 1,
                max: 100,
                value: state.rounds,
                'data-focus': 'rounds',
                onchange: (e) => {
                  state.rounds = Math.max(
                    1,
                    Math.min(100, Number((e.target as HTMLInputElement).value) || RECALL_DEFAULT),
                  );
                },
              }),
            ),
            h(
              'button',
              { type: 'button', class: 'btn btn-gold', onclick: () => void loadTable() },
              t('inspector.load'),
            ),
          ),
          recallView(state.recall, state.view),
        );
      case 'paytable':
        return state.view === null
          ? h('p', { class: 'muted' }, t('app.loading'))
          : paytableView(state.view);
      case 'fairness':
        return fairnessView(state.fairness, state.view);
      case 'staff':
        return staffTable(state.staff);
      case 'export':
        exporter.render(state.tables);
        return exporter.el;
      case 'people':
      case 'reads': {
        const shown = sections(state.tab);
        for (const s of shown) s.render();
        return h(
          'div',
          { class: 'registers' },
          shown.map((s) => s.el),
        );
      }
    }
  }

  function render(): void {
    replaceChildren(
      main,
      h(
        'div',
        { class: 'table-bar' },
        h('h1', { class: 'table-name' }, t('nav.inspector')),
        state.tables.length > 0 ? tablePicker() : null,
      ),
      h(
        'div',
        { class: 'tabs', role: 'tablist', 'aria-label': t('nav.inspector') },
        TABS.map(tabButton),
      ),
      body,
    );
    replaceChildren(body, tabContent());
    body.setAttribute('aria-labelledby', `tab-${state.tab}`);
  }

  // Art. 1.1: the table's fairness alerts arrive on its socket as they are raised.
  let live: LiveTable | null = null;
  const watchAlerts = (id: string): void => {
    // The summary feed: an inspector's socket needs none of the players' bets.
    live = new LiveTable(
      id,
      {
        onHello: () => undefined,
        onEvent: () => undefined,
        onStatus: () => undefined,
        onAlert: (alert) => {
          announceFairnessAlert(alert);
          if (state.tab === 'fairness') void loadTable();
        },
      },
      'summary',
    );
    live.start();
  };

  render();
  void load(async () => {
    state.tables = await tables();
    state.tableId ??= state.tables[0]?.id ?? null;
    if (state.tableId !== null) watchAlerts(state.tableId);
    await loadTable();
    await moreJournal();
  });
  const stopLanguage = onLanguage(render);
  return {
    el,
    destroy: () => {
      stopLanguage();
      live?.stop();
    },
  };
}
