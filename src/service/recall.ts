/**
 * Game recall: the last rounds of a table as an inspector or a player's
 * complaint needs them — every bet (withdrawn ones included), every roll (void
 * ones with their opened seal, Art. 3.3), the dice with the commitment and
 * nonce that prove the roll was sealed before betting (electronic shaker) or the
 * croupier who read them (lever), what each bet won and returned, and each
 * player's wallet before the round's first transfer and after its last.
 *
 * Everything comes from the journal and the ledger, never from a table's live
 * state: recall shows only what was published, so a sealed roll stays secret
 * until its reveal.
 */
import { verifyReveal } from '../dice/index.js';
import { isRoundEventEntry, type JournalEntryOf } from '../journal/index.js';
import { type Store, walletAccount } from '../ledger/index.js';
import type { Dice } from '../rules/index.js';
import {
  type EventType,
  type PlacedBet,
  type RoundEvent,
  type SealedRoll,
  betResults,
  type VoidReason,
} from '../table/index.js';
import { roundReference } from './money.js';
import { readTableJournal, RECENT_ROUNDS_MAX } from './round-snapshot.js';
import { parseStoredHeader } from './stored-header.js';
import { type OptionsAuthorization, readStoredSettings } from './table-settings.js';

export const RECALL_ROUNDS_DEFAULT = 10;
/** The table header keeps the start of this many rounds; older ones need the full journal. */
export const RECALL_ROUNDS_MAX = RECENT_ROUNDS_MAX;

/** A bet as the round took it (`rollNo`: Art. 3.4, it stands through later void rolls), and its fate. */
export interface RecalledBet extends PlacedBet {
  /** When the player took the bet back, or null when it stood. */
  readonly withdrawnAtMs: number | null;
  /** Null until the round settles, and for a withdrawn bet. */
  readonly winMinor: number | null;
  readonly returnedMinor: number | null;
}

export interface RecalledVoid {
  readonly reason: VoidReason;
  readonly atMs: number;
  readonly croupierId: string | null;
  /** The voided roll's opened seal (electronic shaker), else null. */
  readonly openedSeal: SealedRoll | null;
  /** Whether the opened seal matches the commitment betting opened with; null without a seal. */
  readonly sealVerified: boolean | null;
}

export interface RecalledRoll {
  readonly rollNo: number;
  /** Published with "betting open" (Art. 2.1); null on a lever table. */
  readonly commitmentHex: string | null;
  readonly bettingOpenedAtMs: number | null;
  readonly bellRungAtMs: number | null;
  /** True when the betting timer rang the bell (Art. 3.1). */
  readonly bellAutomatic: boolean | null;
  readonly voided: RecalledVoid | null;
}

export type RecalledResult =
  | {
      readonly method: 'electronic';
      readonly rollNo: number;
      readonly dice: Dice;
      readonly nonceHex: string;
      readonly commitmentHex: string;
      /** The reveal opens the commitment betting opened with (docs/dice.md). */
      readonly verified: boolean;
      readonly atMs: number;
    }
  | {
      readonly method: 'lever';
      readonly rollNo: number;
      readonly dice: Dice;
      /** Who read the dice (Art. 3.2). */
      readonly croupierId: string;
      readonly atMs: number;
    };

export interface RecalledPlayer {
  readonly playerId: string;
  /** The player's name as the cage registered it; null for a player with no user (`cussec play`). */
  readonly displayName: string | null;
  /** Wallet balance just before the round's first transfer of this player. */
  readonly balanceBeforeMinor: number | null;
  /** Wallet balance just after the round's last transfer of this player. */
  readonly balanceAfterMinor: number | null;
  /** The player's standing stakes (withdrawn bets excluded). */
  readonly stakedMinor: number;
  /** What the settlement returned to the player, null until it settles. */
  readonly returnedMinor: number | null;
  /**
   * Lei 10/2012, art. 11: the net winnings of the round that went to the
   * Macau SAR because the player was barred from gaming when it was paid; 0 when none.
   */
  readonly forfeitedMinor: number;
}

