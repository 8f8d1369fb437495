/**
 * GET /api/v1/journal/verify on a real socket: the audit runs on a worker
 * thread, so the node answers other requests while it reads a long journal,
 * and a later verify may start from the checkpoint the first one stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type Store } from '../ledger/index.js';
import { journalDeposits } from '../service/audit-fixtures.js';
import { type App, buildApp } from './app.js';
import { seedUsers, sessionToken } from './testing.js';

const DEPOSITS = 30_000;
/** The deposits, and the inspector's identity (identity-recorded). */
const ENTRIES = DEPOSITS + 1;

describe('GET /api/v1/journal/verify [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-verify-'));
  let store: Store;
  let app: App;
  let base = '';
  let token = '';

  beforeAll(async () => {
    store = await openSqliteStore({ path: join(dir, 'verify.db'), currency: 'MOP' });
    await journalDeposits(store, DEPOSITS);
    app = await buildApp({ store, logger: false });
    const [inspector] = await seedUsers(store, 'inspector', 1);
    token = await sessionToken(store, inspector!, Date.now());
    await app.fastify.listen({ host: '127.0.0.1', port: 0 });
    const address = app.fastify.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  }, 60_000);

  afterAll(async () => {
    await app.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const verify = async (from = 'genesis') => {
    const response = await fetch(`${base}/api/v1/journal/verify?from=${from}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('answers /healthz while a verify of a long journal runs', async () => {
    const order: string[] = [];
    const running = verify().then((r) => {
      order.push('verify');
      return r;
    });
    // Asked after the verify, answered before it: the audit does not hold the event loop.
    const health = await fetch(`${base}/healthz`);
    order.push('healthz');
    expect(health.status).toBe(200);
    const verdict = await running;
    expect(order).toEqual(['healthz', 'verify']);
    expect(verdict.body).toMatchObject({ ok: true, entries: ENTRIES });
  });

  it('starts a later verify from the stored checkpoint and reads only what follows it', async () => {
    const first = await verify();
    const checkedTo = first.body['checkedTo'] as { seq: number; hash: string };
    await journalDeposits(store, 10);
    const later = await verify('latest');
    expect(later.body).toMatchObject({ ok: true, from: checkedTo });
    expect((later.body['checkedTo'] as { seq: number }).seq).toBeGreaterThan(checkedTo.seq);
    const named = await verify(`${checkedTo.seq}:${checkedTo.hash}`);
    expect(named.body).toMatchObject({ ok: true, from: checkedTo });
    const wrong = await verify(`${checkedTo.seq}:${'0'.repeat(64)}`);
    expect(wrong).toMatchObject({
      status: 404,
      body: { error: { code: 'audit_checkpoint_unknown' } },
    });
    expect((await verify('yesterday')).status).toBe(400);
  });
});
