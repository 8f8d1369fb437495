import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyReveal } from '../dice/seal.js';
import { ELECTRONIC, LEVER, T0, TIMED } from './fixtures.js';
import { playRound, simulate, type SimulationOptions } from './simulation.js';

const OPTIONS: SimulationOptions = {
  config: ELECTRONIC,
  seed: 57,
  rounds: 25,
  startMs: T0,
  voidChance: 0.2,
};

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

  it('seals electronic rolls that verify on reveal, and refuses a bad round count', () => {
    const reveals = simulate({ config: ELECTRONIC, seed: 1, rounds: 5 }).rounds.flatMap((r) =>
      r.events.filter((e) => e.type === 'dice-revealed'),
    );
    expect(reveals).toHaveLength(5);
    for (const e of reveals) expect(verifyReveal(e)).toEqual({ ok: true, value: e.dice });
    expect(() => simulate({ ...OPTIONS, rounds: -1 })).toThrow(RangeError);
  });
});
