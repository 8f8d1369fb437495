import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A task that logs its start and end, yielding in between, and returns its name. */
const logged = (log: string[], name: string) => async (): Promise<string> => {
  log.push(`${name} start`);
  await tick();
  log.push(`${name} end`);
  return name;
};

describe('KeyedQueue', () => {
  it('runs the tasks of one key in order, one at a time', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const results = await Promise.all([
      queue.run('T1', logged(log, 'a')),
      queue.run('T1', logged(log, 'b')),
    ]);
    expect(results).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('runs the tasks of different keys side by side', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    await Promise.all([queue.run('T1', logged(log, 'a')), queue.run('T2', logged(log, 'b'))]);
    expect(log.slice(0, 2)).toEqual(['a start', 'b start']);
  });

  it('rejects only the failed task: the next one of the key still runs', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('T1', () => Promise.reject(new Error('boom')));
    const next = queue.run('T1', () => Promise.resolve('ran'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('counts the queued tasks of a key and forgets the key once idle', async () => {
    const queue = new KeyedQueue();
    let release = (): void => undefined;
    const first = queue.run('T1', () => new Promise<void>((resolve) => (release = resolve)));
    const second = queue.run('T1', () => Promise.resolve());
    expect(queue.queued('T1')).toBe(2);
    expect(queue.queued('T2')).toBe(0);
    await tick();
    release();
    await Promise.all([first, second]);
    await queue.idle('T1');
    expect(queue.queued('T1')).toBe(0);
  });

  it('refuses a task beyond queuedMax with the busy error, then takes more once drained', async () => {
    const queue = new KeyedQueue({
      queuedMax: 1,
      busyError: (n) => new Error(`busy: ${n} waiting`),
    });
    const first = queue.run('db', () => tick());
    await expect(queue.run('db', () => Promise.resolve())).rejects.toThrow('busy: 1 waiting');
    await first;
    await expect(queue.run('db', () => Promise.resolve('later'))).resolves.toBe('later');
  });

  it('idle waits for every task queued so far for the key', async () => {
    const queue = new KeyedQueue();
    let done = false;
    void queue.run('T1', async () => {
      await tick();
      done = true;
    });
    await queue.idle('T1');
    expect(done).toBe(true);
  });
});
