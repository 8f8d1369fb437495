/**
 * A table's settings as stored with it: the house options (shaker, display
 * board, paytable — Art. 8) and the table's limits. The round machine gets them
 * compiled, as a TableConfig.
 */
import { z } from 'zod';
import {
  DEFAULT_PAYTABLE,
  err,
  ok,
  parsePaytable,
  type Paytable,
  type Result,
  compilePaytable,
} from '../rules/index.js';
import { type TableConfig, tableConfigProblems } from '../table/index.js';

export interface TableSettings {
  readonly tableId: string;
  readonly name: string;
  /** Art. 1.2 and 2.1: lever or electronic shaker (a house option, Art. 8). */
  readonly shaker: 'lever' | 'electronic';
  /** Art. 2.2: whether shaking lights the display board. */
  readonly displayBoard: boolean;
  readonly bettingTimerMs: number | null;
  readonly stakeMinorMin: number;
  readonly stakeMinorMax: number;
  readonly betsPerRoundMax: number;
  /** The most the house may lose on one round's worst outcome; a bet beyond it is refused. */
  readonly liabilityMinorMax: number;
  readonly paytable: Paytable;
}

const settingsSchema = z
  .object({
    tableId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'letters, digits, - and _ (1 to 32)'),
    name: z.string().min(1).max(64),
    shaker: z.enum(['lever', 'electronic']),
    displayBoard: z.boolean(),
    bettingTimerMs: z.number().int().min(1_000).max(600_000).nullable(),
    stakeMinorMin: z.number().int().min(1),
    stakeMinorMax: z.number().int().min(1),
    betsPerRoundMax: z.number().int().min(1).max(100_000),
    liabilityMinorMax: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    paytable: z.unknown(),
  })
  .strict();

/** The fields a table's settings have: a request naming another is malformed. */
export const TABLE_SETTINGS_FIELDS = settingsSchema.keyof().options;

export function defaultTableSettings(tableId: string, name = `Table ${tableId}`): TableSettings {
  return {
    tableId,
    name,
    shaker: 'electronic',
    displayBoard: true,
    bettingTimerMs: 30_000,
    stakeMinorMin: 1_000,
    stakeMinorMax: 1_000_000,
    betsPerRoundMax: 20_000,
    liabilityMinorMax: 500_000_000,
    paytable: DEFAULT_PAYTABLE,
  };
}

/** Checks settings (parsed JSON) and returns them, or the first problem with its article. */
export function parseTableSettings(doc: unknown): Result<TableSettings> {
  const parsed = settingsSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return err({
      code: 'invalid_table_settings',
      message: `${issue.path.join('.') || 'settings'}: ${issue.message}`,
    });
  }
  const paytable = parsePaytable(parsed.data.paytable);
  if (!paytable.ok) return paytable;
  const settings: TableSettings = { ...parsed.data, paytable: paytable.value };
  const problems = tableConfigProblems(toTableConfig(settings));
  if (problems.length > 0) return err({ code: 'invalid_table_settings', message: problems[0]! });
  return ok(settings);
}

export function toTableConfig(settings: TableSettings): TableConfig {
  return {
    tableId: settings.tableId,
    shaker: settings.shaker,
    displayBoard: settings.displayBoard,
    bettingTimerMs: settings.bettingTimerMs,
    stakeMinorMin: settings.stakeMinorMin,
    stakeMinorMax: settings.stakeMinorMax,
    betsPerRoundMax: settings.betsPerRoundMax,
    paytable: compilePaytable(settings.paytable),
  };
}
