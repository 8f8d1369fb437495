/**
 * The web app's files: compressed at build (Brotli or gzip, as the browser
 * accepts), the hashed ones cached for a year, index.html revalidated each time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { buildApp } from './app.js';
import { precompressDir } from './precompress.js';

const root = mkdtempSync(join(tmpdir(), 'cussec-web-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const script = `export const spots = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `spot-${i}`))};\n`;
mkdirSync(join(root, 'assets'));
writeFileSync(
  join(root, 'index.html'),
  '<!doctype html><script src="./assets/index-Ab12Cd34.js"></script>',
);
writeFileSync(join(root, 'assets', 'index-Ab12Cd34.js'), script);
const compressed = precompressDir(root);

withStores('static files', (h) => {
  it('sends hashed files compressed and immutable, index.html to be revalidated', async () => {
    expect(compressed).toBe(1); // index.html is under a packet: left as it is
    const app = await buildApp({ store: await h.open(), logger: false, webRoot: root });
    const get = (url: string, encoding: string) =>
      app.fastify.inject({ url, headers: { 'accept-encoding': encoding } });

    const br = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(script.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(script);

    const gz = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(script);

    const plain = await get('/assets/index-Ab12Cd34.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    for (const url of ['/', '/index.html']) {
      const page = await get(url, 'br');
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    await app.shutdown();
  });
});
