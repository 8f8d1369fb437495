import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { createUser } from './accounts.js';
import {
  DEMO_CREATOR,
  demonstrationRefusal,
  demonstrationTraces,
  settleDatabaseKind,
} from './database-kind.js';
import { TableService } from './table-service.js';
import {
  defaultTableSettings,
  markedAuthorization,
  simulatedTableSettings,
} from './table-settings.js';

const user = (username: string) => ({
  username,
  password: 'a long enough password',
  role: 'croupier' as const,
  displayName: username,
  mustChangePassword: false,
});

withStores('the database kind: a demonstration or a casino floor for life', (h) => {
  it('records the kind of the first command on an empty database, once and for good', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    expect(await store.databaseKind()).toBeUndefined();
    expect(await settleDatabaseKind(store, 'demonstration')).toBe('demonstration');
    // A later command of the other kind reads the kind recorded; nothing changes it.
    expect(await settleDatabaseKind(store, 'casino-floor')).toBe('demonstration');
    expect(await store.recordDatabaseKind('casino-floor')).toBe('demonstration');
    await expect(
      h.raw(db, "UPDATE meta SET value = 'casino-floor' WHERE key = 'database_kind'"),
    ).rejects.toThrow(/refused/);
    expect(await (await h.open({ db })).databaseKind()).toBe('demonstration');
  });

  it('classifies a database made before kinds were recorded from the marks and demo users it holds', async () => {
    const simulated = await h.open();
    await new TableService({ store: simulated }).createTable(simulatedTableSettings('S1'));
    expect(await settleDatabaseKind(simulated, 'casino-floor')).toBe('demonstration');

    const demo = await h.open();
    await new TableService({ store: demo }).createTable(defaultTableSettings('T1'));
    await createUser(demo, user('croupier'), DEMO_CREATOR);
    expect(await settleDatabaseKind(demo, 'casino-floor')).toBe('demonstration');

    const floor = await h.open();
    await new TableService({ store: floor }).createTable(defaultTableSettings('T1'));
    await createUser(floor, user('croupier-1'), 'supervisor-1');
    expect(await settleDatabaseKind(floor, 'demonstration')).toBe('casino-floor');
  });

  it('names the tables ever marked and the demo users, and says how to start a real floor', async () => {
    const store = await h.open();
    const tables = new TableService({ store });
    await tables.createTable({
      ...defaultTableSettings('T1'),
      authorization: markedAuthorization('demonstration', '2026-03-06', DEMO_CREATOR),
    });
    await tables.createTable(simulatedTableSettings('T2'));
    await tables.createTable(defaultTableSettings('T3'));
    await createUser(store, user('player1'), DEMO_CREATOR);
    await createUser(store, user('croupier'), DEMO_CREATOR);
    await createUser(store, user('croupier-1'), 'supervisor-1');
    const traces = await demonstrationTraces(store);
    expect(traces).toEqual({
      tables: [
        { tableId: 'T1', mark: 'demonstration' },
        { tableId: 'T2', mark: 'simulation' },
      ],
      demoUsers: ['player1', 'croupier'],
    });
    const message = demonstrationRefusal('data/cussec.db', traces);
    expect(message).toContain('data/cussec.db is a demonstration database');
    expect(message).toContain('tables T1 (demonstration), T2 (simulation)');
    expect(message).toContain('demo users player1, croupier sign in with the published password');
    expect(message).toContain('cussec serve --data NEW-FOLDER');
  });
});
