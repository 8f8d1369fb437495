/**
 * A long journal made fast, for tests and benchmarks of the audit: deposits
 * written straight through transactions of a thousand each, shaped exactly as
 * the cage writes them (one transfer and one journal entry per deposit).
 */
import { CAGE_ACCOUNT_ID, type Store, walletAccount } from '../ledger/index.js';

const PER_TRANSACTION = 1_000;
const WALLETS = 100;

/** Appends `count` deposit entries (and their transfers) to the store's journal. */
export async function journalDeposits(store: Store, count: number): Promise<void> {
  const wallets = Array.from({ length: WALLETS }, (_, i) => walletAccount(`fixture-${i}`));
  await store.transaction(async (tx) => {
    await tx.createAccounts([{ id: CAGE_ACCOUNT_ID, kind: 'cage' }, ...wallets]);
  });
  // Ids go on from the journal's length, so a second call makes new deposits.
  const first = (await store.journalHead()).lastSeq;
  for (let done = 0; done < count;) {
    const n = Math.min(PER_TRANSACTION, count - done);
    await store.transaction(async (tx) => {
      const deposits = Array.from({ length: n }, (_, i) => {
        const k = first + done + i;
        return { playerId: `fixture-${k % WALLETS}`, transferId: `deposit:fixture-${k}` };
      });
      await tx.postTransfers(
        deposits.map((d) => ({
          id: d.transferId,
          debitAccountId: CAGE_ACCOUNT_ID,
          creditAccountId: walletAccount(d.playerId).id,
          amountMinor: 100,
          currency: tx.currency,
          kind: 'deposit' as const,
          reference: `player:${d.playerId}`,
        })),
      );
      await tx.appendJournal(
        deposits.map((d) => ({
          tableId: null,
          type: 'deposit',
          payload: { ...d, amountMinor: 100, cashierId: 'fixture' },
        })),
      );
    });
    done += n;
  }
}
