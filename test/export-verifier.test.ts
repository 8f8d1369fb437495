/**
 * verifier/cussec-verify.mjs on real exports: as a program (`node
 * verifier/cussec-verify.mjs FILE`, its exit codes and lines) and, for the
 * properties that take hundreds of runs, in-process on the bytes (the same
 * code). Every single-byte change is found, with the file's digest left as it
 * was and, inside the journal's lines, with it recomputed as a forger would;
 * every line removed, doubled or swapped; a settlement or a payout moved by
 * one avo; an adoption without its authorization or with short notice;
 * entry types it has no rule for, checked by chain only; and the forfeit of a
 * barred player's winnings (Lei 10/2012, art. 11), right and wrong.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../src/ledger/index.js';
import {
  adoptOdds,
  entryOfType,
  exportBytes,
  type ExportLine,
  exportLines,
  playFloor,
  reforge,
  T0,
  tickingClock,
  verifyBytes,
} from '../src/service/export/testing.js';

const VERIFIER = join(import.meta.dirname, '..', 'verifier', 'cussec-verify.mjs');
const run = promisify(execFile);

let dir = '';
/** The played floor's whole export, and the Art. 8 table's. */
let floor: Buffer = Buffer.alloc(0);
let adopted: Buffer = Buffer.alloc(0);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-verifier-'));
  vi.useFakeTimers({ toFake: ['Date'], now: T0 });
  try {
    const store = await openSqliteStore({
      path: join(dir, 'floor.sqlite'),
      currency: 'MOP',
      clock: tickingClock(),
    });
    await playFloor(store, tickingClock(T0 + 1_000));
    floor = await exportBytes(store);
    await store.close();
    const art8 = await openSqliteStore({ path: join(dir, 'art8.sqlite'), currency: 'MOP' });
    await adoptOdds(art8);
    adopted = await exportBytes(art8);
    await art8.close();
  } finally {
    vi.useRealTimers();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node verifier/cussec-verify.mjs ARGS…`, as a regulator runs it. */
async function verifier(...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(process.execPath, [VERIFIER, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let n = 0;
function file(bytes: Uint8Array): string {
  const path = join(dir, `export-${++n}.ndjson`);
  writeFileSync(path, bytes);
  return path;
}

/** The bytes with the end record written anew for what precedes it: the file's digest no longer catches anything. */
function withDigest(bytes: Buffer): Buffer {
  const body = bytes.subarray(0, bytes.lastIndexOf(10, bytes.length - 2) + 1);
  const lines = body.toString('utf8').split('\n').length - 1;
  const sha256 = createHash('sha256').update(body).digest('hex');
  return Buffer.concat([
    body,
    Buffer.from(`{"lines":${lines},"record":"end","sha256":"${sha256}"}\n`),
  ]);
}

/** The lines (with their line feeds) of the bytes, and where each starts. */
function lineSpans(bytes: Buffer): { start: number; end: number; record: string }[] {
  const spans = [];
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(10, start);
    const record = (JSON.parse(bytes.subarray(start, end).toString('utf8')) as ExportLine).record;
    spans.push({ start, end, record });
    start = end + 1;
  }
  return spans;
}

const failure = (bytes: Uint8Array) => {
  const verdict = verifyBytes(bytes);
  return verdict.ok ? null : verdict;
};

describe('node verifier/cussec-verify.mjs', () => {
  it('exits 0 on a real export and says what it checked', async () => {
    const { code, stdout, stderr } = await verifier(file(floor));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(
      /^cussec-verify: export version 1, MOP, journal entries 1–\d+ \(the whole journal and ledger\)$/m,
    );
    expect(stdout).toMatch(
      /^chain: \d+ entries from anchor 0:0{64} to \d+:[0-9a-f]{64} \(the head\)$/m,
    );
    expect(stdout).toMatch(
      /^rounds: 9 settled \(Arts\. 5–7 recomputed\), 9 paid; bets: \d+ placed/m,
    );
    expect(stdout).toMatch(
      /^ledger: \d+ transfers match their entries \(\d+ minor units\); \d+ accounts hold what their transfers add up to, in sum 0$/m,
    );
    expect(stdout).toMatch(
      /^NOTE: table T1 played 6 rounds under options marked simulation: not a DICJ authorization \(Art\. 8\)$/m,
    );
    expect(stdout).toMatch(/^OK: every check holds\.$/m);
  });

  it('prints the verdict as JSON with --json', async () => {
    const { code, stdout } = await verifier(file(floor), '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(verifyBytes(floor));
  });

  it('exits 1 with the first failing seq, the line, a code and the reason', async () => {
    const lines = exportLines(floor);
    const settled = entryOfType(lines, 'round-settled');
    const returns = settled['payload'] as { returnsMinor: number[] };
    returns.returnsMinor[0]! += 1;
    const { code, stdout, stderr } = await verifier(file(reforge(lines)));
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    const line = lines.indexOf(settled) + 1;
    expect(stderr).toMatch(
      new RegExp(
        `^FAIL seq ${String(settled['seq'])} \\(line ${line}\\): \\[settlement_mismatch\\] round 1 of table T1: bet \\S+ \\(.*\\) returned \\d+, Arts\\. 5–7 give \\d+ \\(Art\\. 6\\)\\n$`,
      ),
    );
  });

  it.each([
    [[], /^usage: node cussec-verify\.mjs FILE \[--json\]/],
    [['a', 'b'], /^usage:/],
    [
      ['/nonexistent/export.ndjson'],
      /^cussec-verify: cannot read \/nonexistent\/export\.ndjson: ENOENT/,
    ],
  ])('exits 2 when it cannot run (%j)', async (args, message) => {
    const { code, stderr } = await verifier(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('refuses another version of the format, and a file that is not an export', async () => {
    const v2 = floor.toString('utf8').replace('"version":1', '"version":2');
    const ran = await verifier(file(Buffer.from(v2)));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(
      /^FAIL line 1: \[format_unsupported\] format version 2: this verifier reads version 1 only/,
    );
    const headless = floor.subarray(floor.indexOf(10) + 1);
    const other = await verifier(file(headless));
    expect(other.stderr).toMatch(
      /^FAIL line 1: \[file_malformed\] the file does not start with its header/,
    );
  });

  it('imports nothing but Node built-ins, and nothing of src/', () => {
    const source = readFileSync(VERIFIER, 'utf8');
    expect(source).not.toMatch(/^\s*import\s.*\sfrom\s/m);
    expect(source).not.toMatch(/\brequire\(/);
    // Calls, not the types of JSDoc comments (`typeof import('node:fs')`).
    expect([...source.matchAll(/(?<!typeof )\bimport\(([^)]*)\)/g)].map((m) => m[1])).toEqual([
      '/* @vite-ignore */ `node:${name}`',
    ]);
    expect([...source.matchAll(/node(Module)?\('(\w+)'\)/g)].map((m) => m[2]).sort()).toEqual([
      'crypto',
      'fs',
      'url',
    ]);
    expect(source).not.toMatch(/\.\.\/src\//);
  });
});

describe('what the verifier finds in a file', () => {
  it('finds every single-byte change anywhere in the file', () => {
    fc.assert(
      fc.property(fc.nat(floor.length - 1), fc.integer({ min: 1, max: 255 }), (at, delta) => {
        const changed = Buffer.from(floor);
        changed[at] = (changed[at]! + delta) % 256;
        expect(failure(changed), `byte ${at} + ${delta}`).not.toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it('finds every single-byte change in an entry, transfer or account line even with the digest recomputed', () => {
    const spans = lineSpans(floor).filter((s) =>
      ['entry', 'transfer', 'account'].includes(s.record),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...spans),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 255 }),
        (span, where, delta) => {
          const at = span.start + Math.floor(where * (span.end - span.start));
          const changed = Buffer.from(floor);
          changed[at] = (changed[at]! + delta) % 256;
          const found = failure(withDigest(changed));
          expect(found, `${span.record} line, byte ${at} + ${delta}`).not.toBeNull();
          expect(found!.code).not.toBe('file_digest_mismatch');
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds every line removed, doubled or swapped with the next, even with the digest recomputed', () => {
    const lines = floor.toString('utf8').split('\n').slice(0, -1);
    const body = lines.slice(0, -1);
    const rebuilt = (ls: string[]): Buffer =>
      withDigest(Buffer.from(`${[...ls, lines.at(-1)!].join('\n')}\n`));
    for (let i = 0; i < body.length; i++) {
      const removed = body.filter((_, j) => j !== i);
      const doubled = [...body.slice(0, i + 1), body[i]!, ...body.slice(i + 1)];
      expect(failure(rebuilt(removed)), `line ${i + 1} removed`).not.toBeNull();
      expect(failure(rebuilt(doubled)), `line ${i + 1} doubled`).not.toBeNull();
      if (i + 1 < body.length) {
        const swapped = [...body];
        [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
        expect(failure(rebuilt(swapped)), `lines ${i + 1} and ${i + 2} swapped`).not.toBeNull();
      }
    }
  });

  it('finds a settlement changed by one avo, though the chain is hashed again over it', () => {
    for (const [i, settled] of exportLines(floor)
      .filter((l) => l['type'] === 'round-settled')
      .entries()) {
      const lines = exportLines(floor);
      const entry = entryOfType(lines, 'round-settled', i);
      const payload = entry['payload'] as { returnsMinor: number[]; totalReturnedMinor: number };
      const winner = payload.returnsMinor.findIndex((r) => r > 0);
      const at = winner === -1 ? 0 : winner;
      payload.returnsMinor[at]! += 1;
      payload.totalReturnedMinor += 1;
      expect(failure(reforge(lines))).toMatchObject({
        seq: settled['seq'],
        code: 'settlement_mismatch',
        article: '6',
      });
    }
  });

  it("finds a payout changed by one avo in the ledger's transfers", () => {
    const lines = exportLines(floor);
    const payout = lines.find((l) => l.record === 'transfer' && l['kind'] === 'payout')!;
    (payout as Record<string, unknown>)['amountMinor'] = Number(payout['amountMinor']) - 1;
    const found = failure(reforge(lines));
    expect(found).toMatchObject({ code: 'transfer_mismatch' });
    expect(found!.message).toMatch(
      /^transfer payout:T1:\d+:\S+: amountMinor is \d+, entry \d+ implies \d+$/,
    );
  });

  it('finds a revealed roll whose dice do not open the commitment published before betting', () => {
    const lines = exportLines(floor);
    const revealed = entryOfType(lines, 'dice-revealed');
    const payload = revealed['payload'] as { dice: number[] };
    payload.dice = payload.dice.map((d) => (d % 6) + 1);
    expect(failure(reforge(lines))).toMatchObject({
      seq: revealed['seq'],
      code: 'commitment_mismatch',
      article: '2.1',
    });
  });
});

describe('Art. 8 in the verifier', () => {
  it('passes the adoption done right and names the holiday list it counted with', () => {
    const verdict = verifyBytes(adopted);
    expect(verdict).toMatchObject({
      ok: true,
      summary: {
        adoptions: 1,
        holidayYears: [{ year: 2026, origin: 'bundled' }],
        marked: [{ tableId: 'T1', mark: 'simulation', rounds: 1 }],
      },
    });
  });

  it('finds an adoption with no authorization recorded', () => {
    const lines = exportLines(adopted).filter((l) => l['type'] !== 'dicj-authorization-recorded');
    renumber(lines);
    const adoption = entryOfType(lines, 'house-options-adopted');
    const found = failure(reforge(lines));
    expect(found).toMatchObject({
      seq: adoption['seq'],
      code: 'options_unauthorized',
      article: '8',
    });
    expect(found!.message).toBe('proposal P1 is adopted with no authorization recorded');
  });

  it('finds a request made with less than three working days of notice', () => {
    const lines = exportLines(adopted);
    // Wednesday 4 March for Friday 6 March: only Thursday 5 lies between.
    const day = '2026-03-04';
    Object.assign(entryOfType(lines, 'house-options-proposed')['payload'] as object, {
      requestDate: day,
      on: day,
    });
    Object.assign(entryOfType(lines, 'dicj-authorization-recorded')['payload'] as object, {
      authorizationDate: day,
      on: day,
    });
    const adoption = entryOfType(lines, 'house-options-adopted');
    const found = failure(reforge(lines));
    expect(found).toMatchObject({ seq: adoption['seq'], code: 'request_not_timely', article: '8' });
    expect(found!.message).toMatch(
      /requested on 2026-03-04 for 2026-03-06: 1 working day\(s\) between them/,
    );
  });

  it('finds a count across a year whose holiday list is not in force', () => {
    const lines = exportLines(adopted);
    Object.assign(entryOfType(lines, 'house-options-proposed')['payload'] as object, {
      requestDate: '2025-12-01',
      on: '2025-12-01',
    });
    Object.assign(entryOfType(lines, 'dicj-authorization-recorded')['payload'] as object, {
      authorizationDate: '2025-12-02',
    });
    expect(failure(reforge(lines))).toMatchObject({ code: 'calendar_year_missing', article: '8' });
  });
});

describe('entries the verifier has no rule for, and forfeits (Lei 10/2012, art. 11)', () => {
  it('checks an entry type it does not know by chain only, and counts it', () => {
    const lines = exportLines(floor);
    const at = lines.indexOf(entryOfType(lines, 'dome-covered', 2));
    insertEntry(lines, at, {
      tableId: null,
      type: 'identity-registered',
      payload: { documentDigest: 'a'.repeat(64), by: 'cashier' },
    });
    const verdict = verifyBytes(reforge(lines));
    expect(verdict).toMatchObject({
      ok: true,
      summary: { chainOnly: { 'identity-registered': 1 } },
    });
  });

  it('refuses a transfer after an entry it has no rule for', () => {
    const lines = exportLines(floor);
    const deposit = lines.find((l) => l.record === 'transfer' && l['kind'] === 'deposit')!;
    const at = lines.indexOf(entryOfType(lines, 'dome-covered', 2));
    insertEntry(lines, at, {
      tableId: null,
      type: 'large-cash-transaction',
      payload: { by: 'cashier' },
    });
    lines.splice(at + 1, 0, { ...deposit, id: 'stray' });
    expect(failure(reforge(lines))).toMatchObject({ code: 'transfer_mismatch' });
  });

  it('passes a forfeit of exactly the net winnings, moved from the wallet to the SAR', () => {
    const { lines } = forfeitScenario(0);
    expect(verifyBytes(reforge(lines))).toMatchObject({
      ok: true,
      summary: { forfeits: 1, byRule: { 'winnings-forfeited': 1 } },
    });
  });

  it.each([
    ['a forfeit one avo short', 1, 'forfeit_mismatch'],
    ['a transfer that moves another amount', 'transfer', 'transfer_mismatch'],
  ] as const)('finds %s', (_name, wrong, code) => {
    const { lines, entry, transfer } = forfeitScenario(0);
    if (wrong === 'transfer') transfer['amountMinor'] = Number(transfer['amountMinor']) + 1;
    else {
      const p = entry['payload'] as { forfeitedMinor: number };
      p.forfeitedMinor -= wrong;
    }
    expect(failure(reforge(lines))).toMatchObject({ code });
  });
});

/** Renumbers the entries after an insertion or a removal; how many entries there are. */
function renumber(lines: ExportLine[]): number {
  const entries = lines.filter((l) => l.record === 'entry');
  const first = Number(entries[0]!['seq']);
  entries.forEach((l, i) => Object.assign(l, { seq: first + i }));
  const header = lines[0]!;
  const toSeq = first + entries.length - 1;
  Object.assign(header, {
    range: { fromSeq: first, toSeq },
    head: { seq: toSeq, hash: '' },
  });
  return entries.length;
}

/** Inserts an entry before line `at`, its time the one after it. */
function insertEntry(
  lines: ExportLine[],
  at: number,
  e: { tableId: string | null; type: string; payload: object },
): ExportLine {
  const next = lines[at]!;
  const entry: ExportLine = {
    record: 'entry',
    seq: 0,
    atMs: next['atMs'],
    prevHash: '',
    hash: '',
    ...e,
  };
  lines.splice(at, 0, entry);
  renumber(lines);
  return entry;
}

/**
 * A whole export in which the first player with net winnings in T1's round
 * `round` is barred: after the round's payouts, a `winnings-forfeited` entry
 * and its transfer to the SAR, the balances moved to match.
 */
function forfeitScenario(round: number) {
  const lines = exportLines(floor);
  const paid = entryOfType(
    lines.filter((l) => l['tableId'] === 'T1' || l.record !== 'entry'),
    'prizes-paid',
    round,
  );
  const roundNo = (paid['payload'] as { roundNo: number }).roundNo;
  const refOf = `round:T1:${roundNo}`;
  const net = new Map<string, number>();
  for (const t of lines.filter((l) => l.record === 'transfer' && l['reference'] === refOf)) {
    const [from, to, amount] = [
      String(t['debitAccountId']),
      String(t['creditAccountId']),
      Number(t['amountMinor']),
    ];
    if (from.startsWith('wallet:')) net.set(from.slice(7), (net.get(from.slice(7)) ?? 0) - amount);
    if (to.startsWith('wallet:')) net.set(to.slice(7), (net.get(to.slice(7)) ?? 0) + amount);
  }
  const [playerId, forfeit] = [...net].find(([, v]) => v > 0)!;
  const betsOf = (type: string) =>
    lines
      .filter(
        (l) =>
          l['type'] === type &&
          l['tableId'] === 'T1' &&
          (l['payload'] as { roundNo: number }).roundNo === roundNo,
      )
      .map(
        (l) =>
          (l['payload'] as { bet: { betId: string; playerId: string; stakeMinor: number } }).bet,
      );
  const withdrawn = new Set(betsOf('bet-withdrawn').map((b) => b.betId));
  const stakes = betsOf('bet-placed')
    .filter((b) => b.playerId === playerId && !withdrawn.has(b.betId))
    .reduce((sum, b) => sum + b.stakeMinor, 0);
  let at = lines.indexOf(paid) + 1;
  while (lines[at]!.record === 'transfer') at++;
  const transferId = `forfeit:T1:${roundNo}:${playerId}`;
  const entry = insertEntry(lines, at, {
    tableId: 'T1',
    type: 'winnings-forfeited',
    payload: {
      tableId: 'T1',
      roundNo,
      playerId,
      stakesMinor: stakes,
      returnsMinor: stakes + forfeit,
      forfeitedMinor: forfeit,
      transferId,
    },
  });
  const transfer: ExportLine = {
    record: 'transfer',
    id: transferId,
    debitAccountId: `wallet:${playerId}`,
    creditAccountId: 'sar',
    amountMinor: forfeit,
    kind: 'art11-forfeit',
    reference: refOf,
    createdAtMs: entry['atMs'],
  };
  lines.splice(at + 1, 0, transfer);
  const wallet = lines.find((l) => l.record === 'account' && l['id'] === `wallet:${playerId}`)!;
  wallet['balanceMinor'] = Number(wallet['balanceMinor']) - forfeit;
  const accounts = lines.filter((l) => l.record === 'account');
  const after = accounts.find((a) => String(a['id']) > 'sar');
  const sar: ExportLine = { record: 'account', id: 'sar', kind: 'sar', balanceMinor: forfeit };
  lines.splice(after === undefined ? lines.length - 1 : lines.indexOf(after), 0, sar);
  return { lines, entry, transfer };
}
