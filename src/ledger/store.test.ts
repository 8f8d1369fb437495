import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  ALICE,
  BANKROLL,
  BOB,
  CAGE,
  IN_PLAY,
  balances,
  linkAll,
  seedTable,
  transfer,
} from './test-fixtures.js';
import { withStores } from './testing.js';
import type { Store } from './store.js';
import { StoreOpenError } from './errors.js';
import type { TransferInput } from './types.js';
import { depositInput, sampleInput } from '../journal/samples.js';

const post = (store: Store, transfers: readonly TransferInput[]) =>
  store.transaction((tx) => tx.postTransfers(transfers));

withStores('ledger store', (h) => {
  describe('transfers: a round from deposit to withdrawal', () => {
    // Each step is one transaction; the balances after it are what the table says.
    const steps: { name: string; batch: TransferInput[]; after: Record<string, number> }[] = [
      {
        name: 'deposit cage -> wallet',
        batch: [transfer('dep', CAGE, ALICE, 10_000, { kind: 'deposit' })],
        after: { [ALICE]: 10_000, [CAGE]: -1_010_000 },
      },
      {
        name: 'bet wallet -> in-play',
        batch: [transfer('bet1', ALICE, IN_PLAY, 1_000, { kind: 'bet' })],
        after: { [ALICE]: 9_000, [IN_PLAY]: 1_000 },
      },
      {
        name: 'second bet',
        batch: [transfer('bet2', ALICE, IN_PLAY, 500, { kind: 'bet' })],
        after: { [ALICE]: 8_500, [IN_PLAY]: 1_500 },
      },
      {
        name: 'loss in-play -> bankroll',
        batch: [transfer('loss2', IN_PLAY, BANKROLL, 500, { kind: 'loss' })],
        after: { [IN_PLAY]: 1_000, [BANKROLL]: 1_000_500 },
      },
      {
        name: 'win: stake in-play -> wallet, winnings bankroll -> wallet',
        batch: linkAll([
          transfer('ret1', IN_PLAY, ALICE, 1_000, { kind: 'stake-returned' }),
          transfer('win1', BANKROLL, ALICE, 1_000, { kind: 'win' }),
        ]),
        after: { [ALICE]: 10_500, [IN_PLAY]: 0, [BANKROLL]: 999_500 },
      },
      {
        name: 'withdrawal wallet -> cage',
        batch: [transfer('wd', ALICE, CAGE, 2_000, { kind: 'withdrawal' })],
        after: { [ALICE]: 8_500, [CAGE]: -1_008_000 },
      },
    ];

    it('moves money step by step and the balances always sum to zero', async () => {
      const store = await h.open();
      await seedTable(store);
      for (const step of steps) {
        const result = await post(store, step.batch);
        expect(result.ok, step.name).toBe(true);
        expect(
          result.results.map((r) => r.status),
          step.name,
        ).toEqual(step.batch.map(() => 'created'));
        expect(await balances(store, Object.keys(step.after)), step.name).toEqual(step.after);
        const all = await store.listAccounts();
        expect(
          all.reduce((s, a) => s + a.balanceMinor, 0),
          step.name,
        ).toBe(0);
      }
      expect((await store.transfersByReference('ref')).map((t) => t.id)).toEqual([
        'dep',
        'bet1',
        'bet2',
        'loss2',
        'ret1',
        'win1',
        'wd',
      ]);
      expect((await store.transfersOfAccount(IN_PLAY)).map((t) => t.id)).toEqual([
        'bet1',
        'bet2',
        'loss2',
        'ret1',
      ]);
    });
  });

  describe('operating errors', () => {
    const MAX = Number.MAX_SAFE_INTEGER;
    const cases: {
      name: string;
      setup?: TransferInput[];
      batch: TransferInput[];
      expected: { status: string; code?: string; accountId?: string }[];
    }[] = [
      {
        name: 'currency_mismatch',
        batch: [transfer('x', CAGE, ALICE, 1, { currency: 'HKD' })],
        expected: [{ status: 'failed', code: 'currency_mismatch' }],
      },
      {
        name: 'id_conflict',
        setup: [transfer('x', CAGE, ALICE, 1)],
        batch: [transfer('x', CAGE, ALICE, 2)],
        expected: [{ status: 'failed', code: 'id_conflict' }],
      },
      {
        name: 'account_not_found (debit)',
        batch: [transfer('x', 'wallet:nobody', ALICE, 1)],
        expected: [{ status: 'failed', code: 'account_not_found', accountId: 'wallet:nobody' }],
      },
      {
        name: 'account_not_found (credit)',
        batch: [transfer('x', CAGE, 'wallet:nobody', 1)],
        expected: [{ status: 'failed', code: 'account_not_found', accountId: 'wallet:nobody' }],
      },
      {
        name: 'insufficient_funds (wallet)',
        batch: [transfer('x', ALICE, IN_PLAY, 1)],
        expected: [{ status: 'failed', code: 'insufficient_funds', accountId: ALICE }],
      },
      {
        name: 'insufficient_funds (in-play)',
        batch: [transfer('x', IN_PLAY, ALICE, 1)],
        expected: [{ status: 'failed', code: 'insufficient_funds', accountId: IN_PLAY }],
      },
      {
        name: 'overflow',
        setup: [transfer('big', CAGE, BOB, MAX - 1_000_000)],
        batch: [transfer('x', CAGE, BOB, 1)],
        expected: [{ status: 'failed', code: 'overflow' }],
      },
      {
        name: 'linked_chain_open',
        batch: [
          transfer('a', CAGE, ALICE, 1, { linked: true }),
          transfer('b', CAGE, ALICE, 1, { linked: true }),
        ],
        expected: [
          { status: 'failed', code: 'linked_event_failed' },
          { status: 'failed', code: 'linked_chain_open' },
        ],
      },
      {
        name: 'linked_event_failed',
        batch: linkAll([
          transfer('a', CAGE, ALICE, 5),
          transfer('b', ALICE, IN_PLAY, 10),
          transfer('c', CAGE, BOB, 1),
        ]),
        expected: [
          { status: 'failed', code: 'linked_event_failed' },
          { status: 'failed', code: 'insufficient_funds', accountId: ALICE },
          { status: 'failed', code: 'linked_event_failed' },
        ],
      },
      // Precedence: the earlier code in the documented list wins.
      {
        name: 'currency_mismatch before account_not_found',
        batch: [transfer('x', 'nobody', ALICE, 1, { currency: 'HKD' })],
        expected: [{ status: 'failed', code: 'currency_mismatch' }],
      },
      {
        name: 'id_conflict before account_not_found',
        setup: [transfer('x', CAGE, ALICE, 1)],
        batch: [transfer('x', CAGE, 'nobody', 1)],
        expected: [{ status: 'failed', code: 'id_conflict' }],
      },
      {
        name: 'account_not_found before insufficient_funds',
        batch: [transfer('x', ALICE, 'nobody', 1)],
        expected: [{ status: 'failed', code: 'account_not_found', accountId: 'nobody' }],
      },
    ];

    for (const c of cases) {
      it(`reports ${c.name} and moves nothing`, async () => {
        const store = await h.open();
        await seedTable(store);
        if (c.setup) expect((await post(store, c.setup)).ok).toBe(true);
        const before = await store.listAccounts();
        const result = await post(store, c.batch);
        expect(result.ok).toBe(false);
        expect(result.results).toEqual(c.expected.map((e, i) => ({ id: c.batch[i]!.id, ...e })));
        expect(await store.listAccounts()).toEqual(before);
      });
    }

    it('judges each transfer at its place in the batch, not on the batch net', async () => {
      const store = await h.open();
      await seedTable(store);
      // Net, alice ends at 0; but the bet comes before the deposit, when she has nothing.
      const result = await post(store, [
        transfer('bet', ALICE, IN_PLAY, 100),
        transfer('dep', CAGE, ALICE, 100),
      ]);
      expect(result.results.map((r) => (r.status === 'failed' ? r.code : r.status))).toEqual([
        'insufficient_funds',
        'created',
      ]);
      expect(await balances(store, [ALICE, IN_PLAY])).toEqual({ [ALICE]: 100, [IN_PLAY]: 0 });
    });

    it('lets a bankroll and the cage go below zero', async () => {
      const store = await h.open();
      await seedTable(store, 100);
      const result = await post(store, [transfer('win', BANKROLL, ALICE, 1_000, { kind: 'win' })]);
      expect(result.ok).toBe(true);
      expect(await balances(store, [BANKROLL, ALICE, CAGE])).toEqual({
        [BANKROLL]: -900,
        [ALICE]: 1_000,
        [CAGE]: -100,
      });
    });

    it('treats malformed transfers as programming errors', async () => {
      const store = await h.open();
      await seedTable(store);
      for (const bad of [
        transfer('x', CAGE, ALICE, 0),
        transfer('x', CAGE, ALICE, 1.5),
        transfer('', CAGE, ALICE, 1),
        transfer('x', ALICE, ALICE, 1),
        transfer('x', CAGE, ALICE, 1, { kind: 'Bad Kind' }),
      ]) {
        await expect(post(store, [bad])).rejects.toThrow(/transfer/);
      }
    });
  });

  describe('idempotency', () => {
    it('answers a retried transfer with exists and the first result, moving money once', async () => {
      const store = await h.open();
      await seedTable(store);
      const first = await store.transaction(
        (tx) => tx.postTransfers([transfer('dep', CAGE, ALICE, 700)]),
        { nowMs: 1_000 },
      );
      const again = await store.transaction(
        (tx) => tx.postTransfers([transfer('dep', CAGE, ALICE, 700)]),
        { nowMs: 2_000 },
      );
      expect(first.results[0]).toMatchObject({ status: 'created' });
      expect(again.results[0]).toEqual({
        status: 'exists',
        transfer: { ...(first.results[0] as { transfer: object }).transfer, createdAtMs: 1_000 },
      });
      expect(await store.getTransfer('dep')).toMatchObject({
        createdAtMs: 1_000,
        amountMinor: 700,
      });
      expect((await store.getAccount(ALICE))?.balanceMinor).toBe(700);
    });

    it('answers a repeated id inside one batch with exists, or id_conflict when it differs', async () => {
      const store = await h.open();
      await seedTable(store);
      const result = await post(store, [
        transfer('d', CAGE, ALICE, 5),
        transfer('d', CAGE, ALICE, 5),
        transfer('d', CAGE, ALICE, 6),
      ]);
      expect(result.results.map((r) => (r.status === 'failed' ? r.code : r.status))).toEqual([
        'created',
        'exists',
        'id_conflict',
      ]);
      expect((await store.getAccount(ALICE))?.balanceMinor).toBe(5);
    });

    it('replays a command answer and refuses its key for another request', async () => {
      const store = await h.open();
      const run = (key: string, hash: string) =>
        store.transaction(async (tx) => {
          const [seen] = await tx.findCommands([{ key, requestHash: hash }]);
          if (seen!.status !== 'new') return seen;
          await tx.putCommands([{ key, requestHash: hash, response: { accepted: true, n: 1 } }]);
          return { status: 'fresh' as const };
        });
      expect(await run('k1', 'h1')).toEqual({ status: 'fresh' });
      expect(await run('k1', 'h1')).toEqual({
        status: 'replay',
        response: { accepted: true, n: 1 },
      });
      expect(await run('k1', 'h2')).toEqual({
        status: 'conflict',
        code: 'idempotency_key_conflict',
      });
    });

    it('looks up and records a whole batch of keys at once, in order', async () => {
      const store = await h.open();
      // 600 records: more than one multi-row insert of SQLite's (256 rows each).
      const records = Array.from({ length: 600 }, (_, i) => ({
        key: `batch-${i}`,
        requestHash: `hash-${i}`,
        response: { ok: true, eventSeqs: [i] },
      }));
      await store.transaction((tx) => tx.putCommands(records));
      const found = await store.transaction((tx) =>
        tx.findCommands([
          { key: 'batch-599', requestHash: 'hash-599' },
          { key: 'unknown', requestHash: 'hash-x' },
          { key: 'batch-0', requestHash: 'other' },
          { key: 'batch-599', requestHash: 'hash-599' },
        ]),
      );
      expect(found).toEqual([
        { status: 'replay', response: { ok: true, eventSeqs: [599] } },
        { status: 'new' },
        { status: 'conflict', code: 'idempotency_key_conflict' },
        { status: 'replay', response: { ok: true, eventSeqs: [599] } },
      ]);
      const all = await store.transaction((tx) =>
        tx.findCommands(records.map(({ key, requestHash }) => ({ key, requestHash }))),
      );
      expect(
        all.every((f, i) => f.status === 'replay' && f.response !== records[i]!.response),
      ).toBe(true);
      expect(all.map((f) => (f.status === 'replay' ? f.response : null))).toEqual(
        records.map((r) => r.response),
      );
      await expect(
        store.transaction((tx) => tx.putCommands([records[3]!])),
        'a key is recorded once',
      ).rejects.toThrow();
    });
  });

  describe('linked batches', () => {
    it('applies none of a linked batch when one transfer fails', async () => {
      const store = await h.open();
      await seedTable(store);
      const result = await post(
        store,
        linkAll([
          transfer('a', CAGE, ALICE, 100),
          transfer('b', ALICE, IN_PLAY, 50),
          transfer('c', IN_PLAY, BANKROLL, 60),
        ]),
      );
      expect(result.results.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
      expect(await store.getTransfer('a')).toBeUndefined();
      expect(await balances(store, [ALICE, IN_PLAY])).toEqual({ [ALICE]: 0, [IN_PLAY]: 0 });
    });

    it('applies independent transfers around a failed chain', async () => {
      const store = await h.open();
      await seedTable(store);
      const batch = [
        transfer('a', CAGE, ALICE, 100),
        ...linkAll([transfer('b', ALICE, IN_PLAY, 50), transfer('c', BOB, IN_PLAY, 1)]),
        transfer('d', ALICE, IN_PLAY, 30),
      ];
      const result = await post(store, batch);
      expect(result.results.map((r) => r.status)).toEqual([
        'created',
        'failed',
        'failed',
        'created',
      ]);
      expect(await balances(store, [ALICE, IN_PLAY, BOB])).toEqual({
        [ALICE]: 70,
        [IN_PLAY]: 30,
        [BOB]: 0,
      });
    });
  });

  describe('accounts', () => {
    it('creates accounts idempotently and refuses another kind under a known id', async () => {
      const store = await h.open();
      const r = await store.transaction((tx) =>
        tx.createAccounts([
          { id: 'wallet:z', kind: 'wallet' },
          { id: 'wallet:z', kind: 'wallet' },
          { id: 'wallet:z', kind: 'bankroll' },
        ]),
      );
      expect(r.map((x) => x.status)).toEqual(['created', 'exists', 'failed']);
      const again = await store.transaction((tx) =>
        tx.createAccounts([{ id: 'wallet:z', kind: 'wallet' }]),
      );
      expect(again[0]?.status).toBe('exists');
      expect((await store.listAccounts()).map((a) => a.id)).toEqual(['cage', 'wallet:z']);
      expect(await store.listAccounts({ afterId: 'cage', limit: 1 })).toMatchObject([
        { id: 'wallet:z', kind: 'wallet', balanceMinor: 0 },
      ]);
    });
  });

  describe('database guards behind the Store', () => {
    it('refuses a wallet or in-play balance below zero (CHECK constraint)', async () => {
      const store = await h.open({ db: 'guards1' });
      await seedTable(store);
      await expect(
        h.raw('guards1', `UPDATE accounts SET balance_minor = -1 WHERE id = '${ALICE}'`),
      ).rejects.toThrow(/balance_not_negative|CHECK/i);
      await expect(
        h.raw('guards1', `UPDATE accounts SET balance_minor = -1 WHERE id = '${IN_PLAY}'`),
      ).rejects.toThrow(/balance_not_negative|CHECK/i);
    });

    it('refuses UPDATE and DELETE of transfers, the journal and accounts', async () => {
      const store = await h.open({ db: 'guards2' });
      await seedTable(store);
      await store.transaction((tx) => tx.appendJournal([sampleInput('T1', 'table-created')]));
      for (const sql of [
        'UPDATE transfers SET amount_minor = 1',
        'DELETE FROM transfers',
        "UPDATE journal SET type = 'x'",
        'DELETE FROM journal',
        `DELETE FROM accounts WHERE id = '${ALICE}'`,
        `UPDATE accounts SET kind = 'bankroll' WHERE id = '${ALICE}'`,
        "UPDATE meta SET value = 'HKD'",
      ]) {
        await expect(h.raw('guards2', sql), sql).rejects.toThrow(/cussec: /);
      }
      if (h.engine === 'postgres') {
        await expect(h.raw('guards2', 'TRUNCATE transfers CASCADE')).rejects.toThrow(/cussec: /);
        await expect(h.raw('guards2', 'TRUNCATE journal')).rejects.toThrow(/cussec: /);
      }
      expect(await store.getTransfer('fund-bankroll')).toMatchObject({ amountMinor: 1_000_000 });
    });
  });

  describe('the optimistic path on PostgreSQL', () => {
    /** The SQL texts the store's connections send while `fn` runs. */
    async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
      // A spy calls through to the real method and keeps the arguments.
      const spy = vi.spyOn(pg.Client.prototype, 'query');
      try {
        await fn();
        return spy.mock.calls.map(([q]) =>
          typeof q === 'string' ? q : (q as { text: string }).text,
        );
      } finally {
        spy.mockRestore();
      }
    }
    const carefulReads = (texts: readonly string[]): string[] =>
      texts.filter((t) => /FROM accounts .*FOR UPDATE|FROM transfers WHERE id = ANY/s.test(t));

    it.skipIf(h.engine !== 'postgres')(
      'posts a clean batch without the careful reads, and falls back to them with the same answers',
      async () => {
        const store = await h.open();
        await seedTable(store);
        await post(store, [transfer('dep', CAGE, ALICE, 1_000, { kind: 'deposit' })]);
        const batch = [
          transfer('b1', ALICE, IN_PLAY, 600, { kind: 'bet' }),
          transfer('b2', ALICE, IN_PLAY, 400, { kind: 'bet' }),
        ];
        let clean: unknown;
        const cleanTexts = await statementsOf(async () => (clean = await post(store, batch)));
        expect(clean).toMatchObject({
          ok: true,
          results: [{ status: 'created' }, { status: 'created' }],
        });
        expect(carefulReads(cleanTexts)).toEqual([]);
        // The same batch again: the ids exist, so the careful path answers 'exists' and moves nothing.
        let again: unknown;
        const againTexts = await statementsOf(async () => (again = await post(store, batch)));
        expect(again).toMatchObject({
          ok: true,
          results: [{ status: 'exists' }, { status: 'exists' }],
        });
        expect(carefulReads(againTexts)).toHaveLength(2);
        // A wallet that the batch would take below zero mid-way: refused whole, nothing moves.
        const short = await post(store, [transfer('b3', ALICE, IN_PLAY, 1, { kind: 'bet' })]);
        expect(short.results[0]).toMatchObject({ status: 'failed', code: 'insufficient_funds' });
        expect(await balances(store, [ALICE, IN_PLAY])).toEqual({ [ALICE]: 0, [IN_PLAY]: 1_000 });
        expect((await store.transfersByReference('ref')).map((t) => t.id)).toEqual([
          'dep',
          'b1',
          'b2',
        ]);
      },
    );
  });

  it('tells the balances its transfers left without reading them again, on either path', async () => {
    const store = await h.open();
    await seedTable(store);
    await post(store, [transfer('dep', CAGE, ALICE, 1_000, { kind: 'deposit' })]);
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    let runs = 0;
    const told = await store.transaction(async (tx) => {
      runs++;
      spy.mockClear();
      await tx.postTransfers([transfer('b1', ALICE, IN_PLAY, 600, { kind: 'bet' })], {
        balancesOf: [ALICE, IN_PLAY],
      });
      const afterClean = Object.fromEntries(await tx.balances([ALICE, IN_PLAY, ALICE]));
      // Short of money: refused (on PostgreSQL the transaction runs again, carefully throughout).
      const short = await tx.postTransfers([transfer('b2', ALICE, IN_PLAY, 900, { kind: 'bet' })]);
      await tx.postTransfers([transfer('b3', IN_PLAY, ALICE, 100, { kind: 'payout' })]);
      return {
        afterClean,
        short: short.ok,
        last: Object.fromEntries(await tx.balances([ALICE, IN_PLAY])),
      };
    });
    const texts = spy.mock.calls.map(([q]) =>
      typeof q === 'string' ? q : (q as { text: string }).text,
    );
    spy.mockRestore();
    expect(told).toEqual({
      afterClean: { [ALICE]: 400, [IN_PLAY]: 600 },
      short: false,
      last: { [ALICE]: 500, [IN_PLAY]: 500 },
    });
    expect(await balances(store, [ALICE, IN_PLAY])).toEqual({ [ALICE]: 500, [IN_PLAY]: 500 });
    if (h.engine === 'postgres') {
      expect(runs).toBe(2);
      // The last run's statements: the careful path's locked reads, and no plain read of a balance.
      expect(texts.filter((t) => /FROM accounts/.test(t) && !/FOR UPDATE/.test(t))).toEqual([]);
      expect(texts.filter((t) => /FROM accounts .*FOR UPDATE/s.test(t))).toHaveLength(3);
    }
  });

  describe('a missed optimistic batch on PostgreSQL', () => {
    it.skipIf(h.engine !== 'postgres')(
      'rolls back what the statement wrote and runs the callback again carefully, even when it swallowed the miss',
      async () => {
        const store = await h.open();
        await seedTable(store);
        await post(store, [transfer('dep', CAGE, ALICE, 100, { kind: 'deposit' })]);
        let runs = 0;
        const result = await store.transaction(async (tx) => {
          runs++;
          try {
            // The stake is covered, the second transfer takes the wallet below zero.
            return await tx.postTransfers([
              transfer('b1', CAGE, ALICE, 400, { kind: 'deposit' }),
              transfer('b2', ALICE, IN_PLAY, 900, { kind: 'bet' }),
            ]);
          } catch {
            return 'swallowed';
          }
        });
        expect(runs).toBe(2);
        expect(result).toMatchObject({
          ok: false,
          results: [{ status: 'created' }, { status: 'failed', code: 'insufficient_funds' }],
        });
        expect(await balances(store, [ALICE, IN_PLAY])).toEqual({ [ALICE]: 500, [IN_PLAY]: 0 });
      },
    );
  });

  describe('tables', () => {
    it('creates, loads with a lock, saves with a version check', async () => {
      const store = await h.open();
      const out = await store.transaction(
        async (tx) => {
          const created = await tx.createTable('T1', { currency: 'MOP' }, { phase: 'idle' });
          const again = await tx.createTable('T1', {}, {});
          const loaded = await tx.loadTable('T1', { lock: 'exclusive' });
          const saved = await tx.saveTable('T1', 1, { phase: 'covered' });
          const stale = await tx.saveTable('T1', 1, { phase: 'stale' });
          const missing = await tx.saveTable('T9', 1, {});
          return { created, again, loaded, saved, stale, missing };
        },
        { nowMs: 5 },
      );
      expect(out).toEqual({
        created: 'created',
        again: 'exists',
        loaded: {
          id: 'T1',
          config: { currency: 'MOP' },
          state: { phase: 'idle' },
          version: 1,
          updatedAtMs: 5,
          leaseEpoch: 0,
          leaseHolder: null,
        },
        saved: { ok: true, version: 2 },
        stale: { ok: false, code: 'version_conflict' },
        missing: { ok: false, code: 'table_not_found' },
      });
      expect(await store.getTable('T1')).toMatchObject({
        state: { phase: 'covered' },
        version: 2,
        config: { currency: 'MOP' },
      });
      const loadedNone = await store.transaction((tx) => tx.loadTable('T1', { lock: 'none' }));
      expect(loadedNone?.version).toBe(2);
      // Each taking of the lease raises the epoch and names the holder; the version stays.
      expect(await store.transaction((tx) => tx.takeTableLease('T1', 'http://a:1'))).toBe(1);
      expect(await store.transaction((tx) => tx.takeTableLease('T1', 'http://b:1'))).toBe(2);
      expect(await store.transaction((tx) => tx.takeTableLease('T9', 'http://b:1'))).toBe(
        undefined,
      );
      expect(await store.getTable('T1')).toMatchObject({
        version: 2,
        leaseEpoch: 2,
        leaseHolder: 'http://b:1',
      });
      expect(await store.listTables()).toEqual(['T1']);
    });
  });

  describe('transactions', () => {
    it('rolls everything back when the callback throws', async () => {
      const store = await h.open();
      await seedTable(store);
      await expect(
        store.transaction(async (tx) => {
          await tx.createTable('T1', {}, { n: 1 });
          await tx.postTransfers([transfer('dep', CAGE, ALICE, 10)]);
          await tx.appendJournal([depositInput('T1', 1)]);
          await tx.putCommands([{ key: 'k', requestHash: 'h', response: {} }]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.getTable('T1')).toBeUndefined();
      expect(await store.getTransfer('dep')).toBeUndefined();
      expect((await store.journalHead()).lastSeq).toBe(0);
      expect(
        await store.transaction((tx) => tx.findCommands([{ key: 'k', requestHash: 'h' }])),
      ).toEqual([{ status: 'new' }]);
    });

    it('refuses a Tx used after its transaction ended', async () => {
      const store = await h.open();
      let leaked: import('./store.js').Tx | undefined;
      await store.transaction(async (tx) => {
        leaked = tx;
        return Promise.resolve();
      });
      await expect(leaked!.balance(CAGE)).rejects.toThrow(/transaction is over/);
    });

    it('sees its own writes inside the transaction', async () => {
      const store = await h.open();
      await seedTable(store);
      const seen = await store.transaction(async (tx) => {
        await tx.postTransfers([transfer('dep', CAGE, ALICE, 42)]);
        return tx.balance(ALICE);
      });
      expect(seen).toBe(42);
    });

    it('reads several balances at once, its own writes included, leaving out unknown accounts', async () => {
      const store = await h.open();
      await seedTable(store);
      const seen = await store.transaction(async (tx) => {
        await tx.postTransfers([transfer('dep-2', CAGE, ALICE, 42)]);
        return tx.balances([ALICE, CAGE, ALICE, 'wallet:nobody']);
      });
      expect(seen).toEqual(
        new Map([
          [ALICE, 42],
          [CAGE, -1_000_042],
        ]),
      );
    });
  });

  describe('opening', () => {
    it('keeps the currency chosen at creation and refuses another', async () => {
      const db = h.freshDb();
      const first = await h.open({ db, currency: 'HKD' });
      expect(first.currency).toBe('HKD');
      await expect(h.open({ db, currency: 'MOP' })).rejects.toSatisfy(
        (e: unknown) => e instanceof StoreOpenError && e.code === 'currency_mismatch',
      );
      const second = await h.open({ db, currency: 'HKD' });
      const r = await second.transaction((tx) =>
        tx.postTransfers([transfer('x', CAGE, CAGE + 'x', 1)]),
      );
      expect(r.results[0]).toMatchObject({ code: 'currency_mismatch' });
    });

    it('applies migrations once, however often and however concurrently it is opened', async () => {
      const db = h.freshDb();
      const stores = await Promise.all([h.open({ db }), h.open({ db }), h.open({ db })]);
      const again = await h.open({ db });
      for (const s of [...stores, again])
        expect(await s.schemaVersions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      expect(await h.raw(db, 'SELECT version FROM schema_migrations ORDER BY version')).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
        { version: 6 },
        { version: 7 },
        { version: 8 },
        { version: 9 },
        { version: 10 },
        { version: 11 },
        { version: 12 },
        { version: 13 },
      ]);
    });

    it('indexes transfers by id and reference only: no B-tree that nothing reads (migration 10)', async () => {
      const db = h.freshDb();
      await h.open({ db });
      const sql =
        h.engine === 'sqlite'
          ? "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transfers' AND sql IS NOT NULL ORDER BY name"
          : "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'transfers' AND schemaname = current_schema() ORDER BY indexname";
      const names = (await h.raw(db, sql)).map((r) => (r as { name: string }).name);
      expect(names).toEqual(
        h.engine === 'sqlite'
          ? ['transfers_by_reference']
          : ['transfers_by_reference', 'transfers_id_unique', 'transfers_pkey'],
      );
    });
  });
});
