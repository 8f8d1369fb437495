/**
 * The audit: recomputes the journal's hash chain, replays every round through
 * settle(), checks that the ledger holds exactly the transfers the journal
 * implies, and that every balance adds up. The first failure is reported with
 * the journal entry (or transfer) it concerns.
 *
 * It reads one snapshot (AuditDb.snapshot), so a floor may play while it runs,
 * and it says which entry it checked up to. It may start from a checkpoint an
 * earlier audit verified: the replay's state there (tables' standing bets,
 * commitments and paytables, the balances the transfers add up to) is stored
 * with the checkpoint, so the audit reads only the entries after it and the
 * transfers they imply. Run it through audit() (audit-runner.ts), which keeps
 * it off the event loop.
 */
import { verifyReveal } from '../dice/index.js';
import {
  type ChainPoint,
  GENESIS_POINT,
  isRoundEventEntry,
  JournalEntryInvalid,
  type JournalEntry,
  verifyChain,
} from '../journal/index.js';
import {
  type AuditCheckpointRow,
  CAGE_ACCOUNT_ID,
  type Currency,
  mayGoNegative,
  type SnapshotReader,
  type Transfer,
  type TransferInput,
  walletAccount,
} from '../ledger/index.js';
import { compilePaytable, type CompiledPaytable, type Paytable, settle } from '../rules/index.js';
import { type PlacedBet, type RoundEvent, type Settlement, settlementOf } from '../table/index.js';
import { forfeitsOf, forfeitTransfer, transfersFor } from './money.js';
import { StandingBets } from './round-snapshot.js';

/** What an audit checks, each a way it can fail. */
export const AUDIT_CHECKS = [
  'chain',
  'settlement',
  'commitment',
  'ledger',
  'balance',
  'read-model',
] as const;

export type AuditCheck = (typeof AUDIT_CHECKS)[number];

export interface AuditFailure {
  readonly check: AuditCheck;
  /** The journal entry at fault, when there is one. */
  readonly seq: number | null;
  readonly message: string;
}

export interface AuditSummary {
  /** Counts over the whole journal and ledger, checkpoint included. */
  readonly entries: number;
  readonly rounds: number;
  readonly transfers: number;
  readonly accounts: number;
  /** Where this audit started: a verified checkpoint, or seq 0 (the whole journal). */
  readonly from: ChainPoint;
  /** The last entry of the snapshot, checked: the next audit may start here. */
  readonly checkedTo: ChainPoint;
}

export type AuditResult =
  ({ readonly ok: true } & AuditSummary) | { readonly ok: false; readonly failure: AuditFailure };

/**
 * Where to start: the genesis (a full audit), the newest stored checkpoint, or
 * one the caller names by seq and hash (its own record of an earlier audit).
 */
export type AuditFrom = 'genesis' | 'latest' | ChainPoint;

/** The caller named a checkpoint that is not stored, or whose hash differs. */
export class AuditCheckpointError extends Error {
  readonly code = 'audit_checkpoint_unknown';
}

const PAGE = 5_000;
/** Transfer ids looked up per query. */
const ID_BATCH = 1_000;

interface TableReplay {
  paytableSettings: Paytable;
  paytable: CompiledPaytable;
  bets: StandingBets;
  settlement: Settlement | null;
  commitments: Map<number, string>;
}

/** The replay's state after a checkpoint's entry, as stored with the checkpoint. */
interface ReplayState {
  readonly entries: number;
  readonly rounds: number;
  readonly transfers: number;
  readonly tables: Record<
    string,
    {
      readonly paytable: Paytable;
      readonly bets: PlacedBet[];
      readonly withdrawnIds: string[];
      readonly settlement: Settlement | null;
      readonly commitments: [number, string][];
    }
  >;
  /** Each account's balance as the transfers so far add it up. */
  readonly balances: Record<string, number>;
}

const EMPTY_STATE: ReplayState = { entries: 0, rounds: 0, transfers: 0, tables: {}, balances: {} };

interface Expected {
  readonly transfer: TransferInput;
  readonly seq: number;
}

class Failed extends Error {
  constructor(readonly failure: AuditFailure) {
    super(failure.message);
  }
}

const fail = (check: AuditCheck, seq: number | null, message: string): never => {
  throw new Failed({ check, seq, message });
};

export interface SnapshotAudit {
  readonly result: AuditResult;
  /** What to store when the audit passed, so that the next one can start at checkedTo. */
  readonly checkpoint?: AuditCheckpointRow;
}

