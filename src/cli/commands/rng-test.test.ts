import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { seededDiceSource } from '../../dice/index.js';
import { run } from '../program.js';
import { runCli } from '../testing.js';
import { drawAndTest, readRolls } from './rng-test.js';

interface JsonReport {
  rolls: number;
  source: string;
  tests: {
    name: string;
    statistic: number | null;
    df: number | null;
    pValue: number | null;
    pass: boolean;
  }[];
  pass: boolean;
}

describe('cussec rng-test', () => {
  it('passes 200,000 seeded rolls and exits 0', async () => {
    const result = await runCli(['rng-test', '--rolls', '200000', '--seed', 'ci']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('200,000 rolls from the seeded source');
    for (const name of [
      'faces chi-square',
      'totals chi-square',
      'outcomes chi-square',
      'runs',
      'serial',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`${name}.*PASS`));
    }
    expect(result.stdout).toContain('PASS: every test holds');
  });

  it('runs the CSPRNG shaker on 200,000 rolls and reports every test', async () => {
    const result = await runCli(['rng-test', '--rolls', '200000', '--json']);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.rolls).toBe(200_000);
    expect(report.source).toBe('crypto');
    expect(report.tests.map((t) => t.df)).toEqual([5, 15, 215, null, null]);
    // A fair source fails one of five 1% tests about 5% of the time, so the exit code follows the report.
    expect(result.code).toBe(report.pass ? 0 : 1);
  });

  it('prints the agreed JSON shape and replays exactly from a seed', async () => {
    const a = await runCli(['rng-test', '--rolls', '5000', '--seed', '7', '--json']);
    const b = await runCli(['rng-test', '--rolls', '5e3', '--seed', '7', '--json']);
    expect(a.stdout).toBe(b.stdout);
    const report = JSON.parse(a.stdout) as JsonReport;
    expect(Object.keys(report)).toEqual(['rolls', 'source', 'seed', 'tests', 'pass']);
    expect(Object.keys(report.tests[0]!)).toEqual(['name', 'statistic', 'df', 'pValue', 'pass']);
    expect(report.pass).toBe(report.tests.every((t) => t.pass));
  });

  it('exits 1 with one line naming the failing test when a test fails', async () => {
    // One roll cannot pass the runs test: it needs totals on both sides of 10.5.
    const result = await runCli(['rng-test', '--rolls', '1', '--seed', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^cussec: fairness check failed at the 99% level: .*runs/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toContain('FAIL');
  });

  it.each(['0', '-5', '1.5', 'ten', '2e9', '1000000001', ''])(
    'refuses --rolls "%s" with exit 2',
    async (n) => {
      const result = await runCli(['rng-test', '--rolls', n]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `cussec: --rolls must be a whole number from 1 to 1,000,000,000, got "${n}"\n`,
      );
      expect(result.stdout).toBe('');
    },
  );

  it('needs --rolls', async () => {
    expect((await runCli(['rng-test'])).code).toBe(2);
  });

  it('reads 1e7 and plain digits alike', () => {
    expect(readRolls('1e7')).toBe(10_000_000);
    expect(readRolls('1000000000')).toBe(1_000_000_000);
  });

  it('draws a progress bar on a terminal for large runs, and only there', async () => {
    const chunks: string[] = [];
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    stderr.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const stdout = new PassThrough();
    stdout.resume();
    const code = await run(['rng-test', '--rolls', '1000000', '--seed', 'bar'], {
      stdin: Readable.from(['']),
      stdout,
      stderr,
    });
    const drawn = chunks.join('');
    expect(code).toBe(0);
    expect(drawn).toContain('] 100%');
    expect(drawn.endsWith('\r\x1b[2K')).toBe(true);
    expect((await runCli(['rng-test', '--rolls', '1000000', '--seed', 'bar'])).stderr).toBe('');
  });

  it('counts every roll whatever the chunking', () => {
    const progress: number[] = [];
    const report = drawAndTest(seededDiceSource(1), 70_000, {
      update: (f) => progress.push(f),
      done: () => {},
    });
    expect(report.rolls).toBe(70_000);
    expect(progress.at(-1)).toBe(1);
  });
});
