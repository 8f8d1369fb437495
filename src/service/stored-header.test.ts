import { expect, it } from 'vitest';
import { RollKeyError, RollKeyring } from '../dice/roll-key.js';
import { verifyReveal } from '../dice/seal.js';
import { withStores } from '../ledger/testing.js';
import type { Store } from '../ledger/index.js';
import type { Command } from '../table/index.js';
import { deposit, openWallet } from './cage.js';
import { simulatedTableSettings } from './table-settings.js';
import { TableService } from './table-service.js';

const T = 'T1';
const steps = (...types: string[]) => types.map((type) => ({ type }) as Command);

async function bettingTable(store: Store, rollKeys: RollKeyring): Promise<TableService> {
  const service = new TableService({ store, rollKeys });
  await service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  await openWallet(store, 'alice');
  await deposit(store, {
    playerId: 'alice',
    amountMinor: 10_000,
    cashierId: 'c',
    idempotencyKey: 'k',
  });
  for (const command of [
    ...steps('cover', 'fasten-latches', 'trigger-shaker', 'open-betting'),
    {
      type: 'place-bet',
      betId: 'b1',
      playerId: 'alice',
      spot: 'small',
      stakeMinor: 1_000,
    } as Command,
  ]) {
    const outcome = await service.execute({ tableId: T, command });
    if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
  }
  return service;
}

withStores('the stored sealed roll', (h) => {
  it('holds no dice and no nonce in the database while betting is open (Art. 2.1)', async () => {
    const store = await h.open();
    const keys = RollKeyring.generate('k1');
    const service = await bettingTable(store, keys);
    const seal = (await service.snapshot(T))!.state.seal!;
    const stored = JSON.stringify((await store.getTable(T))!.state);
    expect(stored).toContain(seal.commitmentHex);
    expect(stored).not.toContain(seal.nonceHex);
    expect(stored).not.toMatch(/"dice"/);
    expect(stored).toContain('"keyId":"k1"');
  });

  it('reveals after a restart with the same key, and the reveal matches the commitment', async () => {
    const store = await h.open();
    const text = RollKeyring.generate('k1').format();
    await bettingTable(store, RollKeyring.parse(text, 'test'));
    const restarted = new TableService({ store, rollKeys: RollKeyring.parse(text, 'test') });
    const events = [];
    for (const command of steps('ring-bell', 'lift-dome', 'reveal-dice')) {
      const outcome = await restarted.execute({ tableId: T, command });
      if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
      events.push(...outcome.events.map((e) => e.event));
    }
    const revealed = events.find((e) => e.type === 'dice-revealed') as
      | { dice: number[]; nonceHex: string; commitmentHex: string; roundNo: number; rollNo: number }
      | undefined;
    expect(revealed).toBeDefined();
    const check = verifyReveal({ tableId: T, ...revealed! });
    expect(check.ok).toBe(true);
  });

  it('a node without the key cannot load a table whose roll is sealed', async () => {
    const store = await h.open();
    await bettingTable(store, RollKeyring.generate('k1'));
    const other = new TableService({ store, rollKeys: RollKeyring.generate('k2') });
    await expect(other.snapshot(T)).rejects.toThrow(RollKeyError);
  });
});
