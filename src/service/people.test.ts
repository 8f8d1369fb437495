/**
 * Who may play, end to end through the service on both engines: scenario
 * tables of dates for age (around the birthday, across Macau midnight, 29
 * February), a revocation effective on day 30 and not day 29, a worker on the
 * Lunar New Year's first three days and on the fourth, linked transactions
 * across the gaming day, a bulk load with bad rows, identities kept with
 * their history and never in the journal in clear.
 */
import { describe, expect, it } from 'vitest';
import { bundledCalendar } from '../compliance/index.js';
import { canonicalJson } from '../journal/index.js';
import type { Role, Store } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { cashierMove, openWallet } from './cage.js';
import { CashChecks } from './cash-checks.js';
import { changeFloorSettings } from './floor-settings.js';
import { People, PeopleRefusal } from './people.js';

/** An instant, from Macau local time (UTC+8). */
const macau = (local: string): number => Date.parse(`${local}+08:00`);

const identity = (over: Record<string, unknown> = {}) => ({
  fullName: 'Chan Tai Man',
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  issuingPlace: 'Hong Kong',
  dateOfBirth: '1990-05-01',
  nationality: 'Chinese',
  kind: 'real',
  ...over,
});

function world(store: Store) {
  const people = new People({ store, calendar: () => Promise.resolve(bundledCalendar()) });
  const user = async (id: string, role: Role = 'player') => {
    await store.transaction((tx) =>
      tx.createUser({ id, username: id, displayName: id, role, passwordHash: 'scrypt$x' }),
    );
    return id;
  };
  return { people, user };
}

const code = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof PeopleRefusal) return error.code;
    throw error;
  }
};

