/**
 * Who may play over HTTP and the socket: the cage refuses with the law's code
 * and article, asks for the document sighting on a large amount, raises the
 * flags the compliance officer reviews (journaled) and reports to the GIF; a
 * bet by an excluded player is refused (TableService.execute asks for every path); every staff read of an
 * identity is recorded and the inspector lists them (Lei 8/2005).
 */
import { describe, expect, it } from 'vitest';
import { withStores } from '../../ledger/testing.js';
import type { Role, Store, User } from '../../ledger/index.js';
import { simulatedTableSettings } from '../../service/table-settings.js';
import { type App, buildApp } from '../app.js';
import { seedRoles, sessionToken } from '../testing.js';

const T = 'T1';

interface World {
  readonly app: App;
  readonly store: Store;
  readonly users: Record<Role, User>;
  call(
    role: Role,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
  ): Promise<{
    status: number;
    body: Record<string, unknown> & { error?: Record<string, unknown> };
  }>;
}

async function world(store: Store, run: (w: World) => Promise<void>): Promise<void> {
  const app = await buildApp({ store, logger: false });
  try {
    await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
    const users = await seedRoles(store);
    const now = Date.now();
    const tokens = new Map<Role, string>();
    for (const role of Object.keys(users) as Role[])
      tokens.set(role, await sessionToken(store, users[role], now));
    await run({
      app,
      store,
      users,
      async call(role, method, url, payload) {
        const answer = await app.fastify.inject({
          method,
          url,
          headers: { authorization: `Bearer ${tokens.get(role)!}` },
          ...(payload === undefined ? {} : { payload }),
        });
        return { status: answer.statusCode, body: answer.json() };
      },
    });
  } finally {
    await app.shutdown();
  }
}

const hkIdentity = {
  fullName: 'Chan Tai Man',
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  issuingPlace: 'Hong Kong',
  dateOfBirth: '1990-05-01',
  nationality: 'Chinese',
};

const order = (id: string, from = '2026-01-01') => ({
  id,
  kind: 'self',
  dicjReference: `DICJ/EXC/${id}`,
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  fullName: null,
  dateOfBirth: null,
  from,
  to: '2027-12-31',
  revocationRequestedOn: null,
});

