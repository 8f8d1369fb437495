import { describe, expect, it } from 'vitest';
import { BatchedReads } from './batched-reads.js';

/** A read whose statements the test answers by hand. */
function manual() {
  const sent: {
    keys: readonly string[];
    answer: (rows: Map<string, string>) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const reads = new BatchedReads<string>(
    (keys) => new Promise((answer, fail) => sent.push({ keys, answer, fail })),
    1,
    3,
  );
  return { reads, sent };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedReads', () => {
  it('sends the keys asked while a statement is in flight together in the next one', async () => {
    const { reads, sent } = manual();
    const a = reads.get('a');
    await tick();
    const b = [reads.get('b'), reads.get('c'), reads.get('b')];
    expect(sent.map((s) => s.keys)).toEqual([['a']]);
    sent[0]!.answer(new Map([['a', 'A']]));
    expect(await a).toBe('A');
    await tick();
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b', 'c']]);
    sent[1]!.answer(new Map([['b', 'B']]));
    expect(await Promise.all(b)).toEqual(['B', undefined, 'B']);
  });

  it('sends the keys asked in one turn of the event loop together, with no statement in flight', async () => {
    const reads = new BatchedReads<string>((keys) => {
      sent.push(keys);
      return Promise.resolve(new Map(keys.map((k) => [k, k.toUpperCase()])));
    });
    const sent: (readonly string[])[] = [];
    // Two requests whose bytes came in the same turn: one statement, not one each.
    const first = [reads.get('a'), reads.get('b')];
    expect(sent).toEqual([]);
    expect(await Promise.all(first)).toEqual(['A', 'B']);
    expect(sent).toEqual([['a', 'b']]);
    expect(await reads.get('c')).toBe('C');
    expect(sent).toEqual([['a', 'b'], ['c']]);
  });

  it('never answers a key from a statement sent before it was asked', async () => {
    const { reads, sent } = manual();
    const first = reads.get('a');
    await tick();
    const second = reads.get('a'); // asked after the first statement left: a logout may lie between
    sent[0]!.answer(new Map([['a', 'live']]));
    expect(await first).toBe('live');
    await tick();
    expect(sent).toHaveLength(2);
    sent[1]!.answer(new Map());
    expect(await second).toBeUndefined();
  });

  it('sends batchMax keys a statement at most, and fails the waiters of a failed one only', async () => {
    const { reads, sent } = manual();
    const first = reads.get('x');
    await tick();
    const rest = ['a', 'b', 'c', 'd'].map((k) => reads.get(k));
    sent[0]!.fail(new Error('database gone'));
    await expect(first).rejects.toThrow('database gone');
    await tick();
    expect(sent[1]!.keys).toEqual(['a', 'b', 'c']);
    sent[1]!.answer(new Map([['a', 'A']]));
    await tick();
    expect(sent[2]!.keys).toEqual(['d']);
    sent[2]!.answer(new Map([['d', 'D']]));
    expect(await Promise.all(rest)).toEqual(['A', undefined, undefined, 'D']);
  });
});
