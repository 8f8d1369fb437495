import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bundledCalendar } from '../bundled-holidays.js';
import { createCalendar } from '../calendar.js';
import { addDays, dateOfDayNumber, dayNumber, type IsoDate, macauDate } from '../iso-date.js';
import { ageOn, LEGAL_AGE_YEARS } from './age.js';
import {
  type EligibilityCode,
  eligible,
  type Ineligibility,
  lunarNewYearDays,
  type Registers,
  type WorkerCause,
} from './eligibility.js';
import type { ExclusionOrder } from './exclusions.js';
import type { Identity } from './identity.js';

const adult: Identity = {
  fullName: 'Chan Tai Man',
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  issuingPlace: 'Hong Kong',
  dateOfBirth: '1980-04-02',
  nationality: 'Chinese',
  kind: 'real',
};

const bornOn = (dateOfBirth: IsoDate): Identity => ({ ...adult, dateOfBirth });

const nobody: Registers = {
  exclusions: [],
  isWorker: false,
  workerCauses: [],
  lunarNewYearDays: new Set(),
};

const exclusion = (change: Partial<ExclusionOrder> = {}): ExclusionOrder => ({
  id: 'EX-1',
  kind: 'self',
  dicjReference: 'DICJ/2026/0001',
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  fullName: null,
  dateOfBirth: null,
  from: '2026-03-01',
  to: '2026-12-31',
  revocationRequestedOn: null,
  ...change,
});

function refusal(
  person: Identity | undefined,
  date: IsoDate,
  registers = nobody,
): Ineligibility | null {
  const verdict = eligible(person, date, registers);
  return verdict.ok ? null : verdict.error;
}

const codeOf = (person: Identity | undefined, date: IsoDate, registers = nobody) =>
  refusal(person, date, registers)?.code ?? null;

describe('eligible: identity and age', () => {
  it('refuses a person without an identity (Instrução 1/2016)', () => {
    expect(refusal(undefined, '2026-05-01')).toMatchObject({
      code: 'identity_missing',
      law: 'Instrução 1/2016',
    });
  });

  it.each<[string, IsoDate, IsoDate, EligibilityCode | null]>([
    ['the day before the 21st birthday', '2005-06-10', '2026-06-09', 'under_age'],
    ['the 21st birthday', '2005-06-10', '2026-06-10', null],
    ['born 29 Feb 2004, on 28 Feb 2025', '2004-02-29', '2025-02-28', 'under_age'],
    ['born 29 Feb 2004, on 1 Mar 2025', '2004-02-29', '2025-03-01', null],
    ['born 29 Feb 2008, on 28 Feb 2029', '2008-02-29', '2029-02-28', 'under_age'],
    ['born 29 Feb 2008, on 1 Mar 2029', '2008-02-29', '2029-03-01', null],
    ['born 29 Feb 2000, on 28 Feb 2021', '2000-02-29', '2021-02-28', 'under_age'],
    ['born 29 Feb 2000, on 1 Mar 2021', '2000-02-29', '2021-03-01', null],
    // 21 is not a multiple of 4: a 29 February birth's 21st birthday is never in a leap year.
    ['born 1 Mar 2005, on 28 Feb 2026', '2005-03-01', '2026-02-28', 'under_age'],
    ['born 28 Feb 2005, on 28 Feb 2026', '2005-02-28', '2026-02-28', null],
    ['born 29 Feb 2012, on 28 Feb 2033', '2012-02-29', '2033-02-28', 'under_age'],
    ['born 29 Feb 2012, on 1 Mar 2033', '2012-02-29', '2033-03-01', null],
    ['a date of birth after the date', '2030-01-01', '2026-01-01', 'under_age'],
  ])('%s: %s', (_, born, date, code) => {
    expect(codeOf(bornOn(born), date)).toBe(code);
  });

  it('names the law, the article and the first day of age', () => {
    expect(refusal(bornOn('2006-03-01'), '2026-06-01')).toEqual({
      code: 'under_age',
      law: 'Lei 10/2012',
      article: '2',
      message: 'Under 21 until 2027-03-01 (Lei 10/2012, art. 2).',
      until: '2027-03-01',
    });
  });

  it('judges the Macau date of an instant, across Macau midnight', () => {
    const person = bornOn('2005-02-17'); // 21 on 2026-02-17
    const before = macauDate(Date.parse('2026-02-16T15:59:59.999Z'));
    const after = macauDate(Date.parse('2026-02-16T16:00:00.000Z'));
    expect([before, after]).toEqual(['2026-02-16', '2026-02-17']);
    expect(codeOf(person, before)).toBe('under_age');
    expect(codeOf(person, after)).toBeNull();
  });
});

