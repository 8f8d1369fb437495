/**
 * The journal's hash format does not change: a seeded table played on a fixed
 * clock journals the same entries, chained to the same hashes, as the code that
 * recorded the figures below (before the journal was typed). Read back through
 * the store, every entry parses and its hash recomputes from the parsed payload.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { playTable } from '../service/simulated-table.js';
import { openSqliteStore } from '../ledger/index.js';
import { sha256Hex } from './canonical-json.js';
import { entryHash } from './entry.js';
import { verifyChain } from './verify.js';

/** 1 Jan 2026 00:00 UTC: the fixed instant the faked Date starts at. */
const T0 = 1_767_225_600_000;

/**
 * Recorded again once, when `cussec play` began taking its table's lease: one
 * transaction more a run, so on this ticking clock every later entry's time
 * moved on by 250–1,000 ms. The two journals were compared entry by entry and
 * differed in nothing but `atMs`. And once more when the cage's deposits began
 * to carry the wallet's balance after them (`balanceAfterMinor`, for the cage's
 * history and receipt): the six deposits' payloads gained that field, so every
 * hash from the first deposit on moved; the entries, their types and every
 * other payload are as before.
 */
const RECORDED = {
  entries: 171,
  lastHash: 'bcc04c361951289a6977373e6b3644b593759bc60a36c15770bfddbf407cdbed',
  /** SHA-256 of every entry's hash, one a line, in seq order. */
  allHashes: 'e6993381f87526ae36a73d95961f088e7760fc2ff240a08dcb653a36e92231bc',
  types: {
    'bell-rung': 10,
    'bet-placed': 62,
    'bet-withdrawn': 1,
    'betting-opened': 10,
    deposit: 6,
    'dice-read': 3,
    'dice-revealed': 6,
    'dice-shaken': 10,
    'dome-covered': 10,
    'dome-lifted': 10,
    'latches-fastened': 10,
    'lever-pulled': 12,
    'prizes-paid': 9,
    'roll-voided': 1,
    'round-settled': 9,
    'table-created': 2,
  },
};

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-hash-format-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the journal hash format', () => {
  it('chains a seeded table to the hashes recorded before the journal was typed', async () => {
    let tick = T0;
    const clock = (): number => (tick += 250);
    const store = await openSqliteStore({ path: join(dir, 'play.sqlite'), currency: 'MOP', clock });
    try {
      await playTable({
        store,
        tableId: 'T1',
        rounds: 6,
        players: 4,
        seed: 'hash-format',
        shaker: 'electronic',
        clock,
      });
      await playTable({
        store,
        tableId: 'T2',
        rounds: 3,
        players: 2,
        seed: 'hash-format-lever',
        shaker: 'lever',
        clock,
      });
      const entries = await store.readJournal({ fromSeq: 1, limit: 100_000 });
      for (const e of entries) expect(entryHash(e)).toBe(e.hash);
      expect(await verifyChain(store)).toMatchObject({ ok: true });
      const types: Record<string, number> = {};
      for (const e of entries) types[e.type] = (types[e.type] ?? 0) + 1;
      const observed = {
        entries: entries.length,
        lastHash: entries.at(-1)!.hash,
        allHashes: sha256Hex(entries.map((e) => e.hash).join('\n')),
        types,
      };
      expect(observed).toEqual(RECORDED);
    } finally {
      await store.close();
    }
  });
});
