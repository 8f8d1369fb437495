/**
 * What sealing the stored roll costs each save of a table (Art. 2.1, docs/dice.md):
 * a betting-phase round header written and read back with its roll boxed under
 * AES-256-GCM, against the same header written and read in clear.
 */
import { RollKeyring } from '../src/dice/roll-key.js';
import { sealRoll } from '../src/dice/seal.js';
import { initialHeader, type RoundHeader } from '../src/service/round-snapshot.js';
import { loadedHeader, type StoredHeader, storedHeader } from '../src/service/stored-header.js';
import { type Benchmark, compare, round } from './harness.js';

export const sealedHeaderBenchmark: Benchmark = {
  name: 'sealed-header',
  description: 'a table header saved and loaded with the roll sealed (AES-256-GCM) vs in clear',
  run: (log) => {
    const keys = RollKeyring.generate('bench');
    const header: RoundHeader = {
      ...initialHeader(),
      phase: 'betting',
      roundNo: 1_234,
      rollNo: 1,
      seal: sealRoll({ tableId: 'T1', roundNo: 1_234, rollNo: 1 }),
      recentRoundSeqs: Array.from({ length: 100 }, (_, i) => ({ roundNo: i, seq: i * 40 })),
    };
    const sealed = (): number => {
      const text = JSON.stringify(storedHeader(header, keys));
      return loadedHeader(JSON.parse(text) as StoredHeader, keys).roundNo;
    };
    const clear = (): number => {
      const text = JSON.stringify(header);
      return (JSON.parse(text) as RoundHeader).roundNo;
    };
    const r = compare(sealed, clear, 1);
    const extraUs = 1e6 / r.subject - 1e6 / r.baseline;
    log(
      `sealed ${Math.round(r.subject).toLocaleString('en')}/s, clear ${Math.round(r.baseline).toLocaleString('en')}/s: ratio ${round(r.ratio)}, ${round(extraUs)} µs more per save and load`,
    );
    return {
      sealedPerSecond: round(r.subject),
      clearPerSecond: round(r.baseline),
      ratio: round(r.ratio),
      extraMicrosecondsPerSave: round(extraUs),
    };
  },
};