describe('eligible: exclusions', () => {
  const withOrders = (...exclusions: ExclusionOrder[]): Registers => ({ ...nobody, exclusions });

  it.each<[string, Partial<ExclusionOrder>, IsoDate, boolean]>([
    ['before from', {}, '2026-02-28', false],
    ['on from', {}, '2026-03-01', true],
    ['on to', {}, '2026-12-31', true],
    ['the day after to', {}, '2027-01-01', false],
    [
      'revocation requested on 2026-05-01, day 29',
      { revocationRequestedOn: '2026-05-01' },
      '2026-05-30',
      true,
    ],
    [
      'revocation requested on 2026-05-01, day 30',
      { revocationRequestedOn: '2026-05-01' },
      '2026-05-31',
      false,
    ],
  ])('a self order %s: barred %s', (_, change, date, barred) => {
    expect(codeOf(adult, date, withOrders(exclusion(change)))).toBe(barred ? 'excluded' : null);
  });

  it('cites art. 6 for a self order and art. 2 for a court decision, with the last day barred', () => {
    const self = refusal(
      adult,
      '2026-05-01',
      withOrders(exclusion({ revocationRequestedOn: '2026-05-01' })),
    );
    expect(self).toMatchObject({
      code: 'excluded',
      article: '6',
      orderId: 'EX-1',
      until: '2026-05-30',
    });
    expect(self?.message).toContain('until 2026-05-30');
    const court = refusal(
      adult,
      '2026-05-01',
      withOrders(exclusion({ id: 'CT-9', kind: 'court' })),
    );
    expect(court).toMatchObject({
      code: 'excluded',
      article: '2',
      orderId: 'CT-9',
      until: '2026-12-31',
    });
  });

  it('reports the order that bars longest when several do', () => {
    const orders = withOrders(
      exclusion({ id: 'short', to: '2026-06-30' }),
      exclusion({ id: 'long', kind: 'administrative', to: '2029-12-31' }),
      exclusion({ id: 'not yet', from: '2027-01-01', to: '2031-12-31', kind: 'court' }),
    );
    expect(refusal(adult, '2026-05-01', orders)).toMatchObject({
      orderId: 'long',
      until: '2029-12-31',
    });
  });

  it('refuses a minor as under age before looking at orders', () => {
    expect(codeOf(bornOn('2010-01-01'), '2026-05-01', withOrders(exclusion()))).toBe('under_age');
  });
});

describe('eligible: casino workers (Lei 10/2012, art. 2)', () => {
  const lny = lunarNewYearDays(bundledCalendar());
  const worker = (workerCauses: WorkerCause[] = []): Registers => ({
    ...nobody,
    isWorker: true,
    workerCauses,
    lunarNewYearDays: lny,
  });

  it('reads the first three days of the Lunar New Year from the calendar', () => {
    expect([...lny].filter((d) => d.startsWith('2026'))).toEqual([
      '2026-02-17',
      '2026-02-18',
      '2026-02-19',
    ]);
    expect([...lny].filter((d) => d.startsWith('2027'))).toHaveLength(3);
  });

  it('needs the holiday names to say "Lunar New Year, day N"', () => {
    const calendar = createCalendar([
      {
        year: 2030,
        source: 'test',
        official: false,
        days: [
          { date: '2030-02-03', name: 'Lunar New Year, day 1 (Sunday)', kind: 'holiday' },
          { date: '2030-02-04', name: 'Lunar New Year, day 2', kind: 'holiday' },
          { date: '2030-02-05', name: 'Lunar New Year, day 3', kind: 'holiday' },
          { date: '2030-02-06', name: 'Lunar New Year, day 4', kind: 'compensatory' },
          { date: '2030-02-07', name: 'Chinese New Year', kind: 'holiday' },
          { date: '2030-02-08', name: 'Lunar New Year, day 10', kind: 'holiday' },
        ],
      },
    ]);
    expect([...lunarNewYearDays(calendar)]).toEqual(['2030-02-03', '2030-02-04', '2030-02-05']);
  });

  it.each([
    ['2026-02-16', 'casino_worker'], // Lunar New Year's Eve
    ['2026-02-17', null],
    ['2026-02-18', null],
    ['2026-02-19', null],
    ['2026-02-20', 'casino_worker'], // day 4
  ])('a worker on %s: %s', (date, code) => {
    expect(codeOf(adult, date, worker())).toBe(code);
  });

  it('lets a worker in inside a cause period, both ends included', () => {
    const cause: WorkerCause = {
      id: 'TR-1',
      kind: 'training',
      approvalReference: 'HR/2026/17',
      from: '2026-06-01',
      to: '2026-06-05',
    };
    const registers = worker([cause]);
    expect(codeOf(adult, '2026-05-31', registers)).toBe('casino_worker');
    expect(codeOf(adult, '2026-06-01', registers)).toBeNull();
    expect(codeOf(adult, '2026-06-05', registers)).toBeNull();
    expect(codeOf(adult, '2026-06-06', registers)).toBe('casino_worker');
  });

  it('refuses an excluded worker even on the Lunar New Year', () => {
    const registers = { ...worker(), exclusions: [exclusion({ from: '2026-01-01' })] };
    expect(codeOf(adult, '2026-02-17', registers)).toBe('excluded');
  });

  it('does not hold a non-worker to the worker rule', () => {
    expect(codeOf(adult, '2026-02-20', { ...worker(), isWorker: false })).toBeNull();
  });
});

describe('eligible: properties', () => {
  const day1900 = dayNumber('1900-01-01')!;
  const day2030 = dayNumber('2030-12-31')!;

  it('never lets a person under 21 play, whatever the registers', () => {
    const registers = fc.record({
      exclusions: fc.constant([]),
      isWorker: fc.boolean(),
      workerCauses: fc.constant([]),
      lunarNewYearDays: fc.constant(new Set<IsoDate>()),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: day1900, max: day2030 }).map(dateOfDayNumber),
        fc.integer({ min: -400, max: 22 * 366 }),
        fc.boolean(),
        registers,
        (born, offsetDays, lunarNewYear, base) => {
          const date = addDays(born, offsetDays);
          const days = lunarNewYear ? new Set([date]) : base.lunarNewYearDays;
          const verdict = eligible(bornOn(born), date, { ...base, lunarNewYearDays: days });
          if (ageOn(born, date) < LEGAL_AGE_YEARS) expect(verdict.ok).toBe(false);
          else expect(verdict.ok).toBe(!base.isWorker || lunarNewYear);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
