/**
 * How many statements a table's batch sends PostgreSQL, and how many round
 * trips it makes while it holds the journal head: one row for the whole floor,
 * which every table's commit waits for, so each round trip there is paid by
 * the floor (docs/ledger.md, "A batch's statements on PostgreSQL").
 */
import pg from 'pg';
import { afterEach, beforeEach, expect, it, type MockInstance, vi } from 'vitest';
import { createPrng } from '../../dice/index.js';
import { type Store, walletAccount } from '../../ledger/index.js';
import { withStores } from '../../ledger/testing.js';
import type { Command } from '../../table/index.js';
import { deposit, openWallet } from '../cage.js';
import { type CommandOutcome, TableService } from '../table-service.js';
import { simulatedTableSettings } from '../table-settings.js';

const T = 'T1';
const PLAYERS = ['ana', 'bo'];

/** A statement by what it does. */
function kind(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  if (/^(BEGIN|COMMIT|ROLLBACK)$/.test(s)) return s;
  if (/FROM journal_head .*FOR UPDATE/.test(s)) return 'lock head';
  if (/^SELECT .* FROM tables .*FOR UPDATE/.test(s)) return 'lock table';
  if (/^WITH inserted AS \( INSERT INTO transfers/.test(s)) return 'post transfers';
  if (/^SELECT .* FROM accounts/.test(s)) return 'read accounts';
  if (/^WITH journal_0 .*head_0 .*commands_1 .*table_2 AS \( ?UPDATE tables .*SELECT/.test(s))
    return 'journal, head, commands, table';
  if (/^WITH journal_0 .*head_0 .*table_1 AS \( ?UPDATE tables .*SELECT/.test(s))
    return 'journal, head, table';
  return s.slice(0, 60);
}

/** The statements of each transaction, by kind. */
function transactions(sent: readonly string[]): string[][] {
  const all: string[][] = [];
  for (const text of sent) {
    if (text === 'BEGIN') all.push([]);
    all[all.length - 1]?.push(kind(text));
  }
  return all;
}

/** What the pg clients did, in order: a statement sent, or its answer taken. */
type Step = { readonly sent: string } | { readonly answered: string };

/**
 * The round trips from the head's lock to COMMIT's answer: one for each answer
 * this process waited for before it sent the next statement, and COMMIT's.
 */
function roundTripsWhileHeadLocked(steps: readonly Step[]): number {
  const from = steps.findIndex((s) => 'sent' in s && s.sent === 'lock head');
  const commit = steps.findIndex((s) => 'sent' in s && s.sent === 'COMMIT');
  let trips = 1;
  for (let i = from + 1; i < commit; i++) if ('answered' in steps[i]!) trips++;
  return trips;
}

withStores("a batch's statements", (h) => {
  // Calls through to pg, and keeps what each statement was and when its answer came.
  let spy: MockInstance<(config: unknown) => unknown>;
  let steps: Step[] = [];
  beforeEach(() => {
    // The method itself, called below with each client as `this`.
    const query = Reflect.get(pg.Client.prototype, 'query') as (...args: unknown[]) => unknown;
    spy = vi.spyOn(pg.Client.prototype, 'query');
    spy.mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [config] = args;
      const text = kind(
        typeof config === 'string' ? config : String((config as { text: unknown }).text),
      );
      steps.push({ sent: text });
      const answer = query.apply(this, args);
      if (answer instanceof Promise)
        answer.then(
          () => steps.push({ answered: text }),
          () => steps.push({ answered: text }),
        );
      return answer;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Every statement the pg clients sent since the spy was cleared, as its text. */
  const sent = (): string[] =>
    spy.mock.calls.map(([config]) =>
      typeof config === 'string' ? config : String((config as { text: unknown }).text),
    );

  /** The rows the transfers' statement of the last command returned. */
  async function postedRows(): Promise<unknown[]> {
    const i = sent().findIndex((t) => kind(t) === 'post transfers');
    const result = (await spy.mock.results[i]!.value) as { rows: unknown[] };
    return result.rows;
  }

  async function table(): Promise<{ service: TableService; store: Store }> {
    const store = await h.open();
    const service = new TableService({ store, random: createPrng(7) });
    await service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
    for (const playerId of PLAYERS) {
      await openWallet(store, playerId);
      await deposit(store, {
        playerId,
        amountMinor: 1_000_000,
        cashierId: 'cage',
        idempotencyKey: `fund-${playerId}`,
      });
    }
    return { service, store };
  }

  /** Runs one command as a batch of its own and returns its transaction's statements. */
  async function statementsOf(
    service: TableService,
    command: Command | { readonly type: 'trigger-shaker' },
    idempotencyKey?: string,
  ): Promise<{ outcome: CommandOutcome; statements: string[] }> {
    spy.mockClear();
    steps = [];
    const outcome = await service.execute({
      tableId: T,
      command,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    expect(outcome.ok).toBe(true);
    const all = transactions(sent());
    expect(all).toHaveLength(1);
    return { outcome, statements: all[0]! };
  }

  it.skipIf(h.engine !== 'postgres')(
    'sends a keyed bet in seven statements, and holds the journal head for two round trips',
    async () => {
      const { service, store } = await table();
      for (const command of [
        { type: 'cover' },
        { type: 'fasten-latches' },
        { type: 'trigger-shaker' },
        { type: 'open-betting' },
      ] as const)
        expect((await service.execute({ tableId: T, command })).ok).toBe(true);
      const { outcome, statements } = await statementsOf(
        service,
        { type: 'place-bet', betId: 'b1', playerId: 'ana', spot: 'odd', stakeMinor: 5_000 },
        'bet-b1',
      );
      // The head's lock, then the held writes and COMMIT together.
      expect(roundTripsWhileHeadLocked(steps)).toBe(2);
      expect(statements).toEqual([
        'BEGIN',
        'lock table',
        // The keyed command's lookup.
        expect.stringMatching(/^SELECT key, request_hash/),
        'post transfers',
        'lock head',
        'journal, head, commands, table',
        'COMMIT',
      ]);
      expect(await postedRows()).toEqual([
        { updated: 2, id: walletAccount('ana').id, balanceMinor: 995_000 },
      ]);
      // The balance told to the player is the one the transfers' UPDATE returned.
      expect(outcome.ok && outcome.balanceMinor).toBe(1_000_000 - 5_000);
      expect(await store.getAccount(walletAccount('ana').id)).toMatchObject({
        balanceMinor: 995_000,
      });
    },
  );

  it.skipIf(h.engine !== 'postgres')(
    'settles a round in six statements, and holds the journal head for two round trips',
    async () => {
      const { service } = await table();
      for (const command of [
        { type: 'cover' },
        { type: 'fasten-latches' },
        { type: 'trigger-shaker' },
        { type: 'open-betting' },
        { type: 'place-bet', betId: 'b1', playerId: 'ana', spot: 'odd', stakeMinor: 5_000 },
        { type: 'place-bet', betId: 'b2', playerId: 'bo', spot: 'even', stakeMinor: 7_000 },
        { type: 'ring-bell' },
        { type: 'lift-dome' },
        { type: 'reveal-dice' },
      ] as const)
        expect((await service.execute({ tableId: T, command })).ok).toBe(true);
      const { statements } = await statementsOf(service, { type: 'pay-all' });
      expect(roundTripsWhileHeadLocked(steps)).toBe(2);
      expect(statements).toEqual([
        'BEGIN',
        'lock table',
        'post transfers',
        'lock head',
        'journal, head, table',
        'COMMIT',
      ]);
      // The count alone: nobody asks the balances of a round's payouts.
      expect(await postedRows()).toEqual([
        { updated: expect.any(Number) as number, id: null, balanceMinor: null },
      ]);
    },
  );
});
