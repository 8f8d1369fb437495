/**
 * The audit: recomputes the journal's hash chain, replays every round through
 * settle(), checks that the ledger holds exactly the transfers the journal
 * implies, and that every balance adds up. The first failure is reported with
 * the journal entry (or transfer) it concerns.
 */
import { verifyReveal } from '../dice/index.js';
import { type JournalEntry, verifyChain } from '../journal/index.js';
import {
  CAGE_ACCOUNT_ID,
  mayGoNegative,
  type Store,
  type Transfer,
  type TransferInput,
  walletAccount,
} from '../ledger/index.js';
import { compilePaytable, type CompiledPaytable, settle } from '../rules/index.js';
import { type RoundEvent, type Settlement, settlementOf } from '../table/index.js';
import { transfersFor } from './money.js';
import { checkReadModels } from './read-model-check.js';
import { StandingBets } from './round-snapshot.js';
import type { TableSettings } from './table-settings.js';

export type AuditCheck =
  'chain' | 'settlement' | 'commitment' | 'ledger' | 'balance' | 'read-model';

export interface AuditFailure {
  readonly check: AuditCheck;
  /** The journal entry at fault, when there is one. */
  readonly seq: number | null;
  readonly message: string;
}

export interface AuditSummary {
  readonly entries: number;
  readonly rounds: number;
  readonly transfers: number;
  readonly accounts: number;
}

export type AuditResult =
  ({ readonly ok: true } & AuditSummary) | { readonly ok: false; readonly failure: AuditFailure };

const PAGE = 5_000;

interface TableReplay {
  paytable: CompiledPaytable;
  bets: StandingBets;
  settlement: Settlement | null;
  commitments: Map<number, string>;
}

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

export async function audit(store: Store): Promise<AuditResult> {
  const chain = await verifyChain(store);
  if (!chain.ok)
    return {
      ok: false,
      failure: {
        check: 'chain',
        seq: chain.seq,
        message: `journal entry ${chain.seq}: ${chain.failure}`,
      },
    };
  try {
    const { expected, entries, rounds } = await replayJournal(store);
    const { transfers, balances } = await matchLedger(store, expected);
    const accounts = await checkBalances(store, balances);
    const readModel = await checkReadModels(store);
    if (readModel !== null) return { ok: false, failure: readModel };
    return { ok: true, entries, rounds, transfers, accounts };
  } catch (error) {
    if (error instanceof Failed) return { ok: false, failure: error.failure };
    throw error;
  }
}

async function replayJournal(
  store: Store,
): Promise<{ expected: Map<string, Expected>; entries: number; rounds: number }> {
  const tables = new Map<string, TableReplay>();
  const expected = new Map<string, Expected>();
  let entries = 0;
  let rounds = 0;
  for (let from = 1; ;) {
    const page = await store.readJournal({ fromSeq: from, limit: PAGE });
    for (const entry of page) {
      entries++;
      for (const transfer of replayEntry(tables, entry, store.currency)) {
        expected.set(transfer.id, { transfer, seq: entry.seq });
      }
      if (entry.type === 'round-settled') rounds++;
    }
    if (page.length < PAGE) break;
    from = page[page.length - 1]!.seq + 1;
  }
  return { expected, entries, rounds };
}

/** What one entry implies, after checking what can be checked of it. */
function replayEntry(
  tables: Map<string, TableReplay>,
  entry: JournalEntry,
  currency: Store['currency'],
): TransferInput[] {
  const payload = entry.payload as Record<string, unknown>;
  if (entry.tableId === null) return cageTransfers(entry, payload, currency);
  if (entry.type === 'table-created' || entry.type === 'table-settings-changed') {
    const settings = payload['settings'] as TableSettings;
    const table = tables.get(entry.tableId);
    const paytable = compilePaytable(settings.paytable);
    if (table === undefined)
      tables.set(entry.tableId, {
        paytable,
        bets: new StandingBets(),
        settlement: null,
        commitments: new Map(),
      });
    else table.paytable = paytable;
    return [];
  }
  const table =
    tables.get(entry.tableId) ??
    fail(
      'settlement',
      entry.seq,
      `journal entry ${entry.seq}: table ${entry.tableId} was never created`,
    );
  return replayRoundEvent(table, entry.seq, entry.payload as RoundEvent, currency);
}

function replayRoundEvent(
  table: TableReplay,
  seq: number,
  event: RoundEvent,
  currency: Store['currency'],
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

function cageTransfers(
  entry: JournalEntry,
  payload: Record<string, unknown>,
  currency: Store['currency'],
): TransferInput[] {
  if (entry.type !== 'deposit' && entry.type !== 'withdrawal') return [];
  const wallet = walletAccount(payload['playerId'] as string).id;
  const [debit, credit] =
    entry.type === 'deposit' ? [CAGE_ACCOUNT_ID, wallet] : [wallet, CAGE_ACCOUNT_ID];
  return [
    {
      id: payload['transferId'] as string,
      debitAccountId: debit,
      creditAccountId: credit,
      amountMinor: payload['amountMinor'] as number,
      currency,
      kind: entry.type,
      reference: `player:${payload['playerId'] as string}`,
    },
  ];
}

async function matchLedger(
  store: Store,
  expected: Map<string, Expected>,
): Promise<{ transfers: number; balances: Map<string, number> }> {
  const balances = new Map<string, number>();
  let transfers = 0;
  for (let after = 0; ;) {
    const page = await store.listTransfers({ afterSeq: after, limit: PAGE });
    for (const t of page) {
      transfers++;
      const want =
        expected.get(t.id) ??
        fail(
          'ledger',
          null,
          `transfer ${t.id} (ledger seq ${t.seq}) is not implied by any journal entry`,
        );
      if (!sameTransfer(t, want.transfer))
        fail(
          'ledger',
          want.seq,
          `journal entry ${want.seq}: transfer ${t.id} differs from what the entry implies`,
        );
      expected.delete(t.id);
      balances.set(t.debitAccountId, (balances.get(t.debitAccountId) ?? 0) - t.amountMinor);
      balances.set(t.creditAccountId, (balances.get(t.creditAccountId) ?? 0) + t.amountMinor);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.seq;
  }
  const missing = [...expected.values()].sort((a, b) => a.seq - b.seq)[0];
  if (missing !== undefined)
    fail(
      'ledger',
      missing.seq,
      `journal entry ${missing.seq}: implies transfer ${missing.transfer.id}, which the ledger lacks`,
    );
  return { transfers, balances };
}

const sameTransfer = (t: Transfer, w: TransferInput): boolean =>
  t.debitAccountId === w.debitAccountId &&
  t.creditAccountId === w.creditAccountId &&
  t.amountMinor === w.amountMinor &&
  t.kind === w.kind &&
  t.reference === w.reference;

async function checkBalances(store: Store, balances: Map<string, number>): Promise<number> {
  let accounts = 0;
  let sum = 0;
  for (let afterId = ''; ;) {
    const page = await store.listAccounts({ afterId, limit: PAGE });
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
