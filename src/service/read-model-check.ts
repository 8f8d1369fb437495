/**
 * The audit of the read models: each state kept beside the journal (today a
 * table's fairness monitor, `read_models`) is rebuilt from the journal up to
 * the seq it was kept at and must match it. (The indexes of migration 5 are
 * the database's own and need no check.)
 */
import type { FairnessMonitorConfig } from '../compliance/index.js';
import type { Store } from '../ledger/index.js';
import type { AuditFailure } from './audit.js';
import { fairnessModel, HOLD_P_VALUE, keptMonitor, rebuildMonitor } from './fairness.js';

/** The first kept state that the journal does not rebuild, or null when all match. */
export async function checkReadModels(store: Store): Promise<AuditFailure | null> {
  for (const tableId of await store.listTables()) {
    const model = await store.getReadModel(fairnessModel(tableId));
    if (model === undefined) continue;
    const failure = (message: string): AuditFailure => ({
      check: 'read-model',
      seq: model.seq,
      message: `${fairnessModel(tableId)} kept at entry ${model.seq}: ${message}`,
    });
    let config: FairnessMonitorConfig;
    let kept;
    try {
      config = (model.value as { monitor: { config: FairnessMonitorConfig } }).monitor.config;
      kept = keptMonitor(model, config, HOLD_P_VALUE);
    } catch (error) {
      return failure(`unreadable (${error instanceof Error ? error.message : String(error)})`);
    }
    if (kept === undefined) return failure('unreadable');
    const rebuilt = await rebuildMonitor(
      store,
      tableId,
      config,
      HOLD_P_VALUE,
      undefined,
      model.seq,
    );
    // Alerts (and the holds that cover them) are journaled after the roll that raised them,
    // so only the counts are compared.
    const counts = (t: typeof kept | undefined) => {
      if (t === undefined) return null;
      const { activeAlerts: _alerts, ...rest } = t.monitor.snapshot();
      return JSON.stringify({ ...rest, diceChanges: t.diceChanges });
    };
    if (counts(rebuilt) !== counts(kept)) return failure('differs from the journal');
  }
  return null;
}
