import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { JOURNAL_TYPES, JournalEntryInvalid, parseStoredEntry } from './entries.js';
import { chainEntries, entryHash, GENESIS_HASH, type JournalInput } from './entry.js';
import { SAMPLE_PAYLOADS, sampleInput } from './samples.js';
import {
  COMPACT_PAYLOAD_TYPES,
  readStoredPayload,
  StoredPayloadInvalid,
  storedPayload,
} from './stored-payload.js';
import { verifyChain } from './verify.js';

type Payload = Record<string, unknown>;

/** The row of a sample: its own table and time, as the store writes them. */
const rowOf = (sample: object, atMs?: number) => {
  const payload = sample as Payload;
  return {
    type: (payload.type as string | undefined) ?? 'deposit',
    tableId: (payload.tableId as string | undefined) ?? null,
    atMs: atMs ?? (payload.atMs as number | undefined) ?? 5_000,
  };
};

const store = (row: ReturnType<typeof rowOf>, payload: unknown): string =>
  storedPayload(row, payload, canonicalJson(payload));

describe('a journal payload as its row keeps it', () => {
  it('keeps every round event compact and every other entry as canonical JSON, and reads each back', () => {
    for (const type of JOURNAL_TYPES) {
      const payload = SAMPLE_PAYLOADS[type] as unknown as Payload;
      const row = { ...rowOf(payload), type };
      const text = store(row, payload);
      if (COMPACT_PAYLOAD_TYPES.includes(type)) {
        expect(text.startsWith('['), type).toBe(true);
        expect(text.length, type).toBeLessThan(canonicalJson(payload).length);
      } else {
        expect(text, type).toBe(canonicalJson(payload));
      }
      expect(readStoredPayload(row, text), type).toEqual(payload);
    }
    // Every round event has a layout (the samples fit them, member for member).
    expect(COMPACT_PAYLOAD_TYPES.length).toBe(14);
  });

  it('writes the released layouts as they were released', () => {
    const bet = SAMPLE_PAYLOADS['bet-placed'];
    expect(store(rowOf(bet), bet)).toBe('[6,0,1,1,"b1","p1","big",1000,1,1000]');
    const opened = SAMPLE_PAYLOADS['betting-opened'];
    expect(store(rowOf(opened, 1_007), opened)).toBe(
      `[5,7,1,1,"${'ab'.repeat(32)}",31000,false,[["b1","p1","big",1000,1]],"c1"]`,
    );
    const settled = SAMPLE_PAYLOADS['round-settled'];
    expect(store(rowOf(settled), settled)).toBe('[13,0,1,1,[4,5,6],["big"],[2000],1000,2000]');
  });

  it('chains, stores and reads back every entry type to the same entry, whose hash recomputes', () => {
    const inputs = JOURNAL_TYPES.map((type) => sampleInput('T1', type));
    const chained = chainEntries(inputs, { lastSeq: 0, lastHash: GENESIS_HASH }, 1_003);
    const rows = chained.map(({ entry, storedPayload: text }) => ({
      ...entry,
      payloadJson: text,
    }));
    const read = rows.map((r, i) => parseStoredEntry(r, i));
    expect(read).toEqual(chained.map((c) => c.entry));
    for (const entry of read) expect(entryHash(entry)).toBe(entry.hash);
    // Round events were timed before their transaction: the lag comes back.
    expect(rows.find((r) => r.type === 'bet-placed')!.payloadJson).toMatch(/^\[6,3,/);
  });

  const bet = SAMPLE_PAYLOADS['bet-placed'] as unknown as Payload;
  const misfits: [string, Payload, Partial<ReturnType<typeof rowOf>>][] = [
    ['a member the layout lacks', { ...bet, extra: 1 }, {}],
    ['a member missing', { ...bet, totalStakeMinor: undefined }, {}],
    ['a bet with another member', { ...bet, bet: { ...(bet.bet as Payload), x: 1 } }, {}],
    ['a bet that is not an object', { ...bet, bet: [1] }, {}],
    ['a table other than the row’s', bet, { tableId: 'T2' }],
    ['a type other than the row’s', bet, { type: 'bet-withdrawn' }],
    ['a time that is not an integer', { ...bet, atMs: 1.5 }, {}],
    [
      'standing bets that are not bets',
      { ...SAMPLE_PAYLOADS['betting-opened'], standingBets: [1] },
      { type: 'betting-opened' },
    ],
  ];
  it.each(misfits)('keeps a payload with %s as canonical JSON', (_, payload, override) => {
    const row = { ...rowOf(bet), ...override };
    const text = store(row, payload);
    expect(text).toBe(canonicalJson(payload));
    expect(canonicalJson(readStoredPayload(row, text))).toBe(canonicalJson(payload));
  });

  const malformed: [string, string, RegExp][] = [
    ['text that is not JSON', '[6,0,', /not JSON/],
    ['an unknown layout', '[99,0,1,1,"b1","p1","big",1000,1,1000]', /not a compact bet-placed/],
    ['the layout of another type', '[7,0,1,1,"b1","p1","big",1000,1,1000]', /not a compact/],
    ['no time lag', '[6,"x",1,1,"b1","p1","big",1000,1,1000]', /no time lag/],
    ['a value missing', '[6,0,1,1,"b1","p1","big",1000,1]', /short/],
    ['a value more', '[6,0,1,1,"b1","p1","big",1000,1,1000,2]', /long/],
  ];
  it.each(malformed)('refuses %s in the compact form', (_, text, problem) => {
    expect(() => readStoredPayload(rowOf(bet), text)).toThrow(StoredPayloadInvalid);
    expect(() => readStoredPayload(rowOf(bet), text)).toThrow(problem);
    const stored = { ...rowOf(bet), seq: 3, payloadJson: text, prevHash: '', hash: '' };
    expect(() => parseStoredEntry(stored)).toThrow(JournalEntryInvalid);
  });

  it('hands verifyChain the canonical JSON of a compact entry that does not parse, so its hash is judged', async () => {
    // A round event whose member a later schema would refuse: stored compact, hashed as written.
    const input = {
      tableId: 'T1',
      type: 'bet-placed',
      payload: { ...bet, totalStakeMinor: 'many' },
    } as unknown as JournalInput;
    const chained = chainEntries([input], { lastSeq: 0, lastHash: GENESIS_HASH }, 1_000);
    const { entry, storedPayload: text } = chained[0]!;
    expect(text.startsWith('[')).toBe(true);
    const row = { ...entry, payloadJson: text };
    expect(() => parseStoredEntry(row)).toThrow(JournalEntryInvalid);
    const verdict = await verifyChain({
      readJournal: ({ fromSeq }) => Promise.resolve(fromSeq === 1 ? [parseStoredEntry(row)] : []),
      journalHead: () => Promise.resolve({ lastSeq: 1, lastHash: entry.hash }),
    });
    expect(verdict).toEqual({ ok: true, lastSeq: 1, lastHash: entry.hash });
  });
});

describe('the compact form, for any values', () => {
  const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
  const time = fc.integer({ min: 0, max: 2 ** 45 });

  it('reads back, for every layout, the very payload it was written from', () => {
    const compact = COMPACT_PAYLOAD_TYPES.map(
      (t) => SAMPLE_PAYLOADS[t as 'bet-placed'] as unknown as Payload,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...compact),
        fc.string({ minLength: 1 }),
        time,
        time,
        fc.array(json, { minLength: 20, maxLength: 20 }),
        (sample, tableId, rowAtMs, atMs, values) => {
          // Every member of the sample (and of its bets) given an arbitrary JSON value.
          let k = 0;
          const fill = (o: Payload): Payload =>
            Object.fromEntries(Object.keys(o).map((key) => [key, values[k++ % values.length]]));
          const payload: Payload = { ...fill(sample), type: sample.type, tableId, atMs };
          if ('bet' in sample) payload.bet = fill(sample.bet as Payload);
          if ('standingBets' in sample)
            payload.standingBets = (sample.standingBets as Payload[]).map(fill);
          const row = { type: sample.type as string, tableId, atMs: rowAtMs };
          const text = store(row, payload);
          expect(text.startsWith('[')).toBe(true);
          expect(readStoredPayload(row, text)).toEqual(payload);
        },
      ),
    );
  });

  it('reads back any payload of any type, compact or not, to the same canonical JSON', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...JOURNAL_TYPES),
        fc.dictionary(fc.string(), json),
        fc.option(fc.string({ minLength: 1 })),
        time,
        (type, members, tableId, atMs) => {
          const payload = { ...members, type, tableId, atMs };
          const row = { type, tableId, atMs };
          const text = store(row, payload);
          expect(canonicalJson(readStoredPayload(row, text))).toBe(canonicalJson(payload));
        },
      ),
    );
  });
});
