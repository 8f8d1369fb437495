import { expect, it } from 'vitest';
import type { JournalEntry } from '../journal/index.js';
import { bankrollAccount, type Store, walletAccount } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { DEFAULT_PAYTABLE } from '../rules/index.js';
import { audit } from './audit-runner.js';
import {
  createLeverTable,
  fundPlayers,
  leverRound,
  macauMs,
  playLeverRounds,
  runAll,
  testClock,
} from './compliance-testing.js';
import { HolidayCalendarService } from './holidays.js';
import { AUTOMATIC_ADOPTER, HouseOptionsService } from './house-options.js';
import { readTableJournal } from './round-snapshot.js';
import { TableService } from './table-service.js';

const T = 'T1';
const ODDS_24 = { ...DEFAULT_PAYTABLE, totalOdds: { '5/16': 24, '6/15': 14 } };

function services(store: Store, clock: () => number) {
  const tables = new TableService({ store, clock });
  const holidays = new HolidayCalendarService(store);
  const houseOptions = new HouseOptionsService({ store, tables, holidays, clock });
  return { tables, holidays, houseOptions };
}

async function setup(store: Store, start = macauMs('2026-03-02', 10)) {
  const clock = testClock(start);
  const s = services(store, clock.now);
  await createLeverTable(s.tables, T);
  await fundPlayers(store, ['alice', 'bob']);
  return { clock, ...s };
}

async function tableEntries(store: Store, type?: string): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for await (const e of readTableJournal(store, T, 1)) if (!type || e.type === type) out.push(e);
  return out;
}

const code = (r: { ok: boolean; rejection?: { code: string } }) =>
  r.ok ? 'ok' : r.rejection!.code;

