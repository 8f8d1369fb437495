/** How the command line reports a database that is away (exit 75) or a folder it may not write in (exit 73): one line, never "internal error". */
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { StoreOpenError, StoreUnavailableError } from '../ledger/index.js';
import { EXIT_CANNOT_WRITE, EXIT_UNAVAILABLE, report } from './errors.js';
import { runCli } from './testing.js';

function reported(error: unknown): { code: number; stderr: string } {
  const stderr = new PassThrough();
  const code = report(error, stderr);
  return { code, stderr: String(stderr.read() ?? '') };
}

it('reports a database that is away as such, with exit code 75, whatever the driver threw', () => {
  expect(EXIT_UNAVAILABLE).toBe(75);
  expect(
    reported(
      new StoreUnavailableError('the database is unavailable (57P01); retry shortly', undefined),
    ),
  ).toEqual({
    code: 75,
    stderr: 'cussec: the database is unavailable (57P01); retry shortly\n',
  });
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
    code: 'ECONNREFUSED',
  });
  expect(reported(refused)).toEqual({
    code: 75,
    stderr: 'cussec: the database is unavailable (ECONNREFUSED); retry shortly\n',
  });
  expect(reported(new Error('a bug'))).toEqual({
    code: 70,
    stderr: 'cussec: internal error: a bug\n',
  });
});

it('exits 75 from audit verify when nothing answers at the database URL', async () => {
  const run = await runCli(['audit', 'verify', '--db', 'postgres://cussec@127.0.0.1:1/none']);
  expect(run).toMatchObject({ code: 75, stdout: '' });
  expect(run.stderr).toMatch(
    /^cussec: the database is unavailable \(ECONNREFUSED\); retry shortly\n$/,
  );
});

it('reports a folder it may not write in as such, with exit code 73 (test/read-only-folder.test.ts runs it)', () => {
  const error = new StoreOpenError('folder_not_writable', 'the folder /data is read-only');
  expect(reported(error)).toEqual({
    code: EXIT_CANNOT_WRITE,
    stderr:
      "cussec: the folder /data is read-only: the database and its files (SQLite's -wal and -shm, the roll key) are written there, even to read it; give a folder this user may write in (--data, --db)\n",
  });
});
