import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBytes } from '../../service/export/testing.js';
import { openExistingStore } from '../../service/open-store.js';
import { runCli } from '../testing.js';

let dir = '';
let db = '';
/** The journal's last seq once played. */
let head = 0;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-export-cli-'));
  db = join(dir, 'floor.sqlite');
  for (const [table, shaker, rounds] of [
    ['T1', 'electronic', '4'],
    ['T2', 'lever', '3'],
  ] as const) {
    const played = await runCli([
      'play',
      '--db',
      db,
      '--rounds',
      rounds,
      '--players',
      '2',
      '--seed',
      `cli-${table}`,
      '--table',
      table,
      '--shaker',
      shaker,
    ]);
    expect(played.code, played.stderr).toBe(0);
  }
  const store = await openExistingStore(db);
  head = (await store.journalHead()).lastSeq;
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exported = (name: string) => join(dir, name);
const verdictOf = (name: string) => verifyBytes(readFileSync(exported(name)));

describe('cussec export', () => {
  it('writes the whole journal and ledger, which the verifier passes, and says where it ends', async () => {
    const { code, stdout, stderr } = await runCli([
      'export',
      '--db',
      db,
      '--out',
      exported('all.ndjson'),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const verdict = verdictOf('all.ndjson');
    if (!verdict.ok) throw new Error(verdict.message);
    const { range, last, transfers, accounts } = verdict.summary;
    expect(stdout).toBe(
      `Wrote ${exported('all.ndjson')}: journal entries 1–${range.toSeq} (${range.toSeq} entries, 0 from before the range, ` +
        `${transfers} transfers, ${accounts} accounts), ${readFileSync(exported('all.ndjson')).length.toLocaleString('en')} bytes.\n` +
        `anchor 0:${'0'.repeat(64)}\nlast   ${last.seq}:${last.hash}\n` +
        `Check it with: node verifier/cussec-verify.mjs ${exported('all.ndjson')}\n`,
    );
  });

  it("writes a range of one table's entries, with what came before it", async () => {
    const [fromSeq, toSeq] = [head - 40, head - 5];
    const out = exported('t2.ndjson');
    const range = ['--from-seq', String(fromSeq), '--to-seq', String(toSeq)];
    const { code, stdout } = await runCli([
      'export',
      '--db',
      db,
      '--out',
      out,
      '--table',
      'T2',
      ...range,
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(
        `^Wrote .*: journal entries ${fromSeq}–${toSeq} \\(36 entries, [1-9]\\d* from before the range, \\d+ transfers\\), `,
      ),
    );
    expect(verdictOf('t2.ndjson')).toMatchObject({
      ok: true,
      summary: { range: { fromSeq, toSeq }, table: 'T2', ledger: 'range', accounts: null },
    });
  });

  it.each([
    [['--from-seq', '0'], /--from-seq must be a journal seq \(a whole number from 1\), got "0"/],
    [['--to-seq', 'ten'], /--to-seq must be a journal seq/],
    [
      ['--from-seq', '50', '--to-seq', '40'],
      /the range must be within the journal's entries 1 to \d+, from first to last; got 50 to 40/,
    ],
    [['--to-seq', '999999'], /the range must be within the journal's entries 1 to \d+/],
    [['--table', 'T9'], /there is no table "T9"/],
  ])('refuses %j with one line, exit 2 and no file', async (args, message) => {
    const before = readdirSync(dir).sort();
    const { code, stderr } = await runCli([
      'export',
      '--db',
      db,
      '--out',
      exported('bad.ndjson'),
      ...args,
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.split('\n')).toHaveLength(2);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('refuses a database that does not exist, and a folder that does not', async () => {
    const none = await runCli([
      'export',
      '--db',
      join(dir, 'none.sqlite'),
      '--out',
      exported('x.ndjson'),
    ]);
    expect(none).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no database at/) as string,
    });
    const folder = await runCli(['export', '--db', db, '--out', join(dir, 'no', 'x.ndjson')]);
    expect(folder).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--out: no folder/) as string,
    });
  });
});
