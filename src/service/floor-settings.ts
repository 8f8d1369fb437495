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
import type { Store } from '../ledger/index.js';

const amountMinor = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const floorSettingsSchema = z.strictObject({
  /**
   * The cage asks the cashier to confirm a deposit or withdrawal of more than
   * this, in minor units of the house currency (null: it never asks).
   */
  cageConfirmationAboveMinor: amountMinor.nullable(),
});

export type FloorSettings = z.infer<typeof floorSettingsSchema>;

export const DEFAULT_FLOOR_SETTINGS: FloorSettings = { cageConfirmationAboveMinor: null };

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
  return store.transaction(async (tx) => {
    const current = await readFloorSettings(store);
    const settings = withChange(current.settings, change);
    const [entry] = await tx.appendJournal([
      { tableId: null, type: 'floor-settings-changed', payload: { settings, by } },
    ]);
    return { settings, seq: entry!.seq, atMs: entry!.atMs, by };
  });
}
