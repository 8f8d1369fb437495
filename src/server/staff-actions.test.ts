/**
 * The staff's acts on accounts and tables are journaled with who did them, and
 * the inspector reads them newest first with the people named (both engines:
 * the staff actions' partial index is a migration of each).
 */
import { expect, it } from 'vitest';
import { PG_MIGRATIONS, SQLITE_MIGRATIONS, STAFF_ACTIONS_SQL } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { buildApp } from './app.js';
import type { StaffAction } from '../service/staff-actions.js';
import { seedRoles, sessionToken } from './testing.js';

it("writes the staff actions' index condition word for word in both engines' migrations", () => {
  for (const migrations of [SQLITE_MIGRATIONS, PG_MIGRATIONS])
    expect(migrations.find((m) => m.version === 8)?.sql).toContain(STAFF_ACTIONS_SQL);
});

withStores('staff actions', (h) => {
  it('lists who created, disabled and reset a user, and opened, closed and changed a table', async () => {
    const app = await buildApp({ store: await h.open(), logger: false });
    try {
      const store = app.ctx.store;
      await app.ctx.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
      const users = await seedRoles(store);
      const headers = {
        authorization: `Bearer ${await sessionToken(store, users.supervisor, Date.now())}`,
      };
      const call = async (method: 'POST' | 'PATCH', url: string, payload?: object) => {
        const answer = await app.fastify.inject({
          method,
          url,
          headers,
          ...(payload ? { payload } : {}),
        });
        expect(answer.statusCode, url).toBeLessThan(300);
        return answer.json<{ id: string }>();
      };
      const made = await call('POST', '/api/v1/users', {
        username: 'dealer9',
        password: 'a long enough password',
        role: 'croupier',
        displayName: 'Dealer Nine',
      });
      await call('PATCH', `/api/v1/users/${made.id}`, { disabled: true });
      await call('POST', `/api/v1/users/${made.id}/password`, {
        password: 'another long password',
      });
      await call('PATCH', '/api/v1/tables/T1/limits', { stakeMinorMin: 2_000 });
      await call('POST', '/api/v1/tables/T1/close');
      await call('POST', '/api/v1/tables/T1/open');
      // A round's entries are no staff actions.
      await app.ctx.service.execute({ tableId: 'T1', command: { type: 'cover' } });
      const inspector = await sessionToken(store, users.inspector, Date.now());
      const answer = await app.fastify.inject({
        url: '/api/v1/staff-actions?limit=6',
        headers: { authorization: `Bearer ${inspector}` },
      });
      expect(answer.statusCode).toBe(200);
      const actions = answer.json<StaffAction[]>();
      const supervisor = {
        id: users.supervisor.id,
        username: users.supervisor.username,
        displayName: users.supervisor.displayName,
      };
      const dealer = { id: made.id, username: 'dealer9', displayName: 'Dealer Nine' };
      expect(actions.map((a) => [a.type, a.by, a.user, a.tableId])).toEqual([
        ['table-opened', supervisor, null, 'T1'],
        ['table-closed', supervisor, null, 'T1'],
        ['table-settings-changed', supervisor, null, 'T1'],
        ['password-reset', supervisor, dealer, null],
        ['user-disabled', supervisor, dealer, null],
        ['user-created', supervisor, dealer, null],
      ]);
      expect(actions[2]!.settings).toMatchObject({ stakeMinorMin: 2_000 });
      expect(actions.every((a) => a.atMs > 0)).toBe(true);
      // The next page goes on before the oldest seen.
      const older = await app.fastify.inject({
        url: `/api/v1/staff-actions?before=${actions.at(-1)!.seq}`,
        headers: { authorization: `Bearer ${inspector}` },
      });
      expect(older.json<StaffAction[]>().map((a) => a.type)).toEqual(['table-created']);
    } finally {
      await app.shutdown();
    }
  });
});
