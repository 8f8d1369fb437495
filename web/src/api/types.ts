/**
 * The shapes of docs/api.md, as the browser reads them. Only what the app uses
 * is typed; everything else the server sends is ignored.
 */

export type Role = 'player' | 'croupier' | 'supervisor' | 'cashier' | 'inspector';

export interface User {
  readonly id: string;
  readonly username: string;
  readonly role: Role;
  readonly displayName: string;
  readonly disabled?: boolean;
  /** A password somebody else chose: the server refuses everything until it is changed. */
  readonly mustChangePassword?: boolean;
}

export interface Me {
  readonly user: User;
  readonly wallet: { readonly balanceMinor: number; readonly currency: string } | null;
}

/** The round's phases are the round machine's own (docs/table.md). */
export type { Phase } from '../../../src/table/types.js';
import type { Phase } from '../../../src/table/types.js';

import type { z } from 'zod';
import type { tableSummaryAnswer } from '../../../src/server/schemas.js';

export type Triple = readonly [number, number, number];

/** A table in the list of tables (`GET /tables`): the server's own answer schema. */
export type TableSummary = z.infer<typeof tableSummaryAnswer>;

export interface LastRound {
  readonly roundNo: number;
  /** Not in docs/api.md's example; used when present, else found from events (see verify). */
  readonly rollNo?: number;
  readonly dice: Triple;
  readonly winningSpots: readonly string[];
  /** What the round's prizes return in all (stakes included), and to how many bets (Art. 4). */
  readonly totalReturnedMinor?: number;
  readonly payoutCount?: number;
  readonly nonceHex?: string | null;
  readonly commitmentHex?: string | null;
}

export interface HistoryEntry {
  readonly roundNo: number;
  readonly dice: Triple;
  readonly total: number;
}

export interface TableView {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly shaker: 'lever' | 'electronic';
  readonly displayBoard: boolean;
  readonly bettingTimerMs: number | null;
  readonly stakeMinorMin: number;
  readonly stakeMinorMax: number;
  readonly liabilityMinorMax: number;
  readonly paytable: {
    readonly spots: readonly string[];
    readonly totalOdds: { readonly '5/16': number; readonly '6/15': number };
  };
  readonly phase: Phase;
  readonly roundNo: number;
  readonly rollNo: number;
  /** Not in docs/api.md; the server sends it (lever pulls so far, Art. 2.1) and it is used when present. */
  readonly leverPulls?: number;
  readonly commitmentHex: string | null;
  readonly bettingDeadlineMs: number | null;
  readonly stakesBySpotMinor: Readonly<Record<string, number>>;
  readonly betCount: number;
  readonly totalStakeMinor: number;
  readonly lastRound: LastRound | null;
  readonly history: readonly HistoryEntry[];
  readonly allowed: Readonly<Record<string, boolean>>;
  /** When a supervisor closed the table for play; null while it is open. */
  readonly closedSinceMs?: number | null;
  readonly lastEventSeq: number;
}

export interface Bet {
  readonly betId: string;
  readonly spot: string;
  readonly stakeMinor: number;
  readonly rollNo: number;
  readonly playerId?: string;
  readonly winMinor?: number;
  readonly returnedMinor?: number;
}

export interface MyBets {
  readonly roundNo: number;
  readonly bets: readonly Bet[];
}

export interface BetAnswer {
  readonly bet: Bet;
  readonly balanceMinor: number;
}

export interface Exposure {
  readonly stakedMinor: number;
  readonly worstCase: {
    readonly dice: Triple;
    readonly returnedMinor: number;
    readonly houseLossMinor: number;
  };
  readonly expectedHouseGainMinor: number;
  readonly liabilityCapMinor: number;
}

export interface PlayerRow {
  readonly id: string;
  readonly username: string;
  readonly displayName: string;
  readonly balanceMinor: number;
}

export interface JournalEntry {
  readonly seq: number;
  readonly tableId: string;
  readonly type: string;
  readonly payload: unknown;
  readonly atMs: number;
  readonly prevHash: string;
  readonly hash: string;
}

export interface JournalVerify {
  readonly ok: boolean;
  readonly entries: number;
  readonly failure?: { readonly seq: number; readonly reason: string };
}

/**
 * A round event of docs/table.md: the round machine's own union (a type-only
 * import, so no server code reaches the bundle). A bet another player made
 * comes without its playerId to a viewer who does not see players.
 */
export type { RoundEvent } from '../../../src/table/types.js';
import type { RoundEvent } from '../../../src/table/types.js';