/** Audits one snapshot from `from`; run it inside AuditDb.snapshot. */
export async function auditSnapshot(
  reader: SnapshotReader,
  currency: Currency,
  from: AuditFrom,
  nowMs: number,
): Promise<SnapshotAudit> {
  const { point, state } = await startingPoint(reader, from);
  const chain = await verifyChain(reader, point);
  if (!chain.ok)
    return {
      result: {
        ok: false,
        failure: {
          check: 'chain',
          seq: chain.seq,
          message: `journal entry ${chain.seq}: ${chain.failure}`,
        },
      },
    };
  try {
    const replay = await replayJournal(reader, point.seq, state, currency);
    const balances = new Map(Object.entries(state.balances));
    const matched = await matchLedger(reader, replay.expected, balances);
    const transfers = state.transfers + matched;
    await checkTransferCount(reader, transfers, replay.expected, point);
    const accounts = await checkBalances(reader, balances);
    const checkedTo = { seq: chain.lastSeq, hash: chain.lastHash };
    const next: ReplayState = {
      entries: state.entries + replay.entries,
      rounds: state.rounds + replay.rounds,
      transfers,
      tables: saveTables(replay.tables),
      balances: Object.fromEntries(balances),
    };
    return {
      result: {
        ok: true,
        entries: next.entries,
        rounds: next.rounds,
        transfers,
        accounts,
        from: point,
        checkedTo,
      },
      checkpoint: { ...checkedTo, stateJson: JSON.stringify(next), verifiedAtMs: nowMs },
    };
  } catch (error) {
    if (error instanceof Failed) return { result: { ok: false, failure: error.failure } };
    // An entry whose hash holds but whose data the journal's schema refuses.
    if (error instanceof JournalEntryInvalid) {
      const failure = { check: 'chain' as const, seq: error.seq, message: error.message };
      return { result: { ok: false, failure } };
    }
    throw error;
  }
}

async function startingPoint(
  reader: SnapshotReader,
  from: AuditFrom,
): Promise<{ point: ChainPoint; state: ReplayState }> {
  if (from === 'genesis') return { point: GENESIS_POINT, state: EMPTY_STATE };
  const row = await reader.auditCheckpoint(from === 'latest' ? 'latest' : from.seq);
  if (row === undefined) {
    if (from === 'latest') return { point: GENESIS_POINT, state: EMPTY_STATE };
    throw new AuditCheckpointError(`no verified checkpoint at journal entry ${from.seq}`);
  }
  if (from !== 'latest' && row.hash !== from.hash)
    throw new AuditCheckpointError(
      `the checkpoint at journal entry ${from.seq} has hash ${row.hash}, not ${from.hash}`,
    );
  return {
    point: { seq: row.seq, hash: row.hash },
    state: JSON.parse(row.stateJson) as ReplayState,
  };
}

function loadTables(state: ReplayState): Map<string, TableReplay> {
  const tables = new Map<string, TableReplay>();
  for (const [id, t] of Object.entries(state.tables)) {
    const bets = new StandingBets();
    bets.list = t.bets;
    bets.withdrawnIds = t.withdrawnIds;
    tables.set(id, {
      paytableSettings: t.paytable,
      paytable: compilePaytable(t.paytable),
      bets,
      settlement: t.settlement,
      commitments: new Map(t.commitments),
    });
  }
  return tables;
}

function saveTables(tables: Map<string, TableReplay>): ReplayState['tables'] {
  const saved: Record<string, ReplayState['tables'][string]> = {};
  for (const [id, t] of tables)
    saved[id] = {
      paytable: t.paytableSettings,
      bets: t.bets.list,
      withdrawnIds: t.bets.withdrawnIds,
      settlement: t.settlement,
      commitments: [...t.commitments],
    };
  return saved;
}

async function replayJournal(
  reader: SnapshotReader,
  afterSeq: number,
  state: ReplayState,
  currency: Currency,
): Promise<{
  tables: Map<string, TableReplay>;
  expected: Map<string, Expected>;
  entries: number;
  rounds: number;
}> {
  const tables = loadTables(state);
  const expected = new Map<string, Expected>();
  let entries = 0;
  let rounds = 0;
  for (let from = afterSeq + 1; ;) {
    const page = await reader.readJournal({ fromSeq: from, limit: PAGE });
    for (const entry of page) {
      entries++;
      for (const transfer of replayEntry(tables, entry, currency)) {
        expected.set(transfer.id, { transfer, seq: entry.seq });
      }
      if (entry.type === 'round-settled') rounds++;
    }
    if (page.length < PAGE) break;
    from = page[page.length - 1]!.seq + 1;
  }
  return { tables, expected, entries, rounds };
}

