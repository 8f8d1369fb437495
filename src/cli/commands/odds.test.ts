import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';

function paytableFile(doc: unknown): string {
  const path = join(
    tmpdir(),
    `cussec-paytable-${process.pid}-${Math.floor(performance.now() * 1000)}.json`,
  );
  writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return path;
}

describe('cussec odds', () => {
  it('prints a JSON array with the figures as fractions of one', async () => {
    const { code, stdout, stderr } = await runCli(['odds', '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const rows = JSON.parse(stdout) as {
      spot: string;
      ways: number;
      houseEdge: number;
      rtp: number;
      probability: number;
      stdDev: number;
    }[];
    expect(rows).toHaveLength(117);
    const small = rows.find((r) => r.spot === 'small')!;
    expect(small).toMatchObject({ ways: 105, probability: 105 / 216 });
    expect(small.houseEdge).toBeCloseTo(0.0278, 4);
    expect(small.rtp).toBeCloseTo(0.9722, 4);
    expect(small.stdDev).toBeCloseTo(0.9996, 4);
  });

  it('prints aligned columns with percentages for a person', async () => {
    const { code, stdout } = await runCli(['odds']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Spot\s+Name\s+Art\.\s+Pays\s+Ways\s+Probability\s+RTP\s+House edge\s+Std dev$/m,
    );
    expect(stdout).toMatch(
      /^small\s+Small\s+5\.1\s+1\s+105\/216\s+48\.61%\s+97\.22%\s+2\.78%\s+1\.000$/m,
    );
    expect(stdout).toMatch(/^single:1\s+Single 1\s+5\.3\s+1\/2\/3\s+91\/216/m);
  });

  it("shows the regulation's Portuguese names with --lang pt", async () => {
    const { stdout } = await runCli(['odds', '--lang', 'pt']);
    expect(stdout).toMatch(/^small\s+Pequeno\s/m);
    expect(stdout).toMatch(/^double-single:2-5\s+Dupla e simples 2-2-5\s/m);
  });

  it("uses the house's odds for totals 5/16 and 6/15 from a paytable file", async () => {
    const path = paytableFile({
      spots: ['total:5', 'total:15'],
      totalOdds: { '5/16': 30, '6/15': 18 },
    });
    const { code, stdout } = await runCli(['odds', '--json', '--paytable', path]);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { spot: string; pays: number[]; rtp: number }[];
    expect(rows.map((r) => [r.spot, r.pays[0]])).toEqual([
      ['total:5', 30],
      ['total:15', 18],
    ]);
    expect(rows[0]!.rtp).toBeCloseTo((6 * 31) / 216, 12);
  });

  it.each([
    [
      { spots: ['small'], totalOdds: { '5/16': 31, '6/15': 14 } },
      /totals 5\/16 pay 18 to 30 to 1, got 31 \(Art\. 6\.6\)/,
    ],
    [
      { spots: ['small'], totalOdds: { '5/16': 18, '6/15': 13 } },
      /totals 6\/15 pay 14 to 18 to 1, got 13 \(Art\. 6\.6\)/,
    ],
    [
      { spots: ['lucky-7'], totalOdds: { '5/16': 18, '6/15': 14 } },
      /"lucky-7" is not a bet of the regulation \(Art\. 5\)/,
    ],
    ['{"spots": [', /is not valid JSON/],
  ])(
    'refuses a paytable outside the regulation with one line naming the article',
    async (doc, message) => {
      const { code, stdout, stderr } = await runCli(['odds', '--paytable', paytableFile(doc)]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    },
  );

  it('says when the paytable file cannot be read', async () => {
    const { code, stderr } = await runCli(['odds', '--paytable', '/nonexistent/paytable.json']);
    expect(code).toBe(2);
    expect(stderr).toBe('cussec: cannot read paytable /nonexistent/paytable.json (ENOENT)\n');
  });
});
