/**
 * The one place that ends the sockets of a session when the session ends,
 * for whatever reason: logout, idle or absolute expiry, or revocation (a user
 * disabled, a password changed, an administrator ending sessions). Each
 * authenticated socket is kept by its session's token hash:
 *
 * - `endSession(tokenHash)` and `endUserSessions(userId)` close this node's
 *   sockets of a session, or of every session of a user, at once; whoever
 *   deletes sessions in the store calls them.
 * - `journaled(change)`: every node hears from the journal that a user was
 *   disabled, their password changed or reset (which end every session they
 *   had) or one of their sessions revoked, on whichever node it was done
 *   (Floor, `sessionsEnded`), and closes that user's sockets at once.
 * - A sweep every `sweepMs` asks the store whether each session is still
 *   live, so a session that expired, or was ended by a logout on another
 *   node of a floor (not journaled), loses its sockets within that time.
 *
 * A socket's messages count as activity: they slide the session's idle expiry
 * like HTTP requests do. A message is acted on only while the store holds
 * its session live (`live`), as an HTTP request is: one that arrives after
 * the session's expiry, or after a logout on another node, before the sweep
 * has seen it, is not, and its sockets close then.
 */
import type { WebSocket } from 'ws';
import type { Session, Store } from '../ledger/index.js';
import type { SessionsEnded } from '../service/floor.js';
import { sessionExpiresAtMs, sessionLive, touch } from '../service/sessions.js';

/** Close code for a socket whose session ended: log in again. */
export const WS_CLOSE_SESSION_ENDED = 4401;
export const SESSION_SWEEP_MS = 10_000;

interface Tracked {
  readonly userId: string;
  readonly createdAtMs: number;
  readonly sockets: Set<WebSocket>;
  /** When its socket activity last reached the store. */
  lastTouchMs: number;
  /** When the session ends at the latest the store said: past it, the store is asked again. */
  expiresAtMs: number;
}

export class SessionSockets {
  private readonly byToken = new Map<string, Tracked>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
    private readonly idleMs: number,
  ) {}

  /** Keeps `socket` under its session (which ends at its expiry, or later if used) until it closes. */
  add(
    session: Pick<Session, 'tokenHash' | 'createdAtMs' | 'expiresAtMs'>,
    userId: string,
    socket: WebSocket,
  ): void {
    const { tokenHash, createdAtMs, expiresAtMs } = session;
    let tracked = this.byToken.get(tokenHash);
    if (tracked === undefined)
      this.byToken.set(
        tokenHash,
        (tracked = {
          userId,
          createdAtMs,
          sockets: new Set(),
          lastTouchMs: this.clock(),
          expiresAtMs,
        }),
      );
    tracked.sockets.add(socket);
    socket.on('close', () => {
      tracked.sockets.delete(socket);
      if (tracked.sockets.size === 0 && this.byToken.get(tokenHash) === tracked)
        this.byToken.delete(tokenHash);
    });
  }

  /** Closes this node's sockets of one session; how many. */
  endSession(tokenHash: string, reason = 'the session ended: log in again'): number {
    const tracked = this.byToken.get(tokenHash);
    if (tracked === undefined) return 0;
    this.byToken.delete(tokenHash);
    for (const socket of tracked.sockets) socket.close(WS_CLOSE_SESSION_ENDED, reason);
    return tracked.sockets.size;
  }

  /** Closes this node's sockets of every session of a user; how many. */
  endUserSessions(userId: string, reason = 'the session ended: log in again'): number {
    let closed = 0;
    for (const [hash, tracked] of [...this.byToken])
      if (tracked.userId === userId) closed += this.endSession(hash, reason);
    return closed;
  }

  /**
   * A journaled change that ended sessions of a user, heard by every node:
   * disabling a user or changing or resetting a password ends every session
   * the user had begun before it (one begun since, with the new password, is
   * kept); a revoked session is one of them, which the store tells. The store
   * deletes the sessions before or right after the entry commits; a socket this
   * misses still has its next message refused (`live`) and closes at the sweep.
   */
  async journaled(change: SessionsEnded): Promise<void> {
    const mine = [...this.byToken].filter(([, t]) => t.userId === change.userId);
    if (change.kind === 'revoked') {
      const now = this.clock();
      for (const [hash] of mine)
        if (!(await sessionLive(this.store, hash, now))) this.endSession(hash);
      return;
    }
    for (const [hash, tracked] of mine)
      if (tracked.createdAtMs < change.atMs) this.endSession(hash);
  }

  /**
   * A message on a session's socket: the session is in use. It reaches the
   * store at most once every twentieth of the idle time, not on every bet.
   */
  async activity(tokenHash: string): Promise<void> {
    const tracked = this.byToken.get(tokenHash);
    const now = this.clock();
    if (tracked === undefined || now - tracked.lastTouchMs < this.idleMs / 20) return;
    tracked.lastTouchMs = now;
    const found = await touch(this.store, tokenHash, now, this.idleMs);
    if (found === undefined) this.endSession(tokenHash);
    else tracked.expiresAtMs = Math.max(tracked.expiresAtMs, found.session.expiresAtMs);
  }

  /**
   * Whether a message on this session's sockets may be acted on: the session
   * has not ended on this node and the store holds it live now, so a logout
   * or a revocation on another node of a floor stops the next message as it
   * stops the next HTTP request (one session read a message, as a request
   * makes; reads asked together go in one statement). When it is over, its
   * sockets close (4401).
   */
  async live(tokenHash: string): Promise<boolean> {
    const tracked = this.byToken.get(tokenHash);
    if (tracked === undefined) return false;
    const expiresAtMs = await sessionExpiresAtMs(this.store, tokenHash, this.clock());
    if (expiresAtMs === undefined) {
      this.endSession(tokenHash);
      return false;
    }
    tracked.expiresAtMs = Math.max(tracked.expiresAtMs, expiresAtMs);
    return true;
  }

  /** Ends the sockets of every session the store no longer holds live. */
  async sweep(): Promise<void> {
    const now = this.clock();
    for (const hash of [...this.byToken.keys()]) {
      if (!(await sessionLive(this.store, hash, now))) this.endSession(hash);
    }
  }

  start(sweepMs: number): void {
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), sweepMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
