/**
 * The ledger's vocabulary: currencies, accounts, transfers and the codes of the
 * operating errors a transfer can meet.
 */

/** One currency per ledger (per database), chosen when the ledger is created. */
export type Currency = 'MOP' | 'HKD';
export const CURRENCIES: readonly Currency[] = ['MOP', 'HKD'];

/**
 * - wallet: a player's money. Never below zero.
 * - in-play: stakes on a table's layout, held until the round settles. Never below
 *   zero: paying out stakes that were never placed is a bug.
 * - bankroll: the house's money at a table. May go negative: a winner is always
 *   paid in full (Art. 4), and refilling the bankroll is the cage's business,
 *   not a reason to refuse a payout. Exposure is limited before the bell by the
 *   table's liability limit, not here.
 * - cage: the cashier. Deposits come from it and withdrawals go to it, so its
 *   balance is minus the money that came in from outside. May go negative.
 */
/** `sar`: the Macau SAR's, where a barred player's net winnings go (Lei 10/2012, art. 11). */
export type AccountKind = 'wallet' | 'in-play' | 'bankroll' | 'cage' | 'sar';
export const ACCOUNT_KINDS: readonly AccountKind[] = [
  'wallet',
  'in-play',
  'bankroll',
  'cage',
  'sar',
];

/** House accounts may go below zero; a player's wallet and a table's in-play may not. */
export function mayGoNegative(kind: AccountKind): boolean {
  return kind === 'bankroll' || kind === 'cage';
}

export const CAGE_ACCOUNT_ID = 'cage';
/** Lei 10/2012, art. 11: the Macau SAR's account. */
export const SAR_ACCOUNT_ID = 'sar';

export interface AccountInput {
  readonly id: string;
  readonly kind: AccountKind;
}

export interface Account {
  readonly id: string;
  readonly kind: AccountKind;
  /**
   * Credits minus debits. Every transfer debits its source and credits its
   * destination, so the balances of a ledger always sum to zero.
   */
  readonly balanceMinor: number;
  readonly createdAtMs: number;
}

export const walletAccount = (playerId: string): AccountInput => ({
  id: `wallet:${playerId}`,
  kind: 'wallet',
});
export const inPlayAccount = (tableId: string): AccountInput => ({
  id: `in-play:${tableId}`,
  kind: 'in-play',
});
export const bankrollAccount = (tableId: string): AccountInput => ({
  id: `bankroll:${tableId}`,
  kind: 'bankroll',
});

/**
 * A movement of money, as a caller asks for it. The id is made by the caller
 * (e.g. "settle:<round>:<bet>:win") so that a retry can never move money twice.
 */
export interface TransferInput {
  readonly id: string;
  /** The source: its balance goes down by amountMinor. */
  readonly debitAccountId: string;
  /** The destination: its balance goes up by amountMinor. */
  readonly creditAccountId: string;
  /** A positive safe integer in minor units (avos for MOP, cents for HKD). */
  readonly amountMinor: number;
  /** Must equal the ledger's currency. */
  readonly currency: Currency;
  /** Reason code, kebab-case: "deposit", "bet", "loss", "win", "stake-returned", "withdrawal", … */
  readonly kind: string;
  /** What the transfer is about, e.g. "round:T1:42"; transfers are listed by it. */
  readonly reference: string;
  /**
   * Links this transfer to the next one in the batch: a chain of linked
   * transfers (ended by the first one without the flag) succeeds or fails whole.
   */
  readonly linked?: boolean;
}

/** A transfer as stored. Immutable: a mistake is corrected by another transfer. */
export interface Transfer {
  readonly id: string;
  readonly debitAccountId: string;
  readonly creditAccountId: string;
  readonly amountMinor: number;
  readonly kind: string;
  readonly reference: string;
  readonly createdAtMs: number;
}

/**
 * Operating errors of a transfer, in order of precedence: when several apply,
 * the first one in this list is reported.
 *
 * 1. linked_event_failed — another transfer of its linked chain failed (the
 *    failing one carries the real code).
 * 2. linked_chain_open — the batch's last transfer has `linked` set.
 * 3. currency_mismatch — the transfer's currency is not the ledger's.
 * 4. id_conflict — a transfer with this id exists with other contents.
 *    (Same id and same contents is not an error: status "exists".)
 * 5. account_not_found — the debit account (checked first) or the credit account
 *    does not exist.
 * 6. insufficient_funds — the debit account may not go negative and holds less
 *    than the amount.
 * 7. overflow — a balance would leave the safe-integer range.
 *
 * Malformed input (empty id, non-integer or non-positive amount, same account on
 * both sides, bad kind) is a programming error and throws an AssertionError.
 */
export const TRANSFER_ERROR_CODES = [
  'linked_event_failed',
  'linked_chain_open',
  'currency_mismatch',
  'id_conflict',
  'account_not_found',
  'insufficient_funds',
  'overflow',
] as const;

export type TransferErrorCode = (typeof TRANSFER_ERROR_CODES)[number];

export type TransferResult =
  | { readonly status: 'created'; readonly transfer: Transfer }
  /** A retry: the transfer was made before (possibly in an earlier transaction) with the same contents. */
  | { readonly status: 'exists'; readonly transfer: Transfer }
  | {
      readonly status: 'failed';
      readonly id: string;
      readonly code: TransferErrorCode;
      /** For account_not_found and insufficient_funds: the account at fault. */
      readonly accountId?: string;
    };

export interface PostTransfersResult {
  /** True when no transfer failed. */
  readonly ok: boolean;
  /** One per input, in input order. */
  readonly results: readonly TransferResult[];
}

export type CreateAccountResult =
  | { readonly status: 'created' | 'exists'; readonly account: Account }
  /** The id exists with another kind. */
  | { readonly status: 'failed'; readonly id: string; readonly code: 'id_conflict' };

/** Transfers in one postTransfers call; a settlement of 10,000 bets needs at most 20,000. */
export const TRANSFERS_PER_BATCH_MAX = 100_000;

/**
 * The ledger's keys: account, transfer and user ids, idempotency keys and
 * references. They are built from the ids of things with prefixes
 * (`bet:<table>:<round>:<bet>`), so they bound a longer string than
 * `ID_LENGTH_MAX` of rules/shape.ts does.
 */
export const LEDGER_KEY_LENGTH_MAX = 200;
export const KIND_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