export interface RecalledRound {
  readonly tableId: string;
  readonly roundNo: number;
  /** open: still being played; settled: dice known, prizes unpaid (Art. 4); paid: over. */
  readonly status: 'open' | 'settled' | 'paid';
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly startedAtMs: number;
  readonly paidAtMs: number | null;
  readonly rolls: readonly RecalledRoll[];
  readonly result: RecalledResult | null;
  readonly winningSpots: readonly string[];
  readonly bets: readonly RecalledBet[];
  readonly totalStakeMinor: number;
  readonly totalReturnedMinor: number | null;
  readonly players: readonly RecalledPlayer[];
  /**
   * Art. 8: the authorization the house options carried when the round was
   * played, with its mark (`dicj`, `demonstration` or `simulation`); null: none.
   */
  readonly authorization: OptionsAuthorization | null;
}

/**
 * The last `rounds` rounds of a table, oldest first (at most RECALL_ROUNDS_MAX),
 * or undefined when there is no such table.
 */
export async function recallRounds(
  store: Store,
  tableId: string,
  rounds: number = RECALL_ROUNDS_DEFAULT,
): Promise<RecalledRound[] | undefined> {
  const record = await store.getTable(tableId);
  if (record === undefined) return undefined;
  const recent = parseStoredHeader(record.state, tableId).recentRoundSeqs;
  const wanted = recent.slice(-Math.max(1, Math.min(rounds, RECALL_ROUNDS_MAX)));
  if (wanted.length === 0) return [];
  const builders = new Map(wanted.map((r) => [r.roundNo, new RoundBuilder(tableId, r.roundNo)]));
  const changes: AuthorizationChange[] = [];
  for await (const entry of readTableJournal(store, tableId, wanted[0]!.seq)) {
    if (entry.type === 'table-settings-changed') changes.push(authorizationOf(entry));
    if (entry.type === 'winnings-forfeited') {
      builders
        .get(entry.payload.roundNo)
        ?.forfeit(entry.payload.playerId, entry.payload.forfeitedMinor);
      continue;
    }
    if (!isRoundEventEntry(entry)) continue;
    builders.get(entry.payload.roundNo)?.add(entry);
  }
  const built = [...builders.values()].filter((b) => b.started);
  const balances = await walletBalances(store, tableId, built);
  const names = new Map<string, string | null>();
  for (const playerId of new Set(built.flatMap((b) => b.playerIds())))
    names.set(playerId, (await store.getUser(playerId))?.displayName ?? null);
  // Without a change in the range, the settings in force now were in force throughout.
  const first =
    changes.length === 0
      ? readStoredSettings(record.config, `table ${tableId}`).authorization
      : await authorizationAt(store, tableId, wanted[0]!.seq);
  return built.map((b) => {
    const round = b.finish(balances, names);
    const last = changes.filter((c) => c.seq < round.firstSeq).at(-1);
    return { ...round, authorization: last === undefined ? first : last.authorization };
  });
}

interface AuthorizationChange {
  readonly seq: number;
  readonly authorization: OptionsAuthorization | null;
}

function authorizationOf(
  entry: JournalEntryOf<'table-created' | 'table-settings-changed'>,
): AuthorizationChange {
  return { seq: entry.seq, authorization: entry.payload.settings.authorization ?? null };
}

/** The authorization in force before `seq`: read from the table's start (a change is rare). */
async function authorizationAt(
  store: Store,
  tableId: string,
  seq: number,
): Promise<OptionsAuthorization | null> {
  let found: OptionsAuthorization | null = null;
  for await (const entry of readTableJournal(store, tableId, 1)) {
    if (entry.seq >= seq) break;
    if (entry.type === 'table-created' || entry.type === 'table-settings-changed')
      found = authorizationOf(entry).authorization;
  }
  return found;
}

interface MutableRoll {
  rollNo: number;
  commitmentHex: string | null;
  bettingOpenedAtMs: number | null;
  bellRungAtMs: number | null;
  bellAutomatic: boolean | null;
  voided: RecalledVoid | null;
}

