/**
 * The WebSocket side of a table: every client of the table gets each event
 * once, in journal order; a client that reconnects with `?after=SEQ` first
 * gets what it missed from the journal. Each event is serialised once, however
 * many clients receive it.
 */
import type { WebSocket } from 'ws';
import type { Store, User } from '../ledger/index.js';
import { readTableJournal } from '../service/round-snapshot.js';
import type { PublishedEvent } from '../service/table-service.js';
import { EVENT_TYPES, type RoundEvent } from '../table/index.js';
import type { ServerLimits } from './context.js';
import type { Metrics } from './metrics.js';
import { type RecentResult, resultOf } from './views.js';

export const HISTORY_ROUNDS_MAX = 100;
const ROUND_EVENT_TYPES = new Set<string>(EVENT_TYPES);

export interface Client {
  readonly socket: WebSocket;
  readonly user: User | undefined;
  /** Events of this seq and below have been sent (or are covered by the hello view). */
  sentSeq: number;
  /** While the backlog is read, live events wait here. */
  pending: string[] | null;
}

export class Hub {
  private readonly clients = new Map<string, Set<Client>>();
  private readonly histories = new Map<string, RecentResult[]>();
  private lastSeq = 0;

  constructor(
    private readonly store: Store,
    private readonly metrics: Metrics,
    private readonly limits: ServerLimits,
  ) {
    metrics.gauge('cussec_websocket_clients', 'WebSocket clients connected', () =>
      this.clientCount(),
    );
  }

  async start(): Promise<void> {
    this.lastSeq = (await this.store.journalHead()).lastSeq;
  }

  /** The newest journal seq this node has published or seen at start. */
  get lastEventSeq(): number {
    return this.lastSeq;
  }

  clientCount(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  /** Called by the table service after each commit. */
  publish(tableId: string, events: readonly PublishedEvent[]): void {
    const history = this.histories.get(tableId);
    const frames: { seq: number; frame: string }[] = [];
    for (const { seq, event } of events) {
      if (seq > this.lastSeq) this.lastSeq = seq;
      if (event.type === 'round-settled' && history !== undefined) {
        history.push(resultOf(event.roundNo, event.dice));
        if (history.length > HISTORY_ROUNDS_MAX) history.shift();
      }
      frames.push({ seq, frame: JSON.stringify({ type: 'event', seq, event }) });
    }
    this.metrics.count('cussec_events_published_total', {}, events.length);
    for (const client of this.clients.get(tableId) ?? []) {
      for (const { seq, frame } of frames) this.deliver(client, seq, frame);
    }
  }

  /** The last results of a table, oldest first, read from the journal once. */
  async history(tableId: string, roundSeqs: readonly { seq: number }[]): Promise<RecentResult[]> {
    const known = this.histories.get(tableId);
    if (known !== undefined) return known;
    const results: RecentResult[] = [];
    const from = roundSeqs[0]?.seq;
    if (from !== undefined) {
      for await (const entry of readTableJournal(this.store, tableId, from)) {
        const event = entry.payload as RoundEvent;
        if (event.type === 'round-settled') results.push(resultOf(event.roundNo, event.dice));
      }
    }
    const kept = results.slice(-HISTORY_ROUNDS_MAX);
    this.histories.set(tableId, kept);
    return kept;
  }

  /** Adds a client; live events wait until `resume` has sent the backlog. */
  join(tableId: string, socket: WebSocket, user: User | undefined, afterSeq: number): Client {
    const client: Client = { socket, user, sentSeq: afterSeq, pending: [] };
    let set = this.clients.get(tableId);
    if (set === undefined) this.clients.set(tableId, (set = new Set()));
    set.add(client);
    socket.on('close', () => set.delete(client));
    return client;
  }

  /** Sends the journal's events after the client's seq, then whatever arrived meanwhile. */
  async resume(tableId: string, client: Client): Promise<void> {
    for await (const entry of readTableJournal(this.store, tableId, client.sentSeq + 1)) {
      if (!ROUND_EVENT_TYPES.has(entry.type)) continue;
      this.send(client, JSON.stringify({ type: 'event', seq: entry.seq, event: entry.payload }));
      client.sentSeq = entry.seq;
    }
    const waiting = client.pending ?? [];
    client.pending = null;
    for (const frame of waiting) {
      const seq = (JSON.parse(frame) as { seq: number }).seq;
      if (seq > client.sentSeq) this.deliver(client, seq, frame);
    }
  }

  private deliver(client: Client, seq: number, frame: string): void {
    if (client.pending !== null) {
      client.pending.push(frame);
      return;
    }
    if (seq <= client.sentSeq) return;
    client.sentSeq = seq;
    this.send(client, frame);
  }

  send(client: Client, frame: string): void {
    // A client that cannot keep up is closed rather than buffered without bound.
    if (client.socket.bufferedAmount > this.limits.wsBufferedBytesMax) {
      client.socket.close(1013, 'too slow: reconnect with ?after= to resume');
      return;
    }
    client.socket.send(frame);
  }

  closeAll(code: number, reason: string): void {
    for (const set of this.clients.values()) for (const c of set) c.socket.close(code, reason);
  }
}
