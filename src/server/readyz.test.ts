/** /readyz says whether this node can commit; here, an SQLite disk without room cannot. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openSqliteStore, type Store } from '../ledger/index.js';
import { type App, buildApp } from './app.js';

let dir = '';
let store: Store | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.shutdown();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function readyz(diskFreeBytesMin: number) {
  dir = mkdtempSync(join(tmpdir(), 'cussec-readyz-'));
  store = await openSqliteStore({ path: join(dir, 'cussec.db'), currency: 'MOP' });
  app = await buildApp({ store, logger: false, sqliteDir: dir, limits: { diskFreeBytesMin } });
  return app.fastify.inject({ method: 'GET', url: '/readyz' });
}

it("says 503 disk_full when the SQLite database's disk has less room than the minimum", async () => {
  const answer = await readyz(Number.MAX_SAFE_INTEGER);
  expect(answer.statusCode).toBe(503);
  expect(answer.json()).toMatchObject({ status: 'disk-full', error: { code: 'disk_full' } });
});

it('says ready when the disk has room', async () => {
  const answer = await readyz(1);
  expect(answer.statusCode).toBe(200);
  expect(answer.json()).toEqual({ status: 'ready' });
});
