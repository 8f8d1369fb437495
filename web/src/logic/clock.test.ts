import { describe, expect, it } from 'vitest';
import { secondsLeft, ServerClock } from './clock.js';

describe('the server clock', () => {
  it('estimates the offset from the quickest event', () => {
    const clock = new ServerClock();
    clock.observe(10_000, 12_300); // 2 s offset + 300 ms delay
    clock.observe(20_000, 22_050); // 2 s offset + 50 ms delay
    clock.observe(5_000, 60_000); // a replayed old event changes nothing
    expect(clock.now(30_000)).toBe(27_950);
  });

  it('counts whole seconds down to zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
    expect(secondsLeft(null, 0)).toBeNull();
  });
});
