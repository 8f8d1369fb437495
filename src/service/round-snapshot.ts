/**
 * How a table's round is stored. The small part of the state (phase, numbers,
 * the sealed roll, the deadline) is saved with the table row on every command;
 * the bets and the settlement, which grow with the round, are not: they are in
 * the journal already, as bet-placed, bet-withdrawn and round-settled entries,
 * and are rebuilt from it when a node loads the table. So a bet costs one small
 * row update, not a rewrite of every bet of the round.
 */
import { isRoundEventEntry, type JournalEntry } from '../journal/index.js';
import type { Store } from '../ledger/index.js';
import {
  initialState,
  type PlacedBet,
  type RoundEvent,
  type RoundState,
  assertAligned,
  type Settlement,
  settlementOf,
} from '../table/index.js';

export interface RoundHeader extends Omit<RoundState, 'bets' | 'withdrawnBetIds' | 'settlement'> {
  /** The journal seq of the current round's first entry; null before the first round. */
  readonly roundJournalSeq: number | null;
  /** Journal seqs of the starts of the last rounds, newest last, for game recall. */
  readonly recentRoundSeqs: readonly { readonly roundNo: number; readonly seq: number }[];
}

export const RECENT_ROUNDS_MAX = 100;
/** Small pages, and a turn of the event loop between them: a long read never stops the bets. */
const JOURNAL_PAGE_ROWS = 1_000;

export function initialHeader(): RoundHeader {
  return toHeader(initialState(), null, []);
}

export function toHeader(
  state: RoundState,
  roundJournalSeq: number | null,
  recentRoundSeqs: RoundHeader['recentRoundSeqs'],
): RoundHeader {
  const { bets: _bets, withdrawnBetIds: _withdrawn, settlement: _settlement, ...rest } = state;
  return { ...rest, roundJournalSeq, recentRoundSeqs };
}

/** The full state: the header plus the round's bets and settlement read back from the journal. */
export async function loadRoundState(
  store: Store,
  tableId: string,
  header: RoundHeader,
): Promise<RoundState> {
  const { roundJournalSeq, recentRoundSeqs: _recent, ...rest } = header;
  // Headers saved before tables could be held (or closed) have no `hold` (`closedSinceMs`).
  const base: RoundState = {
    ...rest,
    hold: rest.hold ?? null,
    closedSinceMs: rest.closedSinceMs ?? null,
    bets: [],
    withdrawnBetIds: [],
    settlement: null,
  };
  if (roundJournalSeq === null) return base;
  return foldRound(base, readTableJournal(store, tableId, roundJournalSeq));
}

/** Every journal entry of a table from `fromSeq`, page by page. */
export async function* readTableJournal(
  store: Store,
  tableId: string,
  fromSeq: number,
): AsyncGenerator<JournalEntry> {
  for (let seq = fromSeq; ;) {
    const page = await store.readJournal({ fromSeq: seq, limit: JOURNAL_PAGE_ROWS, tableId });
    yield* page;
    if (page.length < JOURNAL_PAGE_ROWS) return;
    seq = page[page.length - 1]!.seq + 1;
    // SQLite reads synchronously: without this the whole read would be one turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Applies a round's bet and settlement entries to a state that has none. */
export async function foldRound(
  base: RoundState,
  entries: AsyncIterable<JournalEntry>,
): Promise<RoundState> {
  const bets = new StandingBets();
  let settlement: Settlement | null = null;
  for await (const entry of entries) {
    if (!isRoundEventEntry(entry)) continue;
    const event = entry.payload;
    bets.apply(event);
    if (event.type === 'round-settled') {
      settlement = settlementOf(event);
      assertAligned(bets.list, settlement);
    }
  }
  return { ...base, bets: bets.list, withdrawnBetIds: bets.withdrawnIds, settlement };
}

/**
 * A round's standing bets in the order they were placed, folded from its
 * entries: the order a settlement's returns are aligned with (Art. 3.4: bets
 * stand through void rolls; a new round starts with none).
 */
export class StandingBets {
  list: PlacedBet[] = [];
  withdrawnIds: string[] = [];

  apply(event: RoundEvent): void {
    if (event.type === 'dome-covered' && event.newRound) {
      this.list = [];
      this.withdrawnIds = [];
    } else if (event.type === 'bet-placed') {
      this.list.push({ ...event.bet, placedAtMs: event.atMs });
    } else if (event.type === 'bet-withdrawn') {
      const at = this.list.findIndex((b) => b.betId === event.bet.betId);
      if (at >= 0) this.list.splice(at, 1);
      this.withdrawnIds.push(event.bet.betId);
    }
  }
}