withStores('house options (Art. 8)', (h) => {
  it('adopts an authorized proposal at its date between rounds, never mid-round, and the new odds pay', async () => {
    const store = await h.open();
    const { clock, tables, houseOptions } = await setup(store);
    // Requested Monday 2 March 2026: Tue 3, Wed 4, Thu 5 are the three working days.
    const proposed = await houseOptions.propose(
      T,
      { proposalId: 'P1', options: { paytable: ODDS_24 }, adoptionDate: '2026-03-06' },
      'sup-1',
    );
    expect(proposed).toMatchObject({
      ok: true,
      value: { status: 'pending', requestDate: '2026-03-02' },
    });
    clock.at('2026-03-03');
    const authorized = await houseOptions.authorize(
      T,
      'P1',
      { reference: 'DICJ/2026/0042', authorizedOn: '2026-03-03' },
      'insp-1',
    );
    expect(authorized).toMatchObject({ ok: true, value: { status: 'authorized' } });

    clock.at('2026-03-05');
    expect(await houseOptions.adoptDue(T)).toBeNull(); // the date has not come

    clock.at('2026-03-06', 9);
    await runAll(tables, T, leverRound({ dice: [1, 2, 3] }).slice(0, 6)); // betting is open
    expect(await houseOptions.adoptDue(T)).toBeNull();
    const midRound = await houseOptions.adopt(T, 'P1', 'sup-1');
    expect(midRound.ok ? null : midRound.rejection).toMatchObject({
      code: 'table_mid_round',
      article: '8',
    });
    const refusedEntry = (await tableEntries(store, 'house-options-refused')).at(-1)!;
    expect(refusedEntry.payload).toMatchObject({ code: 'table_mid_round', proposalId: 'P1' });
    expect((await tables.snapshot(T))!.settings.paytable.totalOdds['5/16']).toBe(18);

    await runAll(tables, T, leverRound({ dice: [1, 2, 3] }).slice(6)); // … pay-all
    expect(await houseOptions.adoptDue(T)).toBe('P1');
    const settings = (await tables.snapshot(T))!.settings;
    expect(settings.paytable.totalOdds).toEqual({ '5/16': 24, '6/15': 14 });

    // One transaction: the adoption and the settings it changed, side by side.
    const [adopted] = await tableEntries(store, 'house-options-adopted');
    const [changed] = await tableEntries(store, 'table-settings-changed');
    expect(adopted!.payload).toMatchObject({
      proposalId: 'P1',
      version: 2,
      adoptedBy: AUTOMATIC_ADOPTER,
      authorizationReference: 'DICJ/2026/0042',
    });
    expect(changed!.seq).toBe(adopted!.seq + 1);
    expect(changed!.atMs).toBe(adopted!.atMs);
    expect(changed!.payload).toMatchObject({
      settings: { paytable: { totalOdds: { '5/16': 24 } } },
    });

    // Art. 6.6: a total of 5 now pays 24 to 1.
    const before = (await store.getAccount(walletAccount('bob').id))!.balanceMinor;
    await playLeverRounds(tables, T, [
      {
        dice: [1, 1, 3],
        bets: [{ betId: 'b5', playerId: 'bob', spot: 'total:5', stakeMinor: 1_000 }],
      },
    ]);
    expect((await store.getAccount(walletAccount('bob').id))!.balanceMinor).toBe(before + 24_000);
    expect((await store.getAccount(bankrollAccount(T).id))!.balanceMinor).toBe(-24_000);
    expect(await audit(store)).toMatchObject({ ok: true, rounds: 2 });

    // Rebuilt from the journal alone by a fresh service.
    const view = await services(store, clock.now).houseOptions.view(T);
    expect(view).toMatchObject({
      current: { version: 2, paytable: { totalOdds: { '5/16': 24 } } },
      adoptedOn: '2026-03-06',
      proposals: [{ proposalId: 'P1', status: 'adopted' }],
    });
  });

  it('refuses short notice, adoption without authorization, and keeps both refusals in the journal', async () => {
    const store = await h.open();
    const { clock, houseOptions } = await setup(store);
    const late = await houseOptions.propose(
      T,
      { proposalId: 'P1', options: { displayBoard: false }, adoptionDate: '2026-03-05' },
      'sup-1',
    );
    expect(late.ok ? null : late.rejection).toMatchObject({
      code: 'request_not_timely',
      article: '8',
    });

    const ok = await houseOptions.propose(
      T,
      { proposalId: 'P2', options: { displayBoard: false }, adoptionDate: '2026-03-06' },
      'sup-1',
    );
    expect(code(ok)).toBe('ok');
    clock.at('2026-03-06');
    expect(await houseOptions.adoptDue(T)).toBeNull();
    expect(code(await houseOptions.adopt(T, 'P2', 'sup-1'))).toBe('authorization_missing');
    clock.at('2026-03-07');
    // Art. 8 "prévia": unauthorized by its date, the proposal has expired.
    expect(
      code(
        await houseOptions.authorize(
          T,
          'P2',
          { reference: 'late', authorizedOn: '2026-03-07' },
          'i',
        ),
      ),
    ).toBe('proposal_expired');
    const refused = (await tableEntries(store)).flatMap((e) =>
      e.type === 'house-options-refused' ? [e.payload.code] : [],
    );
    expect(refused).toEqual(['request_not_timely', 'authorization_missing', 'proposal_expired']);
    expect((await houseOptions.view(T))!.current.displayBoard).toBe(true);
  });

  it('withdraws a proposal, which can then not be adopted', async () => {
    const store = await h.open();
    const { clock, houseOptions } = await setup(store);
    await houseOptions.propose(
      T,
      { proposalId: 'P1', options: { shaker: 'electronic' }, adoptionDate: '2026-03-06' },
      'sup-1',
    );
    await houseOptions.authorize(T, 'P1', { reference: 'R1', authorizedOn: '2026-03-02' }, 'i');
    expect(await houseOptions.withdraw(T, 'P1', 'sup-2', 'layout not ready')).toMatchObject({
      ok: true,
      value: { status: 'withdrawn' },
    });
    clock.at('2026-03-06');
    expect(await houseOptions.adoptDue(T)).toBeNull();
    expect(code(await houseOptions.adopt(T, 'P1', 'sup-1'))).toBe('proposal_closed');
  });

  it('refuses a date in a year without a holiday list, and accepts it once the list is loaded', async () => {
    const store = await h.open();
    const { houseOptions, holidays } = await setup(store, macauMs('2027-12-29', 10));
    const proposal = { proposalId: 'P1', options: { layoutCount: 2 }, adoptionDate: '2028-01-05' };
    const missing = await houseOptions.propose(T, proposal, 'sup-1');
    expect(missing.ok ? null : missing.rejection).toMatchObject({
      code: 'calendar_year_missing',
      article: '8',
    });

    const invalid = await holidays.load(
      { year: 2028, source: 'x', official: false, days: [] },
      's',
    );
    expect(invalid.ok ? null : invalid.error.code).toBe('holiday_list_invalid');
    const loaded = await holidays.load(
      {
        year: 2028,
        source: 'test list',
        official: false,
        days: [{ date: '2028-01-01', name: "New Year's Day", kind: 'holiday' }],
      },
      'sup-1',
    );
    expect(loaded).toMatchObject({
      ok: true,
      value: { year: 2028, origin: 'loaded', loadedBy: 'sup-1' },
    });
    // Thu 30, Fri 31 December, Mon 3 and Tue 4 January: four working days.
    expect(await houseOptions.propose(T, proposal, 'sup-1')).toMatchObject({
      ok: true,
      value: { status: 'pending' },
    });

    // The loaded year is in the journal: a fresh calendar sees it, and a later load replaces it.
    const fresh = new HolidayCalendarService(store);
    expect((await fresh.list()).map((y) => `${y.year}:${y.origin}`)).toEqual([
      '2026:bundled',
      '2027:bundled',
      '2028:loaded',
    ]);
    await fresh.load(
      {
        year: 2028,
        source: 'official list',
        official: true,
        days: [{ date: '2028-01-03', name: 'compensatory day', kind: 'compensatory' }],
      },
      'sup-2',
    );
    const calendar = await new HolidayCalendarService(store).calendar();
    expect(calendar.daysOff.has('2028-01-03')).toBe(true);
    expect(calendar.daysOff.has('2028-01-01')).toBe(false);
    expect(calendar.years.get(2028)!.official).toBe(true);
  });

  it('journals nothing for an unknown table', async () => {
    const store = await h.open();
    const { houseOptions } = await setup(store);
    const outcome = await houseOptions.propose(
      'T9',
      { proposalId: 'P1', options: {}, adoptionDate: '2026-03-06' },
      's',
    );
    expect(code(outcome)).toBe('unknown_table');
    expect(await houseOptions.view('T9')).toBeUndefined();
    expect(await audit(store)).toMatchObject({ ok: true });
  });

  it('serialises two nodes deciding on one table at the same instant: only one journals', async () => {
    const db = h.freshDb();
    const first = await h.open({ db });
    const second = await h.open({ db });
    const start = macauMs('2026-03-02', 10);
    const { houseOptions: a } = await setup(first, start);
    const b = services(second, testClock(start).now).houseOptions;
    // Both nodes have read the table's state before either decides.
    await Promise.all([a.view(T), b.view(T)]);
    const proposal = {
      proposalId: 'P1',
      options: { paytable: ODDS_24 },
      adoptionDate: '2026-03-06',
    };
    const outcomes = await Promise.all([
      a.propose(T, proposal, 'sup-1'),
      b.propose(T, proposal, 'sup-2'),
    ]);
    expect(outcomes.map((o) => o.ok).sort()).toEqual([false, true]);
    expect(await tableEntries(first, 'house-options-proposed')).toHaveLength(1);
    expect(await audit(first)).toMatchObject({ ok: true });
  });
});

