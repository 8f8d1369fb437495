/**
 * docs/export-format.md is enough to write a verifier: the one below was
 * written from that page alone, as a regulator would, importing nothing of
 * Cussec (neither src/ nor verifier/) and only node:crypto. It checks the
 * canonical form, the chain from the anchor, the digest, every settlement
 * (Arts. 5–7, with the paytable in force), every revealed commitment and
 * every payout transfer of a real export, and agrees with the shipped
 * verifier on what it counted. The export under test is written by Cussec.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../src/ledger/index.js';
import {
  adoptOdds,
  entryOfType,
  exportBytes,
  exportLines,
  playFloor,
  reforge,
  T0,
  tickingClock,
  verifyBytes,
} from '../src/service/export/testing.js';

// ---------------------------------------------------------------------------
// The minimal verifier, from docs/export-format.md

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Rec = { [key: string]: Json };

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** "Canonical JSON": members sorted by UTF-16 code units, JSON.stringify's strings and numbers. */
function canon(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon(v[k]!)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** "Settlement": N to 1 for the spot on the dice, 0 when it loses (the table of the page). */
function pays(spot: string, dice: number[], odds: Rec): number {
  const sum = dice[0]! + dice[1]! + dice[2]!;
  const count = (f: number) => dice.filter((d) => d === f).length;
  const allSame = count(dice[0]!) === 3;
  const [kind, arg = ''] = spot.split(':');
  const nums = arg.split('-').map(Number);
  if (kind === 'small') return sum <= 10 && !allSame ? 1 : 0;
  if (kind === 'big') return sum >= 11 && !allSame ? 1 : 0;
  if (kind === 'even') return sum % 2 === 0 ? 1 : 0;
  if (kind === 'odd') return sum % 2 === 1 ? 1 : 0;
  if (kind === 'single') return count(nums[0]!);
  if (kind === 'triple') return count(nums[0]!) === 3 ? 150 : 0;
  if (kind === 'any-triple') return allSame ? 24 : 0;
  if (kind === 'double') return count(nums[0]!) >= 2 ? 8 : 0;
  if (kind === 'double-single') return count(nums[0]!) === 2 && count(nums[1]!) === 1 ? 50 : 0;
  if (kind === 'three-dice') return nums.every((f) => count(f) === 1) ? 30 : 0;
  if (kind === 'two-dice') return count(nums[0]!) > 0 && count(nums[1]!) > 0 ? 5 : 0;
  if (kind === 'four-numbers')
    return new Set(dice).size === 3 && dice.every((d) => nums.includes(d)) ? 7 : 0;
  if (kind === 'total') {
    if (sum !== nums[0]) return 0;
    const table: Record<number, number> = { 4: 50, 17: 50, 7: 12, 14: 12, 8: 8, 13: 8 };
    if (sum === 5 || sum === 16) return odds['5/16'] as number;
    if (sum === 6 || sum === 15) return odds['6/15'] as number;
    return table[sum] ?? 6;
  }
  throw new Error(`unknown spot ${spot}`);
}

interface Round {
  odds: Rec;
  bets: Rec[];
  commitments: Map<number, string>;
  returns: number[];
}

/** Throws at the first thing that does not hold; else what it checked. */
function minimalVerify(file: Buffer) {
  const text = file.toString('utf8');
  const lines = text.split('\n');
  if (lines.pop() !== '') throw new Error('no final line feed');
  const endLine = lines.pop()!;
  const end = JSON.parse(endLine) as Rec;
  const body = text.slice(0, text.length - endLine.length - 1);
  if (end['sha256'] !== sha256(body) || end['lines'] !== lines.length) throw new Error('digest');
  const records = lines.map((l) => {
    const r = JSON.parse(l) as Rec;
    if (canon(r) !== l) throw new Error(`not canonical: ${l.slice(0, 40)}`);
    return r;
  });
  const header = records[0]!;
  if (header['record'] !== 'header' || header['version'] !== 1) throw new Error('header');
  let prev = (header['anchor'] as Rec)['hash'] as string;
  let seq = (header['anchor'] as Rec)['seq'] as number;
  const tables = new Map<string, Round>();
  const counted = { entries: 0, rounds: 0, reveals: 0, payouts: 0 };
  // The payouts the last prizes-paid implies; null after any other entry (its transfers are not checked here).
  let pending: Rec[] | null = null;
  for (const r of records.slice(1)) {
    if (r['record'] === 'transfer') {
      if (pending === null) continue;
      const want = pending.shift();
      for (const k of ['id', 'debitAccountId', 'creditAccountId', 'amountMinor', 'kind'])
        if (want === undefined || r[k] !== want[k])
          throw new Error(`transfer ${r['id'] as string}`);
      continue;
    }
    if (pending !== null && pending.length > 0) throw new Error('a payout is missing');
    if (r['record'] !== 'entry') continue;
    const { tableId, type, atMs, payload } = r as {
      tableId: string;
      type: string;
      atMs: number;
      payload: Rec;
    };
    seq++;
    if (r['seq'] !== seq || r['prevHash'] !== prev) throw new Error(`chain at ${seq}`);
    prev = sha256(canon([seq, prev, tableId, type, atMs, payload]));
    if (r['hash'] !== prev) throw new Error(`hash at ${seq}`);
    counted.entries++;
    pending = check(tables, tableId, type, payload, counted);
  }
  return counted;
}

/** One entry's rules, as far as this minimal verifier goes; the payout transfers it implies. */
function check(
  tables: Map<string, Round>,
  tableId: string,
  type: string,
  p: Rec,
  counted: { rounds: number; reveals: number; payouts: number },
): Rec[] | null {
  if (type === 'table-created' || type === 'table-settings-changed') {
    const odds = ((p['settings'] as Rec)['paytable'] as Rec)['totalOdds'] as Rec;
    const t = tables.get(tableId) ?? { odds, bets: [], commitments: new Map(), returns: [] };
    tables.set(tableId, { ...t, odds });
  }
  const t = tables.get(tableId);
  if (t === undefined) return null;
  if (type === 'dome-covered' && p['newRound'] === true)
    Object.assign(t, { bets: [], commitments: new Map() });
  if (type === 'betting-opened' && p['commitmentHex'] !== null)
    t.commitments.set(p['rollNo'] as number, p['commitmentHex'] as string);
  if (type === 'bet-placed') t.bets.push(p['bet'] as Rec);
  if (type === 'bet-withdrawn')
    t.bets = t.bets.filter((b) => b['betId'] !== (p['bet'] as Rec)['betId']);
  if (type === 'dice-revealed') {
    const { roundNo, rollNo, dice, nonceHex } = p as {
      roundNo: number;
      rollNo: number;
      dice: number[];
      nonceHex: string;
    };
    const message = `cussec/roll/v1\n${tableId}\n${roundNo}\n${rollNo}\n${dice.join(',')}\n${nonceHex}`;
    if (sha256(message) !== t.commitments.get(p['rollNo'] as number)) throw new Error('commitment');
    counted.reveals++;
  }
  if (type === 'round-settled') {
    t.returns = t.bets.map((b) => {
      const n = pays(b['spot'] as string, p['dice'] as number[], t.odds);
      return n === 0 ? 0 : (b['stakeMinor'] as number) * (n + 1);
    });
    if (canon(t.returns) !== canon(p['returnsMinor']!))
      throw new Error(`settlement of round ${p['roundNo'] as number}`);
    counted.rounds++;
  }
  if (type !== 'prizes-paid') return null;
  const round = `${tableId}:${p['roundNo'] as number}`;
  const stakes = t.bets.reduce((s, b) => s + (b['stakeMinor'] as number), 0);
  const out: Rec[] =
    stakes === 0
      ? []
      : [
          {
            id: `stakes:${round}`,
            debitAccountId: `in-play:${tableId}`,
            creditAccountId: `bankroll:${tableId}`,
            amountMinor: stakes,
            kind: 'stakes-collected',
          },
        ];
  t.bets.forEach((b, i) => {
    if (t.returns[i]! > 0)
      out.push({
        id: `payout:${round}:${b['betId'] as string}`,
        debitAccountId: `bankroll:${tableId}`,
        creditAccountId: `wallet:${b['playerId'] as string}`,
        amountMinor: t.returns[i]!,
        kind: 'payout',
      });
  });
  counted.payouts += out.length;
  return out;
}

// ---------------------------------------------------------------------------
// Checked against real exports

let dir = '';
let floor: Buffer = Buffer.alloc(0);
let adopted: Buffer = Buffer.alloc(0);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-format-'));
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

describe('a verifier written from docs/export-format.md alone', () => {
  it('checks a real export and counts what the shipped verifier counts', () => {
    for (const bytes of [floor, adopted]) {
      const mine = minimalVerify(bytes);
      const shipped = verifyBytes(bytes);
      if (!shipped.ok) throw new Error(shipped.message);
      expect(mine).toEqual({
        entries: shipped.summary.entries,
        rounds: shipped.summary.rounds,
        reveals: shipped.summary.reveals,
        payouts: shipped.summary.transfers - transfersOtherThanPayouts(bytes),
      });
    }
  });

  it('finds, as the shipped verifier does, a settlement changed by one avo', () => {
    const lines = exportLines(floor);
    const settled = entryOfType(lines, 'round-settled', 3);
    (settled['payload'] as { returnsMinor: number[] }).returnsMinor[0]! += 1;
    const forged = reforge(lines);
    expect(() => minimalVerify(forged)).toThrow(/^settlement of round \d+$/);
    expect(verifyBytes(forged)).toMatchObject({ ok: false, code: 'settlement_mismatch' });
  });
});

function transfersOtherThanPayouts(bytes: Buffer): number {
  return exportLines(bytes).filter(
    (l) => l.record === 'transfer' && l['kind'] !== 'payout' && l['kind'] !== 'stakes-collected',
  ).length;
}
