/**
 * A table's settings as stored with it: the house options (shaker, display
 * board, paytable — Art. 8), the authorization they carry, and the table's
 * limits. The round machine gets them compiled, as a TableConfig.
 */
import { z } from 'zod';
import {
  DEFAULT_PAYTABLE,
  err,
  ok,
  parsePaytable,
  type Paytable,
  type Result,
  type RuleViolation,
  type RuleViolationCode,
  compilePaytable,
} from '../rules/index.js';
import { type TableConfig, tableConfigProblems } from '../table/index.js';

/**
 * Art. 8: what authorizes the house options in force. `dicj` is an inspector's
 * record of the DICJ's authorization of an adopted proposal; `demonstration`
 * (`cussec serve --demo`) and `simulation` (`cussec play`, tests) are marked
 * as what they are and never stand for the DICJ's.
 */
export interface OptionsAuthorization {
  readonly mark: 'dicj' | 'demonstration' | 'simulation';
  /** The DICJ's reference; for a demonstration or a simulation, a sentence saying so. */
  readonly reference: string;
  /** The date of the authorization (Macau), or of the demonstration's start. */
  readonly authorizedOn: string;
  /** The inspector who recorded it, or the program that marked it. */
  readonly recordedBy: string;
  /** The proposal it authorized; null for a demonstration or a simulation. */
  readonly proposalId: string | null;
}

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
  /** Art. 8: null until the options carry a recorded authorization; then betting may open. */
  readonly authorization: OptionsAuthorization | null;
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
    authorization: null,
  };
}

/**
 * An authorization marked as a demonstration or a simulation (never the
 * DICJ's): what `cussec serve --demo` and `cussec play` give their tables so
 * they can be played. The journal, recall and the daily report show the mark.
 */
export function markedAuthorization(
  mark: 'demonstration' | 'simulation',
  authorizedOn: string,
  recordedBy: string,
): OptionsAuthorization {
  return {
    mark,
    reference: `${mark}: not a DICJ authorization`,
    authorizedOn,
    recordedBy,
    proposalId: null,
  };
}

/** Art. 8: what an authorization is, in words; a demonstration or a simulation says so loudly. */
export function authorizationText(a: OptionsAuthorization | null): string {
  if (a === null) return 'none recorded: betting does not open';
  if (a.mark === 'dicj') return `DICJ ${a.reference} of ${a.authorizedOn}`;
  return `${a.mark.toUpperCase()}: not a DICJ authorization`;
}

/**
 * Default settings whose options carry an authorization marked as a simulation:
 * tables that tests, benches and `cussec play` run, never a casino's.
 */
export function simulatedTableSettings(
  tableId: string,
  authorizedOn = '2026-01-01',
  recordedBy = 'simulation',
): TableSettings {
  return {
    ...defaultTableSettings(tableId),
    authorization: markedAuthorization('simulation', authorizedOn, recordedBy),
  };
}

/**
 * Checks settings (parsed JSON, without `authorization`: a client never sets
 * it) and returns them with `authorization`, or the first problem with its article.
 */
export function parseTableSettings(
  doc: unknown,
  authorization: OptionsAuthorization | null,
): Result<TableSettings, RuleViolation<RuleViolationCode | 'invalid_table_settings'>> {
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
  const settings: TableSettings = { ...parsed.data, paytable: paytable.value, authorization };
  const problems = tableConfigProblems(toTableConfig(settings));
  if (problems.length > 0) return err({ code: 'invalid_table_settings', message: problems[0]! });
  return ok(settings);
}

/**
 * Settings as the journal and the table's row keep them: the client's fields,
 * a valid paytable, and the authorization, which settings stored before
 * authorizations were recorded lack. Checked, never transformed: a journal
 * entry's payload must read back as it was hashed.
 */
export const storedTableSettingsSchema = settingsSchema
  .extend({
    paytable: z.custom<Paytable>((v) => parsePaytable(v).ok, 'not a valid paytable'),
    authorization: z
      .strictObject({
        mark: z.enum(['dicj', 'demonstration', 'simulation']),
        reference: z.string(),
        authorizedOn: z.string(),
        recordedBy: z.string(),
        proposalId: z.string().nullable(),
      })
      .nullable()
      .exactOptional(),
  })
  .superRefine((settings, ctx) => {
    const { authorization, ...doc } = settings;
    const parsed = parseTableSettings(doc, authorization ?? null);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message });
  });

export type StoredTableSettings = z.infer<typeof storedTableSettingsSchema>;

/** Stored settings that do not parse: the table's row or journal entry is corrupt. */
export class StoredSettingsInvalid extends Error {
  readonly code = 'stored_settings_invalid';
  constructor(where: string, problem: string) {
    super(`stored settings of ${where} do not parse: ${problem}`);
    this.name = 'StoredSettingsInvalid';
  }
}

/**
 * Stored settings (a table row's config, or a journal entry's) as the service
 * uses them: parsed through their schema, with `authorization` null where it
 * was never recorded.
 */
export function readStoredSettings(stored: unknown, where: string): TableSettings {
  const parsed = storedTableSettingsSchema.safeParse(stored);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StoredSettingsInvalid(
      where,
      `${issue.path.join('.') || 'settings'}: ${issue.message}`,
    );
  }
  return fromStoredSettings(parsed.data);
}

/** Parsed stored settings with `authorization` null where it was never recorded. */
export function fromStoredSettings(stored: StoredTableSettings): TableSettings {
  return { ...stored, authorization: stored.authorization ?? null };
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
    liabilityMinorMax: settings.liabilityMinorMax,
    paytable: compilePaytable(settings.paytable),
    // Settings stored before authorizations were recorded have none: such a table waits for one.
    optionsAuthorized: (settings.authorization ?? null) !== null,
  };
}

/** The settings without their authorization, as `parseTableSettings` takes them back. */
export function settingsDocument(settings: TableSettings): Omit<TableSettings, 'authorization'> {
  const { authorization: _authorization, ...rest } = settings;
  return rest;
}
