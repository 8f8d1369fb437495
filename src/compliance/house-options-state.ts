/**
 * The house-options workflow of one table as plain data: the options in force,
 * every proposal with its DICJ authorization and how it ended, and the events
 * that change them. The state is a fold of the events (`applyEvent`), so the
 * journal alone rebuilds it.
 */
import type { HouseOptions, HouseOptionsChoice } from './house-options.js';
import type { IsoDate } from './iso-date.js';
import { journaledRejectionCode, type RejectionCode } from './rejections.js';

/** The DICJ's authorization of a proposal, as an inspector recorded it (Art. 8). */
export interface DicjAuthorization {
  /** The DICJ's reference for the authorization (letter or file number). */
  readonly reference: string;
  readonly authorizationDate: IsoDate;
  readonly inspectorId: string;
  readonly recordedOn: IsoDate;
}

export type ProposalClosure =
  | {
      readonly reason: 'adopted';
      readonly on: IsoDate;
      readonly by: string;
      readonly version: number;
    }
  | { readonly reason: 'withdrawn'; readonly on: IsoDate; readonly by: string }
  /** Closed when another proposal, due no later than this one, was adopted first. */
  | { readonly reason: 'superseded'; readonly on: IsoDate; readonly byProposalId: string };

export interface Proposal {
  readonly proposalId: string;
  readonly options: HouseOptionsChoice;
  readonly adoptionDate: IsoDate;
  /** The day it was proposed: Art. 8's request date. */
  readonly requestDate: IsoDate;
  readonly proposedBy: string;
  /** The version in force when it was proposed. */
  readonly baseVersion: number;
  readonly authorization: DicjAuthorization | null;
  readonly closed: ProposalClosure | null;
}

export interface HouseOptionsState {
  readonly tableId: string;
  readonly current: HouseOptions;
  /** When `current` was adopted; null for the options the table was commissioned with. */
  readonly adoptedOn: IsoDate | null;
  readonly proposals: readonly Proposal[];
}

export type ProposalStatus =
  'pending' | 'authorized' | 'expired' | 'adopted' | 'withdrawn' | 'superseded';

/**
 * Art. 8 wants the authorization before adoption, so a proposal still without
 * one after its adoption date has expired: it can no longer be authorized or
 * adopted, and the house must propose again (with fresh notice).
 */
export function proposalStatus(proposal: Proposal, today: IsoDate): ProposalStatus {
  if (proposal.closed !== null) return proposal.closed.reason;
  if (proposal.authorization !== null) return 'authorized';
  return today > proposal.adoptionDate ? 'expired' : 'pending';
}

/** A table's workflow before any proposal. */
export function initialHouseOptionsState(
  tableId: string,
  current: HouseOptions,
): HouseOptionsState {
  return { tableId, current, adoptedOn: null, proposals: [] };
}

interface EventBase {
  readonly tableId: string;
  /** The Macau date of the decision; the journal adds the instant. */
  readonly on: IsoDate;
}

export interface HouseOptionsProposedEvent extends EventBase {
  readonly type: 'house-options-proposed';
  readonly proposalId: string;
  readonly options: HouseOptionsChoice;
  readonly adoptionDate: IsoDate;
  readonly requestDate: IsoDate;
  readonly proposedBy: string;
  readonly baseVersion: number;
}

export interface DicjAuthorizationRecordedEvent extends EventBase {
  readonly type: 'dicj-authorization-recorded';
  readonly proposalId: string;
  readonly reference: string;
  readonly authorizationDate: IsoDate;
  readonly inspectorId: string;
}

export interface HouseOptionsAdoptedEvent extends EventBase {
  readonly type: 'house-options-adopted';
  readonly proposalId: string;
  readonly version: number;
  readonly options: HouseOptionsChoice;
  readonly adoptedBy: string;
  readonly authorizationReference: string;
  /** Open proposals due no later than this one, closed by this adoption. */
  readonly supersededProposalIds: readonly string[];
}

