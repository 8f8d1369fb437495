/**
 * The data of the round machine (Arts. 2–4): the table's configuration, the
 * round's state, the commands it accepts, the events it emits and its refusals.
 *
 * The state is plain JSON (no Maps, classes or typed arrays) so that a service
 * can persist it after every transition. The configuration holds the compiled
 * paytable (typed arrays) and is therefore passed beside the state, never in it.
 */
import type { SealedRoll } from '../dice/seal-format.js';
import type { CompiledPaytable, Dice } from '../rules/index.js';
import type { RejectionCode } from './rejections.js';

/** Art. 1.2: the shaker is worked by a lever or by an electronic device (house option, Art. 8). */
export type ShakeMethod = 'lever' | 'electronic';

export interface TableConfig {
  /** Stable id of the table; every event names it. */
  readonly tableId: string;
  /** Art. 1.2 and 2.1: how this table shakes the dice, a house option (Art. 8). */
  readonly shaker: ShakeMethod;
  /** Art. 2.2: whether working the shaker lights the display board before betting. */
  readonly displayBoard: boolean;
  /** Betting time before the bell rings by itself; null when only the croupier rings it (Art. 3.1). */
  readonly bettingTimerMs: number | null;
  /** Smallest stake of one bet, in minor units. */
  readonly stakeMinorMin: number;
  /** Largest stake one player may have on one spot in a round (the sum of their bets there). */
  readonly stakeMinorMax: number;
  /** Most bets a round may hold, so the state and the settlement stay bounded. */
  readonly betsPerRoundMax: number;
  /**
   * The most the house may lose on the round's worst outcome (minor units): a
   * bet that would raise the worst case beyond it is refused.
   */
  readonly liabilityMinorMax: number;
  /** Which spots the layout offers and at what odds (Arts. 5, 6 and 8). Never persisted with the state. */
  readonly paytable: CompiledPaytable;
  /**
   * Art. 8: whether the house options above (shaker, display board, layout,
   * odds) carry a recorded authorization. Until they do, no round is covered
   * and betting never opens.
   */
  readonly optionsAuthorized: boolean;
}

/**
 * Why a table is held between rounds: no new round is covered and betting does
 * not open until the hold is released (a severe fairness alert, Art. 1.1).
 */
export interface TableHold {
  /** What holds the table, for the croupier's console and the journal. */
  readonly reason: string;
  /** The article the hold protects, e.g. "1.1". */
  readonly article: string;
  readonly sinceMs: number;
}

/**
 * Where the round is. `shaking` is a lever table between its first and third
 * pull; `voided` follows a void roll (Art. 3.3) until the dome is covered again;
 * `revealed` has the dice and the settlement but unpaid prizes (Art. 4); `paid`
 * ends the round, and like `idle` lets the next one be covered.
 */
export type Phase =
  | 'idle'
  | 'covered'
  | 'latched'
  | 'shaking'
  | 'shaken'
  | 'betting'
  | 'closed'
  | 'lifted'
  | 'voided'
  | 'revealed'
  | 'paid';

export const PHASES: readonly Phase[] = [
  'idle',
  'covered',
  'latched',
  'shaking',
  'shaken',
  'betting',
  'closed',
  'lifted',
  'voided',
  'revealed',
  'paid',
];

/**
 * A roll drawn by the electronic shaker before betting opens, sealed by src/dice
 * (`sealRoll`, or `sealDice` in a simulation; the committed message is in
 * docs/dice.md). Until the reveal only the commitment leaves the machine.
 */
export type { SealedRoll } from '../dice/seal-format.js';

export interface PlacedBet {
  /** Client-supplied, unique within the round (a withdrawn bet's id stays used). */
  readonly betId: string;
  readonly playerId: string;
  readonly spot: string;
  readonly stakeMinor: number;
  /** The roll whose betting window took the bet; earlier rolls' bets stand (Art. 3.4). */
  readonly rollNo: number;
  readonly placedAtMs: number;
}

export interface BetResult {
  readonly betId: string;
  readonly playerId: string;
  readonly spot: string;
  readonly stakeMinor: number;
  readonly winMinor: number;
  readonly returnedMinor: number;
}

/**
 * A settled round, as the state holds it and the journal keeps it. The bets
 * are in the state and the journal already (bet-placed, bet-withdrawn), so each
 * bet's result is one number, aligned with the round's standing bets in the
 * order they were placed (`betResults` pairs them): 10,000 bets take about
 * 50 kB, not the megabyte a list of whole results would.
 */
export interface Settlement {
  readonly dice: Dice;
  /** Offered spots that win on these dice, in layout order (Art. 3.2: they may light up). */
  readonly winningSpots: readonly string[];
  /** What each standing bet returned (stake plus winnings, or 0), in the order of the bets. */
  readonly returnsMinor: readonly number[];
  readonly totalStakeMinor: number;
  readonly totalReturnedMinor: number;
}

/**
 * The whole state of one table's round. Secret: it holds the sealed roll, so
 * only events are published, never the state.
 */
export interface RoundState {
  readonly phase: Phase;
  /** 0 before the first round; the cover of a new round adds one. */
  readonly roundNo: number;
  /** 1, 2, … within a round; a void roll adds one (Art. 3.3). 0 before the first round. */
  readonly rollNo: number;
  /** Lever pulls made for this roll, 0 to 3 (Art. 2.1). */
  readonly leverPulls: number;
  /** The electronic shaker's roll, kept secret until the reveal. */
  readonly seal: SealedRoll | null;
  /** When the automatic bell rings; null when the table has no timer or betting is not open. */
  readonly bettingDeadlineMs: number | null;
  /** The bets standing in this round, in the order they were placed. */
  readonly bets: readonly PlacedBet[];
  /** Ids of withdrawn bets, kept so that a withdrawn id is not used again in the round. */
  readonly withdrawnBetIds: readonly string[];
  readonly settlement: Settlement | null;
  /** The `now` of the last accepted transition; null before any. */
  readonly lastAtMs: number | null;
  /** Set between rounds by the service (see hold.ts); null when the table may play. */
  readonly hold: TableHold | null;
  /** When a supervisor closed the table for play (see hold.ts); null while it is open. */
  readonly closedSinceMs: number | null;
}

