import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../ledger/index.js';
import { seedRoles } from '../../server/testing.js';
import { runCli } from '../testing.js';

describe('cussec users', () => {
  let dir = '';
  let db = '';
  let croupier = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cussec-users-'));
    db = join(dir, 'cussec.db');
    const store = await openSqliteStore({ path: db, currency: 'MOP' });
    try {
      croupier = (await seedRoles(store)).croupier.username;
    } finally {
      await store.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('disables and enables a user, journaled as the command line', async () => {
    const off = await runCli(['users', 'disable', croupier, '--db', db]);
    expect(off).toMatchObject({ code: 0, stderr: '' });
    expect(off.stdout).toMatch(/\tcroupier\tdisabled\n$/);
    const on = await runCli(['users', 'enable', croupier, '--db', db]);
    expect(on.stdout).toMatch(/\tcroupier\n$/);
    const store = await openSqliteStore({ path: db, currency: 'MOP' });
    try {
      const types = (await store.readJournal({ fromSeq: 1, limit: 100 })).map((e) => e.type);
      expect(types).toEqual(expect.arrayContaining(['user-disabled', 'user-enabled']));
    } finally {
      await store.close();
    }
  });

  it('resets a password from the environment, to be changed at next sign-in', async () => {
    process.env['CUSSEC_NEW_PASSWORD'] = 'short';
    const weak = await runCli(['users', 'reset-password', croupier, '--db', db]);
    expect(weak).toMatchObject({ code: 2 });
    expect(weak.stderr).toMatch(/at least 10 characters \(weak_password\)/);
    process.env['CUSSEC_NEW_PASSWORD'] = 'a fresh temporary one';
    const reset = await runCli(['users', 'reset-password', croupier, '--db', db]);
    delete process.env['CUSSEC_NEW_PASSWORD'];
    expect(reset.stdout).toMatch(/must-change-password\n$/);
    const unknown = await runCli(['users', 'enable', 'nobody', '--db', db]);
    expect(unknown).toMatchObject({ code: 2, stderr: 'cussec: there is no user "nobody"\n' });
  });
});
