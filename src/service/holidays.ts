/**
 * The working-day calendar of Art. 8 as the running system sees it: the
 * holiday lists shipped with Cussec plus every list a supervisor has loaded.
 *
 * A loaded list is a journal entry (`holiday-year-loaded`, no table, with the
 * whole validated list), so the calendar is a fold of the journal like every
 * other state, read by the index of such entries (migration 5), so it costs
 * the lists loaded, not the journal: the shipped years first, then the loaded ones in journal order,
 * a later list of a year replacing the earlier one. A year with no list stays
 * missing, and Art. 8 counts that touch it are refused, never guessed.
 */
import {
  BUNDLED_HOLIDAY_YEARS,
  createCalendar,
  type HolidayListError,
  type HolidayYear,
  parseHolidayYear,
  type WorkingDayCalendar,
} from '../compliance/index.js';
import type { Store } from '../ledger/index.js';
import { err, ok, type Result } from '../rules/index.js';
import { readIndexedEntries } from './indexed-journal.js';

export const HOLIDAY_YEAR_LOADED = 'holiday-year-loaded';

/** A year of the calendar and where its list came from. */
export interface CalendarYear {
  readonly year: number;
  readonly official: boolean;
  readonly source: string;
  readonly origin: 'bundled' | 'loaded';
  /** Who loaded it and when (journal time); null for a shipped list. */
  readonly loadedBy: string | null;
  readonly loadedAtMs: number | null;
  readonly seq: number | null;
  readonly days: HolidayYear['days'];
}

export class HolidayCalendarService {
  private readonly years = new Map<number, CalendarYear>();
  private scannedSeq = 0;
  private tail: Promise<void> = Promise.resolve();
  private cached: WorkingDayCalendar | undefined;

  constructor(private readonly store: Store) {
    for (const list of BUNDLED_HOLIDAY_YEARS) {
      const loaded = { origin: 'bundled', loadedBy: null, loadedAtMs: null, seq: null } as const;
      this.years.set(list.year, { ...list, ...loaded });
    }
  }

  /** The calendar as of the journal now: shipped years, then loaded ones. */
  async calendar(): Promise<WorkingDayCalendar> {
    await this.refresh();
    this.cached ??= createCalendar([...this.years.values()]);
    return this.cached;
  }

  /** Every year with a list, in year order. */
  async list(): Promise<CalendarYear[]> {
    await this.refresh();
    return [...this.years.values()].sort((a, b) => a.year - b.year);
  }

  /**
   * The years from `from` to `to` (ISO dates, either order) whose list is
   * computed from the rules rather than the government's official one.
   */
  async computedYears(from: string, to: string): Promise<number[]> {
    await this.refresh();
    const [a, b] = [Number(from.slice(0, 4)), Number(to.slice(0, 4))].sort((x, y) => x - y);
    const years: number[] = [];
    for (let year = a!; year <= b!; year++) {
      if (this.years.get(year)?.official === false) years.push(year);
    }
    return years;
  }

  /**
   * Validates a year's list (`parseHolidayYear`) and journals it; it replaces
   * any list of that year. A refused list is not journaled: nothing changed.
   */
  async load(doc: unknown, loadedBy: string): Promise<Result<CalendarYear, HolidayListError>> {
    const parsed = parseHolidayYear(doc);
    if (!parsed.ok) return err(parsed.error);
    await this.store.transaction((tx) =>
      tx.appendJournal([
        { tableId: null, type: HOLIDAY_YEAR_LOADED, payload: { list: parsed.value, loadedBy } },
      ]),
    );
    await this.refresh();
    return ok(this.years.get(parsed.value.year)!);
  }

  /** Reads the journal after the last entry seen, once every earlier read is done. */
  private refresh(): Promise<void> {
    const next = this.tail.then(() => this.scan());
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async scan(): Promise<void> {
    for await (const entry of readIndexedEntries(
      this.store,
      null,
      [HOLIDAY_YEAR_LOADED],
      this.scannedSeq,
    )) {
      this.scannedSeq = entry.seq;
      const { list, loadedBy } = entry.payload;
      // The journal's schema checked the shape; the list's dates are checked as when it was loaded.
      const parsed = parseHolidayYear(list);
      if (!parsed.ok) continue;
      this.years.set(parsed.value.year, {
        ...parsed.value,
        origin: 'loaded',
        loadedBy,
        loadedAtMs: entry.atMs,
        seq: entry.seq,
      });
      this.cached = undefined;
    }
  }
}