type BalanceKey = `${number}/${string}`;
type Balances = Map<BalanceKey, { before: number; after: number }>;

/** Folds one round's journal entries into its recall. */
class RoundBuilder {
  started = false;
  private firstSeq = 0;
  private lastSeq = 0;
  private startedAtMs = 0;
  private paidAtMs: number | null = null;
  private readonly rolls = new Map<number, MutableRoll>();
  private readonly bets = new Map<string, RecalledBet>();
  private result: RecalledResult | null = null;
  private winningSpots: readonly string[] = [];
  private settled = false;
  private totalReturnedMinor: number | null = null;
  private readonly forfeits = new Map<string, number>();

  constructor(
    readonly tableId: string,
    readonly roundNo: number,
  ) {}

  /** Lei 10/2012, art. 11: the player's net winnings of this round went to the SAR. */
  forfeit(playerId: string, forfeitedMinor: number): void {
    this.forfeits.set(playerId, (this.forfeits.get(playerId) ?? 0) + forfeitedMinor);
  }

  add(entry: JournalEntryOf<EventType>): void {
    const event = entry.payload;
    if (!this.started) {
      this.started = true;
      this.firstSeq = entry.seq;
      this.startedAtMs = event.atMs;
    }
    this.lastSeq = entry.seq;
    this.apply(event);
  }

  private roll(rollNo: number): MutableRoll {
    let roll = this.rolls.get(rollNo);
    if (roll === undefined) {
      roll = {
        rollNo,
        commitmentHex: null,
        bettingOpenedAtMs: null,
        bellRungAtMs: null,
        bellAutomatic: null,
        voided: null,
      };
      this.rolls.set(rollNo, roll);
    }
    return roll;
  }

  private apply(event: RoundEvent): void {
    switch (event.type) {
      case 'betting-opened': {
        const roll = this.roll(event.rollNo);
        roll.commitmentHex = event.commitmentHex;
        roll.bettingOpenedAtMs = event.atMs;
        break;
      }
      case 'bet-placed':
        this.bets.set(event.bet.betId, {
          ...event.bet,
          placedAtMs: event.atMs,
          withdrawnAtMs: null,
          winMinor: null,
          returnedMinor: null,
        });
        break;
      case 'bet-withdrawn': {
        const bet = this.bets.get(event.bet.betId);
        if (bet !== undefined) this.bets.set(bet.betId, { ...bet, withdrawnAtMs: event.atMs });
        break;
      }
      case 'bell-rung': {
        const roll = this.roll(event.rollNo);
        roll.bellRungAtMs = event.atMs;
        roll.bellAutomatic = event.automatic;
        break;
      }
      case 'roll-voided':
        this.voidRoll(event);
        break;
      case 'dice-revealed':
      case 'dice-read':
        this.result = this.resultOf(event);
        break;
      case 'round-settled':
        this.settle(event);
        break;
      case 'prizes-paid':
        this.paidAtMs = event.atMs;
        break;
      default:
        break;
    }
  }

  private voidRoll(event: Extract<RoundEvent, { type: 'roll-voided' }>): void {
    const roll = this.roll(event.rollNo);
    const seal = event.voidedRoll;
    roll.voided = {
      reason: event.reason,
      atMs: event.atMs,
      croupierId: event.croupierId,
      openedSeal: seal,
      sealVerified: seal === null ? null : this.sealOpens(event.rollNo, seal),
    };
  }

  private sealOpens(rollNo: number, seal: SealedRoll): boolean {
    const published = this.rolls.get(rollNo)?.commitmentHex;
    return (
      published === seal.commitmentHex &&
      verifyReveal({ tableId: this.tableId, roundNo: this.roundNo, rollNo, ...seal }).ok
    );
  }