withStores('decisions on computed holidays (Art. 8)', (h) => {
  it('says in the answer and the journal when a year of the decision has computed holidays', async () => {
    const store = await h.open();
    // Requested Tuesday 29 December 2026 for Tuesday 5 January 2027 (docs/compliance.md).
    const { clock, houseOptions } = await setup(store, macauMs('2026-12-29', 10));
    const proposed = await houseOptions.propose(
      T,
      { proposalId: 'P27', options: { paytable: ODDS_24 }, adoptionDate: '2027-01-05' },
      'sup-1',
    );
    expect(proposed).toMatchObject({ ok: true, value: { computedHolidayYears: [2027] } });
    expect(proposed.ok && proposed.value.calendarNote).toContain('not the official list');
    clock.at('2026-12-30');
    const authorized = await houseOptions.authorize(
      T,
      'P27',
      { reference: 'DICJ/2026/0099', authorizedOn: '2026-12-30' },
      'insp-1',
    );
    expect(authorized).toMatchObject({ ok: true, value: { computedHolidayYears: [2027] } });
    const late = await houseOptions.propose(
      T,
      { proposalId: 'P28', options: {}, adoptionDate: '2027-01-04' },
      'sup-1',
    );
    expect(late.ok ? null : late.rejection.message).toContain('computed from the rules');
    const journaled = await tableEntries(store);
    for (const type of [
      'house-options-proposed',
      'dicj-authorization-recorded',
      'house-options-refused',
    ]) {
      expect(journaled.find((e) => e.type === type)?.payload, type).toMatchObject({
        computedHolidayYears: [2027],
      });
    }
  });

  it('names no computed year when every year of the decision is official', async () => {
    const store = await h.open();
    const { houseOptions } = await setup(store);
    const proposed = await houseOptions.propose(
      T,
      { proposalId: 'P1', options: {}, adoptionDate: '2026-03-06' },
      'sup-1',
    );
    expect(proposed).toMatchObject({
      ok: true,
      value: { computedHolidayYears: [], calendarNote: null },
    });
    const [entry] = await tableEntries(store, 'house-options-proposed');
    expect(entry?.payload).toMatchObject({ computedHolidayYears: [], calendarNote: null });
  });
});
