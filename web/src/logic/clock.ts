/**
 * The server's clock as seen from the browser. The betting countdown runs to
 * `bettingDeadlineMs`, a server time; a browser whose clock is off by seconds
 * would show the wrong time left. Each live event carries its server `atMs` and
 * arrives a little after it, so `local − atMs` is the offset plus the delay;
 * the smallest value seen is the best estimate of the offset alone.
 */
export class ServerClock {
  private offsetMs: number | null = null;

  /** Records an event that was just received live. */
  observe(serverAtMs: number, localNowMs: number): void {
    const sample = localNowMs - serverAtMs;
    if (this.offsetMs === null || sample < this.offsetMs) this.offsetMs = sample;
  }

  /** Forgets the samples, e.g. after a reconnect that replays old events. */
  reset(): void {
    this.offsetMs = null;
  }

  now(localNowMs: number = Date.now()): number {
    return localNowMs - (this.offsetMs ?? 0);
  }
}

/** Whole seconds left before a deadline, never negative; null without a deadline. */
export function secondsLeft(deadlineMs: number | null, serverNowMs: number): number | null {
  if (deadlineMs === null) return null;
  return Math.max(0, Math.ceil((deadlineMs - serverNowMs) / 1000));
}
