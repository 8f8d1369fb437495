import { describe, expect, it } from 'vitest';
import { dailyReports, type DailyReportInput } from './daily-report.js';
import { dailyReportsCsv } from './daily-report-csv.js';
import type { DailyReport } from './daily-report-tally.js';
import { toCsv } from './csv.js';

const at = (iso: string) => Date.parse(iso);

const input = (): DailyReportInput => ({
  tableId: 'T-07',
  currency: 'MOP',
  totalOdds: { '5/16': 18, '6/15': 14 },
  rounds: [
    {
      roundId: 'R-2',
      settledAtMs: at('2026-03-06T15:59:59Z'), // 23:59:59 in Macau: still 6 March
      voidRolls: 0,
      bets: [
        { spot: 'big', stakeMinor: 2_000, returnedMinor: 0 },
        { spot: 'even', stakeMinor: 500, returnedMinor: 1_000 },
      ],
    },
    {
      roundId: 'R-1',
      settledAtMs: at('2026-03-06T01:00:00Z'),
      voidRolls: 1,
      bets: [
        { betId: 'B-1', spot: 'small', stakeMinor: 1_000, returnedMinor: 2_000 },
        { betId: 'B-2', spot: 'total:4', stakeMinor: 100, returnedMinor: 0 },
        { betId: 'B-3', spot: 'triple:6', stakeMinor: 50, returnedMinor: 7_550 },
      ],
    },
    {
      roundId: 'R-3',
      settledAtMs: at('2026-03-06T16:00:00Z'), // midnight in Macau: 7 March
      voidRolls: 2,
      bets: [{ spot: 'small', stakeMinor: 300, returnedMinor: 0 }],
    },
  ],
});

