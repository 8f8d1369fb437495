/**
 * One table, live: the TableView from the WebSocket's hello, then each event
 * as it arrives. Two ways to follow it:
 *
 * - `events` (the player's page and the display board): the socket's `summary`
 *   feed, each event applied to the view as it comes (logic/live-view.ts), and
 *   the view fetched once per new round for settings changed between rounds;
 * - `refetch` (the croupier's console): every event, and a fresh TableView
 *   fetched shortly after events (they come in bursts, so fetches are
 *   coalesced), because the console needs the steps the server allows now.
 */
import { tableView } from '../api/endpoints.js';
import { LiveTable, type BatchAnswer, type LiveStatus, type PlayerRequest } from '../api/live.js';
import type { FairnessAlertMessage, RoundEvent, TableView } from '../api/types.js';
import { ServerClock } from '../logic/clock.js';
import { applyEvent, applyStakes } from '../logic/live-view.js';
import { toastError } from '../ui/status.js';

const REFRESH_DELAY_MS = 120;

export type FeedMode = 'events' | 'refetch';

export interface FeedHandlers {
  readonly onView: (view: TableView) => void;
  readonly onEvent?: (event: RoundEvent, seq: number) => void;
  readonly onStatus?: (status: LiveStatus) => void;
  readonly onAlert?: (alert: FairnessAlertMessage) => void;
  readonly onWallet?: (balanceMinor: number) => void;
}

export class TableFeed {
  readonly clock = new ServerClock();
  private readonly live: LiveTable;
  private timer: number | undefined;
  private stopped = false;
  private view: TableView | null = null;

  constructor(
    readonly tableId: string,
    private readonly handlers: FeedHandlers,
    private readonly mode: FeedMode = 'refetch',
  ) {
    this.live = new LiveTable(
      tableId,
      {
        onHello: (view) => this.apply(view),
        onEvent: (event, seq) => this.onEvent(event, seq),
        onStatus: (status) => handlers.onStatus?.(status),
        ...(handlers.onAlert ? { onAlert: handlers.onAlert } : {}),
        // A hold changes which steps the machine allows: fetch the view again.
        onHold: () => this.refreshSoon(),
        // So does opening or closing the table for play (Art. 2).
        onTableOpen: () => this.refreshSoon(),
        ...(handlers.onWallet ? { onWallet: handlers.onWallet } : {}),
        onStakes: (stakes) => {
          if (this.view !== null) this.show(applyStakes(this.view, stakes));
        },
      },
      mode === 'events' ? 'summary' : 'all',
    );
  }

  /** Loads the view over HTTP first (quick first paint, and works if the socket is blocked), then goes live. */
  async start(): Promise<void> {
    await this.refresh();
    if (!this.stopped) this.live.start();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.live.stop();
  }

  /** A player's batch of bets or withdrawals, over the table's socket (one message). */
  request(message: PlayerRequest): Promise<BatchAnswer> {
    return this.live.request(message);
  }

  async refresh(): Promise<void> {
    try {
      const view = await tableView(this.tableId);
      if (!this.stopped) this.apply(view);
    } catch (error) {
      if (!this.stopped) toastError(error);
    }
  }

  private onEvent(event: RoundEvent, seq: number): void {
    this.clock.observe(event.atMs, Date.now());
    if (this.mode === 'refetch') {
      this.handlers.onEvent?.(event, seq);
      this.refreshSoon();
      return;
    }
    // The page hears the event first, so the view it then draws reflects both.
    this.handlers.onEvent?.(event, seq);
    // Events the view already holds (a hello after a reconnect, then the backlog) are not applied twice.
    if (this.view !== null && seq > this.view.lastEventSeq)
      this.show(applyEvent(this.view, event, seq));
    // Limits, timer and layout change between rounds only: one fetch per round keeps them.
    if (event.type === 'dome-covered' && event['newRound'] === true) this.refreshSoon();
  }

  /**
   * Views can arrive out of order (a slow fetch after a newer hello, or after a
   * command's answer); never go back in time. A page that gets a view of its own
   * (a command's answer) gives it here, so that a slower fetch cannot undo it.
   */
  apply(view: TableView): void {
    if (this.view !== null && view.lastEventSeq < this.view.lastEventSeq) return;
    this.show(view);
  }

  private show(view: TableView): void {
    this.view = view;
    this.handlers.onView(view);
  }

  refreshSoon(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }
}
