/**
 * Every kind of journal entry, as one discriminated union keyed by the entry's
 * type, and the schema each stored payload is parsed with when it leaves the
 * store (toJournalEntry in src/ledger/sql-columns.ts is the one place).
 *
 * `JournalPayloads` is the one definition: each entry type names the payload
 * it carries, and SCHEMAS must hold, for each of them, a zod schema whose output
 * is that payload (the compiler checks it). Where a module owns the payload's
 * type (the round machine's events, the house-options workflow, the fairness
 * monitor), the entry names that type; where it is the journal's own (the
 * cage, accounts, a table's creation), it is written here.
 *
 * The schemas are strict and transform nothing: a parsed payload is the stored
 * one, key for key, so its canonical JSON and therefore its hash are unchanged.
 * A stored entry that does not parse is a JournalEntryInvalid naming its seq.
 */
import { z } from 'zod';
import { canonicalJson } from './canonical-json.js';
import type { JournalEntry, StoredEntry } from './entry.js';
import { readStoredPayload, StoredPayloadInvalid } from './stored-payload.js';
import {
  type DiceChangedEvent,
  diceChangedSchema,
  type FairnessMonitorEvent,
} from '../compliance/fairness-monitor-data.js';
import { isIsoDate } from '../compliance/iso-date.js';
import { isRejectionCode } from '../compliance/rejections.js';
import { type HolidayYear, holidayYearSchema } from '../compliance/holiday-list.js';
import type { JournaledHouseOptionsEvent } from '../compliance/house-options-state.js';
import type { TableHeldEvent, TableHoldReleasedEvent } from '../service/fairness.js';
import { type FloorSettingsChange, floorSettingsChange } from '../service/floor-settings.js';
import { type StoredTableSettings, storedTableSettingsSchema } from '../service/table-settings.js';
import { parsePaytable, type Paytable } from '../rules/index.js';
import type { EventType, RoundEvent } from '../table/types.js';

/** Who did something to a user or a session: a user id, or a program's name. */
export interface UserActPayload {
  readonly userId: string;
  readonly by: string;
}

/** A supervisor opened or closed a table for play (Art. 2). */
export interface TableOpenPayload {
  readonly by: string;
}

export interface UserCreatedPayload {
  readonly id: string;
  readonly username: string;
  readonly role: 'player' | 'croupier' | 'supervisor' | 'cashier' | 'inspector' | 'compliance';
  readonly createdBy: string;
}

/** A cage movement; the ledger holds its transfer under `transferId`. */
export interface CagePayload {
  readonly playerId: string;
  readonly amountMinor: number;
  readonly cashierId: string;
  readonly transferId: string;
  /** The wallet's balance right after the move (absent from entries written before it was kept). */
  readonly balanceAfterMinor?: number;
}

/**
 * Who may play (Lei 10/2012; Instrução 1/2016; src/service/people.ts). Lei
 * 8/2005: no entry holds a document number, only its keyed digest
 * (`documentDigest`, HMAC-SHA256 hex), so an inspector with the document can
 * find its entries and an export carries no number in clear.
 */
export interface IdentityRecordedPayload {
  readonly userId: string;
  /** 1 when first recorded, +1 on every correction. */
  readonly version: number;
  readonly documentType: string;
  readonly documentDigest: string;
  /** The fields this version changed. */
  readonly fields: readonly string[];
  /** real, demonstration or simulated. */
  readonly kind: string;
  readonly by: string;
}

/** Lei 10/2012, arts. 2 and 6: an exclusion order entered in the register. */
export interface ExclusionRecordedPayload {
  readonly orderId: string;
  readonly kind: string;
  readonly dicjReference: string;
  readonly documentType: string;
  readonly documentDigest: string;
  readonly from: string;
  readonly to: string;
  readonly by: string;
}

/** Lei 10/2012, art. 6: a revocation requested, effective 30 days later. */
export interface ExclusionRevocationPayload {
  readonly orderId: string;
  readonly requestedOn: string;
  readonly effectiveOn: string;
  readonly by: string;
}

/** Lei 10/2012, art. 2: a worker's legitimate cause to enter (training, an exceptional entry). */
export interface WorkerCausePayload {
  readonly causeId: string;
  readonly documentType: string;
  readonly documentDigest: string;
  readonly kind: string;
  readonly approvalReference: string;
  readonly from: string;
  readonly to: string;
  readonly by: string;
}

