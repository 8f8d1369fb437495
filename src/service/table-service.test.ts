import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyReveal } from '../dice/index.js';
import { verifyChain } from '../journal/index.js';
import { withStores } from '../ledger/testing.js';
import {
  walletAccount,
  inPlayAccount,
  bankrollAccount,
  openSqliteStore,
  type Store,
} from '../ledger/index.js';
import { settle, DEFAULT_COMPILED } from '../rules/index.js';
import { deposit, openWallet } from './cage.js';
import { simulatedTableSettings } from './table-settings.js';
import { type CommandOutcome, type PublishedEvent, TableService } from './table-service.js';
import { can, type Command } from '../table/index.js';

const T = 'T1';

async function setup(store: Store, overrides = {}) {
  const published: PublishedEvent[] = [];
  let now = 1_764_460_800_000;
  const service = new TableService({
    store,
    clock: () => now,
    publish: (_t, e) => published.push(...e),
  });
  await service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null, ...overrides });
  for (const p of ['alice', 'bob']) {
    await openWallet(store, p);
    await deposit(store, {
      playerId: p,
      amountMinor: 100_000,
      cashierId: 'cashier',
      idempotencyKey: `seed-${p}`,
    });
  }
  const run = (
    command: Command | { type: 'trigger-shaker' },
    key?: string,
  ): Promise<CommandOutcome> =>
    service.execute({ tableId: T, command, ...(key ? { idempotencyKey: key } : {}) });
  const tick = (ms: number) => (now += ms);
  return { service, published, run, tick };
}

async function mustRun(
  run: (c: Command | { type: 'trigger-shaker' }) => Promise<CommandOutcome>,
  ...commands: (Command | { type: 'trigger-shaker' })[]
) {
  for (const c of commands) {
    const outcome = await run(c);
    if (!outcome.ok) throw new Error(`${c.type}: ${outcome.rejection.code}`);
  }
}

const open = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
] as const;
const bet = (betId: string, playerId: string, spot: string, stakeMinor: number): Command => ({
  type: 'place-bet',
  betId,
  playerId,
  spot,
  stakeMinor,
});

