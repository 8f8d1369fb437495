/**
 * A read-only data folder is named as such, with exit code 73, by every
 * command that opens the database there: never "internal error: unable to
 * open database file" (exit 70). The folder is a tmpfs mounted read-only (root
 * only: skipped, with the reason, elsewhere).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CANNOT_WRITE } from '../src/cli/errors.js';
import { runCli } from '../src/cli/testing.js';
import { cannotMount, mountTmpfs, remountReadOnly, unmount } from './tmpfs.js';

const skipReason = cannotMount();
if (skipReason !== undefined) console.warn(`Skipping the read-only folder suite: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('a read-only data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-read-only-'));
  const empty = join(dir, 'empty');
  const played = join(dir, 'played');
  beforeAll(async () => {
    mkdirSync(empty);
    mountTmpfs(empty, '1m', true);
    // A database written while the folder could be written, then made read-only.
    mkdirSync(played);
    mountTmpfs(played, '8m');
    const play = await runCli([
      'play',
      '--db',
      join(played, 'cussec.db'),
      '--rounds',
      '1',
      '--players',
      '1',
    ]);
    expect(play.code, play.stderr).toBe(0);
    remountReadOnly(played);
  });
  afterAll(() => {
    unmount(empty);
    unmount(played);
    rmSync(dir, { recursive: true, force: true });
  });

  const readOnly = (folder: string) =>
    `cussec: the folder ${folder} is read-only: the database and its files (SQLite's -wal and -shm, the roll key) are written there, even to read it; give a folder this user may write in (--data, --db)\n`;

  it.each([
    ['serve on an empty one', () => ['serve', '--data', empty, '--port', '0'], () => empty],
    ['serve on a folder to make in it', () => ['serve', '--data', join(empty, 'sub')], () => empty],
    ['serve on one holding a database', () => ['serve', '--data', played, '--demo'], () => played],
    [
      'play on one holding a database',
      () => ['play', '--db', join(played, 'cussec.db'), '--rounds', '1', '--players', '1'],
      () => played,
    ],
    ['an audit', () => ['audit', 'verify', '--db', join(played, 'cussec.db')], () => played],
  ])('%s: says the folder is read-only, exit 73', async (_, args, folder) => {
    expect(EXIT_CANNOT_WRITE).toBe(73);
    expect(await runCli(args())).toEqual({ code: 73, stdout: '', stderr: readOnly(folder()) });
  });
});
