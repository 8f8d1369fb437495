/** `cussec serve`'s database timeouts: flags or environment, defaults, and a clear refusal of a bad one. */
import { afterEach, expect, it, vi } from 'vitest';
import { DEFAULT_PG_TIMEOUTS } from '../../ledger/index.js';
import { runCli } from '../testing.js';

afterEach(() => vi.unstubAllEnvs());

it('has the documented defaults (docs/deployment.md: timeouts)', () => {
  expect(DEFAULT_PG_TIMEOUTS).toEqual({
    connectTimeoutMs: 5_000,
    statementTimeoutMs: 5_000,
    lockTimeoutMs: 5_000,
    idleInTransactionTimeoutMs: 10_000,
  });
});

it('refuses a timeout out of range, given as a flag or in the environment, before serving', async () => {
  expect(await runCli(['serve', '--db-statement-timeout-ms', '0'])).toEqual({
    code: 2,
    stdout: '',
    stderr: 'cussec: --db-statement-timeout-ms must be 1 to 3600000 (ms), got "0"\n',
  });
  vi.stubEnv('CUSSEC_DB_LOCK_TIMEOUT_MS', 'soon');
  expect(await runCli(['serve'])).toEqual({
    code: 2,
    stdout: '',
    stderr: 'cussec: --db-lock-timeout-ms must be 1 to 3600000 (ms), got "soon"\n',
  });
  // The flag wins over the environment.
  vi.stubEnv('CUSSEC_DB_LOCK_TIMEOUT_MS', '100');
  expect(await runCli(['serve', '--db-lock-timeout-ms', '3600001'])).toMatchObject({
    code: 2,
    stderr: 'cussec: --db-lock-timeout-ms must be 1 to 3600000 (ms), got "3600001"\n',
  });
});
