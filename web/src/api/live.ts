/**
 * The table's WebSocket (`/api/v1/tables/:id/ws`, docs/api.md): same origin,
 * ws or wss by the page's protocol, the session cookie for auth. It reconnects
 * with a growing delay and resumes with `?after=<last seq>` so no event is
 * missed; events already seen (seq at or below the last) are dropped.
 */
import { API_BASE, ApiError } from './http.js';
import type {
  BatchResult,
  FairnessAlertMessage,
  RoundEvent,
  ServerMessage,
  StakesMessage,
  TableView,
  TableHoldMessage,
} from './types.js';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

export interface LiveHandlers {
  readonly onHello: (view: TableView) => void;
  readonly onEvent: (event: RoundEvent, seq: number) => void;
  readonly onStatus: (status: LiveStatus) => void;
  /** Staff only (croupier, supervisor, inspector): the server sends players none. */
  readonly onAlert?: (alert: FairnessAlertMessage) => void;
  /** Staff only: the table was held or released (Art. 1.1). */
  readonly onHold?: (message: TableHoldMessage) => void;
  /** The table was opened or closed for play (Art. 2): what may be done has changed. */
  readonly onTableOpen?: (open: boolean) => void;
  /** The player's wallet changed at the cage. */
  readonly onWallet?: (balanceMinor: number) => void;
  /** The summary feed's stakes by spot (instead of everyone's bets). */
  readonly onStakes?: (stakes: StakesMessage) => void;
}

/** What a player may send on the socket (docs/api.md), without the requestId the socket adds. */
export type PlayerRequest =
  | {
      readonly type: 'place-bets';
      readonly bets: readonly { betId: string; spot: string; stakeMinor: number }[];
    }
  | { readonly type: 'withdraw-bets'; readonly betIds: readonly string[] };

/** The answer to a batch: each bet's outcome in order, and the balance after the last one taken. */
export interface BatchAnswer {
  readonly results: readonly BatchResult[];
  readonly balanceMinor: number;
}

/** A request unanswered this long is given up (the socket is likely gone; its close says so). */
const REQUEST_TIMEOUT_MS = 15_000;

/** Close code of a resume whose `after` is too far behind (the server's limit). */
export const WS_CLOSE_TOO_FAR_BEHIND = 4001;
/** The server closes a socket with this when its user's sessions ended (disabled, reset, revoked). */
export const WS_CLOSE_SESSION_ENDED = 4401;
const RETRY_MS_MIN = 500;
const RETRY_MS_MAX = 10_000;

/** `summary` for a socket that wants the table's course but not every player's bets (docs/api.md). */
export type Feed = 'all' | 'summary';

export function socketUrl(
  loc: Pick<Location, 'protocol' | 'host'>,
  tableId: string,
  after: number | null,
  feed: Feed = 'all',
): string {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const params = [
    ...(after === null ? [] : [`after=${after}`]),
    ...(feed === 'all' ? [] : [`feed=${feed}`]),
  ];
  const query = params.length === 0 ? '' : `?${params.join('&')}`;
  return `${scheme}//${loc.host}${API_BASE}/tables/${encodeURIComponent(tableId)}/ws${query}`;
}

export class LiveTable {
  private socket: WebSocket | null = null;
  private lastSeq: number | null = null;
  private retryMs = RETRY_MS_MIN;
  private timer: number | undefined;
  private stopped = false;
  private requestNo = 0;
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly tableId: string,
    private readonly handlers: LiveHandlers,
    private readonly feed: Feed = 'all',
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
    this.failWaiting();
  }

  /**
   * Sends a batch over the socket: one message, one transaction on the server,
   * each bet accepted or refused on its own. Refused with code `network` when
   * the socket is not open, or loses its connection before the answer.
   */
  request(message: PlayerRequest): Promise<BatchAnswer> {
    const socket = this.socket;
    if (socket === null || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(networkError());
    const requestId = `r${++this.requestNo}`;
    return new Promise((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.waiting.delete(requestId);
        reject(networkError());
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(requestId, { resolve, reject, timer });
      socket.send(JSON.stringify({ ...message, requestId }));
    });
  }

  /** A dropped connection answers no request: each one waiting is refused, to be tried again. */
  private failWaiting(): void {
    for (const { reject, timer } of this.waiting.values()) {
      window.clearTimeout(timer);
      reject(networkError());
    }
    this.waiting.clear();
  }

  private answer(requestId: string | null | undefined, settle: (w: Waiting) => void): void {
    const waiting = requestId == null ? undefined : this.waiting.get(requestId);
    if (waiting === undefined) return;
    this.waiting.delete(requestId!);
    window.clearTimeout(waiting.timer);
    settle(waiting);
  }

  private connect(): void {
    this.handlers.onStatus(this.lastSeq === null ? 'connecting' : 'reconnecting');
    const socket = new WebSocket(socketUrl(location, this.tableId, this.lastSeq, this.feed));
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = RETRY_MS_MIN;
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (event) => {
      if (this.socket !== socket || this.stopped) return;
      this.failWaiting();
      if (event.code === WS_CLOSE_SESSION_ENDED) {
        // Signed out by the house: back to the sign-in page (as on a 401), no reconnecting.
        this.stopped = true;
        location.hash = '#/';
        return;
      }
      // The server cannot replay that far back: start afresh from a new hello view.
      if (event.code === WS_CLOSE_TOO_FAR_BEHIND) this.lastSeq = null;
      this.handlers.onStatus('reconnecting');
      this.timer = window.setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MS_MAX);
    };
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: ServerMessage;
    try {
      message = JSON.parse(data) as ServerMessage;
    } catch {
      return;
    }
    if (message.type === 'hello') {
      // On the first connection nothing is replayed, so the view is the starting point;
      // after a reconnect the events after lastSeq follow and are applied one by one.
      if (this.lastSeq === null) this.lastSeq = message.view.lastEventSeq;
      this.handlers.onStatus('live');
      this.handlers.onHello(message.view);
    } else if (message.type === 'event') {
      if (this.lastSeq !== null && message.seq <= this.lastSeq) return;
      this.lastSeq = message.seq;
      this.handlers.onEvent(message.event, message.seq);
    } else if (message.type === 'fairness-alert') {
      this.handlers.onAlert?.(message);
    } else if (message.type === 'table-hold') {
      this.handlers.onHold?.(message);
    } else if (message.type === 'table-open') {
      this.handlers.onTableOpen?.(message.open);
    } else if (message.type === 'wallet') {
      this.handlers.onWallet?.(message.balanceMinor);
    } else if (message.type === 'stakes') {
      this.handlers.onStakes?.(message);
    } else if (message.type === 'batch-ack') {
      this.answer(message.requestId, (w) =>
        w.resolve({ results: message.results, balanceMinor: message.balanceMinor }),
      );
    } else if (message.type === 'error') {
      this.answer(message.requestId, (w) => w.reject(new ApiError(409, message.error)));
    }
  }
}

interface Waiting {
  readonly resolve: (a: BatchAnswer) => void;
  readonly reject: (e: ApiError) => void;
  readonly timer: number;
}

const networkError = (): ApiError =>
  new ApiError(0, { code: 'network', message: 'The server cannot be reached.' });
