/**
 * The cage: deposits into and withdrawals from players' wallets. Each is one
 * transfer between the cage account and the wallet, journaled in the same
 * transaction, and idempotent by the cashier's key. The key given here must
 * already be the caller's own (the HTTP routes scope it to the cashier): it
 * names the transfer, so two cashiers' same key must reach here as two keys.
 */
import { hashRequest } from '../journal/index.js';
import {
  CAGE_ACCOUNT_ID,
  type Store,
  type TransferErrorCode,
  type Tx,
  walletAccount,
} from '../ledger/index.js';
import type { CashChecks } from './cash-checks.js';
import type { ServiceRejection } from './table-service.js';

export type CageOutcome =
  | { readonly ok: true; readonly balanceMinor: number; readonly transferId: string }
  | { readonly ok: false; readonly rejection: ServiceRejection };

export interface CageRequest {
  readonly playerId: string;
  readonly amountMinor: number;
  readonly cashierId: string;
  /** Makes a retry safe; one is made up when the caller gives none. */
  readonly idempotencyKey: string;
}

/** Opens a player's wallet (idempotent): a player can hold no money before it exists. */
export async function openWallet(store: Store, playerId: string): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.createAccounts([{ id: CAGE_ACCOUNT_ID, kind: 'cage' }, walletAccount(playerId)]);
  });
}

export async function hasWallet(store: Store, playerId: string): Promise<boolean> {
  return (await store.getAccount(walletAccount(playerId).id)) !== undefined;
}

/** Whether the deposit made with this idempotency key went through. */
export async function depositMade(store: Store, idempotencyKey: string): Promise<boolean> {
  return (await store.getTransfer(depositTransferId(idempotencyKey))) !== undefined;
}

const depositTransferId = (idempotencyKey: string): string => `deposit:${idempotencyKey}`;

/** A player's wallet balance; 0 before the wallet exists. */
export async function walletBalanceMinor(store: Store, playerId: string): Promise<number> {
  return (await store.getAccount(walletAccount(playerId).id))?.balanceMinor ?? 0;
}

/** A player as the cashier sees them. */
export interface PlayerBalance {
  readonly id: string;
  readonly username: string;
  readonly displayName: string;
  readonly balanceMinor: number;
}

/** Players in one list, at most. */
const PLAYERS_LISTED_MAX = 1_000;

/** The players with their wallet balances, in id order. */
export async function playerBalances(store: Store): Promise<PlayerBalance[]> {
  const players = await store.listUsers({ role: 'player', limit: PLAYERS_LISTED_MAX });
  return Promise.all(
    players.map(async (p) => ({
      id: p.id,
      username: p.username,
      displayName: p.displayName,
      balanceMinor: await walletBalanceMinor(store, p.id),
    })),
  );
}

/** What the cashier confirms with a move (Instrução 1/2016). */
export interface CashierConfirmation {
  /** The cashier saw the person's document: asked for on a large amount. */
  readonly documentSighted: boolean;
}

/**
 * A cashier's deposit or withdrawal: for a player's wallet only (a user of
 * another role, or nobody, is `unknown_player`), with the law's checks
 * (cash-checks.ts): a deposit only for a player who may play, a large amount
 * only with the identity on record and the document sighted, recorded in the
 * register with the move; then the suspicion rules. A refusal by the law
 * throws its PeopleRefusal.
 */
export async function cashierMove(
  store: Store,
  checks: CashChecks,
  kind: 'deposit' | 'withdrawal',
  request: CageRequest & CashierConfirmation,
): Promise<CageOutcome> {
  const player = await store.getUser(request.playerId);
  if (player?.role !== 'player') {
    return {
      ok: false,
      rejection: { code: 'unknown_player', message: `there is no player "${request.playerId}"` },
    };
  }
  const cash = { ...request, kind };
  return move(store, request, kind, (tx, transferId, seq) =>
    checks.within(tx, cash, transferId, seq),
  );
}

export function deposit(store: Store, request: CageRequest): Promise<CageOutcome> {
  return move(store, request, 'deposit');
}

export function withdraw(store: Store, request: CageRequest): Promise<CageOutcome> {
  return move(store, request, 'withdrawal');
}

/** Runs in the move's transaction once its transfer and entry are written. */
type WithMove = (tx: Tx, transferId: string, entrySeq: number) => Promise<void>;

