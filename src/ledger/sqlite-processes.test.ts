import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'cussec-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each child opens the file (migrating it if it is first), deposits, and closes.
const child = (path: string, n: number): string => `
import { openSqliteStore } from ${JSON.stringify(new URL('./sqlite-store.ts', import.meta.url).pathname)};
const store = await openSqliteStore({ path: ${JSON.stringify(path)}, currency: 'MOP' });
await store.transaction(async (tx) => {
  await tx.createAccounts([{ id: 'wallet:shared', kind: 'wallet' }]);
  const r = await tx.postTransfers([{ id: 'dep-${n}', debitAccountId: 'cage', creditAccountId: 'wallet:shared', amountMinor: 10, currency: 'MOP', kind: 'deposit', reference: 'p' }]);
  if (!r.ok) throw new Error(JSON.stringify(r));
});
await store.close();
`;

describe('SQLite opened by several processes at once', () => {
  it('migrates once and serialises their transactions', async () => {
    const path = join(dir, 'shared.sqlite');
    const script = (n: number) =>
      run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child(path, n)], {
        cwd: process.cwd(),
      });
    await Promise.all([0, 1, 2, 3].map(script));
    const store = await openSqliteStore({ path, currency: 'MOP' });
    try {
      expect(await store.schemaVersions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      expect((await store.getAccount('wallet:shared'))?.balanceMinor).toBe(40);
    } finally {
      await store.close();
    }
  });
});
