/**
 * The Art. 8 workflow as a pure decision function, in the manner of the round
 * machine: `decide(state, command, context)` returns the next state and the
 * events to journal, or a rejection (with its own event, so that refusals are
 * journaled too). Nothing here reads a clock: the caller passes today's Macau
 * date, whether the table is between rounds, and the working-day calendar.
 *
 * Checks run in a fixed order, documented in docs/compliance.md, so a command
 * with several faults is always refused with the same code.
 */
import { err, ok, type Result } from '../rules/errors.js';
import { checkTimeliness, type WorkingDayCalendar } from './calendar.js';
import {
  type AdoptCommand,
  type HouseOptionsCommand,
  parseHouseOptionsCommand,
  type ProposeCommand,
  type RecordAuthorizationCommand,
  type WithdrawCommand,
} from './house-options-commands.js';
import { parseHouseOptionsChoice } from './house-options.js';
import {
  applyEvent,
  type HouseOptionsEvent,
  type HouseOptionsRefusedEvent,
  type HouseOptionsState,
  type Proposal,
  proposalStatus,
} from './house-options-state.js';
import { type IsoDate, isIsoDate } from './iso-date.js';
import type { Rejection, RejectionCode } from './rejections.js';

/** A table keeps at most this many proposals pending or authorized at once. */
export const OPEN_PROPOSALS_MAX = 16;

export interface DecisionContext {
  /** Today's date in Macau (see `macauDate`). */
  readonly today: IsoDate;
  /** True only when no round is in progress: options never change mid-round. */
  readonly betweenRounds: boolean;
  readonly calendar: WorkingDayCalendar;
}

export type Decision =
  | { readonly ok: true; readonly state: HouseOptionsState; readonly events: HouseOptionsEvent[] }
  | {
      readonly ok: false;
      readonly rejection: Rejection;
      /** One `house-options-refused` event, for the journal; the state is unchanged. */
      readonly events: [HouseOptionsRefusedEvent];
    };

type Outcome = Result<HouseOptionsEvent[], Rejection>;

const refuse = (code: RejectionCode, message: string, article = '8'): Outcome =>
  err({ code, message, article });

function findProposal(state: HouseOptionsState, proposalId: string): Result<Proposal, Rejection> {
  const proposal = state.proposals.find((p) => p.proposalId === proposalId);
  if (proposal === undefined) {
    return err({ code: 'proposal_unknown', message: `no proposal ${proposalId}`, article: '8' });
  }
  if (proposal.closed !== null) {
    const message = `proposal ${proposalId} was ${proposal.closed.reason} on ${proposal.closed.on}`;
    return err({ code: 'proposal_closed', message, article: '8' });
  }
  return ok(proposal);
}

/** Art. 8: at least three working days between the request and the adoption date. */
function timelinessRejection(
  calendar: WorkingDayCalendar,
  requestDate: IsoDate,
  adoptionDate: IsoDate,
): Outcome | null {
  const verdict = checkTimeliness(calendar, requestDate, adoptionDate);
  if (!verdict.ok) {
    // Dates were validated with the command, so only a missing holiday list can fail here.
    const code =
      verdict.error.code === 'date_invalid' ? 'command_invalid' : 'calendar_year_missing';
    return refuse(code, verdict.error.message);
  }
  if (verdict.value.timely) return null;
  return refuse(
    'request_not_timely',
    `requested on ${requestDate} for ${adoptionDate}: ${verdict.value.workingDays} working ` +
      `day(s) between them, Art. 8 asks for ${verdict.value.required}`,
  );
}

function propose(state: HouseOptionsState, c: ProposeCommand, ctx: DecisionContext): Outcome {
  if (c.tableId !== state.tableId) {
    return refuse('table_mismatch', `proposal for ${c.tableId} sent to table ${state.tableId}`);
  }
  if (state.proposals.some((p) => p.proposalId === c.proposalId)) {
    return refuse('proposal_id_taken', `proposal ${c.proposalId} already exists`);
  }
  const open = state.proposals.filter((p) => {
    const status = proposalStatus(p, ctx.today);
    return status === 'pending' || status === 'authorized';
  });
  if (open.length >= OPEN_PROPOSALS_MAX) {
    return refuse('open_proposals_limit', `at most ${OPEN_PROPOSALS_MAX} open proposals a table`);
  }
  const options = parseHouseOptionsChoice(c.options);
  if (!options.ok) return err(options.error);
  const late = timelinessRejection(ctx.calendar, ctx.today, c.adoptionDate);
  if (late !== null) return late;
  const { proposalId, adoptionDate, proposedBy } = c;
  return ok([
    {
      type: 'house-options-proposed',
      tableId: state.tableId,
      on: ctx.today,
      proposalId,
      options: options.value,
      adoptionDate,
      requestDate: ctx.today,
      proposedBy,
      baseVersion: state.current.version,
    },
  ]);
}