export interface HouseOptionsWithdrawnEvent extends EventBase {
  readonly type: 'house-options-withdrawn';
  readonly proposalId: string;
  readonly withdrawnBy: string;
  readonly reason: string | null;
}

/** A refused command, journaled so that an inspector sees attempts too. */
export interface HouseOptionsRefusedEvent extends EventBase {
  readonly type: 'house-options-refused';
  /** The command's type, or null when it had none. */
  readonly command: string | null;
  readonly proposalId: string | null;
  readonly code: RejectionCode;
  readonly article: string;
  readonly message: string;
}

export type HouseOptionsEvent =
  | HouseOptionsProposedEvent
  | DicjAuthorizationRecordedEvent
  | HouseOptionsAdoptedEvent
  | HouseOptionsWithdrawnEvent
  | HouseOptionsRefusedEvent;

export type HouseOptionsEventType = HouseOptionsEvent['type'];

/** An event as the journal holds it: a refusal of an old journal spells its code in kebab-case. */
export type JournaledHouseOptionsEvent =
  | Exclude<HouseOptionsEvent, HouseOptionsRefusedEvent>
  | (Omit<HouseOptionsRefusedEvent, 'code'> & { readonly code: string });

function updateProposal(
  state: HouseOptionsState,
  proposalId: string,
  change: (p: Proposal) => Proposal,
): HouseOptionsState {
  if (!state.proposals.some((p) => p.proposalId === proposalId)) {
    throw new Error(`house options: event for unknown proposal ${proposalId}`);
  }
  const proposals = state.proposals.map((p) => (p.proposalId === proposalId ? change(p) : p));
  return { ...state, proposals };
}

function applyAdopted(state: HouseOptionsState, e: HouseOptionsAdoptedEvent): HouseOptionsState {
  let next = updateProposal(state, e.proposalId, (p) => ({
    ...p,
    closed: { reason: 'adopted', on: e.on, by: e.adoptedBy, version: e.version },
  }));
  for (const id of e.supersededProposalIds) {
    next = updateProposal(next, id, (p) => ({
      ...p,
      closed: { reason: 'superseded', on: e.on, byProposalId: e.proposalId },
    }));
  }
  return { ...next, current: { ...e.options, version: e.version }, adoptedOn: e.on };
}

/** The state after an event. Pure; a journal replays a table by folding its events. */
export function applyEvent(state: HouseOptionsState, event: HouseOptionsEvent): HouseOptionsState {
  if (event.tableId !== state.tableId) {
    throw new Error(`house options: event of table ${event.tableId} applied to ${state.tableId}`);
  }
  switch (event.type) {
    case 'house-options-proposed': {
      const { proposalId, options, adoptionDate, requestDate, proposedBy, baseVersion } = event;
      const proposal: Proposal = {
        proposalId,
        options,
        adoptionDate,
        requestDate,
        proposedBy,
        baseVersion,
        authorization: null,
        closed: null,
      };
      return { ...state, proposals: [...state.proposals, proposal] };
    }
    case 'dicj-authorization-recorded': {
      const { reference, authorizationDate, inspectorId, on } = event;
      const authorization = { reference, authorizationDate, inspectorId, recordedOn: on };
      return updateProposal(state, event.proposalId, (p) => ({ ...p, authorization }));
    }
    case 'house-options-adopted':
      return applyAdopted(state, event);
    case 'house-options-withdrawn':
      return updateProposal(state, event.proposalId, (p) => ({
        ...p,
        closed: { reason: 'withdrawn', on: event.on, by: event.withdrawnBy },
      }));
    case 'house-options-refused':
      return state;
  }
}

/**
 * A journaled workflow entry's payload as its event: the one place such an
 * entry is read back, where a refusal's code of an old journal, kebab-case
 * then, takes today's snake_case spelling.
 */
export function journaledHouseOptionsEvent(event: JournaledHouseOptionsEvent): HouseOptionsEvent {
  return event.type === 'house-options-refused'
    ? { ...event, code: journaledRejectionCode(event.code) }
    : event;
}
