/**
 * The last W rolls, as a ring buffer of outcome indices (0..215, one byte a
 * roll) with their counts kept up to date: adding a roll to a full window
 * removes the oldest, so each roll costs O(1) however large W is.
 */
import { SpanCounts } from './span-counts.js';

export class OutcomeWindow {
  readonly counts = new SpanCounts();
  private readonly ring: Uint8Array;
  /** Where the next roll goes; when the window is full, also the oldest roll. */
  private head = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.ring = new Uint8Array(capacity);
  }

  get rolls(): number {
    return this.size;
  }

  add(outcome: number): void {
    if (this.size === this.capacity) this.counts.update(this.ring[this.head]!, -1);
    else this.size++;
    this.ring[this.head] = outcome;
    this.counts.update(outcome, 1);
    this.head = (this.head + 1) % this.capacity;
  }

  /** The outcomes in the window, oldest first. */
  toBytes(): Uint8Array {
    const start = (this.head - this.size + this.capacity) % this.capacity;
    const out = new Uint8Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = this.ring[(start + i) % this.capacity]!;
    return out;
  }

  /** Oldest first; keeps only the last `capacity` when given more. */
  static fromBytes(capacity: number, outcomes: Uint8Array): OutcomeWindow {
    const window = new OutcomeWindow(capacity);
    for (const outcome of outcomes) {
      if (outcome >= 216) throw new RangeError(`fairness monitor: bad outcome ${outcome}`);
      window.add(outcome);
    }
    return window;
  }
}
