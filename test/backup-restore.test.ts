/**
 * Backup and restore of a live SQLite floor: `cussec backup` copies the
 * database while `cussec play` writes rounds into it, the copy taken mid-round
 * is restored into a fresh folder, `audit verify` passes on it, and play
 * started on the restored file carries on the very round the copy holds.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/testing.js';
import { type PlayProcess, spawnPlay } from './play-process.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function startPlay(db: string): PlayProcess {
  return spawnPlay({ db, rounds: 100_000, players: 8, seed: '77' });
}

interface RoundAt {
  readonly roundNo: number;
  readonly phase: string;
}

/** The round the copy holds, read from the file alone. */
function roundIn(path: string): RoundAt {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT state_json AS s FROM tables WHERE id = 'T1'`).get() as {
      s: string;
    };
    const state = JSON.parse(row.s) as RoundAt;
    return { roundNo: state.roundNo, phase: state.phase };
  } finally {
    db.close();
  }
}

const MID_ROUND = new Set(['covered', 'shaken', 'betting', 'closed', 'revealed']);

describe('cussec backup of a live database [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-backup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies it mid-round; the restored copy audits clean and plays on from that round', async () => {
    const live = join(dir, 'live.db');
    const play = startPlay(live);
    let copy = '';
    let held: RoundAt | undefined;
    try {
      for (let i = 0; i < 100 && !existsSync(live); i++) await sleep(100);
      await sleep(3_000);
      // Each copy is one snapshot; most land mid-round, where the round is hardest to carry on.
      for (let attempt = 1; attempt <= 10 && held === undefined; attempt++) {
        copy = join(dir, `copy-${attempt}.db`);
        const backup = await runCli(['backup', '--db', live, copy]);
        expect(backup.stderr).toBe('');
        expect(backup.code).toBe(0);
        expect(backup.stdout).toMatch(
          /^backup written to .*: journal up to entry [\d,]+ \(hash [0-9a-f]{64}\)\.\n$/,
        );
        const at = roundIn(copy);
        if (MID_ROUND.has(at.phase)) held = at;
      }
      expect(play.child.exitCode).toBeNull(); // play wrote all along
    } finally {
      play.child.kill('SIGKILL');
      await play.exited;
    }
    expect(held).toBeDefined();
    expect(await runCli(['backup', '--db', live, copy])).toMatchObject({ code: 2 }); // never overwrites

    const restored = join(dir, 'restored');
    mkdirSync(restored);
    const db = join(restored, 'cussec.db');
    copyFileSync(copy, db);
    // The roll key is not in the database nor its backup (docs/dice.md): it is restored beside it.
    copyFileSync(join(dir, 'roll-key'), join(restored, 'roll-key'));
    chmodSync(join(restored, 'roll-key'), 0o600);
    const audit = await runCli(['audit', 'verify', '--db', db]);
    expect(audit.stdout).toMatch(/^audit passed/);
    expect(audit.code).toBe(0);

    const resumed = await runCli([
      'play',
      '--db',
      db,
      '--rounds',
      '2',
      '--players',
      '8',
      '--seed',
      '78',
      '--json',
    ]);
    expect(resumed.code).toBe(0);
    const report = JSON.parse(resumed.stdout) as { resumedAt: RoundAt; rounds: number };
    expect(report.resumedAt).toEqual(held);
    expect((await runCli(['audit', 'verify', '--db', db])).code).toBe(0);
  }, 120_000);

  it('refuses a PostgreSQL URL and a missing database with a message', async () => {
    const pgUrl = await runCli(['backup', '--db', 'postgres://x@127.0.0.1/y', join(dir, 'p.db')]);
    expect(pgUrl).toMatchObject({ code: 2 });
    expect(pgUrl.stderr).toMatch(/pg_basebackup or pg_dump/);
    const missing = await runCli(['backup', '--db', join(dir, 'nothing.db'), join(dir, 'n.db')]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: `cussec: no database at ${join(dir, 'nothing.db')}\n`,
    });
  });
});
