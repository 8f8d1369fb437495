/**
 * GET /api/v1/journal/export on a real socket, on both engines: the inspector
 * downloads the file `cussec export` writes, which the verifier passes, and
 * the temporary file is gone once it is sent; a range or table that cannot be
 * exported is refused with its code.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { verifyBytes } from '../service/export/testing.js';
import { playTable } from '../service/simulated-table.js';
import { buildApp } from './app.js';
import { seedUsers, sessionToken } from './testing.js';

const downloads = () => readdirSync(tmpdir()).filter((name) => name.startsWith('cussec-download-'));

withStores('GET /api/v1/journal/export', (h) => {
  it('sends the export as an NDJSON download that the verifier passes, and keeps no copy', async () => {
    const store = await h.open();
    await playTable({
      store,
      tableId: 'T1',
      rounds: 2,
      players: 2,
      seed: 'route',
      shaker: 'electronic',
    });
    const app = await buildApp({ store, logger: false });
    try {
      const [inspector] = await seedUsers(store, 'inspector', 1);
      const token = await sessionToken(store, inspector!, Date.now());
      await app.fastify.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.fastify.server.address() as { port: number };
      const get = (query: string) =>
        fetch(`http://127.0.0.1:${port}/api/v1/journal/export${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
      const { lastSeq } = await store.journalHead();

      const whole = await get('');
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      expect(whole.headers.get('content-disposition')).toBe(
        `attachment; filename="cussec-export-floor-1-${lastSeq}.ndjson"`,
      );
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(verifyBytes(bytes)).toMatchObject({
        ok: true,
        summary: { ledger: 'whole', rounds: 2, last: { seq: lastSeq } },
      });
      await expect.poll(downloads).toEqual([]);

      const range = await get(`?from=5&to=${lastSeq - 3}&table=T1`);
      expect(range.headers.get('content-disposition')).toMatch(
        /filename="cussec-export-T1-5-\d+\.ndjson"/,
      );
      expect(verifyBytes(Buffer.from(await range.arrayBuffer()))).toMatchObject({
        ok: true,
        summary: { range: { fromSeq: 5, toSeq: lastSeq - 3 }, table: 'T1', ledger: 'range' },
      });

      const refused = async (query: string) => {
        const answer = await get(query);
        return {
          status: answer.status,
          code: ((await answer.json()) as { error: { code: string } }).error.code,
        };
      };
      expect(await refused('?from=9&to=4')).toEqual({ status: 400, code: 'export_range_invalid' });
      expect(await refused(`?to=${lastSeq + 1}`)).toEqual({
        status: 400,
        code: 'export_range_invalid',
      });
      expect(await refused('?table=T9')).toEqual({ status: 404, code: 'unknown_table' });
      expect(await refused('?from=0')).toEqual({ status: 400, code: 'invalid_request' });
      expect(await refused('?format=csv')).toEqual({ status: 400, code: 'invalid_request' });
      await expect.poll(downloads).toEqual([]);
    } finally {
      await app.shutdown();
    }
  });
});
