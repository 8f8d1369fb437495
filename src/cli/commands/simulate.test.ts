import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';
import type { Simulation } from './simulate.js';

describe('cussec simulate', () => {
  it('replays the same run from the same seed', async () => {
    const args = [
      'simulate',
      '--rounds',
      '20000',
      '--seed',
      'fixed',
      '--bet',
      'small=100',
      '--json',
    ];
    const first = await runCli(args);
    const second = await runCli(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
  });

  it('compares each bet with its exact return and a 99% interval', async () => {
    const { code, stdout } = await runCli([
      'simulate',
      '--rounds',
      '50000',
      '--seed',
      's1',
      '--json',
    ]);
    expect(code).toBe(0);
    const s = JSON.parse(stdout) as Simulation;
    expect(s.rounds).toBe(50_000);
    expect(s.bets).toHaveLength(14);
    for (const b of s.bets) {
      expect(b.stakedMinor).toBe(b.stakeMinor * 50_000);
      expect(b.actualRtp).toBeCloseTo(b.returnedMinor / b.stakedMinor, 12);
      expect(b.interval99[0]).toBeLessThan(b.exactRtp);
      expect(b.interval99[1]).toBeGreaterThan(b.exactRtp);
      expect(b.withinInterval).toBe(
        b.actualRtp >= b.interval99[0] && b.actualRtp <= b.interval99[1],
      );
    }
    expect(s.bets.find((b) => b.spot === 'odd')!.exactRtp).toBe(1);
    expect(s.diceTests.map((t) => t.name)).toEqual(['faces chi-square', 'totals chi-square']);
  });

  it('prints the seed so a person can rerun the same rolls', async () => {
    const { stdout } = await runCli(['simulate', '--rounds', '1000']);
    expect(stdout).toMatch(/^1,000 rolls, seed ([0-9a-f]{16}) \(rerun with --seed \1\)$/m);
  });

  it.each([
    [['--rounds', '0'], /--rounds must be a whole number/],
    [['--rounds', 'ten'], /--rounds must be a whole number/],
    [['--rounds', '100', '--bet', 'nope=1'], /"nope" is not a bet/],
    [['--rounds', '1e9', '--bet', 'small=99999999'], /too large to count exactly/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const { code, stderr, stdout } = await runCli(['simulate', ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });
});
