/**
 * Who may play on a date: one pure decision over the person and the registers.
 *
 * `eligible(person, date, registers)` refuses in this order of precedence, and
 * reports the first refusal only:
 * 1. `identity_missing` — no identity (Instrução 1/2016: no anonymous play).
 * 2. `under_age` — under 21 on `date` (Lei 10/2012, art. 2); `until` is the
 *    21st birthday, by the 29 February rule of age.ts.
 * 3. `excluded` — an exclusion order bars the person on `date` (Lei 10/2012,
 *    art. 6 for self and third-party orders, art. 2 for court and
 *    administrative decisions); `until` is the last day barred.
 * 4. `casino_worker` — the person is a casino worker (Lei 10/2012, art. 2),
 *    except on the first three days of the Lunar New Year and inside a
 *    legitimate cause's period (training, or an exceptional entry), both ends
 *    included.
 * The order puts the refusals that no date can lift for the caller first: an
 * anonymous person cannot be judged at all, and a minor or a barred person is
 * refused even on the days a worker may enter.
 *
 * `date` is the Macau calendar date of the moment judged (`macauDate(atMs)`);
 * this module reads no clock.
 */
import { err, ok, type Result } from '../../rules/errors.js';
import type { WorkingDayCalendar } from '../calendar.js';
import type { IsoDate } from '../iso-date.js';
import { ageOn, LEGAL_AGE_YEARS, reachesAgeOn } from './age.js';
import { effectiveUntil, type ExclusionOrder, isArt6Order, isBarredOn } from './exclusions.js';
import type { Identity } from './identity.js';

export interface WorkerCause {
  readonly id: string;
  readonly kind: 'training' | 'exceptional-entry';
  readonly approvalReference: string;
  /** The first day covered. */
  readonly from: IsoDate;
  /** The last day covered (inclusive). */
  readonly to: IsoDate;
}

export interface Registers {
  /** Orders whose document matches the person's (the caller selects them by document). */
  readonly exclusions: readonly ExclusionOrder[];
  /** Whether the person's document is that of a staff account (a casino worker). */
  readonly isWorker: boolean;
  readonly workerCauses: readonly WorkerCause[];
  /** The first three days of the Lunar New Year, from the holiday calendar. */
  readonly lunarNewYearDays: ReadonlySet<IsoDate>;
}

export const ELIGIBILITY_CODES = [
  'identity_missing',
  'under_age',
  'excluded',
  'casino_worker',
] as const;
export type EligibilityCode = (typeof ELIGIBILITY_CODES)[number];

export interface Ineligibility {
  readonly code: EligibilityCode;
  /** "Lei 10/2012" or "Instrução 1/2016". */
  readonly law: string;
  /** "2", "6"; empty for Instrução 1/2016, whose summary we follow cites no article. */
  readonly article: string;
  readonly message: string;
  /** The exclusion order that bars the person. */
  readonly orderId?: string;
  /** The last day barred (excluded), or the first day of age (under_age). */
  readonly until?: IsoDate;
}

const LUNAR_NEW_YEAR_DAY = /^Lunar New Year, day [123]\b/;

/**
 * The first three days of the Lunar New Year in the calendar: the days whose
 * holiday name starts "Lunar New Year, day 1", "day 2" or "day 3", as the
 * bundled lists (src/compliance/holidays/*.json) name them. An operator's own
 * list must name them so, or workers are refused on those days.
 */
export function lunarNewYearDays(calendar: WorkingDayCalendar): Set<IsoDate> {
  const days = new Set<IsoDate>();
  for (const [date, day] of calendar.daysOff) if (LUNAR_NEW_YEAR_DAY.test(day.name)) days.add(date);
  return days;
}

/** Of the orders barring on `date`, the one that bars longest (the first such in the list). */
function barringOrder(
  orders: readonly ExclusionOrder[],
  date: IsoDate,
): ExclusionOrder | undefined {
  let found: ExclusionOrder | undefined;
  for (const order of orders) {
    if (
      isBarredOn(order, date) &&
      (found === undefined || effectiveUntil(order) > effectiveUntil(found))
    ) {
      found = order;
    }
  }
  return found;
}

function excluded(order: ExclusionOrder): Ineligibility {
  const until = effectiveUntil(order);
  const article = isArt6Order(order.kind) ? '6' : '2';
  return {
    code: 'excluded',
    law: 'Lei 10/2012',
    article,
    message: `Barred from the casinos until ${until} by ${order.kind} exclusion order ${order.id} (DICJ ${order.dicjReference}) (Lei 10/2012, art. ${article}).`,
    orderId: order.id,
    until,
  };
}

/** Lei 10/2012, art. 2: whether a worker may enter on `date`. */
function workerMayEnter(date: IsoDate, registers: Registers): boolean {
  if (registers.lunarNewYearDays.has(date)) return true;
  return registers.workerCauses.some((cause) => cause.from <= date && date <= cause.to);
}

/**
 * Whether `person` may play on `date` (a Macau date), or the first reason,
 * in the order of precedence above, why not.
 */
export function eligible(
  person: Identity | undefined,
  date: IsoDate,
  registers: Registers,
): Result<void, Ineligibility> {
  // Instrução 1/2016: no anonymous transactions.
  if (person === undefined) {
    return err({
      code: 'identity_missing',
      law: 'Instrução 1/2016',
      article: '',
      message: 'No identity recorded: anonymous play is refused (Instrução 1/2016).',
    });
  }
  // Lei 10/2012, art. 2: no one under 21.
  if (ageOn(person.dateOfBirth, date) < LEGAL_AGE_YEARS) {
    const until = reachesAgeOn(person.dateOfBirth, LEGAL_AGE_YEARS);
    return err({
      code: 'under_age',
      law: 'Lei 10/2012',
      article: '2',
      message: `Under ${LEGAL_AGE_YEARS} until ${until} (Lei 10/2012, art. 2).`,
      until,
    });
  }
  // Lei 10/2012, arts. 2 and 6: court, administrative and DICJ exclusions.
  const order = barringOrder(registers.exclusions, date);
  if (order !== undefined) return err(excluded(order));
  // Lei 10/2012, art. 2: casino workers, save the Lunar New Year and a legitimate cause.
  if (registers.isWorker && !workerMayEnter(date, registers)) {
    return err({
      code: 'casino_worker',
      law: 'Lei 10/2012',
      article: '2',
      message: `A casino worker may not play on ${date}: only on the first three days of the Lunar New Year or within an approved training or exceptional entry (Lei 10/2012, art. 2).`,
    });
  }
  return ok(undefined);
}