/** What one entry implies, after checking what can be checked of it. */
function replayEntry(
  tables: Map<string, TableReplay>,
  entry: JournalEntry,
  currency: Currency,
): TransferInput[] {
  if (entry.tableId === null) return cageTransfers(entry, currency);
  if (entry.type === 'table-created' || entry.type === 'table-settings-changed') {
    const { settings } = entry.payload;
    const table = tables.get(entry.tableId);
    const paytable = compilePaytable(settings.paytable);
    if (table === undefined)
      tables.set(entry.tableId, {
        paytableSettings: settings.paytable,
        paytable,
        bets: new StandingBets(),
        settlement: null,
        commitments: new Map(),
      });
    else {
      table.paytableSettings = settings.paytable;
      table.paytable = paytable;
    }
    return [];
  }
  const table =
    tables.get(entry.tableId) ??
    fail(
      'settlement',
      entry.seq,
      `journal entry ${entry.seq}: table ${entry.tableId} was never created`,
    );
  if (entry.type === 'winnings-forfeited') return replayForfeit(table, entry, currency);
  return isRoundEventEntry(entry)
    ? replayRoundEvent(table, entry.seq, entry.payload, currency)
    : [];
}

/**
 * Lei 10/2012, art. 11: a forfeit is the player's net winnings of the round
 * just paid, recomputed from the replayed bets and settlement (forfeitsOf).
 */
function replayForfeit(
  table: TableReplay,
  entry: Extract<JournalEntry, { type: 'winnings-forfeited' }>,
  currency: Currency,
): TransferInput[] {
  const p = entry.payload;
  const [want] = forfeitsOf(
    p.tableId,
    p.roundNo,
    { bets: table.bets.list, settlement: table.settlement },
    new Set([p.playerId]),
  );
  const same =
    want !== undefined &&
    p.tableId === entry.tableId &&
    want.stakesMinor === p.stakesMinor &&
    want.returnsMinor === p.returnsMinor &&
    want.forfeitedMinor === p.forfeitedMinor &&
    want.transferId === p.transferId;
  if (!same)
    return fail(
      'settlement',
      entry.seq,
      `journal entry ${entry.seq}: the forfeit of ${p.playerId} in round ${p.roundNo} is not their net winnings (Lei 10/2012, art. 11)`,
    );
  return [forfeitTransfer(want, currency)];
}

function replayRoundEvent(
  table: TableReplay,
  seq: number,
  event: RoundEvent,
  currency: Currency,
): TransferInput[] {
  table.bets.apply(event);
  switch (event.type) {
    case 'dome-covered':
      if (event.newRound) {
        table.settlement = null;
        table.commitments.clear();
      }
      break;
    case 'betting-opened':
      if (event.commitmentHex !== null) table.commitments.set(event.rollNo, event.commitmentHex);
      break;
    case 'dice-revealed':
      checkCommitment(table, seq, event);
      break;
    case 'round-settled':
      table.settlement = checkSettlement(table, seq, event);
      break;
    default:
      break;
  }
  return transfersFor(event, { bets: table.bets.list, settlement: table.settlement }, currency);
}

function checkCommitment(
  table: TableReplay,
  seq: number,
  event: Extract<RoundEvent, { type: 'dice-revealed' }>,
): void {
  const commitmentHex = table.commitments.get(event.rollNo);
  if (commitmentHex !== event.commitmentHex)
    fail(
      'commitment',
      seq,
      `journal entry ${seq}: the revealed roll names a commitment that betting did not open with`,
    );
  const verdict = verifyReveal({
    tableId: event.tableId,
    roundNo: event.roundNo,
    rollNo: event.rollNo,
    dice: event.dice,
    nonceHex: event.nonceHex,
    commitmentHex: event.commitmentHex,
  });
  if (!verdict.ok)
    fail(
      'commitment',
      seq,
      `journal entry ${seq}: round ${event.roundNo} roll ${event.rollNo} does not match its commitment (${verdict.error.code})`,
    );
}

/**
 * Art. 6 again, from the journal alone: the bets standing and the dice give
 * each bet's return, which must be the one recorded, as must the totals.
 */
function checkSettlement(
  table: TableReplay,
  seq: number,
  event: Extract<RoundEvent, { type: 'round-settled' }>,
): Settlement {
  const bets = table.bets.list;
  const settled = settle(table.paytable, event.dice, bets);
  const returns = event.returnsMinor;
  let stake = 0;
  let returned = 0;
  let same = Array.isArray(returns) && returns.length === settled.length;
  for (let i = 0; same && i < settled.length; i++) {
    same = returns[i] === settled[i]!.returnedMinor;
    stake += settled[i]!.stakeMinor;
    returned += settled[i]!.returnedMinor;
  }
  if (!same || stake !== event.totalStakeMinor || returned !== event.totalReturnedMinor) {
    fail(
      'settlement',
      seq,
      `journal entry ${seq}: round ${event.roundNo} of table ${event.tableId} does not settle to what was recorded`,
    );
  }
  return settlementOf(event);
}

