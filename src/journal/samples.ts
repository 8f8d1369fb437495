/**
 * One valid payload of every entry type, for tests: the map is typed by the
 * union, so a new entry type does not compile until it has a sample here.
 * Free of vitest, like the other fixtures.
 */
import { DEFAULT_PAYTABLE } from '../rules/index.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import type { JournalInput } from './entry.js';
import type { JournalPayloads, JournalRecord, JournalType } from './entries.js';

const T = 'T1';
const base = { tableId: T, roundNo: 1, rollNo: 1, atMs: 1_000 };
const bet = { betId: 'b1', playerId: 'p1', spot: 'big', stakeMinor: 1_000, rollNo: 1 };
const hex = 'ab'.repeat(32);
const options = {
  shaker: 'electronic' as const,
  layoutCount: 1,
  displayBoard: true,
  announceAloud: false,
  paytable: DEFAULT_PAYTABLE,
};
const basis = { computedHolidayYears: [], calendarNote: null };
const alert = { tableId: T, span: 'window' as const, test: 'faces' as const, rolls: 200 };
const settings = simulatedTableSettings(T);

export const SAMPLE_PAYLOADS: { readonly [K in JournalType]: JournalPayloads[K] } = {
  'dome-covered': { type: 'dome-covered', ...base, newRound: true, croupierId: 'c1' },
  'latches-fastened': { type: 'latches-fastened', ...base, croupierId: null },
  'lever-pulled': { type: 'lever-pulled', ...base, pullNo: 1, croupierId: 'c1' },
  'dice-shaken': {
    type: 'dice-shaken',
    ...base,
    method: 'electronic',
    commitmentHex: hex,
    croupierId: 'c1',
  },
  'betting-opened': {
    type: 'betting-opened',
    ...base,
    commitmentHex: hex,
    deadlineMs: 31_000,
    displayBoardLit: false,
    standingBets: [bet],
    croupierId: 'c1',
  },
  'bet-placed': { type: 'bet-placed', ...base, bet, totalStakeMinor: 1_000 },
  'bet-withdrawn': { type: 'bet-withdrawn', ...base, bet, totalStakeMinor: 0 },
  'bell-rung': {
    type: 'bell-rung',
    ...base,
    automatic: false,
    betCount: 1,
    totalStakeMinor: 1_000,
    croupierId: 'c1',
  },
  'dome-lifted': { type: 'dome-lifted', ...base, croupierId: 'c1' },
  'roll-voided': {
    type: 'roll-voided',
    ...base,
    reason: 'stacked',
    croupierId: 'c1',
    nextRollNo: 2,
    voidedRoll: { dice: [1, 2, 3], nonceHex: hex, commitmentHex: hex },
  },
  'dice-read': { type: 'dice-read', ...base, dice: [4, 5, 6], croupierId: 'c1' },
  'dice-revealed': {
    type: 'dice-revealed',
    ...base,
    dice: [4, 5, 6],
    nonceHex: hex,
    commitmentHex: hex,
    croupierId: null,
  },
  'round-settled': {
    type: 'round-settled',
    ...base,
    dice: [4, 5, 6],
    winningSpots: ['big'],
    returnsMinor: [2_000],
    totalStakeMinor: 1_000,
    totalReturnedMinor: 2_000,
  },
  'prizes-paid': {
    type: 'prizes-paid',
    ...base,
    payoutCount: 1,
    totalReturnedMinor: 2_000,
    croupierId: 'c1',
  },
  'house-options-proposed': {
    type: 'house-options-proposed',
    tableId: T,
    on: '2026-01-02',
    proposalId: 'P1',
    options,
    adoptionDate: '2026-02-02',
    requestDate: '2026-01-02',
    proposedBy: 's1',
    baseVersion: 1,
    ...basis,
  },
  'dicj-authorization-recorded': {
    type: 'dicj-authorization-recorded',
    tableId: T,
    on: '2026-01-10',
    proposalId: 'P1',
    reference: 'DICJ 1/2026',
    authorizationDate: '2026-01-09',
    inspectorId: 'i1',
    ...basis,
  },
  'house-options-adopted': {
    type: 'house-options-adopted',
    tableId: T,
    on: '2026-02-02',
    proposalId: 'P1',
    version: 2,
    options,
    adoptedBy: 's1',
    authorizationReference: 'DICJ 1/2026',
    supersededProposalIds: [],
    ...basis,
  },
  'house-options-withdrawn': {
    type: 'house-options-withdrawn',
    tableId: T,
    on: '2026-01-03',
    proposalId: 'P1',
    withdrawnBy: 's1',
    reason: null,
  },
  'house-options-refused': {
    type: 'house-options-refused',
    tableId: T,
    on: '2026-01-03',
    command: 'adopt',
    proposalId: 'P1',
    code: 'table_mid_round',
    article: '8',
    message: 'between rounds only',
    ...basis,
  },
  'fairness-alert-raised': {
    type: 'fairness-alert-raised',
    ...alert,
    rollSeq: 200,
    diceSetId: null,
    statistic: 40.5,
    df: 5,
    pValue: 1e-7,
    alertPValue: 1e-4,
  },
  'fairness-alert-cleared': {
    type: 'fairness-alert-cleared',
    ...alert,
    rollSeq: 300,
    diceSetId: null,
    pValue: 0.5,
    reason: 'recovered',
  },
  'table-created': { settings, createdBy: 's1' },
  'table-settings-changed': { type: 'table-settings-changed', settings, changedBy: 's1' },
  'dice-changed': {
    type: 'dice-changed',
    tableId: T,
    diceSetId: 'set-2',
    changedBy: 's1',
    on: '2026-01-04',
    reason: null,
  },
  'table-held': {
    type: 'table-held',
    tableId: T,
    on: '2026-01-04',
    reason: 'fairness alert',
    article: '1.1',
    alert: { span: 'window', test: 'faces', pValue: 1e-12, rollSeq: 200 },
    holdPValue: 1e-9,
  },
  'table-hold-released': {
    type: 'table-hold-released',
    tableId: T,
    on: '2026-01-05',
    how: 'acknowledged',
    by: 's1',
    note: null,
  },
  'user-created': { id: 'u1', username: 'alice', role: 'player', createdBy: 's1' },
  'password-changed': { userId: 'u1', by: 'u1' },
  'password-reset': { userId: 'u1', by: 's1' },
  'user-disabled': { userId: 'u1', by: 's1' },
  'user-enabled': { userId: 'u1', by: 's1' },
  'session-revoked': { userId: 'u1', by: 's1' },
  'table-opened': { by: 's1' },
  'table-closed': { by: 's1' },
  deposit: { playerId: 'p1', amountMinor: 100, cashierId: 'k1', transferId: 'deposit:1' },
  withdrawal: { playerId: 'p1', amountMinor: 100, cashierId: 'k1', transferId: 'withdrawal:1' },
  'floor-settings-changed': { settings: { cageConfirmationAboveMinor: 1_000_000 }, by: 's1' },
  'identity-recorded': {
    userId: 'p1',
    version: 1,
    documentType: 'hk-id',
    documentDigest: hex,
    fields: ['fullName', 'documentNumber'],
    kind: 'real',
    by: 'k1',
  },
  'exclusion-recorded': {
    orderId: 'X1',
    kind: 'self',
    dicjReference: 'DICJ/EXC/2026/1',
    documentType: 'hk-id',
    documentDigest: hex,
    from: '2026-01-10',
    to: '2028-01-09',
    by: 'i1',
  },
  'exclusion-revocation-requested': {
    orderId: 'X1',
    requestedOn: '2026-03-01',
    effectiveOn: '2026-03-31',
    by: 'i1',
  },
  'worker-cause-recorded': {
    causeId: 'W1',
    documentType: 'macau-id',
    documentDigest: hex,
    kind: 'training',
    approvalReference: 'HR/2026/7',
    from: '2026-03-01',
    to: '2026-03-05',
    by: 's1',
  },
  'large-transaction-recorded': {
    id: 'deposit:k1',
    playerId: 'p1',
    documentDigest: hex,
    amountMinor: 50_000_000,
    kind: 'deposit',
    reason: 'single',
    sighted: true,
    by: 'k1',
    tableId: null,
  },
  'suspicion-flagged': {
    flagId: 'F1',
    rule: 'structuring',
    playerId: 'p1',
    details: { deposits: 2 },
    journalSeqs: [4, 9],
  },
  'suspicion-reviewed': { flagId: 'F1', decision: 'closed', reason: 'known customer', by: 'co1' },
  'winnings-forfeited': {
    tableId: T,
    roundNo: 1,
    playerId: 'p1',
    stakesMinor: 1_000,
    returnsMinor: 2_000,
    forfeitedMinor: 1_000,
    transferId: 'forfeit:T1:1:p1',
  },
  'holiday-year-loaded': {
    list: {
      year: 2026,
      source: 'test',
      official: true,
      days: [{ date: '2026-01-01', name: 'New Year', kind: 'holiday' }],
    },
    loadedBy: 's1',
  },
};

/** The sample record of a type. */
export function sampleRecord(type: JournalType): JournalRecord {
  // The map holds, under each type, that type's payload.
  return { type, payload: SAMPLE_PAYLOADS[type] } as JournalRecord;
}

/** A sample entry to append, of a table (or of the house, for null). */
export function sampleInput(tableId: string | null, type: JournalType = 'deposit'): JournalInput {
  return { tableId, ...sampleRecord(type) };
}

/** A deposit entry made distinct by `n` (its player, amount and transfer). */
export function depositInput(tableId: string | null, n: number): JournalInput {
  return {
    tableId,
    type: 'deposit',
    payload: { playerId: `p${n}`, amountMinor: n, cashierId: 'k1', transferId: `deposit:${n}` },
  };
}
