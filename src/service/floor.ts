/**
 * A node's part in a casino floor of several nodes on one PostgreSQL.
 *
 * - Events: every journal write notifies every node, the entries with it
 *   (LISTEN/NOTIFY, sent by the write in its transaction and heard once it
 *   commits, in seq order: ledger/journal-notice.ts); each node publishes the
 *   round events to its own WebSocket clients without reading the journal. A
 *   commit too large for a notice names its seqs, and the node reads them.
 * - Order: the floor is the only way events reach `publish`, strictly in seq
 *   order from one cursor (the last seq delivered). Entries that follow the
 *   cursor are handed on at once, whoever brings them: this node's own commit
 *   (committed), a notice, a journal read; entries at or before the cursor are
 *   skipped. Entries after a gap (a notice missed while the listening
 *   connection was away) wait for the journal read that fills it, which is the
 *   one way gaps are filled; a poll reads the journal anyway every `pollMs`.
 *   So every entry reaches the sockets once, in order, whichever node
 *   committed it.
 * - Timers: the automatic bell (Art. 3.1) of a table runs on the node that holds
 *   the table's lease. A node that dies loses its connection and so its leases;
 *   another node takes the lease at its next sweep, reads the deadline from the
 *   table and rings the bell when it is due, so the round goes on. A sweep takes
 *   only the leases of tables whose betting time runs (every node follows the
 *   round events of every table); a table waiting for its croupier is taken by
 *   the node its next command reaches, so the tables spread over the nodes the
 *   way their clients do (command-router.ts).
 *
 * On SQLite (one node) the same code runs with a single-node cluster: every
 * lease is ours, nothing is heard, and the node reads the journal after its
 * own writes when they do not follow its cursor.
 */
import { isRoundEventEntry, type JournalEntry } from '../journal/index.js';
import type { JournalNotice, Store } from '../ledger/index.js';
import { REGISTER_ENTRY_TYPES } from './bet-admission.js';
import type { PublishedEvent, TableService } from './table-service.js';

/** A journaled change that ended sessions of a user (see FloorOptions.sessionsEnded). */
export interface SessionsEnded {
  readonly userId: string;
  /** All the user's sessions begun before `atMs` (disabled, password changed or reset), or one (revoked). */
  readonly kind: 'all' | 'revoked';
  /** The entry's time. */
  readonly atMs: number;
}

export interface FloorOptions {
  readonly store: Store;
  readonly service: TableService;
  /** Publishes events to this node's clients; always called in seq order, each entry once. */
  readonly publish: (tableId: string, events: readonly PublishedEvent[]) => void;
  /**
   * A player's wallet moved at the cage (a deposit or withdrawal journaled by
   * any node): called once per entry on every node, so that the player's
   * sockets wherever they are connected hear of it.
   */
  readonly walletMoved?: (playerId: string) => void;
  /**
   * A user was disabled, their password changed or reset, or one of their
   * sessions revoked (journaled by any node): called once per entry on every
   * node, so that their sockets close wherever they are connected.
   */
  readonly sessionsEnded?: (change: SessionsEnded) => void;
  /** A table was opened or closed for play (journaled by any node): called once per entry on every node. */
  readonly tableOpened?: (tableId: string, seq: number, open: boolean) => void;
  /**
   * An entry that changes who may play (bet-admission.ts, REGISTER_ENTRY_TYPES)
   * was journaled by any node: called once per entry on every node.
   */
  readonly registersChanged?: () => void;
  readonly clock?: () => number;
  /** How often the journal is read anyway: the safety net for a notice missed with none after it. */
  readonly pollMs?: number;
  /** How often a node tries to take the leases of tables nobody holds. */
  readonly leaseSweepMs?: number;
  /**
   * Takes a table's lease when nobody holds it; true while this node holds it.
   * A floor passes CommandRouter.take, so that the lease's epoch goes with it;
   * by default the cluster's lease alone.
   */
  readonly takeLease?: (tableId: string) => Promise<boolean>;
}

