import { describe, expect, it } from 'vitest';
import type { IdentityRow } from './registers.js';
import type { Store } from './store.js';
import { withStores } from './testing.js';

const identity = (userId: string, version: number, fullName = 'Chan Tai Man'): IdentityRow => ({
  userId,
  fullName,
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  documentDigest: 'd'.repeat(64),
  issuingPlace: 'Hong Kong',
  dateOfBirth: '1990-05-01',
  nationality: 'Chinese',
  kind: 'real',
  version,
  updatedAtMs: 1_000 * version,
  updatedBy: 'cashier-1',
});

async function withUser(store: Store, id: string, role: 'player' | 'croupier' = 'player') {
  await store.transaction((tx) =>
    tx.createUser({ id, username: id, displayName: id, role, passwordHash: 'scrypt$x' }),
  );
}

withStores('registers', (h) => {
  describe('identities', () => {
    it('keeps every version with the fields it changed, and refuses a version out of turn', async () => {
      const store = await h.open();
      await withUser(store, 'p1');
      expect(
        await store.transaction((tx) => tx.registers.writeIdentity(identity('p1', 1), ['all'])),
      ).toBe(true);
      // A second "first" version, or a version that skips one, writes nothing.
      expect(
        await store.transaction((tx) => tx.registers.writeIdentity(identity('p1', 1), ['all'])),
      ).toBe(false);
      expect(
        await store.transaction((tx) => tx.registers.writeIdentity(identity('p1', 3), ['x'])),
      ).toBe(false);
      expect(
        await store.transaction((tx) =>
          tx.registers.writeIdentity(identity('p1', 2, 'Chan Tai-man'), ['fullName']),
        ),
      ).toBe(true);
      expect(await store.registers.identity('p1')).toEqual(identity('p1', 2, 'Chan Tai-man'));
      const changes = await store.registers.identityChanges('p1');
      expect(changes.map((c) => [c.version, c.fields, c.identity['fullName'], c.by])).toEqual([
        [1, ['all'], 'Chan Tai Man', 'cashier-1'],
        [2, ['fullName'], 'Chan Tai-man', 'cashier-1'],
      ]);
      expect(await store.registers.identitiesByDocument('hk-id', 'A123456(3)')).toHaveLength(1);
    });

    it('tells a staff account by its document, and not a player one', async () => {
      const store = await h.open();
      await withUser(store, 'p1');
      await withUser(store, 'c1', 'croupier');
      await store.transaction((tx) => tx.registers.writeIdentity(identity('p1', 1), ['all']));
      expect(await store.registers.isStaffDocument('hk-id', 'A123456(3)')).toBe(false);
      await store.transaction((tx) => tx.registers.writeIdentity(identity('c1', 1), ['all']));
      expect(await store.registers.isStaffDocument('hk-id', 'A123456(3)')).toBe(true);
    });

    it('records reads newest first, by subject', async () => {
      const store = await h.open();
      for (const [atMs, subjectId] of [
        [1, 'p1'],
        [2, 'p2'],
        [3, 'p1'],
      ] as const)
        await store.transaction((tx) =>
          tx.registers.recordRead({ atMs, readerId: 'cashier-1', subjectId, purpose: 'cage' }),
        );
      const p1 = await store.registers.reads({ subjectId: 'p1' });
      expect(p1.map((r) => r.atMs)).toEqual([3, 1]);
      const all = await store.registers.reads({});
      expect(all.map((r) => r.atMs)).toEqual([3, 2, 1]);
      expect((await store.registers.reads({ beforeId: all[0]!.id })).map((r) => r.atMs)).toEqual([
        2, 1,
      ]);
    });
  });

  it('keeps an exclusion order once by id and its one revocation request', async () => {
    const store = await h.open();
    const order = {
      id: 'X-1',
      kind: 'self',
      dicjReference: 'DICJ/EXC/2026/1',
      documentType: 'macau-id',
      documentNumber: '1234567(8)',
      fullName: null,
      dateOfBirth: '1980-01-01',
      from: '2026-01-10',
      to: '2028-01-09',
      revocationRequestedOn: null,
      recordedBy: 'inspector-1',
      recordedAtMs: 5,
    };
    expect(await store.transaction((tx) => tx.registers.insertExclusion(order))).toBe(true);
    expect(
      await store.transaction((tx) => tx.registers.insertExclusion({ ...order, to: '2029-01-01' })),
    ).toBe(false);
    expect(
      await store.transaction((tx) => tx.registers.requestRevocation('X-1', '2026-03-01')),
    ).toBe(true);
    expect(
      await store.transaction((tx) => tx.registers.requestRevocation('X-1', '2026-04-01')),
    ).toBe(false);
    expect(await store.registers.exclusionsByDocument('macau-id', '1234567(8)')).toEqual([
      { ...order, revocationRequestedOn: '2026-03-01' },
    ]);
    expect(await store.registers.exclusionsByBirth('1980-01-01')).toHaveLength(1);
    expect(await store.registers.exclusions({ afterId: 'X-1' })).toEqual([]);
  });

  it('keeps large transactions in time order and flags open until decided once', async () => {
    const store = await h.open();
    const large = {
      id: 'deposit:k1',
      atMs: 20,
      playerId: 'p1',
      documentType: 'passport',
      documentNumber: 'K1234567',
      amountMinor: 50_000_000,
      kind: 'deposit',
      reason: 'single',
      by: 'cashier-1',
      tableId: null,
      sighted: true,
      journalSeq: 7,
    };
    await store.transaction(async (tx) => {
      await tx.registers.insertLargeTransaction(large);
      await tx.registers.insertLargeTransaction({ ...large, id: 'deposit:k0', atMs: 10 });
    });
    const rows = await store.registers.largeTransactions({ fromMs: 0, toMs: 21 });
    expect(rows.map((r) => r.id)).toEqual(['deposit:k0', 'deposit:k1']);
    expect(rows[1]).toEqual(large);
    expect(await store.registers.largeTransactions({ fromMs: 11, toMs: 20 })).toEqual([]);

    const flag = {
      id: 'F-1',
      rule: 'structuring',
      playerId: 'p1',
      raisedAtMs: 30,
      message: 'two deposits just below the threshold',
      details: { deposits: 2 },
      status: 'open' as const,
      decidedBy: null,
      decidedAtMs: null,
      reason: null,
      journalSeqs: [5, 7],
    };
    expect(await store.transaction((tx) => tx.registers.insertFlag(flag))).toBe(true);
    expect(await store.registers.flags({ status: 'open' })).toEqual([flag]);
    const decide = { id: 'F-1', status: 'closed' as const, by: 'co-1', atMs: 40, reason: 'known' };
    expect(await store.transaction((tx) => tx.registers.decideFlag(decide))).toBe(true);
    expect(await store.transaction((tx) => tx.registers.decideFlag(decide))).toBe(false);
    expect(await store.registers.flags({ status: 'open' })).toEqual([]);
    expect(await store.registers.flag('F-1')).toMatchObject({
      status: 'closed',
      decidedBy: 'co-1',
    });
  });

  it('refuses to delete an identity or rewrite the register behind the store', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await withUser(store, 'p1');
    await store.transaction((tx) => tx.registers.writeIdentity(identity('p1', 1), ['all']));
    await expect(h.raw(db, "DELETE FROM identities WHERE user_id = 'p1'")).rejects.toThrow(
      /never removed/,
    );
    await expect(h.raw(db, 'UPDATE identity_changes SET by_user = 1')).rejects.toThrow(
      /as it was written/,
    );
  });

  it('migrates a database of the release before with its users and sessions, and then takes the compliance role', async () => {
    const db = h.freshDb();
    await h.migrateTo(db, 12);
    await h.raw(
      db,
      `INSERT INTO users (id, username, username_key, display_name, role, password_hash, created_at_ms)
        VALUES ('old', 'old', 'old', 'Old', 'cashier', 'scrypt$x', 1)`,
    );
    await h.raw(
      db,
      `INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms)
        VALUES ('${'a'.repeat(64)}', 'old', 1, 9000000000000)`,
    );
    await expect(
      h.raw(
        db,
        `INSERT INTO users (id, username, username_key, display_name, role, password_hash, created_at_ms)
          VALUES ('co0', 'co0', 'co0', 'Co', 'compliance', 'scrypt$x', 1)`,
      ),
    ).rejects.toThrow(/role/);
    const store = await h.open({ db });
    expect(await store.getUser('old')).toMatchObject({ role: 'cashier' });
    await h.raw(
      db,
      `INSERT INTO users (id, username, username_key, display_name, role, password_hash, created_at_ms)
        VALUES ('co0', 'co0', 'co0', 'Co', 'compliance', 'scrypt$x', 1)`,
    );
    await expect(
      h.raw(
        db,
        `INSERT INTO users (id, username, username_key, display_name, role, password_hash, created_at_ms)
          VALUES ('x0', 'x0', 'x0', 'X', 'owner', 'scrypt$x', 1)`,
      ),
    ).rejects.toThrow(/role/);
    expect(await store.getUser('co0')).toMatchObject({ role: 'compliance' });
  });

  it('takes the compliance role', async () => {
    const store = await h.open();
    const created = await store.transaction((tx) =>
      tx.createUser({
        id: 'co1',
        username: 'co1',
        displayName: 'Compliance officer',
        role: 'compliance',
        passwordHash: 'scrypt$x',
      }),
    );
    expect(created.status).toBe('created');
  });
});