  private resultOf(
    event: Extract<RoundEvent, { type: 'dice-revealed' | 'dice-read' }>,
  ): RecalledResult {
    if (event.type === 'dice-read') {
      const { rollNo, dice, croupierId, atMs } = event;
      return { method: 'lever', rollNo, dice, croupierId, atMs };
    }
    const { rollNo, dice, nonceHex, commitmentHex, atMs } = event;
    const verified = this.sealOpens(rollNo, { dice, nonceHex, commitmentHex });
    return { method: 'electronic', rollNo, dice, nonceHex, commitmentHex, verified, atMs };
  }

  private settle(event: Extract<RoundEvent, { type: 'round-settled' }>): void {
    this.settled = true;
    this.winningSpots = event.winningSpots;
    this.totalReturnedMinor = event.totalReturnedMinor;
    const standing = [...this.bets.values()].filter((b) => b.withdrawnAtMs === null);
    for (const r of betResults(standing, event))
      this.bets.set(r.betId, {
        ...this.bets.get(r.betId)!,
        winMinor: r.winMinor,
        returnedMinor: r.returnedMinor,
      });
  }

  playerIds(): string[] {
    return [...new Set([...this.bets.values()].map((b) => b.playerId))];
  }

  finish(
    balances: Balances,
    names: ReadonlyMap<string, string | null>,
  ): Omit<RecalledRound, 'authorization'> {
    const bets = [...this.bets.values()];
    const standing = bets.filter((b) => b.withdrawnAtMs === null);
    const players = this.playerIds().map((playerId): RecalledPlayer => {
      const own = standing.filter((b) => b.playerId === playerId);
      const balance = balances.get(`${this.roundNo}/${playerId}`);
      return {
        playerId,
        displayName: names.get(playerId) ?? null,
        balanceBeforeMinor: balance?.before ?? null,
        balanceAfterMinor: balance?.after ?? null,
        stakedMinor: sum(own.map((b) => b.stakeMinor)),
        returnedMinor: this.settled ? sum(own.map((b) => b.returnedMinor ?? 0)) : null,
        forfeitedMinor: this.forfeits.get(playerId) ?? 0,
      };
    });
    return {
      tableId: this.tableId,
      roundNo: this.roundNo,
      status: this.paidAtMs !== null ? 'paid' : this.settled ? 'settled' : 'open',
      firstSeq: this.firstSeq,
      lastSeq: this.lastSeq,
      startedAtMs: this.startedAtMs,
      paidAtMs: this.paidAtMs,
      rolls: [...this.rolls.values()].sort((a, b) => a.rollNo - b.rollNo),
      result: this.result,
      winningSpots: this.winningSpots,
      bets,
      totalStakeMinor: sum(standing.map((b) => b.stakeMinor)),
      totalReturnedMinor: this.totalReturnedMinor,
      players,
    };
  }
}

const sum = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0);

/**
 * Each player's wallet just before and just after the transfers of each
 * recalled round (every transfer of a round carries the round's reference):
 * the ledger gives each movement's balance from the wallet's current balance
 * less its later movements, so the cost is the transfers since the first
 * recalled round, not the wallet's history.
 */
async function walletBalances(
  store: Store,
  tableId: string,
  rounds: readonly RoundBuilder[],
): Promise<Balances> {
  const roundByReference = new Map(rounds.map((r) => [roundReference(tableId, r.roundNo), r]));
  const playerByWallet = new Map(
    [...new Set(rounds.flatMap((r) => r.playerIds()))].map((p) => [walletAccount(p).id, p]),
  );
  const moves = await store.accountMovesSince(
    [...playerByWallet.keys()],
    [...roundByReference.keys()],
  );
  const balances: Balances = new Map();
  for (const move of moves) {
    const round = roundByReference.get(move.reference)!;
    const key: BalanceKey = `${round.roundNo}/${playerByWallet.get(move.accountId)!}`;
    const seen = balances.get(key);
    if (seen === undefined)
      balances.set(key, {
        before: move.balanceAfterMinor - move.deltaMinor,
        after: move.balanceAfterMinor,
      });
    else seen.after = move.balanceAfterMinor;
  }
  return balances;
}
