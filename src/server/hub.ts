/**
 * The WebSocket side of a table: every client of the table gets each event
 * once, in journal order; a client that reconnects with `?after=SEQ` first
 * gets what it missed from the journal. Each event is serialised once for the
 * `all` feed (and once per player for the lists the `summary` feed cuts, see
 * feed.ts), and the frames of one commit go to each socket in one write.
 */
import type { Socket } from 'node:net';
import { WebSocket } from 'ws';
import { isRoundEventEntry } from '../journal/index.js';
import type { Store, User } from '../ledger/index.js';
import { readTableJournal } from '../service/round-snapshot.js';
import { journalHeadSeq, journalPage } from '../service/reads.js';
import type { PublishedEvent } from '../service/table-service.js';
import type { ServerLimits } from './context.js';
import { EventFrames, type Feed, isBetEvent } from './feed.js';
import type { Metrics } from './metrics.js';
import type { ServerMessage } from './schemas.js';
import { type RecentResult, resultOf, type StakesSummary } from './views.js';
import { isTableStaff } from './visibility.js';

export const HISTORY_ROUNDS_MAX = 100;
/** The close code of a socket whose user's sessions ended: sign in again. */
/**
 * How often at most a summary-feed socket gets the stakes by spot while bets
 * come in: every 250 ms, or less often on a crowded table, where each `stakes`
 * message is one write per socket (10 sockets a millisecond: 5,000 → 500 ms).
 */
export const STAKES_INTERVAL_MS = 250;
const STAKES_SOCKETS_PER_MS = 10;

export interface Client {
  readonly socket: WebSocket;
  readonly user: User | undefined;
  readonly feed: Feed;
  /** The TCP socket under the WebSocket, corked while a commit's frames are written. */
  readonly raw: Socket | undefined;
  /** Events of this seq and below have been sent (or are covered by the hello view). */
  sentSeq: number;
  /** While the backlog is read, live events wait here. */
  pending: Frame[] | null;
  /** Until the hello is sent, every other message waits here: the hello is always a socket's first message. */
  early: (string | Buffer)[] | null;
}

/** A table's sockets, and the summary ones by player, so a bet reaches its owner without a scan. */
class TableClients {
  readonly all = new Set<Client>();
  /** The sockets of the `all` feed. */
  readonly full = new Set<Client>();
  readonly summary = new Map<string, Set<Client>>();
  summaryCount = 0;

  add(client: Client): void {
    this.all.add(client);
    if (client.feed === 'all') this.full.add(client);
    if (client.feed !== 'summary') return;
    const key = playerIdOf(client) ?? '';
    let set = this.summary.get(key);
    if (set === undefined) this.summary.set(key, (set = new Set()));
    set.add(client);
    this.summaryCount++;
  }

  delete(client: Client): void {
    this.all.delete(client);
    this.full.delete(client);
    const key = playerIdOf(client) ?? '';
    const set = this.summary.get(key);
    if (set?.delete(client) !== true) return;
    this.summaryCount--;
    if (set.size === 0) this.summary.delete(key);
  }

  /** The summary sockets of this player (none for a watcher's key ''). */
  summaryOf(playerId: string): Iterable<Client> {
    return this.summary.get(playerId) ?? [];
  }
}

interface Frame {
  readonly seq: number;
  /** Null for an event this client's feed leaves out. */
  readonly data: Buffer | null;
}