/** Instrução 1/2016: a transaction of the threshold or more, with the identity checked. */
export interface LargeTransactionPayload {
  readonly id: string;
  readonly playerId: string;
  readonly documentDigest: string;
  readonly amountMinor: number;
  /** deposit, withdrawal, bet or payout. */
  readonly kind: string;
  /** single, or linked (the gaming day's cash together). */
  readonly reason: string;
  /** The cashier confirmed seeing the document. */
  readonly sighted: boolean;
  readonly by: string | null;
  readonly tableId: string | null;
}

/** Instrução 1/2016: a rule raised a suspicion into the compliance officer's queue. */
export interface SuspicionFlaggedPayload {
  readonly flagId: string;
  readonly rule: string;
  readonly playerId: string;
  readonly details: Readonly<Record<string, number>>;
  readonly journalSeqs: readonly number[];
}

/** Instrução 1/2016: the compliance officer closed a flag, or reported it to the GIF. */
export interface SuspicionReviewedPayload {
  readonly flagId: string;
  readonly decision: 'closed' | 'reported';
  readonly reason: string;
  readonly by: string;
}

/**
 * Lei 10/2012, art. 11: a barred player's net winnings of a round revert to
 * the Macau SAR (docs/export-format.md: the `art11-forfeit` transfer).
 */
export interface WinningsForfeitedPayload {
  readonly tableId: string;
  readonly roundNo: number;
  readonly playerId: string;
  readonly stakesMinor: number;
  readonly returnsMinor: number;
  readonly forfeitedMinor: number;
  readonly transferId: string;
}

/** A supervisor set the floor's settings (service/floor-settings.ts): the whole settings after. */
export interface FloorSettingsChangedPayload {
  /** Every setting there was when it was written; one added since reads as its default. */
  readonly settings: FloorSettingsChange;
  readonly by: string;
}

export interface HolidayYearLoadedPayload {
  readonly list: HolidayYear;
  readonly loadedBy: string;
}

export interface TableCreatedPayload {
  readonly settings: StoredTableSettings;
  readonly createdBy?: string;
}

export interface TableSettingsChangedPayload {
  readonly type: 'table-settings-changed';
  readonly settings: StoredTableSettings;
  readonly changedBy: string;
}

/**
 * The calendar a house-options decision counted its working days with (Art. 8);
 * journals written before it was recorded lack it.
 */
export interface CalendarBasisFields {
  readonly computedHolidayYears?: readonly number[];
  readonly calendarNote?: string | null;
}

type Of<U extends { readonly type: string }, K extends U['type']> = Extract<U, { type: K }>;

/** The payload of each entry type: the union's one definition. */
export type JournalPayloads = { readonly [K in EventType]: Of<RoundEvent, K> } & {
  readonly [K in JournaledHouseOptionsEvent['type']]: Of<JournaledHouseOptionsEvent, K> &
    CalendarBasisFields;
} & { readonly [K in FairnessMonitorEvent['type']]: Of<FairnessMonitorEvent, K> } & {
  readonly 'table-created': TableCreatedPayload;
  readonly 'table-settings-changed': TableSettingsChangedPayload;
  readonly 'dice-changed': DiceChangedEvent;
  readonly 'table-held': TableHeldEvent;
  readonly 'table-hold-released': TableHoldReleasedEvent;
  readonly 'table-opened': TableOpenPayload;
  readonly 'table-closed': TableOpenPayload;
  readonly 'user-created': UserCreatedPayload;
  readonly 'password-changed': UserActPayload;
  readonly 'password-reset': UserActPayload;
  readonly 'user-disabled': UserActPayload;
  readonly 'user-enabled': UserActPayload;
  readonly 'session-revoked': UserActPayload;
  readonly deposit: CagePayload;
  readonly withdrawal: CagePayload;
  readonly 'holiday-year-loaded': HolidayYearLoadedPayload;
  readonly 'floor-settings-changed': FloorSettingsChangedPayload;
  readonly 'identity-recorded': IdentityRecordedPayload;
  readonly 'exclusion-recorded': ExclusionRecordedPayload;
  readonly 'exclusion-revocation-requested': ExclusionRevocationPayload;
  readonly 'worker-cause-recorded': WorkerCausePayload;
  readonly 'large-transaction-recorded': LargeTransactionPayload;
  readonly 'suspicion-flagged': SuspicionFlaggedPayload;
  readonly 'suspicion-reviewed': SuspicionReviewedPayload;
  readonly 'winnings-forfeited': WinningsForfeitedPayload;
};

