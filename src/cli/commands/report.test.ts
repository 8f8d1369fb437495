import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_REPORT_CSV_HEADER } from '../../compliance/index.js';
import { openSqliteStore } from '../../ledger/index.js';
import { REPORT_TABLE_NAME, seedReportDay } from '../../service/compliance-testing.js';
import { runCli } from '../testing.js';

describe('cussec report', () => {
  let dir = '';
  let db = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cussec-report-'));
    db = join(dir, 'cussec.db');
    const store = await openSqliteStore({ path: db, currency: 'MOP' });
    try {
      await seedReportDay(store);
    } finally {
      await store.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints a table's day as CSV by default, with the odds in force, their change and the authorization's mark", async () => {
    const result = await runCli(['report', '--db', db, '--table', 'T1', '--date', '2026-03-06']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [header, row] = result.stdout.split('\r\n');
    expect(header).toBe(DAILY_REPORT_CSV_HEADER.join(','));
    expect(row).toMatch(
      /^T1,2026-03-06,MOP,2,1,5,21000,89000,-68000,-323\.8095,7\.5397,48000,3,b2,any-triple,18 from 00:00:00; 24 from 14:05:00,14 from 00:00:00,lever from 00:00:00,SIMULATION: not a DICJ authorization from 00:00:00$/,
    );
  });

  it('prints JSON, and zeros for a day without rounds', async () => {
    const day = await runCli([
      'report',
      '--db',
      db,
      '--table',
      'T1',
      '--date',
      '2026-03-06',
      '--format',
      'json',
    ]);
    expect(JSON.parse(day.stdout)).toMatchObject({
      tableId: 'T1',
      tableName: REPORT_TABLE_NAME,
      report: { rounds: 2, voidRolls: 1, biggestWin: { betId: 'b2', winMinor: 48_000 } },
    });
    const quiet = await runCli([
      'report',
      '--db',
      db,
      '--table',
      'T1',
      '--date',
      '2026-03-05',
      '--format',
      'json',
    ]);
    expect(JSON.parse(quiet.stdout)).toMatchObject({ report: { rounds: 1, handleMinor: 1_000 } });
  });

  it('writes the printable page to a file', async () => {
    const out = join(dir, 'day.html');
    const result = await runCli([
      'report',
      '--db',
      db,
      '--table',
      'T1',
      '--date',
      '2026-03-06',
      '--format',
      'html',
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Wrote ${out}: table T1, 2026-03-06, 2 rounds, 5 bets.\n`);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('Salon &lt;Privé&gt; &amp; &quot;VIP&quot;');
    expect(html).toContain('Despacho Regulamentar Externo n.º 57/2004');
  });

  it('refuses bad input with exit code 2 and one line', async () => {
    const cases: [string[], RegExp][] = [
      [['--table', 'T1', '--date', '2026-02-30'], /--date must be a YYYY-MM-DD date/],
      [
        ['--table', 'T1', '--date', '2026-03-06', '--format', 'pdf'],
        /--format must be one of json, csv, html/,
      ],
      [['--table', 'T9', '--date', '2026-03-06'], /there is no table "T9"/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['report', '--db', db, ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const missing = await runCli([
      'report',
      '--db',
      join(dir, 'nope.db'),
      '--table',
      'T1',
      '--date',
      '2026-03-06',
    ]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: `cussec: no database at ${join(dir, 'nope.db')}\n`,
    });
  });
});
