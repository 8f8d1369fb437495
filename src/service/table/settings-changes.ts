/**
 * The table's own changes inside a batch: new limits, adopted house options
 * (Art. 8), records that belong between rounds, and the fairness hold
 * (Art. 1.1). When a change may happen is the round machine's to say (its
 * `table_mid_round`, which `can()` sees); this module applies an accepted
 * change's content: it parses the new settings and queues the journal entries.
 */
import type { JournalInput } from '../../journal/index.js';
import {
  holdTable,
  releaseHold,
  type RoundState,
  setTableOpen,
  type TableConfig,
} from '../../table/index.js';
import {
  parseTableSettings,
  settingsDocument,
  type TableSettings,
  toTableConfig,
} from '../table-settings.js';
import {
  type CommandOutcome,
  type HoldRequest,
  type OpenRequest,
  refused,
  type ReleaseRequest,
  type SettingsRequest,
} from './types.js';

/** The table as a batch changes it, command after command. */
export interface TableDraft {
  settings: TableSettings;
  config: TableConfig;
  state: RoundState;
  settingsChanged: boolean;
  /** The hold was set or released: the header is saved even without round events. */
  stateChanged: boolean;
  /** Journal entries that are not round events, written before the batch's events. */
  readonly entries: JournalInput[];
}

const accepted: CommandOutcome = { ok: true, events: [] };

/**
 * Applies a change the round machine has accepted between rounds. New settings
 * are parsed as a whole, so a change that leaves them invalid is refused
 * (`invalid_table_settings`) and changes nothing.
 */
export function applySettingsChange(draft: TableDraft, change: SettingsRequest): CommandOutcome {
  switch (change.type) {
    case 'change-limits': {
      const settings = parseTableSettings(
        { ...settingsDocument(draft.settings), ...change.limits },
        draft.settings.authorization ?? null,
      );
      if (!settings.ok) return { ok: false, rejection: settings.error };
      adopt(draft, settings.value, change.supervisorId);
      return accepted;
    }
    case 'change-house-options': {
      // Art. 8: the adopted options carry the authorization of their proposal.
      const settings = parseTableSettings(
        { ...settingsDocument(draft.settings), ...change.options },
        change.authorization,
      );
      if (!settings.ok) return { ok: false, rejection: settings.error };
      draft.entries.push(...change.entries);
      adopt(draft, settings.value, change.changedBy);
      return accepted;
    }
    case 'record-between-rounds':
      draft.entries.push(...change.entries);
      if (change.releasesHold !== undefined && draft.state.hold !== null) {
        draft.state = releaseHold(draft.state);
        draft.stateChanged = true;
        draft.entries.push(change.releasesHold);
      }
      return accepted;
  }
}

/** Art. 1.1: a hold takes effect in any phase and stops the next round (src/table/hold.ts). */
export function applyHold(draft: TableDraft, change: HoldRequest | ReleaseRequest): CommandOutcome {
  if (change.type === 'hold-table') {
    if (draft.state.hold !== null) return accepted;
    draft.state = holdTable(draft.state, change.hold);
  } else {
    if (draft.state.hold === null)
      return refused('table_not_held', 'the table is not held: there is nothing to release');
    draft.state = releaseHold(draft.state);
  }
  draft.stateChanged = true;
  draft.entries.push(...change.entries);
  return accepted;
}

/** Opens or closes the table for play (Art. 2: no round starts on a closed table). */
export function applyOpen(draft: TableDraft, change: OpenRequest, nowMs: number): CommandOutcome {
  const next = setTableOpen(draft.state, change.open, nowMs);
  if (next === draft.state) return accepted;
  draft.state = next;
  draft.stateChanged = true;
  draft.entries.push({
    tableId: draft.config.tableId,
    type: change.open ? 'table-opened' : 'table-closed',
    payload: { by: change.supervisorId },
  });
  return accepted;
}

/** Puts new settings in force and journals them as table-settings-changed. */
function adopt(draft: TableDraft, settings: TableSettings, changedBy: string): void {
  draft.settings = settings;
  draft.config = toTableConfig(settings);
  draft.settingsChanged = true;
  draft.entries.push({
    tableId: settings.tableId,
    type: 'table-settings-changed',
    payload: { type: 'table-settings-changed', settings, changedBy },
  });
}
