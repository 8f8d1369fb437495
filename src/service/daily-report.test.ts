import { expect, it, vi } from 'vitest';
import { DAILY_REPORT_CSV_HEADER, type IsoDate, macauDate } from '../compliance/index.js';
import { withStores } from '../ledger/testing.js';
import { DEFAULT_PAYTABLE, type Dice } from '../rules/index.js';
import {
  createLeverTable,
  fundPlayers,
  macauMs,
  playLeverRounds,
  REPORT_TABLE_NAME,
  seedReportDay,
  testClock,
} from './compliance-testing.js';
import { escapeHtml, formatMinor } from './daily-report-html.js';
import { type DayFold, foldTableDay, readTableDay, renderTableDay } from './daily-report.js';
import { TableService } from './table-service.js';

const T = 'T1';

withStores('daily reports from the journal', (h) => {
  it('reports a seeded Macau day: rounds, voids, handle, payouts, hold and the biggest win', async () => {
    const store = await h.open();
    await seedReportDay(store);
    const day = (await readTableDay(store, T, '2026-03-06'))!;
    expect(day.tableName).toBe(REPORT_TABLE_NAME);
    const r = day.report;
    expect(r).toMatchObject({
      tableId: T,
      macauDay: '2026-03-06',
      currency: 'MOP',
      rounds: 2,
      voidRolls: 1,
      bets: 5,
      handleMinor: 21_000,
      payoutsMinor: 89_000,
      holdMinor: -68_000,
      biggestWin: { roundId: '3', betId: 'b2', spot: 'any-triple', winMinor: 48_000 },
    });
    expect(r.holdPercentActual).toBeCloseTo((-68_000 / 21_000) * 100, 10);
    // Exact edges over 216 outcomes: small and big 6 (105 wins × 2), total 5 at 18: 216 − 6 × 19 = 102,
    // any triple at 24: 216 − 6 × 25 = 66.
    const theoretical = (18_000 * 6 + 1_000 * 102 + 2_000 * 66) / (216 * 21_000);
    expect(r.holdPercentTheoretical).toBeCloseTo(100 * theoretical, 10);

    const csv = renderTableDay(day, 'csv', 0);
    const [header, row, end] = csv.body.split('\r\n');
    expect(header).toBe(DAILY_REPORT_CSV_HEADER.join(','));
    expect(row).toBe(
      `T1,2026-03-06,MOP,2,1,5,21000,89000,-68000,-323.8095,${(100 * theoretical).toFixed(4)},48000,3,b2,any-triple,` +
        // The options in force (Art. 8): the 5/16 odds changed at 14:05, under a simulation's mark.
        '18 from 00:00:00; 24 from 14:05:00,14 from 00:00:00,lever from 00:00:00,' +
        'SIMULATION: not a DICJ authorization from 00:00:00',
    );
    expect(end).toBe('');
    const json = JSON.parse(renderTableDay(day, 'json', 0).body) as { report: unknown };
    expect(json.report).toEqual(r);
  });

  it('prints the day as a self-contained page with every text escaped', async () => {
    const store = await h.open();
    await seedReportDay(store);
    const day = (await readTableDay(store, T, '2026-03-06'))!;
    const generatedAtMs = Date.UTC(2026, 2, 7, 1, 2, 3);
    const { body, contentType } = renderTableDay(day, 'html', generatedAtMs);
    expect(contentType).toBe('text/html; charset=utf-8');
    expect(body).toMatch(/^<!DOCTYPE html>/);
    expect(body).toContain(escapeHtml(REPORT_TABLE_NAME));
    expect(body).toContain('Salon &lt;Privé&gt; &amp; &quot;VIP&quot;');
    expect(body).not.toContain(REPORT_TABLE_NAME);
    expect(body).toContain('2026-03-06');
    expect(body).toContain('Generated 2026-03-07 09:02:03 (UTC+8)');
    expect(body).toContain('Despacho Regulamentar Externo n.º 57/2004');
    expect(body).toContain('@media print');
    expect(body).toContain(formatMinor(48_000)); // the biggest win, 480.00
    expect(body).toContain('-680.00 MOP');
    // Self-contained: nothing is fetched.
    expect(body).not.toMatch(/<(script|link|img)\b|src=|href=/i);
  });

  it('shows the 5/16 and 6/15 odds in force, each change during the day and its authorization', async () => {
    const store = await h.open();
    const clock = testClock(macauMs('2026-03-05', 10));
    const tables = new TableService({ store, clock: clock.now });
    await createLeverTable(tables, T);
    clock.at('2026-03-06', 9);
    // A change of limits alone does not change the options in force.
    expect((await tables.changeLimits(T, { stakeMinorMin: 2_000 }, 'sup-1')).ok).toBe(true);
    clock.at('2026-03-06', 15);
    const adopted = await tables.changeHouseOptions(T, {
      options: {
        shaker: 'lever',
        displayBoard: true,
        paytable: { ...DEFAULT_PAYTABLE, totalOdds: { '5/16': 24, '6/15': 16 } },
      },
      authorization: {
        mark: 'dicj',
        reference: 'DICJ/2026/0042',
        authorizedOn: '2026-03-03',
        recordedBy: 'insp-1',
        proposalId: 'P1',
      },
      changedBy: 'system:automatic-adoption',
      entries: [],
    });
    expect(adopted.ok).toBe(true);
    const day = (await readTableDay(store, T, '2026-03-06'))!;
    expect(day.optionsInForce).toMatchObject([
      {
        // table-created takes the store's own clock, so the day first sees the options at 9:00.
        fromMs: macauMs('2026-03-06', 9),
        totalOdds: { '5/16': 18, '6/15': 14 },
        authorization: { mark: 'simulation' },
      },
      {
        fromMs: macauMs('2026-03-06', 15),
        totalOdds: { '5/16': 24, '6/15': 16 },
        authorization: { mark: 'dicj', reference: 'DICJ/2026/0042' },
      },
    ]);
    const json = JSON.parse(renderTableDay(day, 'json', 0).body) as { optionsInForce: unknown };
    expect(json.optionsInForce).toEqual(day.optionsInForce);
    const html = renderTableDay(day, 'html', 0).body;
    expect(html).toContain('House options in force');
    expect(html).toContain('SIMULATION: not a DICJ authorization');
    expect(html).toContain('DICJ DICJ/2026/0042 of 2026-03-03');
    const after = (await readTableDay(store, T, '2026-03-07'))!;
    expect(after.optionsInForce).toMatchObject([
      { fromMs: macauMs('2026-03-07', 0), authorization: { mark: 'dicj' } },
    ]);
  });

  it('keeps a running tally equal to a fold from nothing, round after round, across midnight and a change of odds', async () => {
    const store = await h.open();
    const clock = testClock(macauMs('2026-03-05', 22));
    const tables = new TableService({ store, clock: clock.now });
    await createLeverTable(tables, T);
    const players = ['alice', 'bob', 'carol'];
    await fundPlayers(store, players);
    const random = seeded(57_2004);
    const pick = <V>(values: readonly V[]): V => values[Math.floor(random() * values.length)]!;
    const spots = ['small', 'big', 'odd', 'even', 'total:5', 'total:16', 'total:6', 'any-triple'];
    const dates: IsoDate[] = ['2026-03-05', '2026-03-06'];
    const kept = new Map<IsoDate, DayFold>();
    const handleMinor = new Map<IsoDate, number>();
    const journalReads = vi.spyOn(store, 'readJournal');
    // Rounds every 13 minutes from 23:00: midnight after the 5th, past 01:00 (the end of the
    // first day's reading window) after the 10th; the odds of 5/16 and 6/15 change after the 8th.
    for (let n = 0; n < 14; n++) {
      clock.set(macauMs('2026-03-05', 23) + n * 13 * 60_000);
      if (n === 8) {
        const changed = await tables.changeHouseOptions(T, {
          options: {
            shaker: 'lever',
            displayBoard: true,
            paytable: { ...DEFAULT_PAYTABLE, totalOdds: { '5/16': 24, '6/15': 16 } },
          },
          authorization: {
            mark: 'dicj',
            reference: 'DICJ/2026/0057',
            authorizedOn: '2026-03-03',
            recordedBy: 'insp-1',
            proposalId: 'P1',
          },
          changedBy: 'system:automatic-adoption',
          entries: [],
        });
        expect(changed.ok).toBe(true);
      }
      const bets = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, b) => ({
        betId: `r${n}b${b}`,
        playerId: pick(players),
        spot: pick(spots),
        stakeMinor: pick([1_000, 2_000, 5_000]),
      }));
      const dice = [1, 2, 3].map(() => 1 + Math.floor(random() * 6)) as unknown as Dice;
      await playLeverRounds(tables, T, [{ dice, bets, voids: random() < 0.3 ? 1 : 0 }]);
      const date = macauDate(clock.now());
      const staked = bets.reduce((sum, b) => sum + b.stakeMinor, 0);
      handleMinor.set(date, (handleMinor.get(date) ?? 0) + staked);
      for (const day of dates) {
        const before = kept.get(day);
        journalReads.mockClear();
        const running = (await foldTableDay(store, T, day, before))!;
        // From a kept tally, only the journal after it is read.
        if (before !== undefined)
          for (const [query] of journalReads.mock.calls)
            expect(query.fromSeq).toBeGreaterThan(before.seq);
        const full = (await foldTableDay(store, T, day))!;
        expect(running.day).toEqual(full.day);
        expect(running.fold.tally).toEqual(full.fold.tally);
        expect(running.fold.final).toBe(full.fold.final);
        expect(running.day.report.handleMinor).toBe(handleMinor.get(day) ?? 0);
        kept.set(day, running.fold);
      }
    }
    expect(kept.get('2026-03-05')!.final).toBe(true);
    expect(kept.get('2026-03-06')!.final).toBe(false);
    expect(kept.get('2026-03-05')!.tally.rounds).toBe(5);
    expect(kept.get('2026-03-06')!.tally.rounds).toBe(9);
    // A fold from a kept tally of another day is refused.
    await expect(foldTableDay(store, T, '2026-03-06', kept.get('2026-03-05'))).rejects.toThrow(
      RangeError,
    );
  });

  it('gives zeros for a day without rounds and nothing for an unknown table', async () => {
    const store = await h.open();
    await seedReportDay(store);
    const quiet = (await readTableDay(store, T, '2026-03-10'))!;
    expect(quiet.report).toMatchObject({ rounds: 0, handleMinor: 0, holdPercentActual: null });
    expect(await readTableDay(store, 'T9', '2026-03-06')).toBeUndefined();
  });
});

it('formats minor units exactly', () => {
  expect(formatMinor(0)).toBe('0.00');
  expect(formatMinor(-5)).toBe('-0.05');
  expect(formatMinor(123_456_789)).toBe('1,234,567.89');
  expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
    '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
  );
});

/** A repeatable stream of numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