withStores('who may play (Lei 10/2012, Instrução 1/2016)', (h) => {
  describe('Lei 10/2012, art. 2: 21 on the Macau date', () => {
    it.each([
      [
        '2005-03-10',
        '2026-03-09T23:59:59.999',
        'under_age',
        'the last instant before the birthday',
      ],
      ['2005-03-10', '2026-03-10T00:00:00.000', 'ok', 'the first instant of the 21st birthday'],
      ['2005-03-10', '2026-03-10T07:59:59.999', 'ok', 'still 9 March in UTC: Macau decides'],
      ['2004-02-29', '2025-02-28T23:59:59.999', 'under_age', '29 February: not yet on 28 February'],
      ['2004-02-29', '2025-03-01T00:00:00.000', 'ok', '29 February: of age on 1 March'],
      ['2008-02-29', '2029-02-28T12:00:00.000', 'under_age', 'a non-leap 21st year'],
      ['2008-02-29', '2029-03-01T00:00:00.000', 'ok', 'the day after'],
    ])('born %s, at %s Macau time: %s (%s)', async (born, local, want) => {
      const store = await h.open();
      const w = world(store);
      const id = await w.user('p1');
      await w.people.recordIdentity(id, identity({ dateOfBirth: born }), 'k1');
      const view = await w.people.eligibility(id, macau(local));
      expect(view.refusal?.code ?? 'ok').toBe(want);
      if (want === 'under_age') expect(view.refusal?.law).toBe('Lei 10/2012, art. 2');
    });
  });

  it('refuses everything to an account without an identity (Instrução 1/2016)', async () => {
    const store = await h.open();
    const w = world(store);
    const id = await w.user('p1');
    expect(await w.people.eligibility(id)).toMatchObject({
      identity: 'missing',
      eligible: false,
      refusal: { code: 'identity_missing', law: 'Instrução 1/2016' },
    });
  });

  it('bars on the 29th day after a revocation request and frees on the 30th (art. 6)', async () => {
    const store = await h.open();
    const w = world(store);
    const id = await w.user('p1');
    await w.people.recordIdentity(id, identity(), 'k1');
    await w.people.recordExclusion(
      {
        id: 'X-1',
        kind: 'self',
        dicjReference: 'DICJ/EXC/2026/1',
        documentType: 'hk-id',
        documentNumber: 'a123456 3',
        fullName: null,
        dateOfBirth: null,
        from: '2026-01-10',
        to: '2027-12-31',
        revocationRequestedOn: null,
      },
      'i1',
    );
    const on = async (date: string) =>
      (await w.people.eligibility(id, macau(`${date}T12:00:00`))).refusal?.code ?? 'ok';
    expect(await on('2026-01-09')).toBe('ok');
    expect(await on('2026-01-10')).toBe('excluded');
    await w.people.requestRevocation('X-1', '2026-03-01', 'i1');
    expect(await on('2026-03-30')).toBe('excluded'); // day 29
    expect(await on('2026-03-31')).toBe('ok'); // day 30
    expect(await code(w.people.requestRevocation('X-1', '2026-03-02', 'i1'))).toBe(
      'revocation_already_requested',
    );
  });

  it('refuses an Art. 6 order longer than two years, naming the field', async () => {
    const store = await h.open();
    const w = world(store);
    const refusal = await w.people
      .recordExclusion(
        {
          id: 'X-2',
          kind: 'third-party',
          dicjReference: 'DICJ/EXC/2026/2',
          documentType: 'macau-id',
          documentNumber: '1234567(8)',
          fullName: null,
          dateOfBirth: null,
          from: '2026-01-10',
          to: '2028-01-10',
          revocationRequestedOn: null,
        },
        'i1',
      )
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(PeopleRefusal);
    expect((refusal as PeopleRefusal).issues).toContainEqual(
      expect.objectContaining({ path: 'to' }),
    );
  });

  it.each([
    ['2026-02-16', 'casino_worker', "Lunar New Year's Eve"],
    ['2026-02-17', 'ok', 'day 1'],
    ['2026-02-18', 'ok', 'day 2'],
    ['2026-02-19', 'ok', 'day 3'],
    ['2026-02-20', 'casino_worker', 'day 4'],
    ['2026-03-02', 'ok', 'inside a training cause'],
    ['2026-03-06', 'casino_worker', 'the day after the cause'],
  ])('a casino worker on %s: %s (%s)', async (date, want) => {
    const store = await h.open();
    const w = world(store);
    const croupier = await w.user('c1', 'croupier');
    const player = await w.user('p1');
    const doc = { documentType: 'macau-id', documentNumber: '5215299(8)' };
    await w.people.recordIdentity(croupier, identity(doc), 's1');
    await w.people.recordIdentity(player, identity(doc), 'k1');
    await w.people.recordWorkerCause(
      {
        id: 'W-1',
        documentType: 'macau-id',
        documentNumber: '5215299(8)',
        kind: 'training',
        approvalReference: 'HR/2026/7',
        from: '2026-03-01',
        to: '2026-03-05',
      },
      's1',
    );
    const view = await w.people.eligibility(player, macau(`${date}T12:00:00`));
    expect(view.refusal?.code ?? 'ok').toBe(want);
  });

  it('keeps every version of an identity, and the journal holds its digest, never the number', async () => {
    const store = await h.open();
    const w = world(store);
    const id = await w.user('p1');
    const first = await w.people.recordIdentity(id, identity(), 'k1');
    expect(first).toMatchObject({ version: 1, documentNumber: 'A123456(3)' });
    // Writing it as it stands changes nothing.
    expect(await w.people.recordIdentity(id, identity(), 'k1')).toMatchObject({ version: 1 });
    const second = await w.people.recordIdentity(id, identity({ fullName: 'CHAN Tai-man' }), 's1');
    expect(second).toMatchObject({ version: 2, updatedBy: 's1' });
    const history = await w.people.identityHistory(id, { id: 'i1', role: 'inspector' });
    expect(history.map((c) => [c.version, c.by, c.fields])).toEqual([
      [
        1,
        'k1',
        [
          'fullName',
          'documentType',
          'documentNumber',
          'issuingPlace',
          'dateOfBirth',
          'nationality',
          'kind',
        ],
      ],
      [2, 's1', ['fullName']],
    ]);
    const journal = await store.readJournal({ fromSeq: 0, limit: 100 });
    const text = canonicalJson(journal);
    expect(text).not.toContain('A123456');
    const recorded = journal.filter((e) => e.type === 'identity-recorded');
    expect(recorded).toHaveLength(2);
    expect(recorded[0]!.payload).toMatchObject({
      userId: id,
      documentDigest: await w.people.digest('hk-id', 'A123456(3)'),
    });
    // Lei 8/2005: the inspector's read of the history is recorded; the person's own is not.
    await w.people.readIdentity(id, { id, role: 'player' }, 'own');
    expect((await store.registers.reads({ subjectId: id })).map((r) => r.readerId)).toEqual(['i1']);
  });

  it('names a bad document field and writes nothing', async () => {
    const store = await h.open();
    const w = world(store);
    const id = await w.user('p1');
    const refusal = await w.people
      .recordIdentity(id, identity({ documentNumber: 'A123456(4)' }), 'k1')
      .catch((e: unknown) => e as PeopleRefusal);
    expect(refusal).toMatchObject({ code: 'identity_invalid' });
    expect((refusal as PeopleRefusal).issues).toContainEqual(
      expect.objectContaining({ path: 'documentNumber', code: 'document_check_digit' }),
    );
    expect(await store.registers.identity(id)).toBeUndefined();
  });

  it('warns of an order naming the person under another document', async () => {
    const store = await h.open();
    const w = world(store);
    const id = await w.user('p1');
    await w.people.recordIdentity(id, identity(), 'k1');
    await w.people.recordExclusion(
      {
        id: 'X-9',
        kind: 'court',
        dicjReference: 'TJB/2026/9',
        documentType: 'passport',
        documentNumber: 'K1234567',
        fullName: 'CHAN  tai man',
        dateOfBirth: '1990-05-01',
        from: '2026-01-01',
        to: '2030-12-31',
        revocationRequestedOn: null,
      },
      'i1',
    );
    const view = await w.people.eligibility(id, macau('2026-06-01T12:00:00'));
    expect(view.eligible).toBe(true);
    expect(view.warnings.map((x) => x.orderId)).toEqual(['X-9']);
  });

  it('loads a file of orders: good rows kept, bad rows named, nothing half-written, a reload adds none', async () => {
    const store = await h.open();
    const w = world(store);
    const csv = [
      'id,kind,dicjReference,documentType,documentNumber,fullName,dateOfBirth,from,to,revocationRequestedOn',
      'B-1,self,DICJ/1,passport,K1111111,,,2026-01-01,2026-12-31,',
      'B-2,self,DICJ/2,hk-id,A123456(4),,,2026-01-01,2026-12-31,',
      'B-3,court,TJB/3,macau-id,1234567(8),"Wong, Ka Ho",1970-01-01,2026-01-01,2040-12-31,',
      'B-4,self,DICJ/4,passport,K4444444,,,2026-01-01,2029-01-01,',
      'B-1,self,DICJ/1b,passport,K1111112,,,2026-01-01,2026-12-31,',
    ].join('\r\n');
    const loaded = await w.people.loadExclusions(csv, 'csv', 'i1');
    expect(loaded.recorded).toBe(2);
    expect(loaded.bad.map((b) => [b.row, b.issues.map((i) => i.path)])).toEqual([
      [2, ['documentNumber']],
      [4, ['to']],
      [5, ['id']],
    ]);
    expect((await w.people.exclusions({})).map((o) => o.id)).toEqual(['B-1', 'B-3']);
    const journal = await store.readJournal({ fromSeq: 0, limit: 100 });
    expect(journal.filter((e) => e.type === 'exclusion-recorded')).toHaveLength(2);
    const again = await w.people.loadExclusions(csv, 'csv', 'i1');
    expect(again).toMatchObject({ recorded: 0, existing: ['B-1', 'B-3'] });
  });

  describe('Instrução 1/2016 at the cage', () => {
    async function cage(store: Store) {
      const w = world(store);
      const checks = new CashChecks(w.people);
      const id = await w.user('p1');
      await openWallet(store, id);
      let key = 0;
      const move = (kind: 'deposit' | 'withdrawal', amountMinor: number, documentSighted = false) =>
        cashierMove(store, checks, kind, {
          playerId: id,
          amountMinor,
          cashierId: 'k1',
          idempotencyKey: `k-${++key}`,
          documentSighted,
        });
      return { ...w, id, move };
    }

    it('counts the gaming day’s cash together, and a new Macau day starts again', async () => {
      const clock = { now: macau('2026-06-01T10:00:00') };
      const store = await h.open({ clock: () => clock.now });
      const c = await cage(store);
      await c.people.recordIdentity(c.id, identity(), 'k1');
      expect(await c.move('deposit', 30_000_000)).toMatchObject({ ok: true });
      clock.now = macau('2026-06-01T23:59:00');
      // MOP 300,000 + 250,000 the same Macau day: linked, so the second needs the sighting.
      expect(await code(c.move('deposit', 25_000_000))).toBe('document_sighting_required');
      expect(await c.move('deposit', 25_000_000, true)).toMatchObject({ ok: true });
      clock.now = macau('2026-06-02T00:01:00');
      expect(await c.move('deposit', 30_000_000)).toMatchObject({ ok: true });
      const register = await store.registers.largeTransactions({ fromMs: 0, toMs: clock.now + 1 });
      expect(register.map((r) => [r.amountMinor, r.reason, r.sighted])).toEqual([
        [25_000_000, 'linked', true],
      ]);
      const entry = (await store.readJournal({ fromSeq: 0, limit: 100 })).find(
        (e) => e.type === 'large-transaction-recorded',
      );
      expect(entry?.payload).toMatchObject({
        reason: 'linked',
        sighted: true,
        amountMinor: 25_000_000,
      });
      expect(canonicalJson(entry)).not.toContain('A123456');
    });

    it('sees the other cashier’s move of the same moment: two deposits at once are linked, one refused', async () => {
      const clock = { now: macau('2026-06-01T10:00:00') };
      const store = await h.open({ clock: () => clock.now });
      const c = await cage(store);
      await c.people.recordIdentity(c.id, identity(), 'k1');
      const both = await Promise.all([
        code(c.move('deposit', 30_000_000)),
        code(c.move('deposit', 30_000_000)),
      ]);
      expect(both.sort()).toEqual(['document_sighting_required', 'ok']);
      expect(await store.getAccount(`wallet:${c.id}`)).toMatchObject({ balanceMinor: 30_000_000 });
    });

    it("applies the house's stricter threshold at the cage", async () => {
      const clock = { now: macau('2026-06-01T10:00:00') };
      const store = await h.open({ clock: () => clock.now });
      const c = await cage(store);
      await c.people.recordIdentity(c.id, identity(), 'k1');
      await changeFloorSettings(store, { largeCashThresholdMinor: 10_000_000 }, 's1');
      expect(await code(c.move('deposit', 10_000_000))).toBe('document_sighting_required');
      expect(await c.move('deposit', 9_999_999)).toMatchObject({ ok: true });
      await expect(
        changeFloorSettings(store, { largeCashThresholdMinor: 50_000_001 }, 's1'),
      ).rejects.toMatchObject({ code: 'threshold_above_law' });
    });

    it('refuses a large amount without an identity, and a deposit by an excluded player', async () => {
      const clock = { now: macau('2026-06-01T10:00:00') };
      const store = await h.open({ clock: () => clock.now });
      const c = await cage(store);
      expect(await code(c.move('deposit', 1_000))).toBe('identity_missing');
      await c.people.recordIdentity(c.id, identity(), 'k1');
      expect(await c.move('deposit', 60_000_000, true)).toMatchObject({ ok: true });
      await c.people.recordExclusion(
        {
          id: 'X-C',
          kind: 'self',
          dicjReference: 'DICJ/C',
          documentType: 'hk-id',
          documentNumber: 'A123456(3)',
          fullName: null,
          dateOfBirth: null,
          from: '2026-06-01',
          to: '2026-12-31',
          revocationRequestedOn: null,
        },
        'i1',
      );
      expect(await code(c.move('deposit', 1_000))).toBe('excluded');
      // What an excluded person holds stays theirs: the withdrawal goes through (sighted: it is large).
      expect(await c.move('withdrawal', 60_000_000, true)).toMatchObject({
        ok: true,
        balanceMinor: 0,
      });
    });

    it('flags deposits just below the threshold within 24 hours, once per move', async () => {
      const clock = { now: macau('2026-06-01T10:00:00') };
      const store = await h.open({ clock: () => clock.now });
      const c = await cage(store);
      await c.people.recordIdentity(c.id, identity(), 'k1');
      expect(await c.move('deposit', 45_000_000)).toMatchObject({ ok: true });
      clock.now = macau('2026-06-02T09:00:00');
      expect(await c.move('deposit', 46_000_000)).toMatchObject({ ok: true });
      const flags = await store.registers.flags({ status: 'open' });
      expect(flags.map((f) => f.rule)).toEqual(['structuring']);
      expect(flags[0]!.journalSeqs).toHaveLength(2);
      clock.now = macau('2026-06-02T09:30:00');
      // Cash in, then out with no play between: the second rule.
      expect(await c.move('withdrawal', 80_000_000, true)).toMatchObject({ ok: true });
      const rules = (await store.registers.flags({})).map((f) => f.rule).sort();
      expect(rules).toEqual(['cash-in-out-little-play', 'structuring']);
      const entries = await store.readJournal({ fromSeq: 0, limit: 100 });
      expect(entries.filter((e) => e.type === 'suspicion-flagged')).toHaveLength(2);
    });
  });
});
