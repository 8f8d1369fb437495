/**
 * The audit on a live floor: `cussec play` writes rounds into a database while
 * `cussec audit verify` runs beside it, again and again. Each audit reads one
 * snapshot, so each passes and names the entry it checked up to; those entries
 * move forward as play goes on. The last run starts from the newest stored
 * checkpoint and reads only the entries after it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/testing.js';
import { type PlayProcess, spawnPlay } from './play-process.js';

const AUDITS = 4;

/** The key that seals the rolls of every run (docs/dice.md); a PostgreSQL play needs one. */
const ROLL_KEY = `live-audit:${randomBytes(32).toString('base64')}`;

function startPlay(db: string): PlayProcess {
  return spawnPlay({
    db,
    rounds: 100_000,
    players: 8,
    seed: '1207',
    env: { CUSSEC_ROLL_KEY: ROLL_KEY },
  });
}

interface Verdict {
  readonly ok: boolean;
  readonly entries: number;
  readonly from: { readonly seq: number };
  readonly checkedTo: { readonly seq: number; readonly hash: string };
}

async function auditJson(db: string, from: string): Promise<Verdict> {
  const run = await runCli(['audit', 'verify', '--db', db, '--json', '--from', from]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Verdict;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Lets play write some entries, then audits AUDITS times while it goes on. */
async function auditBesidePlay(db: string): Promise<void> {
  const play = startPlay(db);
  try {
    let seen: Verdict | undefined;
    for (let i = 0; i < 100 && (seen === undefined || seen.checkedTo.seq < 50); i++) {
      await sleep(200);
      seen = await auditJson(db, 'genesis').catch(() => undefined);
    }
    const verdicts: Verdict[] = [];
    for (let i = 0; i < AUDITS; i++) {
      verdicts.push(await auditJson(db, 'genesis'));
      await sleep(100);
    }
    const latest = await auditJson(db, 'latest');
    expect(play.child.exitCode).toBeNull(); // play was writing all along
    for (const v of [...verdicts, latest]) {
      expect(v.ok).toBe(true);
      expect(v.checkedTo.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(v.entries).toBe(v.checkedTo.seq);
    }
    const seqs = verdicts.map((v) => v.checkedTo.seq);
    expect(seqs[seqs.length - 1]).toBeGreaterThan(seqs[0]!);
    expect(latest.from.seq).toBeGreaterThanOrEqual(seqs[seqs.length - 1]!);
  } finally {
    play.child.kill('SIGTERM');
    await play.exited;
  }
}

describe('audit verify beside cussec play [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-live-audit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'passes on every snapshot it takes while play writes, and says up to which entry',
    () => auditBesidePlay(join(dir, 'live.db')),
    240_000,
  );
});

const pgUrl = process.env['CUSSEC_TEST_PG_URL'];
if (!pgUrl)
  console.warn(
    'Skipping the PostgreSQL half of the live audit test: CUSSEC_TEST_PG_URL is not set.',
  );

describe.skipIf(!pgUrl)('audit verify beside cussec play [postgres]', () => {
  const database = `cussec_live_audit_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeAll(() => admin(`CREATE DATABASE ${database}`));
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

  it('passes on every snapshot it takes while play writes, and says up to which entry', () => {
    const url = new URL(pgUrl!);
    url.pathname = `/${database}`;
    return auditBesidePlay(url.href);
  }, 240_000);
});