const JOURNAL_PAGE = 1_000;

export class Floor {
  private lastSeq = 0;
  private reading: Promise<void> | undefined;
  private again = false;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Every table whose betting time runs, whoever holds it: its deadline. */
  private readonly deadlines = new Map<string, number>();
  private readonly intervals: NodeJS.Timeout[] = [];
  private readonly clock: () => number;
  private stopped = false;

  constructor(private readonly options: FloorOptions) {
    this.clock = options.clock ?? Date.now;
  }

  async start(): Promise<void> {
    this.lastSeq = (await this.options.store.journalHead()).lastSeq;
    for (const tableId of await this.options.store.listTables()) {
      const header = (await this.options.store.getTable(tableId))?.state as
        { phase?: string; bettingDeadlineMs?: number | null } | undefined;
      if (header?.phase === 'betting' && typeof header.bettingDeadlineMs === 'number')
        this.deadlines.set(tableId, header.bettingDeadlineMs);
    }
    await this.options.store.cluster.listen((notice) => this.heard(notice));
    this.intervals.push(setInterval(() => this.catchUp(), this.options.pollMs ?? 1_000));
    this.intervals.push(
      setInterval(() => void this.sweepLeases(), this.options.leaseSweepMs ?? 2_000),
    );
    for (const i of this.intervals) i.unref();
    await this.sweepLeases();
  }