async function move(
  store: Store,
  request: CageRequest,
  kind: 'deposit' | 'withdrawal',
  withMove?: WithMove,
): Promise<CageOutcome & { readonly seq?: number }> {
  const wallet = walletAccount(request.playerId).id;
  const hash = hashRequest({ kind, playerId: request.playerId, amountMinor: request.amountMinor });
  const key = `cage:${request.idempotencyKey}`;
  return store.transaction(async (tx): Promise<CageOutcome & { readonly seq?: number }> => {
    const [found] = await tx.findCommands([{ key, requestHash: hash }]);
    if (found!.status === 'replay') return found!.response as CageOutcome;
    if (found!.status === 'conflict') {
      return {
        ok: false,
        rejection: {
          code: 'idempotency_key_conflict',
          message: 'this idempotency key was used for another request',
        },
      };
    }
    const transferId =
      kind === 'deposit'
        ? depositTransferId(request.idempotencyKey)
        : `withdrawal:${request.idempotencyKey}`;
    const [debit, credit] =
      kind === 'deposit' ? [CAGE_ACCOUNT_ID, wallet] : [wallet, CAGE_ACCOUNT_ID];
    const posted = await tx.postTransfers([
      {
        id: transferId,
        debitAccountId: debit,
        creditAccountId: credit,
        amountMinor: request.amountMinor,
        currency: tx.currency,
        kind,
        reference: `player:${request.playerId}`,
      },
    ]);
    const result = posted.results[0]!;
    let outcome: CageOutcome;
    if (result.status === 'failed') {
      outcome = { ok: false, rejection: cageRefusal(result.code) };
    } else {
      const balanceMinor = (await tx.balance(wallet))!;
      const [entry] = await tx.appendJournal([
        {
          tableId: null,
          type: kind,
          payload: {
            playerId: request.playerId,
            amountMinor: request.amountMinor,
            cashierId: request.cashierId,
            transferId,
            balanceAfterMinor: balanceMinor,
          },
        },
      ]);
      outcome = { ok: true, balanceMinor, transferId };
      await withMove?.(tx, transferId, entry!.seq);
      await tx.putCommands([{ key, requestHash: hash, response: outcome }]);
      return { ...outcome, seq: entry!.seq };
    }
    await tx.putCommands([{ key, requestHash: hash, response: outcome }]);
    return outcome;
  });
}

function cageRefusal(code: TransferErrorCode): ServiceRejection {
  switch (code) {
    case 'insufficient_funds':
      return { code: 'insufficient_funds', message: 'the wallet does not hold that much' };
    case 'account_not_found':
      return { code: 'no_wallet', message: 'this player has no wallet' };
    default:
      return { code, message: `the ledger refused the transfer (${code})` };
  }
}

/** A deposit or withdrawal as the cage's history and receipt show it. */
export interface CageMove {
  readonly seq: number;
  readonly atMs: number;
  readonly kind: 'deposit' | 'withdrawal';
  readonly amountMinor: number;
  /** What the wallet held right after; null for moves journaled before it was kept. */
  readonly balanceAfterMinor: number | null;
  readonly cashier: {
    readonly id: string;
    readonly username: string | null;
    readonly displayName: string | null;
  };
  readonly transferId: string;
}

/**
 * A player's moves at the cage, newest first, `before` a seq (paging back),
 * each with the cashier's name (null for an id the store does not know).
 */
export async function cageMoves(
  store: Store,
  playerId: string,
  page: { readonly beforeSeq?: number; readonly limit: number },
): Promise<CageMove[] | undefined> {
  const player = await store.getUser(playerId);
  if (player?.role !== 'player') return undefined;
  const entries = await store.readCageMoves({ playerId, ...page });
  const cashiers = new Map<string, CageMove['cashier']>();
  for (const entry of entries) {
    if (entry.type !== 'deposit' && entry.type !== 'withdrawal') continue;
    const id = entry.payload.cashierId;
    if (cashiers.has(id)) continue;
    const user = await store.getUser(id);
    cashiers.set(id, {
      id,
      username: user?.username ?? null,
      displayName: user?.displayName ?? null,
    });
  }
  return entries.flatMap((entry) =>
    entry.type === 'deposit' || entry.type === 'withdrawal'
      ? [
          {
            seq: entry.seq,
            atMs: entry.atMs,
            kind: entry.type,
            amountMinor: entry.payload.amountMinor,
            balanceAfterMinor: entry.payload.balanceAfterMinor ?? null,
            cashier: cashiers.get(entry.payload.cashierId)!,
            transferId: entry.payload.transferId,
          },
        ]
      : [],
  );
}
