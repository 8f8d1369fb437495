import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { COMMAND_RETRY_WINDOW_MS, sweepExpiredCommands } from './command-sweeper.js';

const HOUR_MS = 60 * 60 * 1000;

withStores('idempotency records after the retry window', (h) => {
  it('keeps a record through the retry window and sweeps it after', async () => {
    const store = await h.open();
    const t0 = Date.UTC(2026, 2, 2);
    const put = (key: string, nowMs: number) =>
      store.transaction(
        (tx) => tx.putCommands([{ key, requestHash: 'h', response: { ok: key } }]),
        {
          nowMs,
        },
      );
    await put('old', t0);
    await put('recent', t0 + 20 * HOUR_MS);
    const find = (key: string) =>
      store.transaction(async (tx) => (await tx.findCommands([{ key, requestHash: 'h' }]))[0]);

    expect(await sweepExpiredCommands(store, t0 + COMMAND_RETRY_WINDOW_MS - 1)).toBe(0);
    expect(await find('old')).toEqual({ status: 'replay', response: { ok: 'old' } });

    expect(await sweepExpiredCommands(store, t0 + COMMAND_RETRY_WINDOW_MS + HOUR_MS)).toBe(1);
    expect(await find('old')).toEqual({ status: 'new' });
    expect(await find('recent')).toEqual({ status: 'replay', response: { ok: 'recent' } });
  });

  it('sweeps in batches until none is left', async () => {
    const store = await h.open();
    const t0 = Date.UTC(2026, 2, 2);
    await store.transaction(
      (tx) =>
        tx.putCommands(
          Array.from({ length: 2_500 }, (_, i) => ({
            key: `k${i}`,
            requestHash: 'h',
            response: i,
          })),
        ),
      { nowMs: t0 },
    );
    expect(await sweepExpiredCommands(store, t0 + 2 * COMMAND_RETRY_WINDOW_MS)).toBe(2_500);
  });
});