export type JournalType = keyof JournalPayloads;

/** One entry's type and payload: the discriminated union, keyed by `type`. */
export type JournalRecord = {
  readonly [K in JournalType]: { readonly type: K; readonly payload: JournalPayloads[K] };
}[JournalType];

/** The record of one entry type. */
export type JournalRecordOf<K extends JournalType> = Extract<JournalRecord, { type: K }>;

// Building blocks. Limits are loose where the writer's own checks are strict:
// these describe what was stored, so that an old journal still reads.
const text = z.string();
const nonEmpty = z.string().min(1);
const count = z.number().int().min(0);
const integer = z.number().int();
const isoDate = z.string().refine(isIsoDate, 'must be a YYYY-MM-DD date');
/** A keyed digest (HMAC-SHA256, hex) standing for a document number. */
const digest = z.string().regex(/^[0-9a-f]{64}$/);
const face = z.literal([1, 2, 3, 4, 5, 6]);
const dice = z.tuple([face, face, face]);
const croupierId = z.string().nullable();
const eventBase = { tableId: nonEmpty, roundNo: count, rollNo: count, atMs: count };
/** A bet as the public sees it (the round events' `bet`). */
export const publicBetSchema = z.strictObject({
  betId: nonEmpty,
  playerId: nonEmpty,
  spot: nonEmpty,
  stakeMinor: count,
  rollNo: count,
});
const sealedRoll = { dice, nonceHex: text, commitmentHex: text };
const paytable = z.custom<Paytable>((v) => parsePaytable(v).ok, 'not a valid paytable');

function event<K extends string, S extends z.core.$ZodLooseShape>(type: K, shape: S) {
  return z.strictObject({ type: z.literal(type), ...eventBase, ...shape });
}

/** The round's events that carry bets, with a bet as `bet` describes it. */
function betEvents<B extends z.ZodType>(bet: B) {
  return {
    'betting-opened': event('betting-opened', {
      commitmentHex: text.nullable(),
      deadlineMs: count.nullable(),
      displayBoardLit: z.boolean(),
      standingBets: z.array(bet),
      croupierId,
    }),
    'bet-placed': event('bet-placed', { bet, totalStakeMinor: count }),
    'bet-withdrawn': event('bet-withdrawn', { bet, totalStakeMinor: count }),
  };
}

/**
 * A bet as a viewer who may not know whose it is sees it: a stake on a spot,
 * without its playerId (server/visibility.ts).
 */
const visibleBetSchema = publicBetSchema.extend({ playerId: nonEmpty.exactOptional() });

const ROUND_EVENT_SCHEMAS: { readonly [K in EventType]: z.ZodType<JournalPayloads[K]> } = {
  'dome-covered': event('dome-covered', { newRound: z.boolean(), croupierId }),
  'latches-fastened': event('latches-fastened', { croupierId }),
  'lever-pulled': event('lever-pulled', { pullNo: count, croupierId }),
  'dice-shaken': event('dice-shaken', {
    method: z.enum(['lever', 'electronic']),
    commitmentHex: text.nullable(),
    croupierId,
  }),
  ...betEvents(publicBetSchema),
  'bell-rung': event('bell-rung', {
    automatic: z.boolean(),
    betCount: count,
    totalStakeMinor: count,
    croupierId,
  }),
  'dome-lifted': event('dome-lifted', { croupierId }),
  'roll-voided': event('roll-voided', {
    reason: z.enum(['stacked', 'tilted']),
    croupierId,
    nextRollNo: count,
    voidedRoll: z.strictObject(sealedRoll).nullable(),
  }),
  'dice-read': event('dice-read', { dice, croupierId: text }),
  'dice-revealed': event('dice-revealed', { ...sealedRoll, croupierId }),
  'round-settled': event('round-settled', {
    dice,
    winningSpots: z.array(text),
    returnsMinor: z.array(count),
    totalStakeMinor: count,
    totalReturnedMinor: count,
  }),
  'prizes-paid': event('prizes-paid', {
    payoutCount: count,
    totalReturnedMinor: count,
    croupierId,
  }),
};

