/**
 * What the table service takes and answers: the requests (round commands and
 * the table's own changes), the outcomes, the options, and the snapshot of a
 * table as the last commit left it.
 */
import type { JournalEntry, JournalInput } from '../../journal/index.js';
import type { ExposureBook } from '../../math/index.js';
import type { RandomSource } from '../../dice/index.js';
import type { RollKeyring } from '../../dice/roll-key.js';
import type { Store } from '../../ledger/index.js';
import type { Command, RoundEvent, RoundState, TableConfig, TableHold } from '../../table/index.js';
import type { RoundHeader } from '../round-snapshot.js';
import type { ServiceErrorCode } from '../refusal.js';
import type { OptionsAuthorization, TableSettings } from '../table-settings.js';

/** A refusal as clients see it: a stable code, a sentence and, where a rule applies, its article. */
export interface ServiceRejection {
  readonly code: ServiceErrorCode;
  readonly message: string;
  readonly article?: string;
}

export interface PublishedEvent {
  /** The journal seq of the event: clients resume after it. */
  readonly seq: number;
  readonly event: RoundEvent;
}

export type CommandOutcome =
  | {
      readonly ok: true;
      readonly events: readonly PublishedEvent[];
      /**
       * For a placed or withdrawn bet: the player's wallet balance right after
       * it, in ledger order, even when later bets of the player share its commit.
       */
      readonly balanceMinor?: number;
    }
  | { readonly ok: false; readonly rejection: ServiceRejection };

/** A change of a table's limits, which takes effect between rounds only. */
export interface LimitsChange {
  readonly type: 'change-limits';
  readonly limits: Partial<
    Pick<TableSettings, 'stakeMinorMin' | 'stakeMinorMax' | 'liabilityMinorMax' | 'bettingTimerMs'>
  >;
  readonly supervisorId: string;
}

/**
 * Art. 8: house options adopted by the compliance workflow take effect between
 * rounds only. The workflow's entries (house-options-adopted) are journaled in
 * the same transaction as the table-settings-changed they cause.
 */
export interface HouseOptionsChange {
  readonly type: 'change-house-options';
  readonly options: Pick<TableSettings, 'shaker' | 'displayBoard' | 'paytable'>;
  /** The recorded DICJ authorization of the adopted proposal: the options carry it from now on. */
  readonly authorization: OptionsAuthorization;
  readonly changedBy: string;
  readonly entries: readonly JournalInput[];
}

/** Entries that belong between two rounds, in the table's order of events (a change of dice). */
export interface BetweenRoundsRecord {
  readonly type: 'record-between-rounds';
  readonly entries: readonly JournalInput[];
  /** Journaled, and the table's hold released, when the table is held (new dice, Art. 1.1). */
  readonly releasesHold?: JournalInput;
}

/**
 * Art. 1.1: a severe fairness alert holds the table (see src/table/hold.ts).
 * Accepted in any phase: the round in progress is finished, no new one starts.
 * A table already held keeps its first hold and nothing is journaled.
 */
export interface HoldRequest {
  readonly type: 'hold-table';
  readonly hold: TableHold;
  readonly entries: readonly JournalInput[];
}

/** Releases a held table (a supervisor's acknowledgement); `table_not_held` when it is not. */
export interface ReleaseRequest {
  readonly type: 'release-hold';
  readonly entries: readonly JournalInput[];
}

/**
 * A supervisor opens or closes the table for play, in any phase: a round in
 * progress is finished and paid, no new one starts while it is closed
 * (src/table/hold.ts). Journaled as table-opened or table-closed with who did
 * it; a table already so journals nothing.
 */
export interface OpenRequest {
  readonly type: 'set-open';
  readonly open: boolean;
  readonly supervisorId: string;
}

/** The table's own changes, with their content; the round machine judges when they may happen. */
export type SettingsRequest = LimitsChange | HouseOptionsChange | BetweenRoundsRecord;

/** A round step as the service takes it: `trigger-shaker` needs no sealed roll, the service seals one. */
export type RoundRequest =
  Command | { readonly type: 'trigger-shaker'; readonly croupierId?: string };

