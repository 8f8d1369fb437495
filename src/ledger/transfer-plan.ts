/**
 * The decision part of posting transfers, with no I/O: given the batch, the
 * accounts it touches (locked by the caller) and the transfers that already
 * carry its ids, it decides each transfer's fate and the rows to write. Both
 * stores run exactly this code, so SQLite and PostgreSQL cannot disagree on
 * what a batch does.
 */
import { check } from '../journal/index.js';
import {
  type AccountKind,
  type Currency,
  LEDGER_KEY_LENGTH_MAX,
  KIND_PATTERN,
  mayGoNegative,
  type Transfer,
  type TransferErrorCode,
  type TransferInput,
  type TransferResult,
  TRANSFERS_PER_BATCH_MAX,
} from './types.js';

export interface AccountState {
  readonly kind: AccountKind;
  readonly balanceMinor: number;
}

export interface PlanInput {
  readonly currency: Currency;
  readonly nowMs: number;
  readonly transfers: readonly TransferInput[];
  /** Stored transfers whose ids appear in the batch. */
  readonly existing: ReadonlyMap<string, Transfer>;
  /** Every account the batch names that exists, with its current balance. */
  readonly accounts: ReadonlyMap<string, AccountState>;
}

export interface TransferPlan {
  readonly results: TransferResult[];
  /** New rows, in batch order. */
  readonly created: Transfer[];
  /** Net change per account; accounts with no net change are left out. */
  readonly deltas: { readonly accountIds: string[]; readonly deltasMinor: number[] };
}

type Failure = { readonly code: TransferErrorCode; readonly accountId?: string };

/** Asserts what only a programming error can get wrong. */
/** Kinds seen to match KIND_PATTERN: a batch of thousands has two or three. */
const GOOD_KINDS = new Set<string>();
const GOOD_KINDS_MAX = 256;

function goodKind(kind: unknown): boolean {
  if (typeof kind !== 'string' || !KIND_PATTERN.test(kind)) return false;
  if (GOOD_KINDS.size < GOOD_KINDS_MAX) GOOD_KINDS.add(kind);
  return true;
}

export function assertTransferShape(t: TransferInput): void {
  check(
    typeof t.id === 'string' && t.id.length > 0 && t.id.length <= LEDGER_KEY_LENGTH_MAX,
    () => `transfer: bad id ${JSON.stringify(t.id)}`,
  );
  check(
    typeof t.debitAccountId === 'string' && t.debitAccountId.length > 0,
    () => `transfer ${t.id}: bad debit account`,
  );
  check(
    typeof t.creditAccountId === 'string' && t.creditAccountId.length > 0,
    () => `transfer ${t.id}: bad credit account`,
  );
  check(
    t.debitAccountId !== t.creditAccountId,
    () => `transfer ${t.id}: debit and credit are the same account`,
  );
  check(
    Number.isSafeInteger(t.amountMinor) && t.amountMinor > 0,
    () => `transfer ${t.id}: amount ${t.amountMinor} is not a positive safe integer`,
  );
  check(
    GOOD_KINDS.has(t.kind) || goodKind(t.kind),
    () => `transfer ${t.id}: bad kind ${JSON.stringify(t.kind)}`,
  );
  check(
    typeof t.reference === 'string' && t.reference.length <= LEDGER_KEY_LENGTH_MAX,
    () => `transfer ${t.id}: bad reference`,
  );
}

export function planTransfers(input: PlanInput): TransferPlan {
  const { transfers } = input;
  check(
    transfers.length <= TRANSFERS_PER_BATCH_MAX,
    () => `postTransfers: ${transfers.length} transfers exceed ${TRANSFERS_PER_BATCH_MAX}`,
  );
  for (const t of transfers) assertTransferShape(t);
  const state = new PlanState(input);
  let start = 0;
  while (start < transfers.length) {
    let end = start;
    while (end < transfers.length - 1 && transfers[end]!.linked === true) end++;
    state.runChain(start, end);
    start = end + 1;
  }
  return state.finish();
}

