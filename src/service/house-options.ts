/**
 * The Art. 8 workflow of src/compliance, running: a table's house options —
 * shaker, display board, the layout's spots and the odds of 5/16 and 6/15 —
 * change only by a proposal that the DICJ authorized, requested three working
 * days ahead, adopted on or after its date and between rounds.
 *
 * Persistence is the journal alone. Every decision (accepted or refused) is
 * journaled with its table, in one transaction, and the workflow's state is the
 * fold (`applyEvent`) of the table's entries, read incrementally and cached per
 * table. Decisions on one table run one at a time in this process.
 *
 * Adoption goes through the TableService's queue (`changeHouseOptions`): the
 * table's settings change between rounds only, and house-options-adopted is
 * journaled in the same transaction as the table-settings-changed it causes,
 * which the audit replays.
 */
import {
  applyEvent,
  journaledHouseOptionsEvent,
  decide,
  due,
  type HouseOptions,
  type HouseOptionsChoice,
  type HouseOptionsEvent,
  type HouseOptionsState,
  initialHouseOptionsState,
  type IsoDate,
  macauDate,
  type Proposal,
  proposalStatus,
  type ProposalStatus,
  type Rejection,
  isIsoDate,
} from '../compliance/index.js';
import { type IndexedJournalType, KeyedQueue, type Store } from '../ledger/index.js';
import { isRecord } from '../rules/index.js';
import { can } from '../table/index.js';
import type { HolidayCalendarService } from './holidays.js';
import { typedRecord } from '../journal/index.js';
import { readIndexedEntries } from './indexed-journal.js';
import type { ServiceRejection, TableService } from './table-service.js';
import { fromStoredSettings, type TableSettings } from './table-settings.js';

/** Who adopts a proposal when its date comes (in house-options-adopted's `adoptedBy`). */
export const AUTOMATIC_ADOPTER = 'system:automatic-adoption';

const WORKFLOW_EVENT_TYPES = [
  'house-options-proposed',
  'dicj-authorization-recorded',
  'house-options-adopted',
  'house-options-withdrawn',
  'house-options-refused',
] as const satisfies readonly IndexedJournalType[];
/** A table's creation (its commissioned options) and the workflow's entries, all indexed. */
const READ_TYPES = ['table-created', ...WORKFLOW_EVENT_TYPES] as const;

export type ServiceResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly rejection: ServiceRejection };

export interface ProposalView extends Proposal {
  readonly status: ProposalStatus;
}

/**
 * Art. 8 counts working days with the year's holiday list. A year whose list
 * is computed from the rules (not yet the government's official list, e.g.
 * 2027 today) is named in the decision's answer and in its journal entries.
 */
export interface CalendarBasis {
  /** The years of the decision's dates whose holidays are computed, not official. */
  readonly computedHolidayYears: readonly number[];
  /** A sentence saying so, or null when every year involved is official. */
  readonly calendarNote: string | null;
}

/** A decision's answer: the proposal, and the calendar its working days were counted with. */
export type DecisionView = ProposalView & CalendarBasis;

export interface HouseOptionsView {
  readonly tableId: string;
  /** Today in Macau, which the statuses are as of. */
  readonly today: IsoDate;
  readonly current: HouseOptions;
  readonly adoptedOn: IsoDate | null;
  readonly betweenRounds: boolean;
  /** Proposals that would be adopted now (the automatic adopter takes the last). */
  readonly dueProposalIds: readonly string[];
  readonly proposals: readonly ProposalView[];
}

export interface ProposalInput {
  readonly proposalId: string;
  /** A HouseOptionsChoice, or part of one: missing fields keep the options in force. */
  readonly options: unknown;
  readonly adoptionDate: string;
}

export interface AuthorizationInput {
  /** The DICJ's reference (letter or file number). */
  readonly reference: string;
  /** The date of the DICJ's authorization. */
  readonly authorizedOn: string;
}

export interface HouseOptionsServiceOptions {
  readonly store: Store;
  readonly tables: TableService;
  readonly holidays: HolidayCalendarService;
  readonly clock?: () => number;
}

interface Cached {
  state: HouseOptionsState;
  scannedSeq: number;
}

const unknownTable = (tableId: string): ServiceResult<never> => ({
  ok: false,
  rejection: { code: 'unknown_table', message: `there is no table "${tableId}"` },
});

