/**
 * Failed logins slow the next ones down, by (username, client address) pair
 * and by client address, so that a password cannot be guessed by trying while
 * no one can lock a user out: failures from an attacker's address hold back
 * that address only, never the croupier or the supervisor signing in from
 * their own terminal. The client address is the real one: behind a load
 * balancer, the one a trusted proxy reports (`--trust-proxy`, see
 * docs/deployment.md), else every client would share the balancer's.
 *
 * The first failures are
 * free, then each one locks further attempts for twice as long as the last,
 * up to a ceiling. A username that does not exist is throttled exactly like
 * one that does, so the answers tell an attacker nothing about which exist. A
 * locked attempt is refused before the password is checked: it costs no
 * scrypt, and a right password does not get through either.
 *
 * Each server process keeps its own counts (a floor of n nodes lets an
 * attacker n times the rate, still bounded); they are forgotten a while after
 * the last failure, and a successful login clears its username's.
 */

export interface ThrottlePolicy {
  /** Failures allowed before the first lock. */
  readonly freeFailures: number;
  /** The first lock; each further failure doubles it. */
  readonly firstLockMs: number;
  readonly lockMsMax: number;
  /** Failures are forgotten this long after the last one. */
  readonly forgetAfterMs: number;
}

/** A username from one address gets 5 free tries, then 30 s, 1 min, 2 min … up to 15 min. */
export const USERNAME_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  firstLockMs: 30_000,
  lockMsMax: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** An address may front many terminals (a floor behind one NAT): 50 free tries. */
export const ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 50,
  firstLockMs: 30_000,
  lockMsMax: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** Keys tracked at most per kind; beyond it the longest-quiet ones are dropped first. */
const TRACKED_MAX = 100_000;

interface Failures {
  count: number;
  lastAtMs: number;
  lockedUntilMs: number;
}

class FailureCounter {
  // A Map iterates in insertion order; re-inserting on each failure keeps the quietest first.
  private readonly byKey = new Map<string, Failures>();

  constructor(private readonly policy: ThrottlePolicy) {}

  /** Milliseconds until the key may try again; 0 when it may now. */
  waitMs(key: string, nowMs: number): number {
    const f = this.current(key, nowMs);
    return f === undefined ? 0 : Math.max(0, f.lockedUntilMs - nowMs);
  }

  failed(key: string, nowMs: number): void {
    const { freeFailures, firstLockMs, lockMsMax } = this.policy;
    const f = this.current(key, nowMs) ?? { count: 0, lastAtMs: nowMs, lockedUntilMs: 0 };
    f.count++;
    f.lastAtMs = nowMs;
    if (f.count >= freeFailures) {
      const doublings = Math.min(f.count - freeFailures, 30);
      f.lockedUntilMs = nowMs + Math.min(lockMsMax, firstLockMs * 2 ** doublings);
    }
    this.byKey.delete(key);
    this.byKey.set(key, f);
    if (this.byKey.size > TRACKED_MAX) this.byKey.delete(this.byKey.keys().next().value!);
  }

  clear(key: string): void {
    this.byKey.delete(key);
  }

  private current(key: string, nowMs: number): Failures | undefined {
    const f = this.byKey.get(key);
    if (f === undefined) return undefined;
    if (nowMs - f.lastAtMs < this.policy.forgetAfterMs || f.lockedUntilMs > nowMs) return f;
    this.byKey.delete(key);
    return undefined;
  }
}

export class LoginThrottle {
  private readonly usernames: FailureCounter;
  private readonly addresses: FailureCounter;

  constructor(policies: { username?: ThrottlePolicy; address?: ThrottlePolicy } = {}) {
    this.usernames = new FailureCounter(policies.username ?? USERNAME_POLICY);
    this.addresses = new FailureCounter(policies.address ?? ADDRESS_POLICY);
  }

  /** Milliseconds until this username may be tried from this address; 0 when it may now. */
  waitMs(usernameKey: string, address: string, nowMs: number): number {
    return Math.max(
      this.usernames.waitMs(pair(usernameKey, address), nowMs),
      this.addresses.waitMs(address, nowMs),
    );
  }

  failed(usernameKey: string, address: string, nowMs: number): void {
    this.usernames.failed(pair(usernameKey, address), nowMs);
    this.addresses.failed(address, nowMs);
  }

  /** A right password clears the pair's failures; the address's stay (it may be guessing others). */
  succeeded(usernameKey: string, address: string): void {
    this.usernames.clear(pair(usernameKey, address));
  }
}

// A newline cannot be in a normalised username, so the pair is unambiguous.
const pair = (usernameKey: string, address: string): string => `${usernameKey}\n${address}`;
