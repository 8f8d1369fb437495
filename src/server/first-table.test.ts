/**
 * The first table of `cussec serve` (Art. 8): no house options in force without
 * a recorded authorization, except a demo's, marked as a demonstration.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type App } from './app.js';
import { serve } from './serve.js';

const dirs: string[] = [];
const apps: App[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.shutdown();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(demo: boolean): Promise<{ app: App; lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cussec-serve-'));
  dirs.push(dataDir);
  const lines: string[] = [];
  process.env['CUSSEC_SUPERVISOR_PASSWORD'] = 'a test supervisor password';
  try {
    const app = await serve({
      dataDir,
      port: 0,
      host: '127.0.0.1',
      currency: 'MOP',
      tableId: 'T1',
      supervisor: 'supervisor',
      demo,
      demoOnNetwork: false,
      terminal: true,
      say: (line) => lines.push(line),
    });
    apps.push(app);
    return { app, lines };
  } finally {
    delete process.env['CUSSEC_SUPERVISOR_PASSWORD'];
  }
}

it('creates the first table without an authorization and says how the supervisor records one (Art. 8)', async () => {
  const { app, lines } = await start(false);
  const snap = (await app.ctx.service.snapshot('T1'))!;
  expect(snap.settings.authorization).toBeNull();
  expect(snap.config.optionsAuthorized).toBe(false);
  const notice = lines.join('\n');
  expect(notice).toContain('Betting stays closed at T1');
  expect(notice).toContain('/api/v1/tables/T1/house-options/proposals');
  expect(notice).toContain('/authorization');
});

it('marks the first table of a demo as a demonstration, which plays', async () => {
  const { app, lines } = await start(true);
  const snap = (await app.ctx.service.snapshot('T1'))!;
  expect(snap.settings.authorization).toMatchObject({ mark: 'demonstration', proposalId: null });
  expect(snap.config.optionsAuthorized).toBe(true);
  expect(lines.join('\n')).not.toContain('Betting stays closed');
});