function reports(doc: unknown): DailyReport[] {
  const result = dailyReports(doc);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('dailyReports', () => {
  it('splits by Macau day and adds up rounds, voids, handle, payouts and hold', () => {
    const [march6, march7] = reports(input());
    expect(march6).toMatchObject({
      tableId: 'T-07',
      macauDay: '2026-03-06',
      currency: 'MOP',
      rounds: 2,
      voidRolls: 1,
      bets: 5,
      handleMinor: 3_650,
      payoutsMinor: 10_550,
      holdMinor: -6_900,
    });
    expect(march6?.holdPercentActual).toBeCloseTo((100 * -6_900) / 3_650, 10);
    expect(march7).toMatchObject({
      macauDay: '2026-03-07',
      rounds: 1,
      voidRolls: 2,
      holdMinor: 300,
    });
  });

  it('weights the exact house edge of each spot by its handle', () => {
    // Edges over 216: small/big 6 (1/36), total 4 at 50 to 1: 63, triple at 150 to 1: 65, even 0.
    const weighted = 1_000 * 6 + 100 * 63 + 50 * 65 + 2_000 * 6 + 500 * 0;
    const [march6] = reports(input());
    expect(march6?.holdPercentTheoretical).toBeCloseTo((100 * weighted) / (216 * 3_650), 12);
    const small = march6?.bySpot.find((s) => s.spot === 'small');
    expect(small?.holdPercentTheoretical).toBeCloseTo(100 / 36, 12);
    // Spots in the regulation's order.
    expect(march6?.bySpot.map((s) => s.spot)).toEqual([
      'small',
      'big',
      'even',
      'triple:6',
      'total:4',
    ]);
  });

  it('uses the odds in force for each round (Art. 6.6)', () => {
    const doc = input();
    const bet = { spot: 'total:5', stakeMinor: 100, returnedMinor: 0 };
    doc.rounds = [
      { roundId: 'A', settledAtMs: at('2026-03-06T02:00:00Z'), voidRolls: 0, bets: [bet] },
      {
        roundId: 'B',
        settledAtMs: at('2026-03-06T03:00:00Z'),
        voidRolls: 0,
        bets: [bet],
        totalOdds: { '5/16': 30, '6/15': 14 },
      },
    ];
    // Total 5: 6 ways; at 18 to 1 the edge is (216 − 6·19)/216, at 30 to 1 (216 − 6·31)/216.
    const [day] = reports(doc);
    expect(day?.holdPercentTheoretical).toBeCloseTo(
      (100 * (100 * 102 + 100 * 30)) / (216 * 200),
      12,
    );
  });

  it('finds the biggest win, the earliest on a tie', () => {
    const [march6] = reports(input());
    expect(march6?.biggestWin).toEqual({
      roundId: 'R-1',
      settledAtMs: at('2026-03-06T01:00:00Z'),
      betId: 'B-3',
      spot: 'triple:6',
      stakeMinor: 50,
      returnedMinor: 7_550,
      winMinor: 7_500,
    });
    const doc = input();
    doc.rounds = [
      {
        roundId: 'late',
        settledAtMs: at('2026-03-06T05:00:00Z'),
        voidRolls: 0,
        bets: [{ spot: 'big', stakeMinor: 10, returnedMinor: 20 }],
      },
      {
        roundId: 'early',
        settledAtMs: at('2026-03-06T04:00:00Z'),
        voidRolls: 0,
        bets: [{ spot: 'small', stakeMinor: 10, returnedMinor: 20 }],
      },
    ];
    expect(reports(doc)[0]?.biggestWin?.roundId).toBe('early');
  });

  it('has no percentages and no biggest win on a day with no stakes', () => {
    const doc = input();
    doc.rounds = [
      { roundId: 'R', settledAtMs: at('2026-03-06T02:00:00Z'), voidRolls: 3, bets: [] },
    ];
    expect(reports(doc)[0]).toMatchObject({
      rounds: 1,
      voidRolls: 3,
      handleMinor: 0,
      holdPercentActual: null,
      holdPercentTheoretical: null,
      biggestWin: null,
    });
    expect(reports({ ...input(), rounds: [] })).toEqual([]);
  });

  it.each([
    [
      'a stake of zero',
      (d: DailyReportInput) => ({
        ...d,
        rounds: [{ ...d.rounds[0]!, bets: [{ spot: 'big', stakeMinor: 0, returnedMinor: 0 }] }],
      }),
    ],
    [
      'a fractional amount',
      (d: DailyReportInput) => ({
        ...d,
        rounds: [{ ...d.rounds[0]!, bets: [{ spot: 'big', stakeMinor: 1.5, returnedMinor: 0 }] }],
      }),
    ],
    [
      'an unknown spot',
      (d: DailyReportInput) => ({
        ...d,
        rounds: [{ ...d.rounds[0]!, bets: [{ spot: 'red', stakeMinor: 1, returnedMinor: 0 }] }],
      }),
    ],
    [
      'a round listed twice',
      (d: DailyReportInput) => ({ ...d, rounds: [d.rounds[0]!, d.rounds[0]!] }),
    ],
    [
      'odds outside Art. 6.6',
      (d: DailyReportInput) => ({ ...d, totalOdds: { '5/16': 31, '6/15': 14 } }),
    ],
    ['a currency that is not ISO 4217', (d: DailyReportInput) => ({ ...d, currency: 'patacas' })],
  ])('refuses input with %s', (_, change) => {
    const result = dailyReports(change(input()));
    expect(!result.ok && result.error.code).toBe('report_input_invalid');
  });
});

describe('CSV', () => {
  it('renders the daily figures, integer minor units, the options in force, CRLF line ends', () => {
    const [sixth, seventh] = reports(input());
    const rows = [
      {
        report: sixth!,
        optionsInForce: {
          odds516: '18 from 00:00:00; 24 from 14:05:00',
          odds615: '14 from 00:00:00',
          shaker: 'lever from 00:00:00',
          authorization: 'SIMULATION: not a DICJ authorization from 00:00:00',
        },
      },
      {
        report: seventh!,
        optionsInForce: { odds516: null, odds615: null, shaker: null, authorization: null },
      },
    ];
    expect(dailyReportsCsv(rows)).toBe(
      'table_id,macau_day,currency,rounds,void_rolls,bets,handle_minor,payouts_minor,hold_minor,' +
        'hold_pct_actual,hold_pct_theoretical,biggest_win_minor,biggest_win_round_id,biggest_win_bet_id,biggest_win_spot,' +
        'odds_5_16_in_force,odds_6_15_in_force,shaker_in_force,authorization_in_force\r\n' +
        'T-07,2026-03-06,MOP,2,1,5,3650,10550,-6900,-189.0411,3.4944,7500,R-1,B-3,triple:6,' +
        '18 from 00:00:00; 24 from 14:05:00,14 from 00:00:00,lever from 00:00:00,' +
        'SIMULATION: not a DICJ authorization from 00:00:00\r\n' +
        'T-07,2026-03-07,MOP,1,2,1,300,0,300,100.0000,2.7778,,,,,,,,\r\n',
    );
  });

  it('quotes fields as RFC 4180 says', () => {
    expect(toCsv(['a', 'b', 'c'], [['R,"3"', 'line\nbreak', null]])).toBe(
      'a,b,c\r\n"R,""3""","line\nbreak",\r\n',
    );
    expect(() => toCsv(['a'], [['x', 'y']])).toThrow(RangeError);
    expect(() => toCsv(['a'], [[Number.NaN]])).toThrow(RangeError);
  });
});
