import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCLUSION_FILE_COLUMNS, type ExclusionOrder, toCsv } from '../../compliance/index.js';
import { openSqliteStore } from '../../ledger/index.js';
import { adminSql, pgTestUrl } from '../../ledger/testing.js';
import { openExistingStore } from '../../service/open-store.js';
import { runCli } from '../testing.js';

/** An order as the DICJ would send it (Lei 10/2012, art. 6), its document a passport. */
const order = (id: string, change: Record<string, string | null> = {}) => ({
  id,
  kind: 'self',
  dicjReference: `DICJ/2026/${id}`,
  documentType: 'passport',
  documentNumber: `P${id}0001`,
  fullName: 'Chan Tai Man',
  dateOfBirth: '1980-04-02',
  from: '2026-01-10',
  to: '2027-01-09',
  revocationRequestedOn: null,
  ...change,
});
type Order = ReturnType<typeof order>;

// Art. 6: at most two years, so from 2026-01-10 the last day is 2028-01-09.
const TOO_LONG = { to: '2028-01-10' };
// A Hong Kong card whose check digit is wrong (A123456(3) is right).
const WRONG_CHECK_DIGIT = { documentType: 'hk-id', documentNumber: 'A123456(4)' };
const TOO_LONG_LINE =
  'to: a self order lasts at most two years: from 2026-01-10 the last day is 2028-01-09 (Lei 10/2012, art. 6)';
const CHECK_DIGIT_LINE =
  'documentNumber: A123456(4): the check digit does not match the letters and digits';

const csv = (orders: readonly Order[]): string =>
  toCsv(
    [...EXCLUSION_FILE_COLUMNS],
    orders.map((o) => EXCLUSION_FILE_COLUMNS.map((c) => o[c])),
  );

let dir = '';
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-exclusions-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A new, empty SQLite database. */
async function freshDb(): Promise<string> {
  const path = join(dir, `db${++n}.sqlite`);
  await (await openSqliteStore({ path, currency: 'MOP' })).close();
  return path;
}

function file(name: string, content: string | Buffer): string {
  const path = join(dir, `${++n}-${name}`);
  writeFileSync(path, content);
  return path;
}

async function exclusionEntries(db: string) {
  const store = await openExistingStore(db);
  try {
    const entries = await store.readJournal({ fromSeq: 1, limit: 1_000 });
    return entries.filter((e) => e.type === 'exclusion-recorded');
  } finally {
    await store.close();
  }
}

async function listed(db: string): Promise<ExclusionOrder[]> {
  const list = await runCli(['exclusions', 'list', '--db', db, '--json']);
  expect(list).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(list.stdout) as ExclusionOrder[];
}

