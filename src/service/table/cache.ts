/**
 * The tables this node has loaded, each as of the last commit it saw. A batch
 * starts from the cached table when its version is the row's, else rebuilds it
 * from the row's header and the journal (round-snapshot.ts).
 */
import type { RollKeyring } from '../../dice/roll-key.js';
import type { Store, TableRecord } from '../../ledger/index.js';
import { roundExposure, type RoundState, type TableConfig } from '../../table/index.js';
import { loadRoundState, type RoundHeader } from '../round-snapshot.js';
import { loadedHeader, parseStoredHeader } from '../stored-header.js';
import { readStoredSettings, type TableSettings, toTableConfig } from '../table-settings.js';
import type { TableSnapshot } from './types.js';

/** A table as a commit leaves it, with a copy of its round's exposure for readers. */
export function tableSnapshot(
  version: number,
  settings: TableSettings,
  config: TableConfig,
  state: RoundState,
  header: RoundHeader,
): TableSnapshot {
  // A copy: the round's own book moves on with the next transition.
  const book = roundExposure(config, state).clone();
  return { version, settings, config, state, header, book };
}

export class TableCache {
  private readonly tables = new Map<string, TableSnapshot>();

  constructor(
    private readonly store: Store,
    private readonly rollKeys: RollKeyring,
  ) {}

  /** The table as of the last commit this node saw, reloaded when another node has moved it. */
  async snapshot(tableId: string): Promise<TableSnapshot | undefined> {
    const record = await this.store.getTable(tableId);
    if (record === undefined) return undefined;
    const loaded = await this.of(record);
    // A batch may have committed a newer version while the row was read: keep the newer.
    const current = this.tables.get(tableId);
    if (current === undefined || current.version <= loaded.version)
      this.tables.set(tableId, loaded);
    return loaded;
  }

  /** The table at the version of `record`: the cached one when it is that version. */
  async of(record: TableRecord): Promise<TableSnapshot> {
    const cached = this.tables.get(record.id);
    return cached !== undefined && cached.version === record.version ? cached : this.load(record);
  }

  set(snapshot: TableSnapshot): void {
    this.tables.set(snapshot.settings.tableId, snapshot);
  }

  /** Forgets a table whose batch failed: the next one reloads it. */
  forget(tableId: string): void {
    this.tables.delete(tableId);
  }

  private async load(record: TableRecord): Promise<TableSnapshot> {
    const settings = readStoredSettings(record.config, `table ${record.id}`);
    const config = toTableConfig(settings);
    const header = loadedHeader(parseStoredHeader(record.state, record.id), this.rollKeys);
    const state = await loadRoundState(this.store, record.id, header);
    return tableSnapshot(record.version, settings, config, state, header);
  }
}