/** A round event as a viewer sees it (server/visibility.ts): others' bets may come without their player. */
export const visibleRoundEventSchema = z.union(
  Object.values({ ...ROUND_EVENT_SCHEMAS, ...betEvents(visibleBetSchema) }) as [
    z.ZodType,
    ...z.ZodType[],
  ],
) as z.ZodType<RoundEvent>;

const calendarBasis = {
  computedHolidayYears: z.array(integer).exactOptional(),
  calendarNote: text.nullable().exactOptional(),
};
const houseOptionsChoice = z.strictObject({
  shaker: z.enum(['lever', 'electronic']),
  layoutCount: count,
  displayBoard: z.boolean(),
  announceAloud: z.boolean(),
  paytable,
});
function decision<K extends string, S extends z.core.$ZodLooseShape>(type: K, shape: S) {
  return z.strictObject({
    type: z.literal(type),
    tableId: nonEmpty,
    on: isoDate,
    ...shape,
    ...calendarBasis,
  });
}

const HOUSE_OPTIONS_SCHEMAS: {
  readonly [K in JournaledHouseOptionsEvent['type']]: z.ZodType<JournalPayloads[K]>;
} = {
  'house-options-proposed': decision('house-options-proposed', {
    proposalId: nonEmpty,
    options: houseOptionsChoice,
    adoptionDate: isoDate,
    requestDate: isoDate,
    proposedBy: nonEmpty,
    baseVersion: count,
  }),
  'dicj-authorization-recorded': decision('dicj-authorization-recorded', {
    proposalId: nonEmpty,
    reference: nonEmpty,
    authorizationDate: isoDate,
    inspectorId: nonEmpty,
  }),
  'house-options-adopted': decision('house-options-adopted', {
    proposalId: nonEmpty,
    version: count,
    options: houseOptionsChoice,
    adoptedBy: nonEmpty,
    authorizationReference: nonEmpty,
    supersededProposalIds: z.array(nonEmpty),
  }),
  'house-options-withdrawn': decision('house-options-withdrawn', {
    proposalId: nonEmpty,
    withdrawnBy: nonEmpty,
    reason: text.nullable(),
  }),
  // Old journals spelt the code in kebab-case: journaledHouseOptionsEvent reads both.
  'house-options-refused': decision('house-options-refused', {
    command: text.nullable(),
    proposalId: text.nullable(),
    // Either spelling (journaledRejectionCode): kebab-case in journals written before snake_case.
    code: z
      .string()
      .refine((code) => isRejectionCode(code.replaceAll('-', '_')), 'not a rejection code'),
    article: text,
    message: text,
  }),
};

const span = z.enum(['window', 'since-dice-change']);
const fairnessTest = z.enum(['faces', 'totals']);
const alertBase = {
  tableId: nonEmpty,
  span,
  test: fairnessTest,
  rolls: count,
  rollSeq: count,
  diceSetId: nonEmpty.nullable(),
};

const userAct = z.strictObject({ userId: nonEmpty, by: nonEmpty });
const cage = z.strictObject({
  playerId: nonEmpty,
  amountMinor: count,
  cashierId: nonEmpty,
  transferId: nonEmpty,
  // Since migration 12: what the wallet held right after, for the cage's history and receipt.
  balanceAfterMinor: count.exactOptional(),
});