/**
 * Balances and new transfers as the batch goes. A chain writes an undo log (the
 * accounts and ids it touched) so that a failed chain leaves no trace; a lone
 * transfer needs none, since every check comes before its first write.
 */
class PlanState {
  /** Every account of the batch, with its balance as the batch goes. */
  private readonly working = new Map<string, Working>();
  private readonly createdById = new Map<string, Transfer>();
  private readonly results: TransferResult[];
  // Parallel arrays rather than tuples: a 20,000-transfer chain should not allocate 40,000 small arrays.
  private readonly undoAccounts: Working[] = [];
  private readonly undoBalances: number[] = [];
  private readonly undoIds: string[] = [];

  constructor(private readonly input: PlanInput) {
    this.results = new Array<TransferResult>(input.transfers.length);
    for (const [id, a] of input.accounts)
      this.working.set(id, {
        kind: a.kind,
        originalMinor: a.balanceMinor,
        balanceMinor: a.balanceMinor,
      });
  }

  runChain(start: number, end: number): void {
    const { transfers } = this.input;
    const logged = end > start;
    this.undoAccounts.length = 0;
    this.undoBalances.length = 0;
    this.undoIds.length = 0;
    for (let i = start; i <= end; i++) {
      const t = transfers[i]!;
      const chainOpen = i === transfers.length - 1 && t.linked === true;
      const failure: Failure | undefined = chainOpen
        ? { code: 'linked_chain_open' }
        : this.apply(t, i, logged);
      if (failure === undefined) continue;
      this.rollBack();
      for (let j = start; j <= end; j++) {
        const f = j === i ? failure : { code: 'linked_event_failed' as const };
        this.results[j] = { status: 'failed', id: transfers[j]!.id, ...f };
      }
      return;
    }
  }

  private rollBack(): void {
    for (let u = this.undoAccounts.length - 1; u >= 0; u--)
      this.undoAccounts[u]!.balanceMinor = this.undoBalances[u]!;
    for (const id of this.undoIds) this.createdById.delete(id);
  }

  /** Applies one transfer, or returns why it cannot be applied (checks in order of precedence). */
  private apply(t: TransferInput, index: number, logged: boolean): Failure | undefined {
    if (t.currency !== this.input.currency) return { code: 'currency_mismatch' };
    const before =
      (this.input.existing.size === 0 ? undefined : this.input.existing.get(t.id)) ??
      this.createdById.get(t.id);
    if (before !== undefined) {
      if (!sameContents(before, t)) return { code: 'id_conflict' };
      this.results[index] = { status: 'exists', transfer: before };
      return undefined;
    }
    const debit = this.working.get(t.debitAccountId);
    if (debit === undefined) return { code: 'account_not_found', accountId: t.debitAccountId };
    const credit = this.working.get(t.creditAccountId);
    if (credit === undefined) return { code: 'account_not_found', accountId: t.creditAccountId };
    const debitAfter = debit.balanceMinor - t.amountMinor;
    if (debitAfter < 0 && !mayGoNegative(debit.kind))
      return { code: 'insufficient_funds', accountId: t.debitAccountId };
    const creditAfter = credit.balanceMinor + t.amountMinor;
    if (!Number.isSafeInteger(debitAfter) || !Number.isSafeInteger(creditAfter))
      return { code: 'overflow' };
    if (logged) {
      this.undoAccounts.push(debit, credit);
      this.undoBalances.push(debit.balanceMinor, credit.balanceMinor);
      this.undoIds.push(t.id);
    }
    debit.balanceMinor = debitAfter;
    credit.balanceMinor = creditAfter;
    const transfer = toTransfer(t, this.input.nowMs);
    this.createdById.set(t.id, transfer);
    this.results[index] = { status: 'created', transfer };
    return undefined;
  }