withStores('table service', (h) => {
  it('plays a round: stakes move to in-play, prizes are paid once, the journal verifies', async () => {
    const store = await h.open();
    const { run, published } = await setup(store);
    await mustRun(run, ...open);
    await mustRun(run, bet('a1', 'alice', 'small', 10_000), bet('b1', 'bob', 'triple:6', 1_000));
    expect((await store.getAccount(walletAccount('alice').id))!.balanceMinor).toBe(90_000);
    expect((await store.getAccount(inPlayAccount(T).id))!.balanceMinor).toBe(11_000);
    await mustRun(run, { type: 'ring-bell' }, { type: 'lift-dome' }, { type: 'reveal-dice' });
    const revealed = published.find((p) => p.event.type === 'dice-revealed')!.event as Extract<
      PublishedEvent['event'],
      { type: 'dice-revealed' }
    >;
    const opened = published.find((p) => p.event.type === 'betting-opened')!.event as Extract<
      PublishedEvent['event'],
      { type: 'betting-opened' }
    >;
    expect(
      verifyReveal({
        tableId: T,
        roundNo: 1,
        rollNo: 1,
        dice: revealed.dice,
        nonceHex: revealed.nonceHex,
        commitmentHex: opened.commitmentHex!,
      }).ok,
    ).toBe(true);
    await mustRun(run, { type: 'pay-all' });
    const [small, triple] = settle(DEFAULT_COMPILED, revealed.dice, [
      { spot: 'small', stakeMinor: 10_000 },
      { spot: 'triple:6', stakeMinor: 1_000 },
    ]);
    expect((await store.getAccount(walletAccount('alice').id))!.balanceMinor).toBe(
      90_000 + small!.returnedMinor,
    );
    expect((await store.getAccount(walletAccount('bob').id))!.balanceMinor).toBe(
      99_000 + triple!.returnedMinor,
    );
    expect((await store.getAccount(inPlayAccount(T).id))!.balanceMinor).toBe(0);
    expect((await store.getAccount(bankrollAccount(T).id))!.balanceMinor).toBe(
      11_000 - small!.returnedMinor - triple!.returnedMinor,
    );
    expect((await verifyChain(store)).ok).toBe(true);
    expect(published.map((p) => p.seq)).toEqual(
      [...published.map((p) => p.seq)].sort((a, b) => a - b),
    );
  });

  it('refuses a bet the wallet cannot pay, alone, and keeps the others of its batch', async () => {
    const store = await h.open();
    const { run } = await setup(store);
    await mustRun(run, ...open);
    const outcomes = await Promise.all([
      run(bet('a1', 'alice', 'big', 60_000)),
      run(bet('a2', 'alice', 'small', 60_000)),
      run(bet('b1', 'bob', 'odd', 5_000)),
    ]);
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.rejection.code))).toEqual([
      'ok',
      'insufficient_funds',
      'ok',
    ]);
    expect((await store.getAccount(walletAccount('alice').id))!.balanceMinor).toBe(40_000);
  });

  it('answers a retried command with its first outcome and never moves money twice', async () => {
    const store = await h.open();
    const { run } = await setup(store);
    await mustRun(run, ...open);
    const first = await run(bet('a1', 'alice', 'small', 5_000), 'k1');
    const again = await run(bet('a1', 'alice', 'small', 5_000), 'k1');
    expect(again).toEqual(first);
    const conflict = await run(bet('a2', 'alice', 'small', 5_000), 'k1');
    expect(conflict.ok ? 'ok' : conflict.rejection.code).toBe('idempotency_key_conflict');
    expect((await store.getAccount(walletAccount('alice').id))!.balanceMinor).toBe(95_000);
  });

  it('refuses bets after the bell (Art. 3.1) and keeps standing bets after a void roll (Art. 3.4)', async () => {
    const store = await h.open();
    const { run } = await setup(store);
    await mustRun(run, ...open, bet('a1', 'alice', 'small', 5_000), { type: 'ring-bell' });
    const late = await run(bet('a2', 'alice', 'big', 5_000));
    expect(late.ok ? 'ok' : late.rejection).toMatchObject({
      code: 'betting_closed',
      article: '3.1',
    });
    await mustRun(run, { type: 'lift-dome' }, { type: 'void-roll', reason: 'tilted' }, ...open);
    const withdraw = await run({ type: 'withdraw-bet', betId: 'a1', playerId: 'alice' });
    expect(withdraw.ok ? 'ok' : withdraw.rejection).toMatchObject({
      code: 'bet_stands_after_void',
      article: '3.4',
    });
    await mustRun(run, bet('a3', 'alice', 'big', 5_000), {
      type: 'withdraw-bet',
      betId: 'a3',
      playerId: 'alice',
    });
    expect((await store.getAccount(walletAccount('alice').id))!.balanceMinor).toBe(95_000);
  });

  it('refuses a bet that would push the worst case over the liability cap', async () => {
    const store = await h.open();
    const { run } = await setup(store, { liabilityMinorMax: 150_000 });
    await mustRun(run, ...open, bet('a1', 'alice', 'triple:1', 1_000));
    const over = await run(bet('b1', 'bob', 'triple:1', 1_000));
    expect(over.ok ? 'ok' : over.rejection.code).toBe('liability_cap_exceeded');
    // A bet on another triple does not add to the worst case of triple 1.
    expect((await run(bet('b2', 'bob', 'triple:2', 1_000))).ok).toBe(true);
  });

  it('answers the table’s changes as the round machine’s can() does: between rounds only', async () => {
    const store = await h.open();
    const { run, service } = await setup(store, { liabilityMinorMax: 150_000 });
    await mustRun(run, ...open, bet('a1', 'alice', 'triple:1', 1_000));
    const mid = (await service.snapshot(T))!;
    const raise = { liabilityMinorMax: 1_000_000 };
    expect(can(mid.config, mid.state, { type: 'change-limits' })).toBe(false);
    const refusedMid = await service.changeLimits(T, raise, 'sup-1');
    expect(refusedMid.ok ? 'ok' : refusedMid.rejection).toMatchObject({
      code: 'table_mid_round',
      article: '8',
    });
    // The cap is the machine's too: the service refuses what can() refuses.
    const over = bet('b1', 'bob', 'triple:1', 1_000);
    expect(can(mid.config, mid.state, over, mid.state.lastAtMs!)).toBe(false);
    expect((await run(over)).ok).toBe(false);
    await mustRun(
      run,
      { type: 'ring-bell' },
      { type: 'lift-dome' },
      { type: 'reveal-dice' },
      { type: 'pay-all' },
    );
    const paid = (await service.snapshot(T))!;
    expect(can(paid.config, paid.state, { type: 'change-limits' })).toBe(true);
    expect((await service.changeLimits(T, raise, 'sup-1')).ok).toBe(true);
    const raised = (await service.snapshot(T))!;
    expect(raised.config.liabilityMinorMax).toBe(1_000_000);
    await mustRun(run, ...open, bet('a2', 'alice', 'triple:1', 1_000), over);
  });

  it('rebuilds a round from the journal on a new service (a restart) and carries on', async () => {
    const store = await h.open();
    const first = await setup(store);
    await mustRun(
      first.run,
      ...open,
      bet('a1', 'alice', 'small', 5_000),
      bet('b1', 'bob', 'big', 7_000),
    );
    const restarted = new TableService({ store });
    const snap = await restarted.snapshot(T);
    expect(snap!.state.bets.map((b) => b.betId)).toEqual(['a1', 'b1']);
    expect(snap!.book.stakedMinor).toBe(12_000);
    const run = (c: Command | { type: 'trigger-shaker' }) =>
      restarted.execute({ tableId: T, command: c });
    await mustRun(
      run,
      { type: 'ring-bell' },
      { type: 'lift-dome' },
      { type: 'reveal-dice' },
      { type: 'pay-all' },
    );
    expect((await store.getAccount(inPlayAccount(T).id))!.balanceMinor).toBe(0);
  });
});

describe('table service without a table', () => {
  it('refuses a command on an unknown table', async () => {
    const store = await openSqliteStore({
      path: join(mkdtempSync(join(tmpdir(), 'cussec-')), 'x.db'),
      currency: 'MOP',
    });
    const service = new TableService({ store });
    const outcome = await service.execute({ tableId: 'nope', command: { type: 'cover' } });
    expect(outcome.ok ? 'ok' : outcome.rejection.code).toBe('unknown_table');
    await store.close();
  });
});