  stop(): void {
    this.stopped = true;
    for (const i of this.intervals) clearInterval(i);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /**
   * Called with this node's own commits: delivers them at once when they follow
   * the cursor (a read in flight skips them when its page comes). Otherwise the
   * commit's own notice brings them, after the entries before them; a lone node
   * (SQLite) hears nothing and reads the journal.
   */
  committed(tableId: string, events: readonly PublishedEvent[]): void {
    if (follows(this.lastSeq, events)) {
      this.lastSeq = events[events.length - 1]!.seq;
      this.options.publish(tableId, events);
      this.watch(tableId, events);
    } else if (!this.options.store.cluster.hearsJournal) {
      this.catchUp();
    }
  }

  /** Called after this node journaled entries that are no round events (the cage, a table opened). */
  journaled(): void {
    // Their notice reaches every node, this one too; a lone node (SQLite) hears nothing and reads them.
    if (!this.options.store.cluster.hearsJournal) this.catchUp();
  }

  /** A journal write committed (by any node): deliver its entries, or read the journal for them. */
  private heard(notice: JournalNotice): void {
    if (notice.kind === 'entries' && notice.entries[0]!.seq <= this.lastSeq + 1) {
      try {
        this.deliver(notice.entries);
      } catch {
        // A hook or the hub failed: the node goes on, as after a failed read.
      }
    } else if (notice.kind !== 'range' || notice.toSeq > this.lastSeq) {
      this.catchUp();
    }
  }

  /** Reads the journal after the last entry seen; runs one read at a time, and once more if asked meanwhile. */
  catchUp(): void {
    if (this.reading !== undefined) {
      this.again = true;
      return;
    }
    this.reading = this.readNew()
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.catchUp();
        }
      });
  }

  private async readNew(): Promise<void> {
    for (;;) {
      const page = await this.options.store.readJournal({
        fromSeq: this.lastSeq + 1,
        limit: JOURNAL_PAGE,
      });
      this.deliver(page);
      if (page.length < JOURNAL_PAGE) return;
    }
  }

  /**
   * Hands on the entries after the cursor, in seq order; the caller makes sure
   * that none is missing between the cursor and the first. Entries delivered
   * meanwhile (while a read awaited its page) are skipped. Round events go to
   * `publish` table by table, each table's in seq order.
   */
  private deliver(entries: readonly JournalEntry[]): void {
    const byTable = new Map<string, PublishedEvent[]>();
    for (const entry of entries) {
      if (entry.seq <= this.lastSeq) continue;
      this.lastSeq = entry.seq;
      if (entry.tableId === null && (entry.type === 'deposit' || entry.type === 'withdrawal'))
        this.options.walletMoved?.(entry.payload.playerId);
      if (
        entry.type === 'user-disabled' ||
        entry.type === 'password-changed' ||
        entry.type === 'password-reset' ||
        entry.type === 'session-revoked'
      )
        this.options.sessionsEnded?.({
          userId: entry.payload.userId,
          kind: entry.type === 'session-revoked' ? 'revoked' : 'all',
          atMs: entry.atMs,
        });
      if (
        entry.tableId !== null &&
        (entry.type === 'table-opened' || entry.type === 'table-closed')
      )
        this.options.tableOpened?.(entry.tableId, entry.seq, entry.type === 'table-opened');
      if (REGISTER_ENTRY_TYPES.has(entry.type)) this.options.registersChanged?.();
      if (entry.tableId === null || !isRoundEventEntry(entry)) continue;
      const list = byTable.get(entry.tableId) ?? [];
      list.push({ seq: entry.seq, event: entry.payload });
      byTable.set(entry.tableId, list);
    }
    for (const [tableId, events] of byTable) {
      this.options.publish(tableId, events);
      this.watch(tableId, events);
    }
  }

  /** Follows each table's betting time as its events go by; the timer runs on the lease holder only. */
  private watch(tableId: string, events: readonly PublishedEvent[]): void {
    for (const { event } of events) {
      if (event.type === 'betting-opened' && event.deadlineMs !== null) {
        this.deadlines.set(tableId, event.deadlineMs);
        if (this.options.store.cluster.holds(`table:${tableId}`))
          this.arm(tableId, event.deadlineMs);
        else void this.claim(tableId).catch(() => undefined);
      }
      if (event.type === 'bell-rung') {
        this.deadlines.delete(tableId);
        this.disarm(tableId);
      }
    }
  }

  private arm(tableId: string, deadlineMs: number): void {
    if (this.stopped || !this.options.store.cluster.holds(`table:${tableId}`)) return;
    this.disarm(tableId);
    const timer = setTimeout(
      () => {
        this.timers.delete(tableId);
        // Art. 3.1: the bell rings when betting time is over.
        void this.options.service
          .execute({ tableId, command: { type: 'tick' } })
          .catch(() => undefined);
      },
      Math.max(0, deadlineMs - this.clock()),
    );
    timer.unref();
    this.timers.set(tableId, timer);
  }

  private disarm(tableId: string): void {
    clearTimeout(this.timers.get(tableId));
    this.timers.delete(tableId);
  }

  /** Tables whose lease this node holds (the metrics). */
  async leasesHeld(): Promise<number> {
    const tables = await this.options.store.listTables();
    return tables.filter((id) => this.options.store.cluster.holds(`table:${id}`)).length;
  }

  /** Takes the leases of tables whose betting time runs and nobody holds, and arms their timers. */
  private async sweepLeases(): Promise<void> {
    if (this.stopped) return;
    try {
      for (const tableId of [...this.deadlines.keys()]) await this.claim(tableId);
    } catch {
      // The database is away (a restart, a failover): the next sweep tries again.
    }
  }

  /** Takes the table's lease when nobody holds it, and arms its timer if this node has none yet. */
  private async claim(tableId: string): Promise<void> {
    const key = `table:${tableId}`;
    const held = this.options.store.cluster.holds(key);
    const taken = await (this.options.takeLease?.(tableId) ??
      this.options.store.cluster.tryLease(key));
    if (!taken || this.stopped || (held && this.timers.has(tableId))) return;
    const snap = await this.options.service.snapshot(tableId);
    if (snap?.state.phase === 'betting' && snap.state.bettingDeadlineMs !== null)
      this.arm(tableId, snap.state.bettingDeadlineMs);
  }
}

/** Whether the events are the very next seqs after `lastSeq`, with none missing between. */
function follows(lastSeq: number, events: readonly PublishedEvent[]): boolean {
  return events.length > 0 && events.every((e, i) => e.seq === lastSeq + 1 + i);
}
