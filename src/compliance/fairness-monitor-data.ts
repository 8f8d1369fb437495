/**
 * The plain data of the fairness monitor: its configuration, the events it
 * emits and accepts, and its saved state, each with a zod schema because they
 * come back from storage and from the journal.
 */
import { z } from 'zod';
import { REASON_LENGTH_MAX } from './house-options-commands.js';
import { isIsoDate, type IsoDate } from './iso-date.js';
import type { FairnessTest } from './span-counts.js';

export interface FairnessMonitorConfig {
  /** The sliding window: how many of the last rolls it holds. */
  readonly windowRolls: number;
  /** A condition is raised when its p-value is below this. */
  readonly alertPValue: number;
  /** An active condition clears when its p-value is at or above this (hysteresis). */
  readonly clearPValue: number;
}

export const DEFAULT_MONITOR_CONFIG: FairnessMonitorConfig = Object.freeze({
  windowRolls: 10_000,
  alertPValue: 0.001,
  clearPValue: 0.01,
});

/** The totals test needs 1,080 rolls (5 expected in the rarest cell), so no shorter window. */
export const WINDOW_ROLLS_MIN = 1_080;
/** One byte a roll: a million-roll window is a megabyte per table. */
export const WINDOW_ROLLS_MAX = 1_000_000;

const configSchema = z
  .strictObject({
    windowRolls: z.number().int().min(WINDOW_ROLLS_MIN).max(WINDOW_ROLLS_MAX),
    alertPValue: z.number().gt(0).lt(0.5),
    clearPValue: z.number().gt(0).lt(1),
  })
  .refine((c) => c.clearPValue > c.alertPValue, 'clearPValue must be above alertPValue');

/** The configuration with defaults filled in; throws a RangeError naming the problem. */
export function parseMonitorConfig(partial: Partial<FairnessMonitorConfig>): FairnessMonitorConfig {
  const parsed = configSchema.safeParse({ ...DEFAULT_MONITOR_CONFIG, ...partial });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(`fairness monitor config: ${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data;
}

type Span = 'window' | 'since-dice-change';

interface AlertBase {
  readonly tableId: string;
  readonly span: Span;
  readonly test: FairnessTest;
  /** Rolls in the span when the event happened. */
  readonly rolls: number;
  /** The monitor's roll counter at the event. */
  readonly rollSeq: number;
  readonly diceSetId: string | null;
}

export interface FairnessAlertRaisedEvent extends AlertBase {
  readonly type: 'fairness-alert-raised';
  readonly statistic: number;
  readonly df: number;
  readonly pValue: number;
  readonly alertPValue: number;
}

export interface FairnessAlertClearedEvent extends AlertBase {
  readonly type: 'fairness-alert-cleared';
  /** The p-value that cleared it; null when new dice cleared it. */
  readonly pValue: number | null;
  readonly reason: 'recovered' | 'dice-changed';
}

export type FairnessMonitorEvent = FairnessAlertRaisedEvent | FairnessAlertClearedEvent;

/** Physical dice replaced at a table (lever tables, Art. 1.2): a journal event. */
export interface DiceChangedEvent {
  readonly type: 'dice-changed';
  readonly tableId: string;
  /** The new set's identifier (serial numbers of the dice, or the house's set id). */
  readonly diceSetId: string;
  readonly changedBy: string;
  readonly on: IsoDate;
  readonly reason: string | null;
}

const id = z.string().min(1).max(64);

export const diceChangedSchema = z.strictObject({
  type: z.literal('dice-changed'),
  tableId: id,
  diceSetId: id,
  changedBy: id,
  on: z.string().refine(isIsoDate, 'must be a YYYY-MM-DD date'),
  reason: z.string().max(REASON_LENGTH_MAX).nullable(),
});

/** Validates a `dice-changed` event (from a console or the journal); throws a RangeError. */
export function parseDiceChangedEvent(json: unknown): DiceChangedEvent {
  const parsed = diceChangedSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(`dice-changed: ${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data;
}

export const SNAPSHOT_FORMAT = 'cussec/fairness-monitor/v1';

const spanSchema = z.enum(['window', 'since-dice-change']);
const count = z.number().int().min(0);

const snapshotSchema = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  tableId: id,
  config: configSchema,
  rollSeq: count,
  window: z.base64(),
  sinceDiceChange: z.strictObject({
    diceSetId: id.nullable(),
    rolls: count,
    faces: z.array(count),
    totals: z.array(count),
  }),
  activeAlerts: z.array(
    z.strictObject({
      span: spanSchema,
      test: z.enum(['faces', 'totals']),
      raisedAtRollSeq: count,
      pValue: z.number(),
    }),
  ),
});

export type FairnessMonitorSnapshot = z.infer<typeof snapshotSchema>;

export function parseSnapshot(json: unknown): FairnessMonitorSnapshot {
  const parsed = snapshotSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(`fairness monitor snapshot: ${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data;
}