function cageTransfers(entry: JournalEntry, currency: Currency): TransferInput[] {
  if (entry.type !== 'deposit' && entry.type !== 'withdrawal') return [];
  const { playerId, transferId, amountMinor } = entry.payload;
  const wallet = walletAccount(playerId).id;
  const [debit, credit] =
    entry.type === 'deposit' ? [CAGE_ACCOUNT_ID, wallet] : [wallet, CAGE_ACCOUNT_ID];
  return [
    {
      id: transferId,
      debitAccountId: debit,
      creditAccountId: credit,
      amountMinor,
      currency,
      kind: entry.type,
      reference: `player:${playerId}`,
    },
  ];
}

/**
 * Looks up the transfers the replayed entries imply, by id, and adds them to
 * the balances. Transfers the journal does not imply are found by the count.
 */
async function matchLedger(
  reader: SnapshotReader,
  expected: Map<string, Expected>,
  balances: Map<string, number>,
): Promise<number> {
  const ids = [...expected.keys()];
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    for (const t of await reader.transfersByIds(ids.slice(i, i + ID_BATCH))) {
      const want = expected.get(t.id)!;
      if (!sameTransfer(t, want.transfer))
        fail(
          'ledger',
          want.seq,
          `journal entry ${want.seq}: transfer ${t.id} differs from what the entry implies`,
        );
      found.add(t.id);
      balances.set(t.debitAccountId, (balances.get(t.debitAccountId) ?? 0) - t.amountMinor);
      balances.set(t.creditAccountId, (balances.get(t.creditAccountId) ?? 0) + t.amountMinor);
    }
  }
  let missing: Expected | undefined;
  for (const [id, want] of expected)
    if (!found.has(id) && (missing === undefined || want.seq < missing.seq)) missing = want;
  if (missing !== undefined)
    fail(
      'ledger',
      missing.seq,
      `journal entry ${missing.seq}: implies transfer ${missing.transfer.id}, which the ledger lacks`,
    );
  return found.size;
}

/**
 * Every transfer must be implied by an entry: the ledger holds as many as the
 * journal implies. When it holds more, a full audit names the first stray one;
 * from a checkpoint only the count is known (the older ids are not kept).
 */
async function checkTransferCount(
  reader: SnapshotReader,
  implied: number,
  expected: Map<string, Expected>,
  from: ChainPoint,
): Promise<void> {
  const held = await reader.countTransfers();
  if (held === implied) return;
  if (from.seq === 0)
    for (let after = 0; ;) {
      const page = await reader.listTransfers({ afterSeq: after, limit: PAGE });
      for (const t of page)
        if (!expected.has(t.id))
          fail(
            'ledger',
            null,
            `transfer ${t.id} (ledger seq ${t.seq}) is not implied by any journal entry`,
          );
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.seq;
    }
  fail(
    'ledger',
    null,
    `the ledger holds ${held} transfers but the journal implies ${implied} (checked from journal entry ${from.seq})`,
  );
}

const sameTransfer = (t: Transfer, w: TransferInput): boolean =>
  t.debitAccountId === w.debitAccountId &&
  t.creditAccountId === w.creditAccountId &&
  t.amountMinor === w.amountMinor &&
  t.kind === w.kind &&
  t.reference === w.reference;

async function checkBalances(
  reader: SnapshotReader,
  balances: Map<string, number>,
): Promise<number> {
  let accounts = 0;
  let sum = 0;
  for (let afterId = ''; ;) {
    const page = await reader.listAccounts({ afterId, limit: PAGE });
    for (const account of page) {
      accounts++;
      sum += account.balanceMinor;
      const fromTransfers = balances.get(account.id) ?? 0;
      if (account.balanceMinor !== fromTransfers)
        fail(
          'balance',
          null,
          `account ${account.id} holds ${account.balanceMinor} but its transfers add up to ${fromTransfers}`,
        );
      if (!mayGoNegative(account.kind) && account.balanceMinor < 0)
        fail('balance', null, `account ${account.id} is below zero`);
    }
    if (page.length < PAGE) break;
    afterId = page[page.length - 1]!.id;
  }
  if (sum !== 0) fail('balance', null, `the balances of the ledger add up to ${sum}, not 0`);
  return accounts;
}
