/**
 * What a socket receives of a round event, by the feed it asked for.
 *
 * - `all` (the default): every event of docs/table.md as journaled, the same
 *   bytes for every client, serialised once.
 * - `summary` (`?feed=summary`, for tables with many players): the client's own
 *   bet events only, with the stakes by spot as a `stakes` message a few times a
 *   second instead of everyone's bets; and the lists of bets in `betting-opened`
 *   (standingBets), `round-settled` (results) and `prizes-paid` (payouts) cut
 *   down to the client's own. Everything else as in `all`. With N players the
 *   `all` feed sends N messages per bet to N sockets and lists N results to each
 *   of them: N² in both; `summary` keeps each socket's traffic to its own bets.
 */
import type { RoundEvent } from '../table/index.js';

export type Feed = 'all' | 'summary';
export const FEEDS: readonly Feed[] = ['all', 'summary'];

/** Events whose per-bet list a summary client gets cut down to its own bets. */
const LISTS: Partial<Record<RoundEvent['type'], string>> = {
  'betting-opened': 'standingBets',
  'round-settled': 'results',
  'prizes-paid': 'payouts',
};

export const isBetEvent = (event: RoundEvent): boolean =>
  event.type === 'bet-placed' || event.type === 'bet-withdrawn';

/** One event's frames: the shared one, and per player where the summary feed cuts a list. */
export class EventFrames {
  private sharedFrame: Buffer | undefined;
  private readonly own = new Map<string, Buffer>();
  private byPlayer: Map<string, unknown[]> | undefined;
  private prefix = '';

  constructor(
    readonly seq: number,
    readonly event: RoundEvent,
  ) {}

  shared(): Buffer {
    return (this.sharedFrame ??= frame(this.seq, this.event));
  }

  /** The frame for a client of this feed (playerId: a player's id, else undefined), or null for none. */
  for(feed: Feed, playerId: string | undefined): Buffer | null {
    if (feed === 'all') return this.shared();
    const event = this.event;
    if (event.type === 'bet-placed' || event.type === 'bet-withdrawn')
      return event.bet.playerId === playerId ? this.shared() : null;
    const list = LISTS[event.type];
    return list === undefined ? this.shared() : this.cut(list, playerId ?? '');
  }

  private cut(list: string, playerId: string): Buffer {
    if (this.byPlayer === undefined) {
      this.byPlayer = new Map();
      const { [list]: items, ...rest } = this.event as unknown as Record<string, unknown>;
      for (const item of items as { playerId: string }[]) {
        const mine = this.byPlayer.get(item.playerId);
        if (mine === undefined) this.byPlayer.set(item.playerId, [item]);
        else mine.push(item);
      }
      // The list goes last, so each client's frame is this prefix, its own list, and `}}`.
      const whole = JSON.stringify({
        type: 'event',
        seq: this.seq,
        event: { ...rest, [list]: [] },
      });
      this.prefix = whole.slice(0, -'[]}}'.length);
    }
    // Watchers and players without bets all share the frame with an empty list.
    const key = this.byPlayer.has(playerId) ? playerId : '';
    let data = this.own.get(key);
    if (data === undefined) {
      data = Buffer.from(`${this.prefix}${JSON.stringify(this.byPlayer.get(key) ?? [])}}}`);
      this.own.set(key, data);
    }
    return data;
  }
}

function frame(seq: number, event: object): Buffer {
  return Buffer.from(JSON.stringify({ type: 'event', seq, event }));
}