  finish(): TransferPlan {
    const created: Transfer[] = [];
    for (const r of this.results) if (r.status === 'created') created.push(r.transfer);
    const accountIds: string[] = [];
    const deltasMinor: number[] = [];
    // Unordered: the accounts are locked already, so the order of updates cannot deadlock.
    for (const [id, a] of this.working) {
      if (a.balanceMinor === a.originalMinor) continue;
      accountIds.push(id);
      deltasMinor.push(a.balanceMinor - a.originalMinor);
    }
    return { results: this.results, created, deltas: { accountIds, deltasMinor } };
  }
}

interface Working {
  readonly kind: AccountKind;
  readonly originalMinor: number;
  balanceMinor: number;
}

function toTransfer(t: TransferInput, createdAtMs: number): Transfer {
  return {
    id: t.id,
    debitAccountId: t.debitAccountId,
    creditAccountId: t.creditAccountId,
    amountMinor: t.amountMinor,
    kind: t.kind,
    reference: t.reference,
    createdAtMs,
  };
}

/** A retry matches when everything but the time is the same. */
function sameContents(stored: Transfer, t: TransferInput): boolean {
  return (
    stored.debitAccountId === t.debitAccountId &&
    stored.creditAccountId === t.creditAccountId &&
    stored.amountMinor === t.amountMinor &&
    stored.kind === t.kind &&
    stored.reference === t.reference
  );
}

/**
 * The optimistic plan: what a batch does if every transfer succeeds, computed
 * without reading the database. A store may write it inside a savepoint and
 * must check, while writing, the preconditions that make it exact:
 *
 * - every account exists, and no transfer id is stored already;
 * - for each account that may not go negative, balance + minPrefixMinor ≥ 0
 *   (the lowest point its balance reaches as the batch runs in order);
 * - balance + minPrefixMinor and balance + maxPrefixMinor stay safe integers.
 *
 * When they hold, planTransfers would have answered "created" for every
 * transfer with these same rows; when one fails the store rolls back to the
 * savepoint and runs planTransfers. Undefined when the batch can be seen to
 * need the careful path without the database (a currency mismatch, an open
 * chain, a repeated id).
 */
export interface OptimisticPlan extends TransferPlan {
  readonly minPrefixMinor: number[];
  readonly maxPrefixMinor: number[];
}

export function planOptimistic(
  input: Omit<PlanInput, 'existing' | 'accounts'>,
): OptimisticPlan | undefined {
  const { transfers } = input;
  check(
    transfers.length <= TRANSFERS_PER_BATCH_MAX,
    () => `postTransfers: ${transfers.length} transfers exceed ${TRANSFERS_PER_BATCH_MAX}`,
  );
  if (transfers.length === 0 || transfers[transfers.length - 1]!.linked === true) return undefined;
  const ids = new Set<string>();
  const running = new Map<string, { delta: number; min: number; max: number }>();
  const move = (id: string, amount: number): void => {
    let r = running.get(id);
    if (r === undefined) running.set(id, (r = { delta: 0, min: 0, max: 0 }));
    r.delta += amount;
    if (r.delta < r.min) r.min = r.delta;
    if (r.delta > r.max) r.max = r.delta;
  };
  const results = new Array<TransferResult>(transfers.length);
  const created = new Array<Transfer>(transfers.length);
  for (let i = 0; i < transfers.length; i++) {
    const t = transfers[i]!;
    assertTransferShape(t);
    if (t.currency !== input.currency || ids.has(t.id)) return undefined;
    ids.add(t.id);
    move(t.debitAccountId, -t.amountMinor);
    move(t.creditAccountId, t.amountMinor);
    created[i] = toTransfer(t, input.nowMs);
    results[i] = { status: 'created', transfer: created[i]! };
  }
  const accountIds: string[] = [];
  const deltasMinor: number[] = [];
  const minPrefixMinor: number[] = [];
  const maxPrefixMinor: number[] = [];
  for (const [id, r] of running) {
    accountIds.push(id);
    deltasMinor.push(r.delta);
    minPrefixMinor.push(r.min);
    maxPrefixMinor.push(r.max);
  }
  return { results, created, deltas: { accountIds, deltasMinor }, minPrefixMinor, maxPrefixMinor };
}
