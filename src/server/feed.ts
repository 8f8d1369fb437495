/**
 * What a socket receives of a round event, by the feed it asked for and by
 * who is watching (visibility.ts: another player's bet is a stake on a spot).
 *
 * - `all` (the default): every event of docs/table.md, serialised once for
 *   those who see every bet in full and once for everyone else, with a frame of
 *   its own only for a player who has bets standing in `betting-opened`.
 * - `summary` (`?feed=summary`, for tables with many players): the client's own
 *   bet events only, with the stakes by spot as a `stakes` message a few times a
 *   second instead of everyone's bets; the bets standing in `betting-opened`
 *   (standingBets) cut down to the client's own; and `round-settled` without
 *   its `returnsMinor`, which is aligned with everyone's bets. Everything else as
 *   in `all`. With N players the `all` feed sends N messages per bet to N
 *   sockets: N² in all; `summary` keeps each socket's traffic to its own bets.
 */
import type { RoundEvent } from '../table/index.js';
import { seesPlayers, type Viewer, visibleEvent } from './visibility.js';

export type Feed = 'all' | 'summary';
export const FEEDS: readonly Feed[] = ['all', 'summary'];

export const isBetEvent = (event: RoundEvent): boolean =>
  event.type === 'bet-placed' || event.type === 'bet-withdrawn';

/** One event's frames: the shared one, and per player where the summary feed cuts a list. */
export class EventFrames {
  private sharedFrame: Buffer | undefined;
  private publicFrame: Buffer | undefined;
  private summaryFrame: Buffer | undefined;
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

  /** The frame for a client of this feed, or null for none. */
  for(feed: Feed, viewer: Viewer): Buffer | null {
    const playerId = viewer?.role === 'player' ? viewer.id : undefined;
    if (feed === 'all') return this.forAll(viewer, playerId);
    const event = this.event;
    switch (event.type) {
      case 'bet-placed':
      case 'bet-withdrawn':
        return event.bet.playerId === playerId ? this.shared() : null;
      case 'betting-opened':
        return this.ownStandingBets(playerId ?? '');
      case 'round-settled': {
        const { returnsMinor: _everyones, ...rest } = event;
        return (this.summaryFrame ??= frame(this.seq, rest));
      }
      default:
        return this.shared();
    }
  }

  /** The whole event for who sees every bet and for a bet's owner; bets by spot for everyone else. */
  private forAll(viewer: Viewer, playerId: string | undefined): Buffer {
    const event = this.event;
    if (seesPlayers(viewer)) return this.shared();
    switch (event.type) {
      case 'bet-placed':
      case 'bet-withdrawn':
        return event.bet.playerId === playerId ? this.shared() : this.public();
      case 'betting-opened': {
        if (event.standingBets.length === 0) return this.shared();
        const mine =
          playerId !== undefined && event.standingBets.some((b) => b.playerId === playerId);
        if (!mine) return this.public();
        let data = this.own.get(`all:${playerId}`);
        if (data === undefined) {
          data = frame(this.seq, visibleEvent(event, viewer));
          this.own.set(`all:${playerId}`, data);
        }
        return data;
      }
      default:
        return this.shared();
    }
  }

  private public(): Buffer {
    return (this.publicFrame ??= frame(this.seq, visibleEvent(this.event, undefined)));
  }

  private ownStandingBets(playerId: string): Buffer {
    if (this.byPlayer === undefined) {
      this.byPlayer = new Map();
      const { standingBets, ...rest } = this.event as Extract<
        RoundEvent,
        { type: 'betting-opened' }
      >;
      for (const bet of standingBets) {
        const mine = this.byPlayer.get(bet.playerId);
        if (mine === undefined) this.byPlayer.set(bet.playerId, [bet]);
        else mine.push(bet);
      }
      // The list goes last, so each client's frame is this prefix, its own list, and `}}`.
      const whole = JSON.stringify({
        type: 'event',
        seq: this.seq,
        event: { ...rest, standingBets: [] },
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
