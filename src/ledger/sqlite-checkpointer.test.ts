import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.js';
import { CAGE_ACCOUNT_ID, walletAccount } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'cussec-checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sizeOf = (path: string): number => statSync(path).size;

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

describe('SQLite checkpoints on a worker thread', () => {
  it('copies committed pages into the database file shortly after the commits, then closes', async () => {
    const path = join(dir, 'checkpointed.sqlite');
    const store = await openSqliteStore({ path, currency: 'MOP' });
    const before = sizeOf(path);
    // About 2 MB of rows: they go to the WAL first; only a checkpoint puts them in the file.
    await store.transaction(async (tx) => {
      const wallets = Array.from({ length: 2_000 }, (_, i) => walletAccount(`player-${i}`));
      await tx.createAccounts([{ id: CAGE_ACCOUNT_ID, kind: 'cage' }, ...wallets]);
      const posted = await tx.postTransfers(
        wallets.map((w, i) => ({
          id: `deposit-${i}-${'x'.repeat(150)}`,
          debitAccountId: CAGE_ACCOUNT_ID,
          creditAccountId: w.id,
          amountMinor: 1_000 + i,
          currency: 'MOP',
          kind: 'deposit',
          reference: `player:${i}`,
        })),
      );
      expect(posted.ok).toBe(true);
    });
    expect(sizeOf(path)).toBe(before);
    expect(await until(() => sizeOf(path) > before + 500_000, 5_000)).toBe(true);
    // The data is whole and the store still writes after the checkpoint.
    expect((await store.getAccount(walletAccount('player-1999').id))?.balanceMinor).toBe(2_999);
    await store.transaction(async (tx) => {
      await tx.createAccounts([walletAccount('late')]);
    });
    await store.close();
    const reopened = await openSqliteStore({ path, currency: 'MOP' });
    try {
      expect(await reopened.getAccount(walletAccount('late').id)).toBeDefined();
      expect((await reopened.listTransfers({ limit: 5_000 })).length).toBe(2_000);
    } finally {
      await reopened.close();
    }
  });
});