export type ServerMessage =
  | { readonly type: 'hello'; readonly tableId: string; readonly view: TableView }
  | { readonly type: 'event'; readonly seq: number; readonly event: RoundEvent }
  | { readonly type: 'ack'; readonly requestId: string }
  | {
      readonly type: 'batch-ack';
      readonly requestId: string;
      readonly results: readonly BatchResult[];
      readonly balanceMinor: number;
    }
  | StakesMessage
  | FairnessAlertMessage
  | TableHoldMessage
  /** Art. 2: a supervisor opened or closed the table for play (to every socket of the table). */
  | {
      readonly type: 'table-open';
      readonly tableId: string;
      readonly seq: number;
      readonly open: boolean;
    }
  /** To a player's sockets when the cage moves money in or out of the wallet. */
  | { readonly type: 'wallet'; readonly balanceMinor: number }
  | { readonly type: 'error'; readonly requestId?: string | null; readonly error: ApiErrorBody };

/** One bet of a `place-bets` or `withdraw-bets` message: taken, or refused on its own. */
export type BatchResult =
  | { readonly betId: string; readonly ok: true; readonly bet: Bet }
  | { readonly betId: string; readonly ok: false; readonly error: ApiErrorBody };

/** The summary feed's stakes by spot, as of at least `seq` (docs/api.md). */
export interface StakesMessage {
  readonly type: 'stakes';
  readonly seq: number;
  readonly roundNo: number;
  readonly rollNo: number;
  readonly stakesBySpotMinor: Readonly<Record<string, number>>;
  readonly betCount: number;
  readonly totalStakeMinor: number;
}

/** Art. 1.1: a chi-square test of the table's dice fell under the alert level, or recovered. */
export interface FairnessAlertMessage {
  readonly type: 'fairness-alert';
  readonly tableId: string;
  readonly seq: number;
  readonly raised: boolean;
  readonly alert: {
    readonly span: 'window' | 'since-dice-change';
    readonly test: string;
    readonly rolls: number;
    readonly pValue: number | null;
  };
}

/** Art. 1.1: a severe fairness alert held the table, or its hold was released (staff only). */
export interface TableHoldMessage {
  readonly type: 'table-hold';
  readonly tableId: string;
  readonly seq: number;
  readonly held: boolean;
}

export interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
  readonly article?: string;
}

/** A person named in a staff action (`GET /staff-actions`); username null for an unknown id. */
export interface StaffPerson {
  readonly id: string;
  readonly username: string | null;
  readonly displayName: string | null;
}

/** One staff action: who did what to which account or table, when. */
export interface StaffAction {
  readonly seq: number;
  readonly atMs: number;
  readonly type: string;
  readonly tableId: string | null;
  readonly by: StaffPerson | null;
  readonly user: StaffPerson | null;
  readonly settings: Record<string, unknown> | null;
}

/** One table on `GET /floor` (docs/api.md). */
export interface FloorTable {
  readonly id: string;
  readonly name: string;
  readonly shaker: 'lever' | 'electronic' | null;
  readonly phase: Phase | null;
  readonly roundNo: number | null;
  readonly bettingDeadlineMs: number | null;
  readonly stakeMinorMin: number | null;
  readonly stakeMinorMax: number | null;
  readonly liabilityMinorMax: number | null;
  readonly bettingTimerMs: number | null;
  /** Whether the round machine takes new limits now (between rounds only). */
  readonly limitsChangeAllowed: boolean;
  readonly players: number;
  readonly stakedMinor: number;
  readonly worstCaseHouseLossMinor: number;
  readonly leaseHeldHere: boolean;
  /**
   * The URL of the node that runs the table's timers, as the table row records it
   * (null: none holds its lease now, or one that takes no other node's commands).
   */
  readonly leaseHolder: string | null;
  /** When a supervisor closed the table for play; null while it is open. */
  readonly closedSinceMs: number | null;
  readonly day: {
    readonly rounds: number;
    readonly handleMinor: number;
    readonly payoutsMinor: number;
    readonly holdMinor: number;
    readonly holdPercentActual: number | null;
    readonly holdPercentTheoretical: number | null;
  } | null;
  readonly fairnessAlerts: number;
}

export interface Floor {
  readonly today: string;
  /** The URL of the node that answered, on a floor of nodes; null off a floor. */
  readonly node: string | null;
  readonly calendar: {
    readonly years: readonly { year: number; official: boolean; origin: string }[];
    readonly nextYear: {
      readonly year: number;
      readonly status: 'missing' | 'computed' | 'official';
    };
    readonly earliestAdoptionDate: string | null;
  };
  readonly tables: readonly FloorTable[];
}

export interface SessionInfo {
  readonly id: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  readonly lastSeenAtMs: number | null;
}

export type ProposalStatus =
  'pending' | 'authorized' | 'expired' | 'adopted' | 'withdrawn' | 'superseded';

export interface HouseOptionsState {
  readonly today: string;
  readonly current: Record<string, unknown> & { readonly version: number };
  readonly adoptedOn: string | null;
  readonly proposals: readonly {
    readonly proposalId: string;
    readonly adoptionDate: string;
    readonly requestDate: string;
    readonly options: Record<string, unknown>;
    readonly status: ProposalStatus;
    readonly authorization: { readonly reference: string; readonly authorizedOn: string } | null;
  }[];
}
