/**
 * Backup and restore of a live SQLite floor: `cussec backup` copies the
 * database while `cussec play` writes rounds into it, the copy taken mid-round
 * is restored into a fresh folder, `audit verify` passes on it, and
 * `cussec serve` started on the restored folder carries on the very round the
 * copy holds, its bets standing, to its payment.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/testing.js';
import { DEMO_PASSWORD, serve } from '../src/server/serve.js';
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

function hasTable(path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    roundIn(path);
    return true;
  } catch {
    return false;
  }
}

/** The croupier's next step in each phase of a round on an electronic-shaker table. */
const NEXT_STEP: Readonly<Record<string, string>> = {
  covered: 'fasten-latches',
  latched: 'trigger-shaker',
  shaken: 'open-betting',
  betting: 'ring-bell',
  closed: 'lift-dome',
  lifted: 'reveal-dice',
  revealed: 'pay-all',
};

const MID_ROUND = new Set(['covered', 'shaken', 'betting', 'closed', 'revealed']);

describe('cussec backup of a live database [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-backup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies it mid-round; the restored copy audits clean and a server on it carries on that round', async () => {
    const live = join(dir, 'live.db');
    const play = startPlay(live);
    let copy = '';
    let held: RoundAt | undefined;
    try {
      // Started from the sources, play may take long to start on a loaded machine: wait for its table.
      for (let i = 0; i < 900 && !hasTable(live); i++) await sleep(100);
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

    // The restored server finds the round where the copy left it, and the croupier carries it on.
    const server = await serve({
      dataDir: restored,
      port: 0,
      host: '127.0.0.1',
      currency: 'MOP',
      tableId: 'T1',
      supervisor: 'supervisor',
      demo: true,
      demoOnNetwork: false,
      terminal: true,
      say: () => undefined,
    });
    try {
      const view = async (): Promise<RoundAt> => {
        const answer = await server.fastify.inject({ method: 'GET', url: '/api/v1/tables/T1' });
        const { roundNo, phase } = answer.json<RoundAt>();
        return { roundNo, phase };
      };
      expect(await view()).toEqual(held);
      const login = await server.fastify.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { username: 'croupier', password: DEMO_PASSWORD },
      });
      const token = login.json<{ token: string }>().token;
      const steps: string[] = [];
      for (let at = await view(); at.phase !== 'paid'; at = await view()) {
        expect(at.roundNo).toBe(held!.roundNo);
        const type = NEXT_STEP[at.phase]!;
        const answer = await server.fastify.inject({
          method: 'POST',
          url: '/api/v1/tables/T1/commands',
          headers: { authorization: `Bearer ${token}` },
          payload: { type },
        });
        steps.push(`${type} ${answer.statusCode}`);
        // The table's betting timer may ring the bell first (Art. 3.1).
        const done =
          answer.statusCode === 200 || (type === 'ring-bell' && answer.statusCode === 409);
        expect(done, `${steps.join(', ')}: ${answer.body}`).toBe(true);
        expect(steps.length).toBeLessThanOrEqual(Object.keys(NEXT_STEP).length);
      }
      expect(await view()).toMatchObject({ roundNo: held!.roundNo, phase: 'paid' });
    } finally {
      await server.shutdown();
      await server.ctx.store.close();
    }
    const after = await runCli(['audit', 'verify', '--db', db]);
    expect(after.stdout).toMatch(/^audit passed/);
  }, 240_000);

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