/** Called after every commit of a table with all the journal entries it wrote, in seq order. */
export type CommitListener = (tableId: string, entries: readonly JournalEntry[]) => void;

export interface CommandRequest {
  readonly tableId: string;
  readonly command: RoundRequest | SettingsRequest | HoldRequest | ReleaseRequest | OpenRequest;
  /** A client's key for retries: the same key returns the first outcome. */
  readonly idempotencyKey?: string;
  /**
   * A bet's admission (BetAdmission.admit), asked when the bet reached the
   * service and answered by the time its batch runs: the bet keeps its place
   * in the table's queue while it is decided. Set by TableService only.
   */
  readonly admitted?: Promise<ServiceRejection | undefined>;
}

/** Who may play (src/service/bet-admission.ts): asked before a bet, and when a round is paid. */
export interface BetAdmission {
  /** A refusal of the player's bet now, or undefined. */
  admit(playerId: string, atMs: number): Promise<ServiceRejection | undefined>;
  /**
   * Lei 10/2012, art. 11: which of these players are barred from gaming now
   * (excluded, under age, a casino worker off the days allowed), whose net
   * winnings of the round being paid revert to the Macau SAR.
   */
  barred(playerIds: readonly string[], atMs: number): Promise<ReadonlySet<string>>;
  /** Instrução 1/2016: the large-transaction threshold in force, in minor units. */
  largeCashThresholdMinor(): Promise<number>;
}

export interface TableServiceOptions {
  readonly store: Store;
  readonly clock?: () => number;
  /** The electronic shaker's randomness (Art. 2.1); the CSPRNG unless a test injects one. */
  readonly random?: RandomSource;
  /**
   * Seals the stored roll (docs/dice.md). Every node of a floor needs the same;
   * without one, a key for this process only.
   */
  readonly rollKeys?: RollKeyring;
  /** Called after every commit with the events it made durable, in journal order. */
  readonly publish?: (tableId: string, events: readonly PublishedEvent[]) => void;
  /** Commands in one transaction at most. */
  readonly batchCommandsMax?: number;
  /** Commands waiting per table at most; beyond it a command is refused at once. */
  readonly queuedCommandsMax?: number;
  /** Told the timings of every committed batch (the metrics). */
  readonly observe?: (timing: BatchTiming) => void;
  /**
   * Where a table's commands run on a floor of several nodes (command-router.ts):
   * here, under this node's lease, or on the node holding the lease. Without
   * it every command runs here, unfenced (one process; `cussec play`; tests).
   */
  readonly placement?: CommandPlacement;
  /**
   * Who may bet (Lei 10/2012, arts. 2 and 6; Instrução 1/2016): asked before a
   * `place-bet` is queued, here or passed to the lease holder; a refusal is
   * the bet's answer. Without it every player may bet (`cussec play`, which
   * simulates its players, and the service's own tests).
   */
  readonly admission?: BetAdmission;
}

/** The lease side of a floor, as the service sees it (CommandRouter). */
export interface CommandPlacement {
  /** The epoch of this node's lease on the table, while it holds it; undefined otherwise. */
  epoch(tableId: string): number | undefined;
  /**
   * Takes the table's lease when nobody holds it ('here'), or passes the
   * command to the node that holds it and resolves with that node's answer.
   */
  place(request: CommandRequest): Promise<CommandOutcome | 'here'>;
}

/** How long a committed batch took: its transaction, and each command from arrival to answer. */
export interface BatchTiming {
  readonly tableId: string;
  readonly commitMs: number;
  readonly commands: readonly { readonly type: string; readonly answeredMs: number }[];
}

/** A table as of a commit: its settings, their compiled config, the round and its exposure. */
export interface TableSnapshot {
  readonly version: number;
  readonly settings: TableSettings;
  readonly config: TableConfig;
  readonly state: RoundState;
  readonly header: RoundHeader;
  /** The round's exposure (src/math), a copy of the one the liability cap read. */
  readonly book: ExposureBook;
}

export const refused = (
  code: ServiceErrorCode,
  message: string,
  article?: string,
): CommandOutcome => ({
  ok: false,
  rejection: article === undefined ? { code, message } : { code, message, article },
});
