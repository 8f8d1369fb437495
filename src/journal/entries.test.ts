import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import {
  isRoundEventEntry,
  JOURNAL_TYPES,
  JournalEntryInvalid,
  parseJournalRecord,
  parseStoredEntry,
} from './entries.js';
import { SAMPLE_PAYLOADS } from './samples.js';

const row = (type: string, payload: unknown, payloadJson = JSON.stringify(payload)) => ({
  seq: 42,
  tableId: 'T1',
  type,
  payloadJson,
  atMs: 1_000,
  prevHash: '0'.repeat(64),
  hash: 'f'.repeat(64),
});

describe('the journal entry union', () => {
  it('parses a sample of every entry type back to the same payload, key for key', () => {
    expect([...JOURNAL_TYPES].sort()).toEqual(Object.keys(SAMPLE_PAYLOADS).sort());
    for (const type of JOURNAL_TYPES) {
      const stored = JSON.parse(canonicalJson(SAMPLE_PAYLOADS[type])) as unknown;
      const record = parseJournalRecord(1, type, stored);
      expect(record.type).toBe(type);
      // The hash covers the canonical JSON: parsing must not add, drop or change a member.
      expect(canonicalJson(record.payload)).toBe(canonicalJson(stored));
    }
  });

  it('reads a stored row into a typed entry', () => {
    const entry = parseStoredEntry(row('round-settled', SAMPLE_PAYLOADS['round-settled']));
    expect(isRoundEventEntry(entry)).toBe(true);
    if (entry.type !== 'round-settled') throw new Error('narrowing');
    expect(entry.payload.dice).toEqual([4, 5, 6]);
  });

  const bad: [string, string, unknown, string | null, RegExp][] = [
    ['an unknown type', 'forged', {}, null, /unknown entry type/],
    ['a payload that is not JSON', 'deposit', null, '{"playerId":', /payload is not JSON/],
    [
      'a member no schema has',
      'deposit',
      { ...SAMPLE_PAYLOADS.deposit, extra: 1 },
      null,
      /payload: Unrecognized key: "extra"/,
    ],
    [
      'a member of the wrong type',
      'bet-placed',
      { ...SAMPLE_PAYLOADS['bet-placed'], totalStakeMinor: '1000' },
      null,
      /payload\.totalStakeMinor/,
    ],
    [
      'a payload whose own type is another entry type',
      'bet-placed',
      SAMPLE_PAYLOADS['bet-withdrawn'],
      null,
      /payload\.type/,
    ],
    [
      'stored settings that are not valid settings',
      'table-created',
      { settings: { ...SAMPLE_PAYLOADS['table-created'].settings, stakeMinorMin: 0 } },
      null,
      /payload\.settings\.stakeMinorMin/,
    ],
    [
      'dice off the die',
      'dice-read',
      { ...SAMPLE_PAYLOADS['dice-read'], dice: [0, 1, 2] },
      null,
      /payload\.dice\.0/,
    ],
  ];
  for (const [name, type, payload, json, message] of bad) {
    it(`refuses ${name}, naming the entry's seq`, () => {
      const read = () => parseStoredEntry(row(type, payload, json ?? JSON.stringify(payload)));
      expect(read).toThrow(JournalEntryInvalid);
      expect(read).toThrow(new RegExp(`^journal entry 42 \\(${JSON.stringify(type)}\\)`));
      expect(read).toThrow(message);
    });
  }
});

/** Every TypeScript source under src/, tests included. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') ? [path] : [];
  });
}

describe('stored data', () => {
  it('is never cast in src/: it is parsed where it leaves the store', () => {
    const root = join(import.meta.dirname, '..');
    // A cast of a journal payload, of a stored table row's settings or header, or to a stored type.
    const cast =
      /\.payload\s+as\s|\b(?:record|row)\??\.(?:config|state)\s+as\s|\bas\s+(?:RoundEvent|TableSettings|StoredHeader|RoundHeader|HouseOptionsEvent|FairnessMonitorEvent)\b/;
    const found = sources(root).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          cast.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
