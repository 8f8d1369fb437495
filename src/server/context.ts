/** What every route and socket handler shares. */
import type { Store } from '../ledger/index.js';
import type { Floor } from '../service/floor.js';
import type { HolidayCalendarService } from '../service/holidays.js';
import type { CashChecks } from '../service/cash-checks.js';
import type { People } from '../service/people.js';
import type { ReadWorkers } from '../service/read-workers.js';
import type { TableService } from '../service/table-service.js';
import type { Hub } from './hub.js';
import type { LoginThrottle } from './login-throttle.js';
import type { Metrics } from './metrics.js';
import type { RouteSpec } from './route.js';
import type { SessionSockets } from './session-sockets.js';

export interface AppContext {
  readonly store: Store;
  readonly service: TableService;
  /** Identities, eligibility and the registers of who may play (Lei 10/2012, Instrução 1/2016). */
  readonly people: People;
  /** Instrução 1/2016 at the cage: large cash, linked transactions, suspicion flags. */
  readonly cash: CashChecks;
  /** The working-day calendar (Art. 8), whose Lunar New Year days Lei 10/2012, art. 2 reads too. */
  readonly holidays: HolidayCalendarService;
  /** Reads that would hold the event loop (recall, a table's day) run here, on worker threads. */
  readonly reads: ReadWorkers;
  readonly hub: Hub;
  /** This node's part of the floor: entries journaled here reach every node's sockets through it. */
  readonly floor: Floor;
  /**
   * Where the other nodes of a floor reach this one: what it records as the
   * holder of the leases it takes (the table row's lease_holder). Undefined
   * when this server is not a floor node, or before it listens.
   */
  readonly nodeUrl: () => string | undefined;
  readonly metrics: Metrics;
  readonly clock: () => number;
  /** Every declared route, for the OpenAPI document. */
  readonly routes: RouteSpec[];
  /** A session unused this long ends. */
  readonly sessionIdleMs: number;
  /** Ends the sockets of a session when it ends (logout, expiry, revocation). */
  readonly sessions: SessionSockets;
  /** Origins besides the server's own whose pages may use its session cookie and sockets. */
  readonly allowedOrigins: ReadonlySet<string>;
  readonly limits: ServerLimits;
  /** Failed logins slow the next ones down, by username and by address. */
  readonly loginThrottle: LoginThrottle;
  /**
   * `cussec serve --demo`: tables created here carry an authorization marked
   * as a demonstration (Art. 8), so they can be played; never on a casino floor.
   */
  readonly demo: boolean;
  /** Whether each JSON answer is checked against its route's `response` schema (registerRoute). */
  readonly checkAnswers: boolean;
  /**
   * What a start loads before it listens (App.warm), so that no first read
   * after a restart holds the event loop for it: each table's fairness monitor.
   */
  readonly warmups: (() => Promise<unknown>)[];
}

export interface ServerLimits {
  readonly bodyBytesMax: number;
  readonly wsMessagesPerSecondMax: number;
  readonly wsMessageBytesMax: number;
  /** Bytes a slow socket may have waiting before it is closed. */
  readonly wsBufferedBytesMax: number;
  /** Events a socket may resume (`?after=`); further behind, it must start again from the view. */
  readonly wsBacklogEventsMax: number;
  /** Free bytes the SQLite database's folder must keep for /readyz to say ready (a full disk cannot commit). */
  readonly diskFreeBytesMin: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  bodyBytesMax: 64 * 1024,
  wsMessagesPerSecondMax: 50,
  wsMessageBytesMax: 16 * 1024,
  wsBufferedBytesMax: 4 * 1024 * 1024,
  wsBacklogEventsMax: 10_000,
  diskFreeBytesMin: 64 * 1024 * 1024,
};
