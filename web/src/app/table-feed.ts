/**
 * One table, live: the TableView from the WebSocket's hello, then each event
 * as it arrives, and a fresh TableView fetched shortly after events (they come
 * in bursts, so fetches are coalesced). Player, croupier and board pages all
 * read a table through this.
 */
import { tableView } from '../api/endpoints.js';
import { LiveTable, type LiveStatus } from '../api/live.js';
import type { FairnessAlertMessage, RoundEvent, TableView } from '../api/types.js';
import { ServerClock } from '../logic/clock.js';
import { toastError } from '../ui/status.js';

const REFRESH_DELAY_MS = 120;

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
  private viewSeq = -1;

  constructor(
    readonly tableId: string,
    private readonly handlers: FeedHandlers,
  ) {
    this.live = new LiveTable(tableId, {
      onHello: (view) => this.apply(view),
      onEvent: (event, seq) => {
        this.clock.observe(event.atMs, Date.now());
        handlers.onEvent?.(event, seq);
        this.refreshSoon();
      },
      onStatus: (status) => handlers.onStatus?.(status),
      ...(handlers.onAlert ? { onAlert: handlers.onAlert } : {}),
      // A hold changes which steps the machine allows: fetch the view again.
      onHold: () => this.refreshSoon(),
      // So does opening or closing the table for play (Art. 2).
      onTableOpen: () => this.refreshSoon(),
      ...(handlers.onWallet ? { onWallet: handlers.onWallet } : {}),
    });
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

  async refresh(): Promise<void> {
    try {
      const view = await tableView(this.tableId);
      if (!this.stopped) this.apply(view);
    } catch (error) {
      if (!this.stopped) toastError(error);
    }
  }

  /** Views can arrive out of order (a slow fetch after a newer hello); never go back in time. */
  private apply(view: TableView): void {
    if (view.lastEventSeq < this.viewSeq) return;
    this.viewSeq = view.lastEventSeq;
    this.handlers.onView(view);
  }

  refreshSoon(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }
}
