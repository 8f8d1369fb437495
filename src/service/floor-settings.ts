/**
 * The floor's settings: values a supervisor sets once for the whole house, which
 * every node reads alike. A setting is one field of `floorSettingsSchema` and
 * its default in DEFAULT_FLOOR_SETTINGS (the compiler asks for both); a change
 * is journaled (`floor-settings-changed`, the whole settings and who set them)
 * and the newest such entry is what is in force, so every node of a floor reads
 * the same value from the one journal. An entry written before a setting
 * existed reads with that setting's default.
 */
import { z } from 'zod';
import { DEFAULT_LARGE_CASH_THRESHOLD_MINOR } from '../compliance/index.js';
import type { Currency, Store } from '../ledger/index.js';
import { PeopleRefusal } from './people.js';

const amountMinor = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const floorSettingsSchema = z.strictObject({
  /**
   * The cage asks the cashier to confirm a deposit or withdrawal of more than
   * this, in minor units of the house currency (null: it never asks).
   */
  cageConfirmationAboveMinor: amountMinor.nullable(),
  /**
   * Instrução 1/2016: a transaction of this much or more (alone, or with the
   * player's other cash of the gaming day) needs the identity checked and
   * recorded, in minor units of the house currency. Null: the law's figure
   * (MOP 500,000, or its equivalent HKD 485,000). A house may be stricter,
   * never laxer: a figure above the law's is refused.
   */
  largeCashThresholdMinor: amountMinor.nullable(),
});

export type FloorSettings = z.infer<typeof floorSettingsSchema>;

export const DEFAULT_FLOOR_SETTINGS: FloorSettings = {
  cageConfirmationAboveMinor: null,
  largeCashThresholdMinor: null,
};

/** The large-transaction threshold in force (Instrução 1/2016): the setting, or the law's. */
export const largeCashThresholdOf = (settings: FloorSettings, currency: Currency): number =>
  settings.largeCashThresholdMinor ?? DEFAULT_LARGE_CASH_THRESHOLD_MINOR[currency];

/** A change, and a journaled entry's settings: any of the settings (those left out keep their value). */
export const floorSettingsChange = floorSettingsSchema.partial();
export type FloorSettingsChange = z.infer<typeof floorSettingsChange>;

/** The settings a change or an entry leaves, over the ones before it. */
export const withChange = (before: FloorSettings, change: FloorSettingsChange): FloorSettings => ({
  ...before,
  ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)),
});

/** The settings in force and the entry that set them (none: the defaults). */
export interface FloorSettingsState {
  readonly settings: FloorSettings;
  readonly seq: number | null;
  readonly atMs: number | null;
  readonly by: string | null;
}

export async function readFloorSettings(store: Store): Promise<FloorSettingsState> {
  const entry = await store.readNewestFloorSettings();
  if (entry?.type !== 'floor-settings-changed')
    return { settings: DEFAULT_FLOOR_SETTINGS, seq: null, atMs: null, by: null };
  const settings = withChange(DEFAULT_FLOOR_SETTINGS, entry.payload.settings);
  return { settings, seq: entry.seq, atMs: entry.atMs, by: entry.payload.by };
}

/** Sets some of the settings (journaled with who set them); the settings in force after. */
export async function changeFloorSettings(
  store: Store,
  change: FloorSettingsChange,
  by: string,
): Promise<FloorSettingsState> {
  const threshold = change.largeCashThresholdMinor;
  const law = DEFAULT_LARGE_CASH_THRESHOLD_MINOR[store.currency];
  if (threshold != null && threshold > law)
    throw new PeopleRefusal(
      'threshold_above_law',
      `the large-transaction threshold may not be above the law's ${law} minor units of ${store.currency} (Instrução 1/2016)`,
      'Instrução 1/2016',
    );
  return store.transaction(async (tx) => {
    const current = await readFloorSettings(store);
    const settings = withChange(current.settings, change);
    const [entry] = await tx.appendJournal([
      { tableId: null, type: 'floor-settings-changed', payload: { settings, by } },
    ]);
    return { settings, seq: entry!.seq, atMs: entry!.atMs, by };
  });
}