function recordAuthorization(
  state: HouseOptionsState,
  c: RecordAuthorizationCommand,
  ctx: DecisionContext,
): Outcome {
  const found = findProposal(state, c.proposalId);
  if (!found.ok) return found;
  const proposal = found.value;
  if (proposal.authorization !== null) {
    const message = `proposal ${c.proposalId} already has authorization ${proposal.authorization.reference}`;
    return refuse('authorization_already_recorded', message);
  }
  if (proposalStatus(proposal, ctx.today) === 'expired') return expired(proposal);
  // Art. 8 "prévia autorização": granted after the request, and not in the future.
  if (c.authorizationDate < proposal.requestDate || c.authorizationDate > ctx.today) {
    return refuse(
      'authorization_date_invalid',
      `authorization dated ${c.authorizationDate}: must be between the request ` +
        `(${proposal.requestDate}) and today (${ctx.today})`,
    );
  }
  const { proposalId, reference, authorizationDate, inspectorId } = c;
  return ok([
    {
      type: 'dicj-authorization-recorded',
      tableId: state.tableId,
      on: ctx.today,
      proposalId,
      reference,
      authorizationDate,
      inspectorId,
    },
  ]);
}

function expired(proposal: Proposal): Outcome {
  return refuse(
    'proposal_expired',
    `proposal ${proposal.proposalId} was not authorized by its adoption date ` +
      `${proposal.adoptionDate}; propose again with three working days' notice`,
  );
}

function adopt(state: HouseOptionsState, c: AdoptCommand, ctx: DecisionContext): Outcome {
  const found = findProposal(state, c.proposalId);
  if (!found.ok) return found;
  const p = found.value;
  if (!ctx.betweenRounds) {
    return refuse('table_mid_round', 'house options change only between rounds, never mid-round');
  }
  if (ctx.today < p.adoptionDate) {
    return refuse('adoption_date_not_reached', `proposal ${p.proposalId} is for ${p.adoptionDate}`);
  }
  if (proposalStatus(p, ctx.today) === 'expired') return expired(p);
  if (p.authorization === null) {
    return refuse('authorization_missing', `no DICJ authorization recorded for ${p.proposalId}`);
  }
  // Checked again: the holiday list may have been replaced (e.g. by the official one) since.
  const late = timelinessRejection(ctx.calendar, p.requestDate, p.adoptionDate);
  if (late !== null) return late;
  const supersededProposalIds = state.proposals
    .filter((o) => o.closed === null && o !== p && o.adoptionDate <= p.adoptionDate)
    .map((o) => o.proposalId);
  return ok([
    {
      type: 'house-options-adopted',
      tableId: state.tableId,
      on: ctx.today,
      proposalId: p.proposalId,
      version: state.current.version + 1,
      options: p.options,
      adoptedBy: c.adoptedBy,
      authorizationReference: p.authorization.reference,
      supersededProposalIds,
    },
  ]);
}

function withdraw(state: HouseOptionsState, c: WithdrawCommand, ctx: DecisionContext): Outcome {
  const found = findProposal(state, c.proposalId);
  if (!found.ok) return found;
  return ok([
    {
      type: 'house-options-withdrawn',
      tableId: state.tableId,
      on: ctx.today,
      proposalId: c.proposalId,
      withdrawnBy: c.withdrawnBy,
      reason: c.reason ?? null,
    },
  ]);
}

function run(state: HouseOptionsState, c: HouseOptionsCommand, ctx: DecisionContext): Outcome {
  switch (c.type) {
    case 'propose':
      return propose(state, c, ctx);
    case 'record-authorization':
      return recordAuthorization(state, c, ctx);
    case 'adopt':
      return adopt(state, c, ctx);
    case 'withdraw':
      return withdraw(state, c, ctx);
  }
}

function field(command: unknown, key: string): string | null {
  if (typeof command !== 'object' || command === null) return null;
  const value = (command as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

function refused(
  state: HouseOptionsState,
  command: unknown,
  rejection: Rejection,
  today: IsoDate,
): Decision {
  const event: HouseOptionsRefusedEvent = {
    type: 'house-options-refused',
    tableId: state.tableId,
    on: today,
    command: field(command, 'type'),
    proposalId: field(command, 'proposalId'),
    code: rejection.code,
    article: rejection.article,
    message: rejection.message,
  };
  return { ok: false, rejection, events: [event] };
}

/**
 * Decides a command (a {@link HouseOptionsCommand}, usually parsed JSON: it is
 * validated here whatever its static type). A bad `context` is a programming error and throws.
 */
export function decide(
  state: HouseOptionsState,
  command: unknown,
  context: DecisionContext,
): Decision {
  if (!isIsoDate(context.today)) throw new RangeError(`bad today: ${String(context.today)}`);
  const parsed = parseHouseOptionsCommand(command);
  if (!parsed.ok) return refused(state, command, parsed.error, context.today);
  const outcome = run(state, parsed.value, context);
  if (!outcome.ok) return refused(state, command, outcome.error, context.today);
  return { ok: true, state: outcome.value.reduce(applyEvent, state), events: outcome.value };
}

/** True when `decide` would accept the command: for enabling buttons on a console. */
export function can(state: HouseOptionsState, command: unknown, context: DecisionContext): boolean {
  return decide(state, command, context).ok;
}

/**
 * The proposals that may be adopted now (authorized, date reached, notice
 * sufficient, table between rounds), by adoption date then request date.
 * Adopting one supersedes the others due no later than it, so a caller
 * adopting automatically takes the last.
 */
export function due(state: HouseOptionsState, context: DecisionContext): Proposal[] {
  return state.proposals
    .filter((p) =>
      can(state, { type: 'adopt', proposalId: p.proposalId, adoptedBy: 'due' }, context),
    )
    .sort((a, b) =>
      a.adoptionDate === b.adoptionDate
        ? a.requestDate.localeCompare(b.requestDate)
        : a.adoptionDate.localeCompare(b.adoptionDate),
    );
}
