import { expect, it } from 'vitest';
import { DAILY_REPORT_CSV_HEADER } from '../compliance/index.js';
import { withStores } from '../ledger/testing.js';
import { DEFAULT_PAYTABLE } from '../rules/index.js';
import {
  createLeverTable,
  macauMs,
  REPORT_TABLE_NAME,
  seedReportDay,
  testClock,
} from './compliance-testing.js';
import { escapeHtml, formatMinor } from './daily-report-html.js';
import { readTableDay, renderTableDay } from './daily-report.js';
import { TableService } from './table-service.js';

const T = 'T1';

withStores('daily reports from the journal', (h) => {
  it('reports a seeded Macau day: rounds, voids, handle, payouts, hold and the biggest win', async () => {
    const store = await h.open();
    await seedReportDay(store);
    const day = (await readTableDay(store, T, '2026-03-06'))!;
    expect(day.tableName).toBe(REPORT_TABLE_NAME);
    expect(day.input.rounds.map((r) => [r.roundId, r.voidRolls, r.bets.length])).toEqual([
      ['2', 0, 3],
      ['3', 1, 2],
    ]);
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
      `T1,2026-03-06,MOP,2,1,5,21000,89000,-68000,-323.8095,${(100 * theoretical).toFixed(4)},48000,3,b2,any-triple`,
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
