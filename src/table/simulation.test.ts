import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ELECTRONIC, LEVER, T0, TIMED } from './fixtures.js';
import { createPrng } from './prng.js';
import { playRound, simulate, type SimulationOptions } from './simulation.js';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const OPTIONS: SimulationOptions = {
  config: ELECTRONIC,
  seed: 57,
  rounds: 25,
  startMs: T0,
  voidChance: 0.2,
  commit: sha256Hex,
};

describe('createPrng (mulberry32)', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = createPrng(42);
    const b = createPrng(42);
    const c = createPrng(43);
    const seqA = Array.from({ length: 20 }, () => a.uint32());
    expect(Array.from({ length: 20 }, () => b.uint32())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.uint32())).not.toEqual(seqA);
  });

  it('keeps every draw inside its range and reaches both ends', () => {
    const prng = createPrng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 5000; i++) {
      const n = prng.int(-2, 3);
      expect(n >= -2 && n <= 3 && Number.isInteger(n)).toBe(true);
      seen.add(n);
      expect(prng.uint32()).toBeLessThan(2 ** 32);
    }
    expect([...seen].sort((x, y) => x - y)).toEqual([-2, -1, 0, 1, 2, 3]);
  });

  it('draws faces close to uniformly (chi-square over 60 000 dice, 5 degrees of freedom)', () => {
    const prng = createPrng(2004);
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) for (const f of prng.dice()) counts[f - 1]! += 1;
    const expected = 10_000;
    const chi2 = counts.reduce((t, n) => t + (n - expected) ** 2 / expected, 0);
    // 20.5 is the 0.999 quantile of chi-square with 5 degrees of freedom; the seed is fixed, so this never flakes.
    expect(chi2).toBeLessThan(20.5);
  });

  it('writes hex of the asked length, lowercase', () => {
    expect(createPrng(1).hex(32)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('simulate', () => {
  afterEach(() => vi.restoreAllMocks());

  it('plays the same events from the same seed', () => {
    expect(simulate(OPTIONS)).toEqual(simulate(OPTIONS));
  });

  it('plays other events from another seed', () => {
    expect(simulate({ ...OPTIONS, seed: 58 }).rounds).not.toEqual(simulate(OPTIONS).rounds);
  });

  it('replays any round exactly from its seed and the state before it', () => {
    const { rounds } = simulate(OPTIONS);
    for (const round of rounds) {
      const replay = playRound(OPTIONS, round.stateBefore, round.seed, round.startMs);
      expect(replay.events).toEqual(round.events);
    }
  });

  it('replays a round from a state that went through JSON, as a service would store it', () => {
    const { rounds } = simulate({ ...OPTIONS, config: TIMED });
    const round = rounds[17]!;
    const stored = JSON.parse(JSON.stringify(round.stateBefore)) as typeof round.stateBefore;
    expect(
      playRound({ ...OPTIONS, config: TIMED }, stored, round.seed, round.startMs).events,
    ).toEqual(round.events);
  });

  it('never calls Math.random or reads the clock', () => {
    const random = vi.spyOn(Math, 'random');
    const now = vi.spyOn(Date, 'now');
    simulate({ ...OPTIONS, config: LEVER });
    simulate(OPTIONS);
    expect(random).not.toHaveBeenCalled();
    expect(now).not.toHaveBeenCalled();
  });

  it('numbers rounds 1, 2, … and ends each one paid (Art. 4)', () => {
    const { rounds, state } = simulate(OPTIONS);
    expect(rounds.map((r) => r.roundNo)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    for (const r of rounds) expect(r.events.at(-1)?.type).toBe('prizes-paid');
    expect([state.phase, state.roundNo]).toEqual(['paid', 25]);
  });

  it('rings the bell by the timer in some rounds and by hand in others', () => {
    const bells = simulate({ ...OPTIONS, config: TIMED }).rounds.flatMap((r) =>
      r.events.filter((e) => e.type === 'bell-rung'),
    );
    const automatic = bells.map((e) => e.type === 'bell-rung' && e.automatic);
    expect(automatic).toContain(true);
    expect(automatic).toContain(false);
  });

  it('refuses an electronic table without a commitment function, and a bad round count', () => {
    const noCommit: SimulationOptions = { config: ELECTRONIC, seed: 1, rounds: 1 };
    expect(() => simulate(noCommit)).toThrow(/commit/);
    expect(() => simulate({ ...OPTIONS, rounds: -1 })).toThrow(RangeError);
  });
});
