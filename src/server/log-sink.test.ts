/**
 * The log sink: lines in order, never a throw or an error event, what cannot
 * be written dropped and counted. The full disk and the stuck pipe themselves
 * are in the fault suite (test/log-faults.test.ts).
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { LogSink } from './log-sink.js';

const dir = mkdtempSync(join(tmpdir(), 'cussec-log-sink-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes the lines in the order they came, batching those that come during a write', async () => {
  const file = join(dir, 'ordered.log');
  const fd = openSync(file, 'w');
  const sink = new LogSink(fd);
  for (let i = 0; i < 1_000; i++) sink.write(`{"n":${i}}\n`);
  expect(await sink.drained(5_000)).toBe(true);
  closeSync(fd);
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  expect(lines).toEqual(Array.from({ length: 1_000 }, (_, i) => `{"n":${i}}`));
  expect(sink.dropped).toBe(0);
});

it('drops and counts the lines a write refuses, and carries on without throwing', async () => {
  const file = join(dir, 'refusing.log');
  closeSync(openSync(file, 'w'));
  // Opened for reading only: every write fails (EBADF), as a full disk's fail with ENOSPC.
  const fd = openSync(file, 'r');
  const sink = new LogSink(fd);
  sink.write('one\n');
  sink.write('two\nthree\n');
  expect(await sink.drained(5_000)).toBe(true);
  sink.write('four');
  expect(await sink.drained(5_000)).toBe(true);
  closeSync(fd);
  expect(sink.dropped).toBe(4);
  expect(readFileSync(file, 'utf8')).toBe('');
});

it('keeps at most its queue waiting: past it, lines are dropped at once and counted', async () => {
  const file = join(dir, 'bounded.log');
  const fd = openSync(file, 'w');
  const sink = new LogSink(fd, 100);
  // 30 bytes a line: the first three fit (90 bytes), the other seven are dropped before any write ends.
  const line = (i: number) => `${String(i).padStart(29, '0')}\n`;
  for (let i = 0; i < 10; i++) sink.write(line(i));
  expect(sink.dropped).toBe(7);
  expect(await sink.drained(5_000)).toBe(true);
  // Written, the queue has room again.
  sink.write(line(10));
  expect(await sink.drained(5_000)).toBe(true);
  closeSync(fd);
  expect(readFileSync(file, 'utf8')).toBe([0, 1, 2, 10].map(line).join(''));
});