const refusal = (rejection: Rejection): ServiceResult<never> => ({ ok: false, rejection });

/** The options a table was created with: version 1, one layout, no spoken announcement. */
export function commissionedOptions(settings: TableSettings): HouseOptions {
  return {
    version: 1,
    shaker: settings.shaker,
    layoutCount: 1,
    displayBoard: settings.displayBoard,
    announceAloud: false,
    paytable: settings.paytable,
  };
}

const choiceOf = (o: HouseOptions): HouseOptionsChoice => ({
  shaker: o.shaker,
  layoutCount: o.layoutCount,
  displayBoard: o.displayBoard,
  announceAloud: o.announceAloud,
  paytable: o.paytable,
});

/** The first and last date a decision counts working days over. */
type DateSpan = readonly [IsoDate, IsoDate];

/** A proposal's request and adoption dates; null for a proposal that does not exist. */
function proposalSpan(state: HouseOptionsState, proposalId: string): DateSpan | null {
  const p = state.proposals.find((q) => q.proposalId === proposalId);
  return p === undefined ? null : [p.requestDate, p.adoptionDate];
}

/** A refusal that also says when computed holidays were counted. */
function withNote(rejection: Rejection, basis: CalendarBasis): Rejection {
  if (basis.calendarNote === null) return rejection;
  return { ...rejection, message: `${rejection.message} (${basis.calendarNote})` };
}

export class HouseOptionsService {
  private readonly store: Store;
  private readonly tables: TableService;
  private readonly holidays: HolidayCalendarService;
  private readonly clock: () => number;
  private readonly cache = new Map<string, Cached>();
  private readonly queue = new KeyedQueue();

  constructor(options: HouseOptionsServiceOptions) {
    this.store = options.store;
    this.tables = options.tables;
    this.holidays = options.holidays;
    this.clock = options.clock ?? Date.now;
  }

  /** Today's date in Macau. */
  today(): IsoDate {
    return macauDate(this.clock());
  }

  /** The options in force and every proposal with its status; undefined for an unknown table. */
  view(tableId: string): Promise<HouseOptionsView | undefined> {
    return this.queue.run(tableId, async () => {
      const state = await this.refresh(tableId);
      if (state === undefined) return undefined;
      const today = this.today();
      const betweenRounds = await this.betweenRounds(tableId);
      const calendar = await this.holidays.calendar();
      const ready = due(state, { today, betweenRounds, calendar });
      return {
        tableId,
        today,
        current: state.current,
        adoptedOn: state.adoptedOn,
        betweenRounds,
        dueProposalIds: ready.map((p) => p.proposalId),
        proposals: state.proposals.map((p) => ({ ...p, status: proposalStatus(p, today) })),
      };
    });
  }

  /** A supervisor proposes options for a date (Art. 8: three working days' notice). */
  propose(
    tableId: string,
    input: ProposalInput,
    proposedBy: string,
  ): Promise<ServiceResult<DecisionView>> {
    return this.decideOne(tableId, input.proposalId, (state) => ({
      // Art. 8: the request is today, for the adoption date asked.
      span: isIsoDate(input.adoptionDate) ? [this.today(), input.adoptionDate] : null,
      command: {
        type: 'propose',
        proposalId: input.proposalId,
        tableId,
        // Missing fields keep the options in force: the proposal still carries the whole document.
        options: isRecord(input.options)
          ? { ...choiceOf(state.current), ...input.options }
          : input.options,
        adoptionDate: input.adoptionDate,
        proposedBy,
      },
    }));
  }

  /** An inspector records the DICJ's authorization of a proposal. */
  authorize(
    tableId: string,
    proposalId: string,
    input: AuthorizationInput,
    inspectorId: string,
  ): Promise<ServiceResult<DecisionView>> {
    return this.decideOne(tableId, proposalId, (state) => ({
      span: proposalSpan(state, proposalId),
      command: {
        type: 'record-authorization',
        proposalId,
        reference: input.reference,
        authorizationDate: input.authorizedOn,
        inspectorId,
      },
    }));
  }