interface CroupierAct {
  /** Who did it; copied into the event for the journal. */
  readonly croupierId?: string;
}

/** The steps of a round (Arts. 2–4): the croupier's, the players' and the clock's. */
export type Command =
  | ({ readonly type: 'cover' } & CroupierAct)
  | ({ readonly type: 'fasten-latches' } & CroupierAct)
  | ({ readonly type: 'pull-lever' } & CroupierAct)
  | ({ readonly type: 'trigger-shaker'; readonly sealedRoll: SealedRoll } & CroupierAct)
  | ({ readonly type: 'open-betting' } & CroupierAct)
  | {
      readonly type: 'place-bet';
      readonly betId: string;
      readonly playerId: string;
      readonly spot: string;
      readonly stakeMinor: number;
    }
  | { readonly type: 'withdraw-bet'; readonly betId: string; readonly playerId: string }
  | ({ readonly type: 'ring-bell' } & CroupierAct)
  | { readonly type: 'tick' }
  | ({ readonly type: 'lift-dome' } & CroupierAct)
  | { readonly type: 'read-dice'; readonly dice: Dice; readonly croupierId: string }
  | ({ readonly type: 'reveal-dice' } & CroupierAct)
  | ({ readonly type: 'void-roll'; readonly reason: VoidReason } & CroupierAct)
  | ({ readonly type: 'pay-all' } & CroupierAct);

/**
 * Changes of the table itself, accepted between rounds only: new limits,
 * adopted house options (Art. 8), or a record that belongs between rounds (a
 * change of dice). The machine judges when, so `can()` sees it; the service
 * carries their content, parses the new settings and journals the change.
 */
export type TableChange =
  | { readonly type: 'change-limits' }
  | { readonly type: 'change-house-options' }
  | { readonly type: 'record-between-rounds' };

/** Everything the round machine judges: the round's steps and the table's own changes. */
export type MachineCommand = Command | TableChange;

export type CommandType = MachineCommand['type'];

/** Art. 3.3: why a roll is void. */
export type VoidReason = 'stacked' | 'tilted';

/** What every event carries, so a client can place it without any other state. */
export interface EventBase {
  readonly tableId: string;
  readonly roundNo: number;
  readonly rollNo: number;
  readonly atMs: number;
}

interface ByCroupier {
  readonly croupierId: string | null;
}

/** A bet as the public sees it. */
export type PublicBet = Omit<PlacedBet, 'placedAtMs'>;

export type RoundEvent = EventBase &
  (
    | ({ readonly type: 'dome-covered'; readonly newRound: boolean } & ByCroupier)
    | ({ readonly type: 'latches-fastened' } & ByCroupier)
    | ({ readonly type: 'lever-pulled'; readonly pullNo: number } & ByCroupier)
    | ({
        readonly type: 'dice-shaken';
        readonly method: ShakeMethod;
        readonly commitmentHex: string | null;
      } & ByCroupier)
    | ({
        readonly type: 'betting-opened';
        readonly commitmentHex: string | null;
        readonly deadlineMs: number | null;
        readonly displayBoardLit: boolean;
        /** Bets standing from void rolls of this round (Art. 3.4). */
        readonly standingBets: readonly PublicBet[];
      } & ByCroupier)
    | { readonly type: 'bet-placed'; readonly bet: PublicBet; readonly totalStakeMinor: number }
    | { readonly type: 'bet-withdrawn'; readonly bet: PublicBet; readonly totalStakeMinor: number }
    | ({
        readonly type: 'bell-rung';
        readonly automatic: boolean;
        readonly betCount: number;
        readonly totalStakeMinor: number;
      } & ByCroupier)
    | ({ readonly type: 'dome-lifted' } & ByCroupier)
    | {
        readonly type: 'roll-voided';
        readonly reason: VoidReason;
        readonly croupierId: string | null;
        readonly nextRollNo: number;
        /** An electronic table opens the void roll's seal, so auditors see what was voided. */
        readonly voidedRoll: SealedRoll | null;
      }
    | { readonly type: 'dice-read'; readonly dice: Dice; readonly croupierId: string }
    | ({ readonly type: 'dice-revealed' } & SealedRoll & ByCroupier)
    | ({ readonly type: 'round-settled' } & Settlement)
    | ({
        readonly type: 'prizes-paid';
        /** The bets that returned money: one payout transfer each (the ledger holds them). */
        readonly payoutCount: number;
        readonly totalReturnedMinor: number;
      } & ByCroupier)
  );

export type EventType = RoundEvent['type'];

export const EVENT_TYPES: readonly EventType[] = [
  'dome-covered',
  'latches-fastened',
  'lever-pulled',
  'dice-shaken',
  'betting-opened',
  'bet-placed',
  'bet-withdrawn',
  'bell-rung',
  'dome-lifted',
  'roll-voided',
  'dice-read',
  'dice-revealed',
  'round-settled',
  'prizes-paid',
];

export interface Rejection {
  readonly code: RejectionCode;
  readonly message: string;
  /** The article the refusal enforces, e.g. "3.4". */
  readonly article: string;
}

export type TransitionResult =
  | { readonly ok: true; readonly state: RoundState; readonly events: readonly RoundEvent[] }
  | { readonly ok: false; readonly rejection: Rejection };