describe('cussec exclusions load', () => {
  it('keeps the good rows of a CSV file, names the bad ones by row and field, and exits 1', async () => {
    const db = await freshDb();
    const orders = csv([
      order('C1'),
      order('C2', TOO_LONG),
      order('C3', WRONG_CHECK_DIGIT),
      order('C4'),
    ]);
    const path = file('orders.csv', orders);
    const run = await runCli(['exclusions', 'load', path, '--db', db]);
    expect(run).toEqual({
      code: 1,
      stdout:
        `${path}: 2 orders recorded, 0 already on record, 2 rows refused:\n` +
        `row 2: ${TOO_LONG_LINE}\n` +
        `row 3: ${CHECK_DIGIT_LINE}\n`,
      stderr:
        'cussec: 2 rows refused; the good rows are recorded. Correct the rows named and load the file again: orders on record are not entered twice\n',
    });
    expect((await listed(db)).map((o) => o.id)).toEqual(['C1', 'C4']);
  });

  it('keeps the good rows of a JSON file and names the bad ones the same way', async () => {
    const db = await freshDb();
    const orders = [order('J1', TOO_LONG), order('J2'), order('J3', WRONG_CHECK_DIGIT)];
    const path = file('orders.json', JSON.stringify({ source: 'DICJ', orders }));
    const run = await runCli(['exclusions', 'load', path, '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      `${path}: 1 order recorded, 0 already on record, 2 rows refused:\n` +
        `row 1: ${TOO_LONG_LINE}\n` +
        `row 3: ${CHECK_DIGIT_LINE}\n`,
    );
    expect(await listed(db)).toEqual([order('J2')]);
  });

  it.each([
    ['JSON', 'orders.json', (o: Order[]) => JSON.stringify(o)],
    ['CSV', 'orders.csv', csv],
  ])(
    'a second load of the same %s file records nothing, counts the orders as on record, and exits 0',
    async (_, name, write) => {
      const db = await freshDb();
      const path = file(name, write([order('R1'), order('R2'), order('R3')]));
      const first = await runCli(['exclusions', 'load', path, '--db', db]);
      expect(first).toEqual({
        code: 0,
        stdout: `${path}: 3 orders recorded, 0 already on record, no row refused\n`,
        stderr: '',
      });
      const again = await runCli(['exclusions', 'load', path, '--db', db]);
      expect(again).toEqual({
        code: 0,
        stdout: `${path}: 0 orders recorded, 3 already on record, no row refused\n`,
        stderr: '',
      });
      expect((await exclusionEntries(db)).length).toBe(3);
    },
  );

  it('journals each order with its document digest, never its number, and who loaded it', async () => {
    const db = await freshDb();
    const path = file('orders.json', JSON.stringify([order('D1')]));
    const run = await runCli(['exclusions', 'load', path, '--db', db, '--by', ' Ana Lei ']);
    expect(run.code, run.stderr).toBe(0);
    const [entry, ...others] = await exclusionEntries(db);
    expect(others).toEqual([]);
    expect(entry!.payload).toMatchObject({
      orderId: 'D1',
      documentType: 'passport',
      documentDigest: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
      by: 'Ana Lei (cussec exclusions load)',
    });
    expect(JSON.stringify(entry)).not.toContain('PD10001');
    const unnamed = file('more.json', JSON.stringify([order('D2')]));
    expect((await runCli(['exclusions', 'load', unnamed, '--db', db])).code).toBe(0);
    expect((await exclusionEntries(db))[1]!.payload).toMatchObject({
      by: 'cussec exclusions load',
    });
  });

  it('says so when no row of the file was good, exit 1', async () => {
    const db = await freshDb();
    const path = file('orders.csv', csv([order('N1', TOO_LONG)]));
    const run = await runCli(['exclusions', 'load', path, '--db', db]);
    expect(run).toMatchObject({ code: 1 });
    expect(run.stdout).toBe(
      `${path}: 0 orders recorded, 0 already on record, 1 row refused:\nrow 1: ${TOO_LONG_LINE}\n`,
    );
    expect(run.stderr).toMatch(/^cussec: 1 row refused; no row was good\. Correct the rows named/);
    expect(await exclusionEntries(db)).toEqual([]);
  });

  it('writes control characters from the file as escapes, so a row stays one line', async () => {
    const db = await freshDb();
    const id = 'E1\u001b[2J';
    const twice = order(id, { documentNumber: 'PE10001' });
    const path = file('orders.json', JSON.stringify([twice, twice]));
    const run = await runCli(['exclusions', 'load', path, '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[1]).toBe('row 2: id: id E1\\u001b[2J is already on row 1');
  });

  const malformed: [string, () => string[], RegExp][] = [
    ['a JSON file that is not JSON', () => [file('x.json', '{"orders": [')], /: not JSON: /],
    [
      'a JSON file that holds no orders',
      () => [file('x.json', '{"list": []}')],
      /: expected an array of orders or an object with an "orders" array$/,
    ],
    [
      'a CSV file with the wrong header',
      () => [file('x.csv', 'id,kind\r\nX,self\r\n')],
      /: the header must name id,kind,dicjReference,.*: missing dicjReference, /,
    ],
    [
      'a CSV file with a quote left open',
      () => [file('x.csv', `${EXCLUSION_FILE_COLUMNS.join(',')}\n"X,self\n`)],
      /: not CSV: record 2: a quoted field is not closed$/,
    ],
    ['an empty CSV file', () => [file('x.csv', '')], /: no header$/],
    [
      'a file that is not UTF-8',
      () => [file('x.csv', Buffer.from([0x69, 0x64, 0xff, 0xfe, 0x0a]))],
      /is not UTF-8 text/,
    ],
    [
      'no such file',
      () => [join(dir, 'absent.csv')],
      /^cussec: cannot read .*absent\.csv \(ENOENT\)$/,
    ],
    [
      'a folder',
      () => {
        const folder = join(dir, `${++n}-folder.json`);
        mkdirSync(folder);
        return [folder];
      },
      /folder\.json is not a file$/,
    ],
    [
      'a name that tells no format',
      () => [file('orders.txt', '[]')],
      /from its name: give --format json or --format csv$/,
    ],
    [
      'an unknown --format',
      () => [file('orders.json', '[]'), '--format', 'xml'],
      /^cussec: --format must be json or csv, got "xml"$/,
    ],
    [
      'a blank --by',
      () => [file('orders.json', '[]'), '--by', '  '],
      /^cussec: --by must name who loads the file/,
    ],
  ];
  it.each(malformed)(
    'refuses %s with one line and exit 2, entering nothing',
    async (_, args, line) => {
      const db = await freshDb();
      const run = await runCli(['exclusions', 'load', ...args(), '--db', db]);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(/^cussec: [^\n]+\n$/);
      expect(run.stderr.trimEnd()).toMatch(line);
      expect(await exclusionEntries(db)).toEqual([]);
    },
  );

  it('takes the format from --format whatever the name, and the extension in any case', async () => {
    const db = await freshDb();
    const csvNamedTxt = file('orders.txt', csv([order('F1')]));
    const asCsv = await runCli(['exclusions', 'load', csvNamedTxt, '--db', db, '--format', 'csv']);
    expect(asCsv.code, asCsv.stderr).toBe(0);
    const upper = file('ORDERS.JSON', JSON.stringify([order('F2')]));
    expect((await runCli(['exclusions', 'load', upper, '--db', db])).code).toBe(0);
    expect((await listed(db)).map((o) => o.id)).toEqual(['F1', 'F2']);
  });

  it('says there is no database at a path that holds none, exit 2', async () => {
    const path = file('orders.json', '[]');
    const missing = join(dir, 'none.sqlite');
    expect(await runCli(['exclusions', 'load', path, '--db', missing])).toEqual({
      code: 2,
      stdout: '',
      stderr: `cussec: no database at ${missing}\n`,
    });
  });

  it('exits 75 when nothing answers at the database URL, for load and list', async () => {
    const url = 'postgres://cussec@127.0.0.1:1/none';
    const path = file('orders.json', JSON.stringify([order('U1')]));
    for (const args of [
      ['load', path, '--db', url],
      ['list', '--db', url],
    ]) {
      const run = await runCli(['exclusions', ...args]);
      expect(run).toEqual({
        code: 75,
        stdout: '',
        stderr: 'cussec: the database is unavailable (ECONNREFUSED); retry shortly\n',
      });
    }
  });
});

describe('cussec exclusions list', () => {
  it('prints the register in id order, document numbers and revocations included', async () => {
    const db = await freshDb();
    const orders = [
      order('L2', { revocationRequestedOn: '2026-02-01' }),
      order('L1', { kind: 'court', to: '2031-01-09' }),
    ];
    const loaded = await runCli([
      'exclusions',
      'load',
      file('o.json', JSON.stringify(orders)),
      '--db',
      db,
    ]);
    expect(loaded.code, loaded.stderr).toBe(0);
    const run = await runCli(['exclusions', 'list', '--db', db]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [head, personal, , , blank, header, first, second, ...rest] = run.stdout.split('\n');
    expect(head).toBe(
      'The exclusion register: 2 orders, in id order (Lei 10/2012, arts. 2 and 6).',
    );
    expect(personal).toMatch(/^The output is personal data \(Lei 8\/2005\)/);
    expect(blank).toBe('');
    expect(header!.split(/ {2,}/)).toEqual([
      'Id',
      'Kind',
      'DICJ reference',
      'Document',
      'Number',
      'From',
      'To',
      'Revocation requested',
    ]);
    expect(first!.split(/ {2,}/)).toEqual([
      'L1',
      'court',
      'DICJ/2026/L1',
      'passport',
      'PL10001',
      '2026-01-10',
      '2031-01-09',
      '—',
    ]);
    // Lei 10/2012, art. 6: asked on 1 February, in effect 30 days later.
    expect(second!.split(/ {2,}/)).toEqual([
      'L2',
      'self',
      'DICJ/2026/L2',
      'passport',
      'PL20001',
      '2026-01-10',
      '2027-01-09',
      '2026-02-01 (effective 2026-03-03)',
    ]);
    expect(rest).toEqual(['']);
  });

  it('prints every field with --json, names and dates of birth included', async () => {
    const db = await freshDb();
    const path = file('o.csv', csv([order('K1')]));
    expect((await runCli(['exclusions', 'load', path, '--db', db])).code).toBe(0);
    expect(await listed(db)).toEqual([order('K1')]);
  });

  it('says so when the register is empty', async () => {
    const db = await freshDb();
    expect(await runCli(['exclusions', 'list', '--db', db])).toEqual({
      code: 0,
      stdout: 'The exclusion register is empty.\n',
      stderr: '',
    });
    expect(await listed(db)).toEqual([]);
  });

  it('says in its help that the output is personal data (Lei 8/2005)', async () => {
    const help = await runCli(['exclusions', 'list', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('The output is personal data (Lei 8/2005)');
  });
});

describe.skipIf(pgTestUrl() === undefined)('cussec exclusions on PostgreSQL', () => {
  const admin = pgTestUrl() ?? 'postgres://unused/unused';
  const name = `cussec_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  beforeAll(async () => {
    await adminSql(admin, `CREATE DATABASE ${name}`);
    await (await openExistingStore(url.href)).close();
  });
  afterAll(() => adminSql(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('loads a file and lists the register as on SQLite', async () => {
    const path = file('orders.csv', csv([order('P1'), order('P2', TOO_LONG)]));
    const run = await runCli(['exclusions', 'load', path, '--db', url.href]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      `${path}: 1 order recorded, 0 already on record, 1 row refused:\nrow 2: ${TOO_LONG_LINE}\n`,
    );
    const again = await runCli(['exclusions', 'load', path, '--db', url.href]);
    expect(again.stdout).toMatch(/: 0 orders recorded, 1 already on record, 1 row refused:\n/);
    expect((await listed(url.href)).map((o) => o.id)).toEqual(['P1']);
  });
});