  /** A supervisor withdraws a proposal not yet adopted. */
  withdraw(
    tableId: string,
    proposalId: string,
    withdrawnBy: string,
    reason?: string,
  ): Promise<ServiceResult<DecisionView>> {
    return this.decideOne(tableId, proposalId, (state) => ({
      span: proposalSpan(state, proposalId),
      command: {
        type: 'withdraw',
        proposalId,
        withdrawnBy,
        ...(reason === undefined ? {} : { reason }),
      },
    }));
  }

  /**
   * Adopts a proposal now: refused (and the refusal journaled) unless it is
   * authorized, due and the table between rounds (`table_mid_round`, Art. 8).
   */
  adopt(
    tableId: string,
    proposalId: string,
    adoptedBy: string,
  ): Promise<ServiceResult<DecisionView>> {
    return this.queue.run(tableId, async () => {
      const state = await this.refresh(tableId);
      if (state === undefined) return unknownTable(tableId);
      return this.adoptLocked(state, proposalId, adoptedBy, false);
    });
  }

  /**
   * Adopts the authorized proposal whose date has come, if the table is between
   * rounds; called every minute and after each round is paid. Quiet: a table
   * mid-round is simply tried again later, and nothing is journaled for it.
   * Returns the id of the proposal adopted, or null.
   */
  adoptDue(tableId: string): Promise<string | null> {
    return this.queue.run(tableId, async () => {
      const state = await this.refresh(tableId);
      if (state === undefined || !(await this.betweenRounds(tableId))) return null;
      const calendar = await this.holidays.calendar();
      const ready = due(state, { today: this.today(), betweenRounds: true, calendar });
      // Adopting the last supersedes the others due no later than it (docs/compliance.md).
      const last = ready[ready.length - 1];
      if (last === undefined) return null;
      const adopted = await this.adoptLocked(state, last.proposalId, AUTOMATIC_ADOPTER, true);
      return adopted.ok ? last.proposalId : null;
    });
  }

  /** `adoptDue` on every table; a table that fails does not stop the others. */
  async adoptDueAll(onError: (tableId: string, error: unknown) => void): Promise<string[]> {
    const adopted: string[] = [];
    for (const tableId of await this.store.listTables()) {
      try {
        const id = await this.adoptDue(tableId);
        if (id !== null) adopted.push(`${tableId}/${id}`);
      } catch (error) {
        onError(tableId, error);
      }
    }
    return adopted;
  }

  private async adoptLocked(
    state: HouseOptionsState,
    proposalId: string,
    adoptedBy: string,
    quiet: boolean,
  ): Promise<ServiceResult<DecisionView>> {
    const { tableId } = state;
    const command = { type: 'adopt', proposalId, adoptedBy };
    const context = {
      today: this.today(),
      betweenRounds: await this.betweenRounds(tableId),
      calendar: await this.holidays.calendar(),
    };
    const decision = decide(state, command, context);
    const basis = await this.calendarBasis(proposalSpan(state, proposalId));
    if (!decision.ok) {
      if (!quiet)
        await this.journalDecision(tableId, (latest) => decide(latest, command, context), basis);
      return refusal(withNote(decision.rejection, basis));
    }
    const options = decision.state.current;
    const proposal = decision.state.proposals.find((p) => p.proposalId === proposalId)!;
    // `decide` adopts only an authorized proposal (Art. 8: authorization_missing otherwise).
    const recorded = proposal.authorization!;
    // The table's queue decides "between rounds" for good: a round may have started meanwhile.
    const changed = await this.tables.changeHouseOptions(tableId, {
      options: {
        shaker: options.shaker,
        displayBoard: options.displayBoard,
        paytable: options.paytable,
      },
      authorization: {
        mark: 'dicj',
        reference: recorded.reference,
        authorizedOn: recorded.authorizationDate,
        recordedBy: recorded.inspectorId,
        proposalId,
      },
      changedBy: adoptedBy,
      entries: decision.events.map((e) => ({ tableId, ...typedRecord({ ...e, ...basis }) })),
    });
    if (!changed.ok) {
      if (!quiet && changed.rejection.code === 'table_mid_round') {
        await this.journalDecision(
          tableId,
          (latest) => decide(latest, command, { ...context, betweenRounds: false }),
          basis,
        );
      }
      return { ok: false, rejection: changed.rejection };
    }
    const view = this.proposalView(decision.state, proposalId, context.today);
    return { ok: true, value: { ...view, ...basis } };
  }