export class Hub {
  private readonly clients = new Map<string, TableClients>();
  private readonly histories = new Map<string, RecentResult[]>();
  private readonly stakesTimers = new Map<string, NodeJS.Timeout>();
  private stakesSource: (tableId: string) => Promise<StakesSummary | undefined> = () =>
    Promise.resolve(undefined);
  private lastSeq = 0;
  /** Clients' requests being answered; shutdown waits for them before closing the sockets. */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly store: Store,
    private readonly metrics: Metrics,
    private readonly limits: ServerLimits,
  ) {}

  async start(): Promise<void> {
    this.lastSeq = await journalHeadSeq(this.store);
  }

  /** Where the summary feed's `stakes` messages come from (the table service's state). */
  setStakesSource(source: (tableId: string) => Promise<StakesSummary | undefined>): void {
    this.stakesSource = source;
  }

  /** The newest journal seq this node has published or seen at start. */
  get lastEventSeq(): number {
    return this.lastSeq;
  }

  clientCount(): number {
    let n = 0;
    for (const table of this.clients.values()) n += table.all.size;
    return n;
  }

  /**
   * Called by the floor (service/floor.ts) with every committed round event of
   * the table, this node's and the others', each once and in seq order.
   */
  publish(tableId: string, events: readonly PublishedEvent[]): void {
    if (events.length === 0) return;
    const history = this.histories.get(tableId);
    const frames: EventFrames[] = [];
    for (const { seq, event } of events) {
      if (seq > this.lastSeq) this.lastSeq = seq;
      if (event.type === 'round-settled' && history !== undefined) {
        history.push(resultOf(event.roundNo, event.dice));
        if (history.length > HISTORY_ROUNDS_MAX) history.shift();
      }
      frames.push(new EventFrames(seq, event));
    }
    this.metrics.count('cussec_events_published_total', {}, events.length);
    const table = this.clients.get(tableId);
    if (table === undefined) return;
    const betsOnly = events.every((e) => isBetEvent(e.event));
    // A commit of bets only reaches the summary feed's sockets of their owners, without a scan.
    for (const client of betsOnly ? table.full : table.all) this.deliverAll(client, frames);
    if (betsOnly && table.summary.size > 0) {
      for (const f of frames) {
        const owner = (f.event as { bet: { playerId: string } }).bet.playerId;
        for (const client of table.summaryOf(owner)) this.deliverAll(client, [f]);
      }
    }
    if (table.summary.size > 0 && events.some((e) => isBetEvent(e.event)))
      this.scheduleStakes(tableId);
  }

  /** A commit's frames to one socket, in one write when there are several. */
  private deliverAll(client: Client, frames: readonly EventFrames[]): void {
    const raw = frames.length > 1 ? client.raw : undefined;
    raw?.cork();
    for (const f of frames)
      this.deliver(client, { seq: f.seq, data: f.for(client.feed, client.user) });
    raw?.uncork();
  }

  /** The last results of a table, oldest first, read from the journal once. */
  async history(tableId: string, roundSeqs: readonly { seq: number }[]): Promise<RecentResult[]> {
    const known = this.histories.get(tableId);
    if (known !== undefined) return known;
    const results: RecentResult[] = [];
    const from = roundSeqs[0]?.seq;
    if (from !== undefined) {
      for await (const entry of readTableJournal(this.store, tableId, from)) {
        if (entry.type === 'round-settled')
          results.push(resultOf(entry.payload.roundNo, entry.payload.dice));
      }
    }
    const kept = results.slice(-HISTORY_ROUNDS_MAX);
    this.histories.set(tableId, kept);
    return kept;
  }

  /** Adds a client; live events wait until `resume` has sent the backlog. */
  join(
    tableId: string,
    socket: WebSocket,
    options: { user: User | undefined; feed: Feed; raw: Socket | undefined; afterSeq: number },
  ): Client {
    const client: Client = {
      socket,
      user: options.user,
      feed: options.feed,
      raw: options.raw,
      sentSeq: options.afterSeq,
      pending: [],
      early: [],
    };
    let table = this.clients.get(tableId);
    if (table === undefined) this.clients.set(tableId, (table = new TableClients()));
    table.add(client);
    socket.on('close', () => table.delete(client));
    return client;
  }

  /**
   * Whether a client resuming after `afterSeq` missed more than
   * `wsBacklogEventsMax` entries of the table; reads at most one more than that.
   * Such a client starts again from the view instead of replaying a long history.
   */
  async backlogTooLong(tableId: string, afterSeq: number): Promise<boolean> {
    const max = this.limits.wsBacklogEventsMax;
    if (this.lastSeq - afterSeq <= max) return false;
    const page = await journalPage(this.store, { afterSeq, limit: max + 1, tableId });
    return page.length > max;
  }

  /** Sends the journal's events after the client's seq, then whatever arrived meanwhile. */
  async resume(tableId: string, client: Client): Promise<void> {
    let betsLeftOut = false;
    for await (const entry of readTableJournal(this.store, tableId, client.sentSeq + 1)) {
      if (!isRoundEventEntry(entry)) continue;
      const event = entry.payload;
      const data = new EventFrames(entry.seq, event).for(client.feed, client.user);
      if (data === null) betsLeftOut ||= isBetEvent(event);
      else this.send(client, data);
      client.sentSeq = entry.seq;
    }
    if (betsLeftOut) {
      const stakes = await this.stakesFrame(tableId);
      if (stakes !== undefined) this.send(client, stakes);
    }
    const waiting = client.pending ?? [];
    client.pending = null;
    for (const frame of waiting) this.deliver(client, frame);
  }

  private deliver(client: Client, frame: Frame): void {
    if (client.pending !== null) {
      client.pending.push(frame);
      return;
    }
    if (frame.seq <= client.sentSeq) return;
    client.sentSeq = frame.seq;
    if (frame.data !== null) this.send(client, frame.data);
  }

  /** One `stakes` message for the table's summary sockets, however many bets came meanwhile. */
  private scheduleStakes(tableId: string): void {
    if (this.stakesTimers.has(tableId)) return;
    const sockets = this.clients.get(tableId)?.summaryCount ?? 0;
    const timer = setTimeout(
      () => {
        this.stakesTimers.delete(tableId);
        void this.sendStakes(tableId).catch(() => undefined);
      },
      Math.max(STAKES_INTERVAL_MS, sockets / STAKES_SOCKETS_PER_MS),
    );
    timer.unref();
    this.stakesTimers.set(tableId, timer);
  }

  private async sendStakes(tableId: string): Promise<void> {
    const data = await this.stakesFrame(tableId);
    if (data === undefined) return;
    for (const clients of this.clients.get(tableId)?.summary.values() ?? [])
      for (const client of clients) if (client.pending === null) this.send(client, data);
  }

  /** The stakes as of at least the seq it names: read after the seq, so never older. */
  private async stakesFrame(tableId: string): Promise<Buffer | undefined> {
    const seq = this.lastSeq;
    const stakes = await this.stakesSource(tableId);
    if (stakes === undefined) return undefined;
    const message: ServerMessage = { type: 'stakes', tableId, seq, ...stakes };
    return Buffer.from(JSON.stringify(message));
  }

  /** A message for every socket of a table (public news, e.g. the table opened or closed for play). */
  notifyTable(tableId: string, message: ServerMessage): void {
    const table = this.clients.get(tableId);
    if (table === undefined) return;
    const data = Buffer.from(JSON.stringify(message));
    for (const client of table.all) this.send(client, data);
  }

  /**
   * A message for the staff watching a table (croupier, supervisor,
   * inspector), never for players or anonymous watchers: a fairness alert, say.
   */
  notifyStaff(tableId: string, message: ServerMessage): void {
    const table = this.clients.get(tableId);
    if (table === undefined) return;
    const data = Buffer.from(JSON.stringify(message));
    for (const client of table.all) if (isTableStaff(client.user)) this.send(client, data);
  }

  /** Sends the client's first message, then what waited for it (a wallet or table notice sent meanwhile). */
  greet(client: Client, hello: string): void {
    const early = client.early ?? [];
    client.early = null;
    this.send(client, hello);
    for (const data of early) this.send(client, data);
  }

  /** Sends a text frame, unless the socket is closing or too far behind; before the hello, it waits. */
  send(client: Client, data: string | Buffer): void {
    if (client.early !== null) {
      client.early.push(data);
      return;
    }
    const socket = client.socket;
    if (socket.readyState !== WebSocket.OPEN) return;
    // A client that cannot keep up is closed rather than buffered without bound.
    if (socket.bufferedAmount > this.limits.wsBufferedBytesMax) {
      socket.close(1013, 'too slow: reconnect with ?after= to resume');
      return;
    }
    socket.send(data, { binary: false });
  }

  /** Keeps a client's request in sight until it is answered (see `idle`). */
  track(work: Promise<unknown>): void {
    this.inflight.add(work);
    const done = (): void => void this.inflight.delete(work);
    work.then(done, done);
  }

  /** Resolves once every tracked request has been answered. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /**
   * Sends a message to every socket of one user, at every table: the cage's
   * deposits and withdrawals reach the player's page at once. This node's
   * sockets only (the cage answers on the node the cashier uses).
   */
  sendToUser(userId: string, message: ServerMessage): void {
    const data = JSON.stringify(message);
    for (const table of this.clients.values())
      for (const c of table.all) if (c.user?.id === userId) this.send(c, data);
  }

  closeAll(code: number, reason: string): void {
    for (const timer of this.stakesTimers.values()) clearTimeout(timer);
    this.stakesTimers.clear();
    for (const table of this.clients.values())
      for (const c of table.all) c.socket.close(code, reason);
  }
}

const playerIdOf = (client: Client): string | undefined =>
  client.user?.role === 'player' ? client.user.id : undefined;