const SCHEMAS: { readonly [K in JournalType]: z.ZodType<JournalPayloads[K]> } = {
  ...ROUND_EVENT_SCHEMAS,
  ...HOUSE_OPTIONS_SCHEMAS,
  'fairness-alert-raised': z.strictObject({
    type: z.literal('fairness-alert-raised'),
    ...alertBase,
    statistic: z.number(),
    df: count,
    pValue: z.number(),
    alertPValue: z.number(),
  }),
  'fairness-alert-cleared': z.strictObject({
    type: z.literal('fairness-alert-cleared'),
    ...alertBase,
    pValue: z.number().nullable(),
    reason: z.enum(['recovered', 'dice-changed']),
  }),
  'table-created': z.strictObject({
    settings: storedTableSettingsSchema,
    createdBy: nonEmpty.exactOptional(),
  }),
  'table-settings-changed': z.strictObject({
    type: z.literal('table-settings-changed'),
    settings: storedTableSettingsSchema,
    changedBy: nonEmpty,
  }),
  'dice-changed': diceChangedSchema,
  'table-held': z.strictObject({
    type: z.literal('table-held'),
    tableId: nonEmpty,
    on: isoDate,
    reason: text,
    article: z.literal('1.1'),
    alert: z.strictObject({ span: text, test: text, pValue: z.number(), rollSeq: count }),
    holdPValue: z.number(),
  }),
  'table-hold-released': z.strictObject({
    type: z.literal('table-hold-released'),
    tableId: nonEmpty,
    on: isoDate,
    how: z.enum(['acknowledged', 'dice-changed']),
    by: nonEmpty,
    note: text.nullable(),
  }),
  'table-opened': z.strictObject({ by: nonEmpty }),
  'table-closed': z.strictObject({ by: nonEmpty }),
  'user-created': z.strictObject({
    id: nonEmpty,
    username: nonEmpty,
    role: z.enum(['player', 'croupier', 'supervisor', 'cashier', 'inspector', 'compliance']),
    createdBy: nonEmpty,
  }),
  'password-changed': userAct,
  'password-reset': userAct,
  'user-disabled': userAct,
  'user-enabled': userAct,
  'session-revoked': userAct,
  deposit: cage,
  withdrawal: cage,
  'holiday-year-loaded': z.strictObject({ list: holidayYearSchema, loadedBy: nonEmpty }),
  'floor-settings-changed': z.strictObject({ settings: floorSettingsChange, by: nonEmpty }),
  'identity-recorded': z.strictObject({
    userId: nonEmpty,
    version: count,
    documentType: nonEmpty,
    documentDigest: digest,
    fields: z.array(nonEmpty),
    kind: nonEmpty,
    by: nonEmpty,
  }),
  'exclusion-recorded': z.strictObject({
    orderId: nonEmpty,
    kind: nonEmpty,
    dicjReference: nonEmpty,
    documentType: nonEmpty,
    documentDigest: digest,
    from: isoDate,
    to: isoDate,
    by: nonEmpty,
  }),
  'exclusion-revocation-requested': z.strictObject({
    orderId: nonEmpty,
    requestedOn: isoDate,
    effectiveOn: isoDate,
    by: nonEmpty,
  }),
  'worker-cause-recorded': z.strictObject({
    causeId: nonEmpty,
    documentType: nonEmpty,
    documentDigest: digest,
    kind: nonEmpty,
    approvalReference: nonEmpty,
    from: isoDate,
    to: isoDate,
    by: nonEmpty,
  }),
  'large-transaction-recorded': z.strictObject({
    id: nonEmpty,
    playerId: nonEmpty,
    documentDigest: digest,
    amountMinor: count,
    kind: nonEmpty,
    reason: nonEmpty,
    sighted: z.boolean(),
    by: nonEmpty.nullable(),
    tableId: nonEmpty.nullable(),
  }),
  'suspicion-flagged': z.strictObject({
    flagId: nonEmpty,
    rule: nonEmpty,
    playerId: nonEmpty,
    details: z.record(z.string(), z.number()),
    journalSeqs: z.array(count),
  }),
  'suspicion-reviewed': z.strictObject({
    flagId: nonEmpty,
    decision: z.enum(['closed', 'reported']),
    reason: nonEmpty,
    by: nonEmpty,
  }),
  'winnings-forfeited': z.strictObject({
    tableId: nonEmpty,
    roundNo: count,
    playerId: nonEmpty,
    stakesMinor: count,
    returnsMinor: count,
    forfeitedMinor: count,
    transferId: nonEmpty,
  }),
};

/**
 * A journal entry as the API answers it (GET /api/v1/journal, a table's
 * events): the union, one member per type, for /openapi.json. Built from
 * SCHEMAS at run time; the two unions below are typed as the entries they
 * describe, so the web app reads an entry's payload by its type.
 */
const entryUnion = (schemas: Readonly<Record<string, z.ZodType>>): z.ZodType =>
  z.union(
    Object.entries(schemas).map(([type, payload]) =>
      z.strictObject({
        seq: count,
        tableId: nonEmpty.nullable(),
        type: z.literal(type),
        payload,
        atMs: count,
        prevHash: text,
        hash: text,
      }),
    ),
  );

export const journalEntrySchema = entryUnion(SCHEMAS) as z.ZodType<JournalEntry>;

/**
 * A journal entry as one viewer sees it (GET /api/v1/tables/:id/events): the
 * bets of others without their playerId, for who may not know whose they are.
 */
export const visibleJournalEntrySchema = entryUnion({
  ...SCHEMAS,
  ...betEvents(visibleBetSchema),
}) as z.ZodType<JournalEntry>;