  /**
   * Decides one command built from the current state and journals its events,
   * with the calendar basis of the dates `build` names (Art. 8's working days).
   */
  private decideOne(
    tableId: string,
    proposalId: string,
    build: (state: HouseOptionsState) => { span: DateSpan | null; command: unknown },
  ): Promise<ServiceResult<DecisionView>> {
    return this.queue.run(tableId, async () => {
      const today = this.today();
      // Only `adopt` looks at the round; the table's queue checks it again then.
      const context = { today, betweenRounds: true, calendar: await this.holidays.calendar() };
      const current = await this.refresh(tableId);
      if (current === undefined) return unknownTable(tableId);
      // The dates a command names do not change under the lock: their calendar basis is read before it.
      const basis = await this.calendarBasis(build(current).span);
      const decision = await this.journalDecision(
        tableId,
        (state) => decide(state, build(state).command, context),
        basis,
      );
      if (decision === undefined) return unknownTable(tableId);
      if (!decision.ok) return refusal(withNote(decision.rejection, basis));
      const view = this.proposalView(decision.state, proposalId, today);
      return { ok: true, value: { ...view, ...basis } };
    });
  }

  /** Which years of the span count working days with computed holidays (Art. 8). */
  private async calendarBasis(span: DateSpan | null): Promise<CalendarBasis> {
    const years = span === null ? [] : await this.holidays.computedYears(span[0], span[1]);
    if (years.length === 0) return { computedHolidayYears: [], calendarNote: null };
    return {
      computedHolidayYears: years,
      calendarNote: `working days of ${years.join(', ')} counted with holidays computed from the rules, not the official list (docs/compliance.md)`,
    };
  }

  private proposalView(state: HouseOptionsState, proposalId: string, today: IsoDate): ProposalView {
    const proposal = state.proposals.find((p) => p.proposalId === proposalId)!;
    return { ...proposal, status: proposalStatus(proposal, today) };
  }

  /**
   * Decides on the state as every node has committed it and journals the
   * decision's events with the calendar basis of its dates, in one transaction
   * that holds the table row's lock: the decisions on a table are serialised
   * across every node of a floor (two deciding at the same instant: the second
   * decides on the first's entries). Undefined when the table was never created.
   */
  private async journalDecision<D extends { readonly events: readonly HouseOptionsEvent[] }>(
    tableId: string,
    decideOn: (state: HouseOptionsState) => D,
    basis: CalendarBasis,
  ): Promise<D | undefined> {
    return this.store.transaction(async (tx) => {
      if ((await tx.tableVersion(tableId, { lock: 'exclusive' })) === undefined) return undefined;
      // Under the lock no other node can journal for the table: the committed entries are all there is.
      const state = await this.refresh(tableId);
      if (state === undefined) return undefined;
      const decision = decideOn(state);
      if (decision.events.length > 0)
        await tx.appendJournal(
          decision.events.map((e) => ({ tableId, ...typedRecord({ ...e, ...basis }) })),
        );
      return decision;
    });
  }

  /** Art. 8: whether the round machine would take new house options now. */
  private async betweenRounds(tableId: string): Promise<boolean> {
    const snap = await this.tables.snapshot(tableId);
    return snap !== undefined && can(snap.config, snap.state, { type: 'change-house-options' });
  }

  /**
   * The workflow's state: the table's entries after the last one read, folded
   * into the cached state. Own decisions are read back the same way, never
   * applied twice. Undefined when the table was never created.
   */
  private async refresh(tableId: string): Promise<HouseOptionsState | undefined> {
    let cached = this.cache.get(tableId);
    for await (const entry of readIndexedEntries(
      this.store,
      tableId,
      READ_TYPES,
      cached?.scannedSeq ?? 0,
    )) {
      if (cached === undefined) {
        // A table's first entry is its creation, with the options it was commissioned with.
        if (entry.type !== 'table-created') continue;
        const settings = fromStoredSettings(entry.payload.settings);
        cached = {
          state: initialHouseOptionsState(tableId, commissionedOptions(settings)),
          scannedSeq: 0,
        };
        this.cache.set(tableId, cached);
      }
      cached.scannedSeq = entry.seq;
      if (entry.type !== 'table-created') {
        cached.state = applyEvent(cached.state, journaledHouseOptionsEvent(entry.payload));
      }
    }
    return cached?.state;
  }
}
