import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withStores } from './testing.js';
import type { Store } from './store.js';
import type { Role, UserInput } from './users.js';
import { sampleInput } from '../journal/samples.js';

const HASH = 'scrypt$16384$8$1$c2FsdA$aGFzaA';
const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
const T1 = tokenHash('token-1');
const T2 = tokenHash('token-2');
const T3 = tokenHash('token-3');

const userInput = (id: string, username: string, role: Role = 'player'): UserInput => ({
  id,
  username,
  displayName: `${username} the ${role}`,
  role,
  passwordHash: `${HASH}:${id}`,
});

const createUser = (store: Store, input: UserInput, nowMs = 1_000) =>
  store.transaction((tx) => tx.createUser(input), { nowMs });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

withStores('users and sessions', (h) => {
  describe('users', () => {
    it('creates a user and finds it by id, and by username in any case', async () => {
      const store = await h.open();
      const created = await createUser(store, userInput('u1', 'Alice'), 7);
      const alice = {
        id: 'u1',
        username: 'Alice',
        displayName: 'Alice the player',
        role: 'player',
        createdAtMs: 7,
        disabled: false,
        mustChangePassword: false,
      };
      expect(created).toEqual({ status: 'created', user: alice });
      expect(await store.getUser('u1')).toEqual(alice);
      expect(await store.getUser('u2')).toBeUndefined();
      for (const name of ['Alice', 'alice', 'ALICE', 'Ａｌｉｃｅ']) {
        expect(await store.findUserByUsername(name), name).toEqual({
          ...alice,
          passwordHash: `${HASH}:u1`,
        });
      }
      expect(await store.findUserByUsername('bob')).toBeUndefined();
      expect(await store.transaction((tx) => tx.getUser('u1'))).toEqual(alice);
    });

    it('never returns the password hash but from findUserByUsername', async () => {
      const store = await h.open();
      const created = await createUser(store, userInput('u1', 'alice'));
      const reads = [
        created.status === 'created' ? created.user : undefined,
        await store.getUser('u1'),
        ...(await store.listUsers()),
        await store.transaction((tx) => tx.getUser('u1')),
      ];
      for (const user of reads) {
        expect(user).toBeDefined();
        expect(Object.keys(user!)).not.toContain('passwordHash');
      }
    });

    it('refuses a username taken in any case, and an id taken (id_conflict first)', async () => {
      const store = await h.open();
      await createUser(store, userInput('u1', 'Alice'));
      const attempts = [
        userInput('u2', 'alice'),
        userInput('u2', 'ALICE'),
        userInput('u2', 'Ａlice'), // full-width A: the same name after NFKC
        userInput('u1', 'someone-else'),
        userInput('u1', 'Alice'),
      ];
      const codes = [];
      for (const input of attempts) {
        const r = await createUser(store, input);
        codes.push(r.status === 'failed' ? r.code : r.status);
      }
      expect(codes).toEqual([
        'username_taken',
        'username_taken',
        'username_taken',
        'id_conflict',
        'id_conflict',
      ]);
      expect(await store.countUsers()).toBe(1);
      expect((await store.getUser('u1'))?.username).toBe('Alice');
    });

    it('creates a user and its journal entry together, or neither', async () => {
      const store = await h.open();
      await expect(
        store.transaction(async (tx) => {
          await tx.createUser(userInput('u1', 'alice'));
          await tx.appendJournal([sampleInput(null, 'user-created')]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.getUser('u1')).toBeUndefined();
      expect((await store.journalHead()).lastSeq).toBe(0);
      await store.transaction(async (tx) => {
        await tx.createUser(userInput('u1', 'alice'));
        await tx.appendJournal([sampleInput(null, 'user-created')]);
      });
      expect(await store.getUser('u1')).toBeDefined();
      expect((await store.journalHead()).lastSeq).toBe(1);
    });

    it('lists users in id order with keyset paging, and counts them, by role or all', async () => {
      const store = await h.open();
      const inputs = [
        userInput('p2', 'bob'),
        userInput('c1', 'carol', 'croupier'),
        userInput('p1', 'alice'),
        userInput('P0', 'zed'), // upper case sorts first in byte order
        userInput('s1', 'sam', 'supervisor'),
      ];
      await store.transaction(async (tx) => {
        for (const input of inputs) await tx.createUser(input);
      });
      const ids = (users: { id: string }[]) => users.map((u) => u.id);
      expect(ids(await store.listUsers())).toEqual(['P0', 'c1', 'p1', 'p2', 's1']);
      expect(ids(await store.listUsers({ afterId: 'c1', limit: 2 }))).toEqual(['p1', 'p2']);
      expect(ids(await store.listUsers({ role: 'player' }))).toEqual(['P0', 'p1', 'p2']);
      expect(ids(await store.listUsers({ role: 'player', afterId: 'p1' }))).toEqual(['p2']);
      expect(await store.listUsers({ role: 'cashier' })).toEqual([]);
      expect(await store.countUsers()).toBe(5);
      expect(await store.countUsers('player')).toBe(3);
      expect(await store.countUsers('croupier')).toBe(1);
      expect(await store.countUsers('inspector')).toBe(0);
    });

    it('changes a password and disables a user, saying whether the user exists', async () => {
      const store = await h.open();
      await createUser(store, userInput('u1', 'alice'));
      const out = await store.transaction(async (tx) => ({
        password: await tx.setUserPassword('u1', 'scrypt$new'),
        passwordMissing: await tx.setUserPassword('nobody', 'scrypt$new'),
        disabled: await tx.setUserDisabled('u1', true),
        disabledMissing: await tx.setUserDisabled('nobody', true),
        seen: await tx.getUser('u1'),
      }));
      expect(out).toMatchObject({
        password: true,
        passwordMissing: false,
        disabled: true,
        disabledMissing: false,
        seen: { disabled: true },
      });
      expect(await store.findUserByUsername('alice')).toMatchObject({
        passwordHash: 'scrypt$new',
        disabled: true,
      });
      await store.transaction((tx) => tx.setUserDisabled('u1', false));
      expect((await store.getUser('u1'))?.disabled).toBe(false);
    });

    it('lets only one of two racing creations have a username', async () => {
      const db = h.freshDb();
      const [a, b] = await Promise.all([h.open({ db }), h.open({ db })]);
      const results = await Promise.all(
        ['same', 'SAME', 'Same', 'sAME'].map((name, i) =>
          createUser(i % 2 === 0 ? a : b, userInput(`u${i}`, name)),
        ),
      );
      expect(results.map((r) => (r.status === 'failed' ? r.code : r.status)).sort()).toEqual([
        'created',
        'username_taken',
        'username_taken',
        'username_taken',
      ]);
      expect(await a.countUsers()).toBe(1);
    });

    it('treats malformed users as programming errors', async () => {
      const store = await h.open();
      const bad: UserInput[] = [
        { ...userInput('u1', 'alice'), role: 'dealer' as Role },
        userInput('', 'alice'),
        userInput('u1', ''),
        userInput('u1', ' alice'),
        userInput('u1', 'a'.repeat(65)),
        { ...userInput('u1', 'alice'), passwordHash: '' },
        { ...userInput('u1', 'alice'), displayName: '' },
      ];
      for (const input of bad) {
        await expect(createUser(store, input), JSON.stringify(input)).rejects.toThrow(/user/);
      }
      expect(await store.countUsers()).toBe(0);
    });

    it('refuses behind the Store: an unknown role, deleting a user, changing an id', async () => {
      const db = h.freshDb();
      const store = await h.open({ db });
      await createUser(store, userInput('u1', 'alice'));
      await expect(
        h.raw(
          db,
          `INSERT INTO users (id, username, username_key, display_name, role, password_hash, created_at_ms)
          VALUES ('u2', 'bob', 'bob', 'Bob', 'dealer', 'x', 1)`,
        ),
      ).rejects.toThrow(/CHECK|check constraint/i);
      await expect(
        h.raw(
          db,
          `INSERT INTO users (id, username, username_key, display_name, role, password_hash, created_at_ms)
          VALUES ('u2', 'ALICE', 'alice', 'Alice', 'player', 'x', 1)`,
        ),
      ).rejects.toThrow(/UNIQUE|duplicate key/i);
      for (const sql of ["DELETE FROM users WHERE id = 'u1'", "UPDATE users SET id = 'u9'"]) {
        await expect(h.raw(db, sql), sql).rejects.toThrow(/cussec: /);
      }
      if (h.engine === 'postgres')
        await expect(h.raw(db, 'TRUNCATE users CASCADE')).rejects.toThrow(/cussec: /);
      expect(await store.getUser('u1')).toBeDefined();
    });
  });

  describe('sessions', () => {
    const session = (hash: string, userId = 'u1', createdAtMs = 1_000, expiresAtMs = 2_000) => ({
      tokenHash: hash,
      userId,
      createdAtMs,
      expiresAtMs,
    });

    async function withAlice(): Promise<Store> {
      const store = await h.open();
      await createUser(store, userInput('u1', 'alice'));
      await createUser(store, userInput('u2', 'bob', 'cashier'));
      return store;
    }

    it('creates a session and finds it with its user until it expires', async () => {
      const store = await withAlice();
      expect(await store.createSession(session(T1))).toEqual({
        status: 'created',
        session: { ...session(T1), lastSeenAtMs: null, userAgent: null, address: null },
      });
      const found = await store.findSession(T1, 1_999);
      expect(found).toEqual({
        session: { ...session(T1), lastSeenAtMs: null, userAgent: null, address: null },
        user: await store.getUser('u1'),
      });
      expect(Object.keys(found!.user)).not.toContain('passwordHash');
      expect(await store.findSession(T1, 2_000)).toBeUndefined(); // expired at expiresAtMs
      expect(await store.findSession(T2, 1_500)).toBeUndefined();
    });

    it('refuses a session for an unknown or disabled user, and a reused token', async () => {
      const store = await withAlice();
      await store.transaction((tx) => tx.setUserDisabled('u2', true));
      expect(await store.createSession(session(T1))).toMatchObject({ status: 'created' });
      expect(await store.createSession(session(T1, 'u1', 1_100, 3_000))).toEqual({
        status: 'failed',
        code: 'token_conflict',
      });
      expect(await store.createSession(session(T2, 'nobody'))).toEqual({
        status: 'failed',
        code: 'user_not_found',
      });
      expect(await store.createSession(session(T3, 'u2'))).toEqual({
        status: 'failed',
        code: 'user_disabled',
      });
      expect((await store.findSession(T1, 1_500))?.session.expiresAtMs).toBe(2_000);
    });

    it('finds no session of a disabled user', async () => {
      const db = h.freshDb();
      const store = await h.open({ db });
      await createUser(store, userInput('u1', 'alice'));
      await store.createSession(session(T1));
      // Disabled behind the Store's back: the session stays, but is not found.
      await h.raw(db, `UPDATE users SET disabled = ${h.engine === 'sqlite' ? 1 : 'TRUE'}`);
      expect(await store.findSession(T1, 1_500)).toBeUndefined();
      await h.raw(db, `UPDATE users SET disabled = ${h.engine === 'sqlite' ? 0 : 'FALSE'}`);
      expect(await store.findSession(T1, 1_500)).toBeDefined();
    });

    it('reads sessions asked at once together, each at its own time, never one read before it was asked', async () => {
      const db = h.freshDb();
      const store = await h.open({ db });
      const other = await h.open({ db }); // another node of the floor
      await createUser(store, userInput('u1', 'alice'));
      await store.createSession(session(T1));
      await store.createSession(session(T2, 'u1', 1_000, 1_500));
      const reads = Array.from({ length: 40 }, (_, i) =>
        store.findSession([T1, T2, T3][i % 3]!, 1_400 + i),
      );
      // Logged out on the other node while those reads are in flight.
      expect(await other.deleteSession(T1)).toBe(true);
      const after = store.findSession(T1, 1_450);
      const found = await Promise.all(reads);
      found.forEach((f, i) => {
        if (i % 3 === 2) expect(f).toBeUndefined(); // no such session
        if (i % 3 === 1) expect(f?.session.tokenHash).toBe(1_400 + i < 1_500 ? T2 : undefined);
      });
      expect(await after).toBeUndefined();
      expect(await store.findSession(T1, 1_450)).toBeUndefined();
      expect((await store.findSession(T2, 1_499))?.user.id).toBe('u1');
    });

    it('ends the sessions of a user it disables, so enabling again revives none', async () => {
      const store = await withAlice();
      await store.createSession(session(T1));
      await store.createSession(session(T2));
      await store.createSession(session(T3, 'u2'));
      await store.transaction((tx) => tx.setUserDisabled('u1', true));
      expect(await store.findSession(T1, 1_500)).toBeUndefined();
      await store.transaction((tx) => tx.setUserDisabled('u1', false));
      expect(await store.findSession(T1, 1_500)).toBeUndefined();
      expect(await store.findSession(T2, 1_500)).toBeUndefined();
      expect(await store.findSession(T3, 1_500)).toBeDefined();
    });

    it('deletes one session, a user’s sessions, and the expired ones', async () => {
      const store = await withAlice();
      await store.createSession(session(T1, 'u1', 1_000, 2_000));
      await store.createSession(session(T2, 'u1', 1_000, 3_000));
      await store.createSession(session(T3, 'u2', 1_000, 4_000));
      expect(await store.deleteSession(T1)).toBe(true);
      expect(await store.deleteSession(T1)).toBe(false);
      expect(await store.findSession(T1, 1_500)).toBeUndefined();
      expect(await store.deleteExpiredSessions(2_999)).toBe(0);
      expect(await store.deleteExpiredSessions(3_000)).toBe(1);
      expect(await store.findSession(T3, 3_500)).toBeDefined();
      await store.createSession(session(T1, 'u2', 3_000, 5_000));
      expect(await store.deleteUserSessions('u2')).toBe(2);
      expect(await store.deleteUserSessions('u2')).toBe(0);
      expect(await store.findSession(T3, 3_500)).toBeUndefined();
    });

    it('sweeps the sessions expired by the time of a login, and only those', async () => {
      const db = h.freshDb();
      const store = await h.open({ db });
      await createUser(store, userInput('u1', 'alice'));
      await store.createSession(session(T1, 'u1', 1_000, 2_000));
      await store.createSession(session(T2, 'u1', 1_000, 3_000));
      await store.createSession(session(T3, 'u1', 2_500, 9_000));
      const rows = await h.raw(db, 'SELECT token_hash FROM sessions ORDER BY token_hash');
      expect(rows).toEqual(
        [{ token_hash: T2 }, { token_hash: T3 }].sort((a, b) =>
          a.token_hash < b.token_hash ? -1 : 1,
        ),
      );
      expect(await store.findSession(T2, 2_600)).toBeDefined();
    });

    it('records activity and slides the expiry of a live session only', async () => {
      const store = await withAlice();
      await store.createSession(session(T1, 'u1', 1_000, 2_000));
      expect(await store.touchSession(T1, 1_500)).toBe(true);
      expect((await store.findSession(T1, 1_600))?.session).toMatchObject({
        lastSeenAtMs: 1_500,
        expiresAtMs: 2_000,
      });
      expect(await store.touchSession(T1, 1_900, 5_000)).toBe(true);
      expect((await store.findSession(T1, 4_000))?.session).toMatchObject({
        lastSeenAtMs: 1_900,
        expiresAtMs: 5_000,
      });
      expect(await store.touchSession(T1, 5_000, 9_000)).toBe(false); // expired already
      expect(await store.touchSession(T2, 1_000)).toBe(false);
    });

    it('refuses anything but a SHA-256 hex token hash, so no raw token is stored', async () => {
      const store = await withAlice();
      for (const hash of ['raw-token', T1.toUpperCase(), T1.slice(1), '']) {
        await expect(store.createSession(session(hash))).rejects.toThrow(/token hash/);
        await expect(store.findSession(hash, 1_500)).rejects.toThrow(/token hash/);
        await expect(store.deleteSession(hash)).rejects.toThrow(/token hash/);
      }
      await expect(store.createSession(session(T1, 'u1', 2_000, 2_000))).rejects.toThrow(
        /expiresAtMs/,
      );
    });
  });

  describe('table versions', () => {
    it('reads the version alone, without parsing the state', async () => {
      const db = h.freshDb();
      const store = await h.open({ db });
      await store.transaction(async (tx) => {
        await tx.createTable('T1', {}, { n: 0 });
        await tx.saveTable('T1', 1, { n: 1 });
      });
      await h.raw(db, "UPDATE tables SET state_json = 'not json' WHERE id = 'T1'");
      const versions = await store.transaction(async (tx) => [
        await tx.tableVersion('T1', { lock: 'exclusive' }),
        await tx.tableVersion('T1', { lock: 'shared' }),
        await tx.tableVersion('T1', { lock: 'none' }),
        await tx.tableVersion('T9', { lock: 'exclusive' }),
      ]);
      expect(versions).toEqual([2, 2, 2, undefined]);
      await expect(store.transaction((tx) => tx.loadTable('T1', { lock: 'none' }))).rejects.toThrow(
        SyntaxError,
      );
    });

    for (const lock of ['exclusive', 'shared'] as const) {
      it(`holds a ${lock} lock on the table until commit`, async () => {
        const db = h.freshDb();
        const [a, b] = await Promise.all([h.open({ db }), h.open({ db })]);
        await a.transaction((tx) => tx.createTable('T1', {}, { n: 0 }));
        let other: Promise<unknown> | undefined;
        let otherDone = false;
        await a.transaction(async (tx) => {
          expect(await tx.tableVersion('T1', { lock })).toBe(1);
          other = b
            .transaction(async (tx2) => {
              const version = await tx2.tableVersion('T1', { lock: 'exclusive' });
              return { version, saved: await tx2.saveTable('T1', version!, { n: 2 }) };
            })
            .finally(() => {
              otherDone = true;
            });
          await sleep(200);
          expect(otherDone).toBe(false);
          // Saving under a shared lock would deadlock with the waiting writer (see TableLock).
          if (lock === 'exclusive') await tx.saveTable('T1', 1, { n: 1 });
        });
        const expected = lock === 'exclusive' ? 2 : 1;
        expect(await other).toEqual({
          version: expected,
          saved: { ok: true, version: expected + 1 },
        });
      });
    }
  });

  describe('migration 2', () => {
    it('brings a version-1 database to version 2 and keeps its data', async () => {
      const db = h.freshDb();
      await h.migrateTo(db, 1, 'HKD');
      expect(await h.raw(db, 'SELECT version FROM schema_migrations')).toEqual([{ version: 1 }]);
      await h.raw(
        db,
        "INSERT INTO accounts (id, kind, balance_minor, created_at_ms) VALUES ('wallet:old', 'wallet', 0, 5)",
      );
      await h.raw(
        db,
        `INSERT INTO tables (id, config_json, state_json, version, updated_at_ms)
        VALUES ('T-old', '{"a":1}', '{"n":3}', 4, 6)`,
      );
      await expect(h.raw(db, 'SELECT count(*) FROM users')).rejects.toThrow(/users/);

      const store = await h.open({ db, currency: 'HKD' });
      expect(await store.schemaVersions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      expect(await store.getAccount('wallet:old')).toEqual({
        id: 'wallet:old',
        kind: 'wallet',
        balanceMinor: 0,
        createdAtMs: 5,
      });
      expect(await store.getAccount('cage')).toBeDefined();
      expect(await store.getTable('T-old')).toEqual({
        id: 'T-old',
        config: { a: 1 },
        state: { n: 3 },
        version: 4,
        updatedAtMs: 6,
        leaseEpoch: 0,
        leaseHolder: null,
      });
      expect(await createUser(store, userInput('u1', 'alice'))).toMatchObject({
        status: 'created',
      });
      const live = { tokenHash: T1, userId: 'u1', createdAtMs: 1, expiresAtMs: 2 };
      expect(await store.createSession(live)).toMatchObject({ status: 'created' });
    });
  });
});
