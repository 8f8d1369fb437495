/**
 * Exports of real journals, on both engines, checked by the shipped verifier
 * (verifier/cussec-verify.mjs, run in-process on the bytes): a played floor
 * whole and from every first entry, a table's export, the Art. 8 workflow
 * done right and a change of odds with no authorization, and the same journal
 * exported from SQLite and PostgreSQL.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pgTestUrl, withStores } from '../../ledger/testing.js';
import {
  adoptOdds,
  exportBytes,
  exportLines,
  playFloor,
  rogueOdds,
  T0,
  tickingClock,
  verifyBytes,
} from './testing.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Each engine's whole export of the played floor, compared once both ran. */
const floors = new Map<string, Buffer>();

withStores('export', (h) => {
  it('writes a whole export of a played floor that the verifier passes, counting what the journal holds', async () => {
    const store = await h.open({ clock: tickingClock() });
    await playFloor(store, tickingClock(T0 + 1_000));
    const bytes = await exportBytes(store);
    floors.set(h.engine, bytes);
    // A range from mid-round, whose context each engine reads by its own SQL.
    floors.set(`${h.engine}-range`, await exportBytes(store, { fromSeq: 60, toSeq: 150 }));
    const verdict = verifyBytes(bytes);
    if (!verdict.ok) throw new Error(`${verdict.code} at ${verdict.seq}: ${verdict.message}`);
    const head = await store.journalHead();
    const transfers = await store.listTransfers({ limit: 10_000 });
    const { summary } = verdict;
    expect(summary).toMatchObject({
      range: { fromSeq: 1, toSeq: head.lastSeq },
      last: { seq: head.lastSeq, hash: head.lastHash },
      ledger: 'whole',
      entries: head.lastSeq,
      contextEntries: 0,
      chainOnly: {},
      rounds: 9,
      roundsPaid: 9,
      transfers: transfers.length,
      accounts: (await store.listAccounts()).length,
    });
    const entries = await store.readJournal({ fromSeq: 1, limit: 10_000 });
    const count = (type: string): number => entries.filter((e) => e.type === type).length;
    expect(summary.reveals).toBe(count('dice-revealed'));
    expect(summary.readings).toBe(count('dice-read'));
    expect(summary.voidRolls).toBe(
      entries.filter((e) => e.type === 'roll-voided' && e.payload.voidedRoll !== null).length,
    );
    expect(summary.marked.map((m) => [m.tableId, m.mark, m.rounds])).toEqual([
      ['T1', 'simulation', 6],
      ['T2', 'simulation', 3],
    ]);
  });

  it('writes a range that verifies from every first entry: the context carries the round, the settings and the decisions before it', async () => {
    const store = await h.open({ clock: tickingClock() });
    await playFloor(store, tickingClock(T0 + 1_000));
    const { lastSeq } = await store.journalHead();
    // Every first entry on SQLite; on PostgreSQL (slower to open a snapshot) every 7th.
    const stride = h.engine === 'sqlite' ? 1 : 7;
    for (let fromSeq = 1; fromSeq <= lastSeq; fromSeq += stride) {
      const toSeq = Math.min(lastSeq, fromSeq + 40);
      const verdict = verifyBytes(await exportBytes(store, { fromSeq, toSeq }));
      if (!verdict.ok)
        throw new Error(
          `${fromSeq}–${toSeq}: ${verdict.code} at ${verdict.seq}: ${verdict.message}`,
        );
      expect(verdict.summary.entries).toBe(toSeq - fromSeq + 1);
      expect(verdict.summary.ledger).toBe('range');
    }
  });

  it("checks a table's export by rule for that table and by chain only for the rest", async () => {
    const store = await h.open({ clock: tickingClock() });
    await playFloor(store, tickingClock(T0 + 1_000));
    const bytes = await exportBytes(store, { tableId: 'T2' });
    const verdict = verifyBytes(bytes);
    if (!verdict.ok) throw new Error(`${verdict.code}: ${verdict.message}`);
    const { byRule, chainOnly, rounds, table, ledger } = verdict.summary;
    expect({ table, ledger, rounds }).toEqual({ table: 'T2', ledger: 'range', rounds: 3 });
    expect(chainOnly).toMatchObject({ deposit: 6, 'bet-placed': expect.any(Number) as number });
    expect(byRule['table-created']).toBe(1);
    // The other table's rounds and the cage's deposits carry no transfer in it.
    const lines = exportLines(bytes);
    expect(
      lines
        .filter((l) => l.record === 'transfer')
        .every((t) => /:T2:/.test(String(t['reference']))),
    ).toBe(true);
  });

  it('passes the Art. 8 workflow done right: proposed three working days ahead, authorized, adopted; 5 then pays 24', async () => {
    const store = await h.open();
    await adoptOdds(store);
    const { lastSeq } = await store.journalHead();
    for (let fromSeq = 1; fromSeq <= lastSeq; fromSeq++) {
      const verdict = verifyBytes(await exportBytes(store, { fromSeq }));
      if (!verdict.ok)
        throw new Error(`from ${fromSeq}: ${verdict.code} at ${verdict.seq}: ${verdict.message}`);
      if (fromSeq === 1)
        expect(verdict.summary).toMatchObject({
          adoptions: 1,
          holidayYears: [{ year: 2026, origin: 'bundled' }],
          rounds: 2,
          returnsMinor: 19_000 + 25_000,
        });
    }
  });

  it('finds a round whose 5/16 odds were changed with no authorization, at the change', async () => {
    const store = await h.open();
    await rogueOdds(store);
    const changed = (await store.readJournal({ fromSeq: 1, limit: 1_000 })).filter(
      (e) => e.type === 'table-settings-changed',
    );
    expect(changed).toHaveLength(1);
    const verdict = verifyBytes(await exportBytes(store));
    expect(verdict).toMatchObject({
      ok: false,
      seq: changed[0]!.seq,
      code: 'options_unauthorized',
      article: '8',
    });
    expect(verdict.ok ? '' : verdict.message).toMatch(/\(5\/16 18 → 24\) with no adoption/);
  });
});

describe('the same journal on both engines', () => {
  afterAll(() => floors.clear());
  it.skipIf(pgTestUrl() === undefined)(
    'exports byte for byte the same file, whole or a range, which verifies the same',
    () => {
      for (const range of ['', '-range']) {
        const sqlite = floors.get(`sqlite${range}`);
        const postgres = floors.get(`postgres${range}`);
        expect(sqlite).toBeDefined();
        expect(postgres).toBeDefined();
        expect(postgres!.equals(sqlite!)).toBe(true);
        expect(verifyBytes(postgres!)).toEqual(verifyBytes(sqlite!));
        expect(verifyBytes(sqlite!)).toMatchObject({ ok: true });
      }
    },
  );
});