/** The schema of one type's payload: where an answer is an entry's payload, it documents it. */
export function payloadSchema<K extends JournalType>(type: K): z.ZodType<JournalPayloads[K]> {
  return SCHEMAS[type];
}

/** Every entry type, in the order of the union's definition. */
export const JOURNAL_TYPES = Object.keys(SCHEMAS) as readonly JournalType[];

const SCHEMA_BY_TYPE = new Map<string, z.ZodType>(Object.entries(SCHEMAS));

export function isJournalType(type: string): type is JournalType {
  return SCHEMA_BY_TYPE.has(type);
}

/** A stored entry that does not parse: corruption, tampering, or a writer the schema does not know. */
export class JournalEntryInvalid extends Error {
  readonly code = 'journal_entry_invalid';
  constructor(
    readonly seq: number,
    readonly type: string,
    readonly problem: string,
    /** The row as stored, and its index in the page being read, when a store read it. */
    readonly stored?: StoredEntry,
    readonly position = 0,
  ) {
    super(`journal entry ${seq} (${JSON.stringify(type)}) does not parse: ${problem}`);
    this.name = 'JournalEntryInvalid';
  }
}

/**
 * A row of the journal as it leaves the store, into the union: the one place
 * a stored entry is parsed (every read of the stores and of the audit's
 * snapshot maps its rows through this; `position` is the row's index in the
 * page, as Array.map passes it).
 */
export function parseStoredEntry(row: StoredEntry, position = 0): JournalEntry {
  let payload: unknown;
  try {
    payload = readStoredPayload(row, row.payloadJson);
  } catch (error) {
    if (!(error instanceof StoredPayloadInvalid)) throw error;
    throw new JournalEntryInvalid(row.seq, row.type, error.problem, row, position);
  }
  let record: JournalRecord;
  try {
    record = parseJournalRecord(row.seq, row.type, payload);
  } catch (error) {
    if (!(error instanceof JournalEntryInvalid)) throw error;
    // The entry as hashed, whichever form its row keeps, so that verifyChain judges its hash.
    const stored = row.payloadJson.startsWith('{')
      ? row
      : { ...row, payloadJson: canonicalJson(payload) };
    throw new JournalEntryInvalid(row.seq, row.type, error.problem, stored, position);
  }
  // A literal, not a spread: the stores read entries by the thousand.
  return {
    seq: row.seq,
    tableId: row.tableId,
    type: record.type,
    payload: record.payload,
    atMs: row.atMs,
    prevHash: row.prevHash,
    hash: row.hash,
  } as JournalEntry;
}

/**
 * Parses a stored entry's type and payload (its JSON, parsed) into the union.
 * The payload comes back as it was stored, or the entry is refused.
 */
export function parseJournalRecord(seq: number, type: string, payload: unknown): JournalRecord {
  const schema = SCHEMA_BY_TYPE.get(type);
  if (schema === undefined) throw new JournalEntryInvalid(seq, type, 'unknown entry type');
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length === 0 ? 'payload' : `payload.${issue.path.join('.')}`;
    throw new JournalEntryInvalid(seq, type, `${where}: ${issue.message}`);
  }
  // The schema of `type` accepted the payload: it is that type's payload, which
  // the compiler cannot relate to the run-time key.
  return { type, payload: parsed.data } as JournalRecord;
}

/** An entry of one of the given types. */
export type JournalEntryOf<K extends JournalType> = Extract<JournalEntry, { type: K }>;

/** Whether an entry is of one of `types`. */
export function isEntryOf<K extends JournalType>(
  entry: JournalEntry,
  types: readonly K[],
): entry is JournalEntryOf<K> {
  return (types as readonly string[]).includes(entry.type);
}

const ROUND_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(ROUND_EVENT_SCHEMAS));

/** Whether an entry is one of the round machine's events (its payload is then a RoundEvent). */
export function isRoundEventEntry(entry: JournalEntry): entry is JournalEntryOf<EventType> {
  return ROUND_EVENT_TYPES.has(entry.type);
}

/** The record of a payload whose own `type` names its entry type (round events and the like). */
export function typedRecord<P extends JournalRecord['payload'] & { readonly type: JournalType }>(
  payload: P,
): JournalRecord {
  // Each such payload's type member is its entry type (the schemas' literal says so).
  return { type: payload.type, payload } as JournalRecord;
}
