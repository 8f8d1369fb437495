import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import type { Store } from '../ledger/index.js';
import { createPrng } from '../dice/index.js';
import type { Command } from '../table/index.js';
import { audit } from './audit.js';
import { deposit, openWallet, withdraw } from './cage.js';
import { simulatedTableSettings } from './table-settings.js';
import { TableService } from './table-service.js';

/** Plays seeded rounds with bets on random spots, voids and withdrawals. */
async function play(store: Store, rounds: number, seed: number): Promise<void> {
  const prng = createPrng(seed);
  const service = new TableService({ store, random: prng });
  await service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
  const players = ['p1', 'p2', 'p3'];
  for (const p of players) {
    await openWallet(store, p);
    await deposit(store, {
      playerId: p,
      amountMinor: 10_000_000,
      cashierId: 'c',
      idempotencyKey: `d-${p}`,
    });
  }
  const run = async (command: Command | { type: 'trigger-shaker' }) => {
    const outcome = await service.execute({ tableId: 'T1', command });
    if (!outcome.ok && command.type !== 'place-bet' && command.type !== 'withdraw-bet')
      throw new Error(outcome.rejection.code);
  };
  const spots = (await service.snapshot('T1'))!.settings.paytable.spots;
  for (let r = 1; r <= rounds; r++) {
    await run({ type: 'cover' });
    for (let roll = 1; ; roll++) {
      await run({ type: 'fasten-latches' });
      await run({ type: 'trigger-shaker' });
      await run({ type: 'open-betting' });
      for (let b = 0; b < 8; b++) {
        await run({
          type: 'place-bet',
          betId: `r${r}-${roll}-${b}`,
          playerId: prng.pick(players),
          spot: prng.pick(spots),
          stakeMinor: prng.int(1, 50) * 1_000,
        });
      }
      await run({ type: 'withdraw-bet', betId: `r${r}-${roll}-0`, playerId: 'p1' });
      await run({ type: 'ring-bell' });
      await run({ type: 'lift-dome' });
      if (roll > 1 || !prng.chance(0.3)) break;
      await run({ type: 'void-roll', reason: 'stacked' });
      await run({ type: 'cover' });
    }
    await run({ type: 'reveal-dice' });
    await run({ type: 'pay-all' });
  }
  await withdraw(store, {
    playerId: 'p2',
    amountMinor: 1_000,
    cashierId: 'c',
    idempotencyKey: 'w-p2',
  });
}

withStores('audit', (h) => {
  it('passes on a ledger and journal written by the service', async () => {
    const store = await h.open();
    await play(store, 6, 7);
    const result = await audit(store);
    expect(result).toMatchObject({ ok: true, rounds: 6 });
  });

  it('names a transfer that no journal entry implies', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await play(store, 2, 8);
    await store.transaction(async (tx) => {
      await tx.postTransfers([
        {
          id: 'stray',
          debitAccountId: 'bankroll:T1',
          creditAccountId: 'wallet:p1',
          amountMinor: 5,
          currency: 'MOP',
          kind: 'payout',
          reference: 'x',
        },
      ]);
    });
    const result = await audit(store);
    expect(result).toMatchObject({ ok: false, failure: { check: 'ledger' } });
    expect(result.ok ? '' : result.failure.message).toContain('transfer stray');
  });

  it('names the first journal entry whose payload was edited', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await play(store, 2, 9);
    // The journal refuses UPDATE; an attacker with the file drops the trigger first.
    const triggerDrop =
      h.engine === 'sqlite'
        ? 'DROP TRIGGER IF EXISTS journal_refuse_update'
        : 'ALTER TABLE journal DISABLE TRIGGER USER';
    await h.raw(db, triggerDrop);
    await h.raw(
      db,
      `UPDATE journal SET payload_json = replace(payload_json, '"stakeMinor":', '"stakeMinor":1') WHERE seq = (SELECT min(seq) FROM journal WHERE type = 'bet-placed')`,
    );
    const result = await audit(store);
    expect(result).toMatchObject({ ok: false, failure: { check: 'chain' } });
  });
});
