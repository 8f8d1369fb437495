/**
 * Small builders shared by the ledger's tests (and usable by the service's):
 * a transfer with defaults and a table with funded accounts.
 */
import type { Store } from './store.js';
import {
  bankrollAccount,
  CAGE_ACCOUNT_ID,
  inPlayAccount,
  type TransferInput,
  walletAccount,
} from './types.js';

export const ALICE = walletAccount('alice').id;
export const BOB = walletAccount('bob').id;
export const IN_PLAY = inPlayAccount('T1').id;
export const BANKROLL = bankrollAccount('T1').id;
export const CAGE = CAGE_ACCOUNT_ID;

export function transfer(
  id: string,
  debitAccountId: string,
  creditAccountId: string,
  amountMinor: number,
  extra: Partial<TransferInput> = {},
): TransferInput {
  return {
    id,
    debitAccountId,
    creditAccountId,
    amountMinor,
    currency: 'MOP',
    kind: 'test',
    reference: 'ref',
    ...extra,
  };
}

/** Marks every transfer but the last as linked to the next: the batch succeeds or fails whole. */
export function linkAll(transfers: readonly TransferInput[]): TransferInput[] {
  return transfers.map((t, i) => ({ ...t, linked: i < transfers.length - 1 }));
}

/** Creates alice's and bob's wallets and table T1's in-play and bankroll; funds the bankroll from the cage. */
export async function seedTable(store: Store, bankrollMinor = 1_000_000): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.createAccounts([
      walletAccount('alice'),
      walletAccount('bob'),
      inPlayAccount('T1'),
      bankrollAccount('T1'),
    ]);
    if (bankrollMinor > 0) {
      const r = await tx.postTransfers([
        transfer('fund-bankroll', CAGE, BANKROLL, bankrollMinor, {
          kind: 'bankroll-funding',
          reference: 'seed',
        }),
      ]);
      if (!r.ok) throw new Error('seedTable: funding failed');
    }
  });
}

export async function balances(
  store: Store,
  ids: readonly string[],
): Promise<Record<string, number | undefined>> {
  const out: Record<string, number | undefined> = {};
  for (const id of ids) out[id] = (await store.getAccount(id))?.balanceMinor;
  return out;
}