withStores('who may play over HTTP', (h) => {
  describe('the cage', () => {
    it('names a bad field of an identity, then records it and answers eligibility without personal data', async () => {
      await world(await h.open(), async (w) => {
        const url = `/api/v1/users/${w.users.player.id}/identity`;
        const bad = await w.call('cashier', 'PUT', url, {
          ...hkIdentity,
          documentNumber: 'A123456(4)',
        });
        expect(bad.status).toBe(400);
        expect(bad.body.error).toMatchObject({ code: 'identity_invalid' });
        expect(bad.body.error!['issues']).toContainEqual(
          expect.objectContaining({ path: 'documentNumber', code: 'document_check_digit' }),
        );
        const good = await w.call('cashier', 'PUT', url, hkIdentity);
        expect(good).toMatchObject({ status: 200, body: { version: 2, kind: 'real' } });
        const eligibility = await w.call(
          'cashier',
          'GET',
          `/api/v1/players/${w.users.player.id}/eligibility`,
        );
        expect(eligibility.body).toMatchObject({
          identity: 'recorded',
          eligible: true,
          refusal: null,
        });
        expect(JSON.stringify(eligibility.body)).not.toContain('A123456');
        // A cashier records players only; the supervisor records staff too.
        const staff = `/api/v1/users/${w.users.croupier.id}/identity`;
        expect((await w.call('cashier', 'PUT', staff, hkIdentity)).status).toBe(403);
        expect(
          (
            await w.call('supervisor', 'PUT', staff, {
              ...hkIdentity,
              documentNumber: 'G123456(A)',
            })
          ).status,
        ).toBe(200);
      });
    });

    it('asks for the sighting on a large deposit, records it in the register and its CSV', async () => {
      await world(await h.open(), async (w) => {
        const deposits = `/api/v1/players/${w.users.player.id}/deposits`;
        const refused = await w.call('cashier', 'POST', deposits, { amountMinor: 50_000_000 });
        expect(refused.status).toBe(409);
        expect(refused.body.error).toMatchObject({
          code: 'document_sighting_required',
          article: 'Instrução 1/2016',
        });
        const taken = await w.call('cashier', 'POST', deposits, {
          amountMinor: 50_000_000,
          documentSighted: true,
        });
        expect(taken.status).toBe(200);
        const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
        const register = await w.call(
          'compliance',
          'GET',
          `/api/v1/large-transactions?from=${today}&to=${today}`,
        );
        expect(register.body).toEqual([
          expect.objectContaining({
            kind: 'deposit',
            amountMinor: 50_000_000,
            sighted: true,
            reason: 'single',
          }),
        ]);
        const csv = await w.app.fastify.inject({
          url: `/api/v1/large-transactions?from=${today}&to=${today}&format=csv`,
          headers: {
            authorization: `Bearer ${await sessionToken(w.store, w.users.inspector, Date.now())}`,
          },
        });
        expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(csv.body.split('\r\n')[1]).toMatch(/,500000\.00,MOP,deposit,single,/);
      });
    });

    it("refuses an excluded player's deposit and bet with the law's code and article, and lets them withdraw", async () => {
      await world(await h.open(), async (w) => {
        const player = w.users.player;
        await w.call('supervisor', 'PUT', `/api/v1/users/${player.id}/identity`, hkIdentity);
        const recorded = await w.call('inspector', 'POST', '/api/v1/exclusions', order('X-1'));
        expect(recorded.status).toBe(201);
        const deposit = await w.call('cashier', 'POST', `/api/v1/players/${player.id}/deposits`, {
          amountMinor: 1_000,
        });
        expect(deposit.status).toBe(403);
        expect(deposit.body.error).toMatchObject({
          code: 'excluded',
          article: 'Lei 10/2012, art. 6',
        });
        for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'])
          await w.app.ctx.service.execute({ tableId: T, command: { type } as never });
        const bet = await w.call('player', 'POST', `/api/v1/tables/${T}/bets`, {
          betId: 'b1',
          spot: 'big',
          stakeMinor: 1_000,
        });
        expect(bet.status).toBe(403);
        expect(bet.body.error).toMatchObject({ code: 'excluded' });
        // The withdrawal stays the player's (what they hold is theirs).
        const out = await w.call('cashier', 'POST', `/api/v1/players/${player.id}/withdrawals`, {
          amountMinor: 1_000,
        });
        expect(out.status).toBe(200);
        const again = await w.call('supervisor', 'POST', '/api/v1/exclusions', order('X-1'));
        expect(again.status).toBe(409);
      });
    });
  });

  it('flags structuring, lets the compliance officer close it once, journaled, and reports to the GIF', async () => {
    await world(await h.open(), async (w) => {
      const deposits = `/api/v1/players/${w.users.player.id}/deposits`;
      expect((await w.call('cashier', 'POST', deposits, { amountMinor: 45_000_000 })).status).toBe(
        200,
      );
      // With the day's cash, this one is linked: the sighting is asked and given.
      expect(
        (
          await w.call('cashier', 'POST', deposits, {
            amountMinor: 46_000_000,
            documentSighted: true,
          })
        ).status,
      ).toBe(200);
      const queue = await w.call('compliance', 'GET', '/api/v1/suspicion-flags?status=open');
      const flags = queue.body as unknown as { id: string; rule: string; journalSeqs: number[] }[];
      expect(flags.map((f) => f.rule)).toEqual(['structuring']);
      const flag = flags[0]!;
      const report = await w.call(
        'compliance',
        'GET',
        `/api/v1/suspicion-flags/${encodeURIComponent(flag.id)}/gif-report`,
      );
      expect(report.body).toMatchObject({ currency: 'MOP' });
      // The seeded player's (simulated) identity, in full: the GIF report says who.
      expect((report.body['person'] as { documentNumber: string }).documentNumber).toMatch(/^SIM/);
      // The player's cash of the 24 hours: the seeded funding and the two deposits.
      expect((report.body['moves'] as { amountMinor: number }[]).map((m) => m.amountMinor)).toEqual(
        [1_000_000, 45_000_000, 46_000_000],
      );
      const decision = `/api/v1/suspicion-flags/${encodeURIComponent(flag.id)}/decision`;
      const reported = await w.call('compliance', 'POST', decision, {
        decision: 'reported',
        reason: 'two deposits just below MOP 500,000 in a day; sent to the GIF',
      });
      expect(reported).toMatchObject({ status: 200, body: { status: 'reported' } });
      const twice = await w.call('compliance', 'POST', decision, {
        decision: 'closed',
        reason: 'again',
      });
      expect(twice).toMatchObject({ status: 409, body: { error: { code: 'flag_decided' } } });
      const journal = await w.store.readJournal({ fromSeq: 0, limit: 1_000 });
      expect(journal.filter((e) => e.type === 'suspicion-reviewed').map((e) => e.payload)).toEqual([
        expect.objectContaining({ decision: 'reported', by: w.users.compliance.id }),
      ]);
      // The inspector reads the queue and the decision.
      const read = await w.call('inspector', 'GET', '/api/v1/suspicion-flags');
      expect(read.body).toEqual([expect.objectContaining({ status: 'reported' })]);
    });
  });

  it('opens no player account for a person under 21 or excluded, and records the identity of one it opens', async () => {
    await world(await h.open(), async (w) => {
      const account = (username: string, identity: object) => ({
        username,
        password: 'a long enough password 1',
        role: 'player',
        identity,
      });
      const minor = new Date(Date.now() + 8 * 3_600_000 - 20 * 366 * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const young = await w.call(
        'supervisor',
        'POST',
        '/api/v1/users',
        account('young', { ...hkIdentity, dateOfBirth: minor }),
      );
      expect(young).toMatchObject({
        status: 403,
        body: { error: { code: 'under_age', article: 'Lei 10/2012, art. 2' } },
      });
      await w.call('inspector', 'POST', '/api/v1/exclusions', order('X-NEW'));
      const barred = await w.call(
        'supervisor',
        'POST',
        '/api/v1/users',
        account('barred', hkIdentity),
      );
      expect(barred).toMatchObject({ status: 403, body: { error: { code: 'excluded' } } });
      const users = await w.call('supervisor', 'GET', '/api/v1/users');
      const names = (users.body as unknown as { username: string }[]).map((u) => u.username);
      expect(names).not.toContain('young');
      expect(names).not.toContain('barred');
      const adult = await w.call(
        'supervisor',
        'POST',
        '/api/v1/users',
        account('adult', { ...hkIdentity, documentNumber: 'G123456(A)' }),
      );
      expect(adult.status).toBe(201);
      const identity = await w.call(
        'cashier',
        'GET',
        `/api/v1/users/${String(adult.body['id'])}/identity`,
      );
      expect(identity.body).toMatchObject({
        identity: { documentNumber: 'G123456(A)', version: 1 },
      });
    });
  });

  it("records each staff read of an identity, and the player's own read of it not", async () => {
    await world(await h.open(), async (w) => {
      const player = w.users.player;
      await w.call('cashier', 'GET', `/api/v1/users/${player.id}/identity`);
      await w.call('compliance', 'GET', `/api/v1/users/${player.id}/identity/history`);
      const own = await w.call('player', 'GET', '/api/v1/me/identity');
      expect(own.body).toMatchObject({ identity: { userId: player.id, kind: 'simulated' } });
      const reads = await w.call('inspector', 'GET', `/api/v1/identity-reads?subject=${player.id}`);
      expect(
        (reads.body as unknown as { readerId: string; purpose: string }[]).map((r) => [
          r.readerId,
          r.purpose,
        ]),
      ).toEqual([
        [w.users.compliance.id, 'history'],
        [w.users.cashier.id, 'cage'],
      ]);
      // A croupier never reads an identity.
      expect((await w.call('croupier', 'GET', `/api/v1/users/${player.id}/identity`)).status).toBe(
        403,
      );
    });
  });
});
