import { describe, expect, it } from 'vitest';
import {
  chainEntries,
  GENESIS_HASH,
  JOURNAL_TYPES,
  type JournalInput,
  sha256Hex,
} from '../journal/index.js';
import { depositInput, sampleInput } from '../journal/samples.js';
import {
  decodeJournalNotice,
  encodeJournalNotice,
  NOTICE_PAYLOAD_BYTES_MAX,
} from './journal-notice.js';

const AT_MS = 1_700_000_000_000;
const head = { lastSeq: 41, lastHash: sha256Hex('entry 41') };

describe('journal notice', () => {
  it('carries every entry type as the store keeps it and gives back the entries appended', () => {
    for (const type of JOURNAL_TYPES) {
      const chained = chainEntries([sampleInput('T1', type), depositInput(null, 7)], head, AT_MS);
      const notice = decodeJournalNotice(encodeJournalNotice(chained));
      expect(notice, type).toEqual({ kind: 'entries', entries: chained.map((c) => c.entry) });
    }
  });

  it('chains the first entry to the genesis hash', () => {
    const chained = chainEntries(
      [depositInput(null, 1)],
      { lastSeq: 0, lastHash: GENESIS_HASH },
      AT_MS,
    );
    expect(decodeJournalNotice(encodeJournalNotice(chained))).toEqual({
      kind: 'entries',
      entries: [chained[0]!.entry],
    });
  });

  it('names only the seqs of a commit too large for a payload', () => {
    const inputs = Array.from({ length: 200 }, () => sampleInput('T1', 'bet-placed'));
    const payload = encodeJournalNotice(chainEntries(inputs, head, AT_MS));
    expect(decodeJournalNotice(payload)).toEqual({ kind: 'range', fromSeq: 42, toSeq: 241 });
  });

  it('measures the payload in bytes, not characters', () => {
    // 3,000 characters of three UTF-8 bytes each: under the limit in length, over it in bytes.
    const input: JournalInput = {
      tableId: null,
      type: 'deposit',
      payload: { playerId: '澳'.repeat(3_000), amountMinor: 1, cashierId: 'k1', transferId: 't1' },
    };
    const chained = chainEntries([input], head, AT_MS);
    expect(chained[0]!.storedPayload.length).toBeLessThan(NOTICE_PAYLOAD_BYTES_MAX);
    expect(decodeJournalNotice(encodeJournalNotice(chained))).toEqual({
      kind: 'range',
      fromSeq: 42,
      toSeq: 42,
    });
  });

  it('fits a payload just under the limit, and not one just over it', () => {
    const sized = (n: number): string => {
      const input: JournalInput = {
        tableId: null,
        type: 'deposit',
        payload: { playerId: 'p'.repeat(n), amountMinor: 1, cashierId: 'k1', transferId: 't1' },
      };
      return encodeJournalNotice(chainEntries([input], head, AT_MS));
    };
    const base = sized(1).length - 1;
    const fits = sized(NOTICE_PAYLOAD_BYTES_MAX - base);
    expect(Buffer.byteLength(fits)).toBe(NOTICE_PAYLOAD_BYTES_MAX);
    expect(decodeJournalNotice(fits).kind).toBe('entries');
    expect(decodeJournalNotice(sized(NOTICE_PAYLOAD_BYTES_MAX - base + 1)).kind).toBe('range');
  });

  it('takes anything malformed as a signal to read the journal', () => {
    const chained = chainEntries([depositInput(null, 1), depositInput(null, 2)], head, AT_MS);
    const good = JSON.parse(encodeJournalNotice(chained)) as unknown[];
    const row = (i: number): unknown[] => [...(good[2 + i] as unknown[])];
    const withRow = (i: number, edit: (r: unknown[]) => void): string => {
      const copy = [...good];
      const r = row(i);
      edit(r);
      copy[2 + i] = r;
      return JSON.stringify(copy);
    };
    const malformed = [
      '',
      'reconnected',
      'T1',
      '{"e":1}',
      '[]',
      '["e"]',
      JSON.stringify(['e', head.lastHash]),
      JSON.stringify(['x', ...good.slice(1)]),
      JSON.stringify(['e', 'not a hash', ...good.slice(2)]),
      JSON.stringify(['r', 5, 4]),
      JSON.stringify(['r', 0, 4]),
      JSON.stringify(['r', 1.5, 4]),
      JSON.stringify(['r', 1, 4, 5]),
      // Seqs that do not follow one another.
      withRow(1, (r) => (r[0] = 44)),
      withRow(0, (r) => (r[0] = -1)),
      withRow(0, (r) => (r[1] = 7)),
      withRow(0, (r) => (r[3] = 'now')),
      withRow(0, (r) => (r[4] = 'AB'.repeat(32))),
      withRow(0, (r) => r.pop()),
      // An entry that does not parse, as a journal read would refuse it.
      withRow(0, (r) => (r[2] = 'no-such-type')),
      withRow(0, (r) => (r[5] = '{"playerId":"p1"}')),
      withRow(0, (r) => (r[5] = '{not json')),
    ];
    for (const payload of malformed)
      expect(decodeJournalNotice(payload), payload).toEqual({ kind: 'read' });
  });
});
