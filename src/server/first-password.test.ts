/**
 * The first supervisor's one-time password is shown on a terminal only: when
 * `cussec serve`'s output is not a terminal (a service manager's journal, a
 * redirect to a log file), it goes to a file only its owner can read.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FIRST_PASSWORD_FILE, serve } from './serve.js';

const dirs: string[] = [];
beforeEach(() => {
  vi.stubEnv('CUSSEC_SUPERVISOR_PASSWORD', undefined);
  vi.stubEnv('CUSSEC_LOG_LEVEL', 'warn');
});
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function firstStart(terminal: boolean): Promise<{ said: string[]; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cussec-serve-'));
  dirs.push(dataDir);
  const said: string[] = [];
  const app = await serve({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    currency: 'MOP',
    tableId: 'T1',
    supervisor: 'boss',
    demo: false,
    demoOnNetwork: false,
    say: (line) => said.push(line),
    terminal,
  });
  await app.shutdown();
  await app.ctx.store.close();
  return { said, dataDir };
}

it('shows the one-time password on a terminal, and writes no file', async () => {
  const { said, dataDir } = await firstStart(true);
  expect(said.join('\n')).toMatch(/one-time password \S{12,}/);
  expect(() => statSync(join(dataDir, FIRST_PASSWORD_FILE))).toThrow();
});

it('keeps the one-time password out of output that is not a terminal, in an owner-only file', async () => {
  const { said, dataDir } = await firstStart(false);
  const file = join(dataDir, FIRST_PASSWORD_FILE);
  const password = readFileSync(file, 'utf8').trim();
  expect(password.length).toBeGreaterThanOrEqual(12);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(said.join('\n')).not.toContain(password);
  expect(said.join('\n')).toContain(file);
});
