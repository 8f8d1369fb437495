import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';

describe('cussec settle --dice', () => {
  it('settles bets on one roll as JSON', async () => {
    const { code, stdout } = await runCli([
      'settle',
      '--dice',
      '2,2,5',
      '--bet',
      'small=100',
      '--bet',
      'single:2=50',
      '--json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      dice: [2, 2, 5],
      bets: [
        { spot: 'small', stake: 100, win: 100, returned: 200 },
        { spot: 'single:2', stake: 50, win: 100, returned: 150 },
      ],
    });
  });

  it('prints a readable table with the totals', async () => {
    const { code, stdout } = await runCli([
      'settle',
      '--dice',
      '3,3,3',
      '--bet',
      'small=100',
      '--bet',
      'odd=100',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('Dice 3 3 3 · total 9');
    expect(stdout).toMatch(/^small\s+100\s+0\s+0$/m);
    expect(stdout).toMatch(/^odd\s+100\s+100\s+200$/m);
    expect(stdout).toContain('Staked 200, returned 200, player +0');
  });

  it.each([
    [['--dice', '0,1,2', '--bet', 'small=1'], /dice must be exactly three faces 1–6/],
    [['--dice', '7,1,2', '--bet', 'small=1'], /dice must be exactly three faces 1–6/],
    [['--dice', '1,2', '--bet', 'small=1'], /dice must be exactly three faces 1–6/],
    [['--dice', 'a,b,c', '--bet', 'small=1'], /dice must be exactly three faces 1–6/],
    [['--dice', '1,2,3', '--bet', 'lucky=1'], /"lucky" is not a bet of the regulation \(Art\. 5\)/],
    [['--dice', '1,2,3', '--bet', 'small=0'], /a stake must be a whole number/],
    [['--dice', '1,2,3', '--bet', 'small=-5'], /a stake must be a whole number/],
    [['--dice', '1,2,3', '--bet', 'small=1.5'], /a stake must be a whole number/],
    [['--dice', '1,2,3', '--bet', 'small=1e3'], /a stake must be a whole number/],
    [['--dice', '1,2,3', '--bet', 'small=9007199254740993'], /a stake must be a whole number/],
    [['--dice', '1,2,3', '--bet', 'small=59652323677902'], /a stake must be a whole number/],
    [['--dice', '1,2,3', '--bet', 'small'], /--bet must be SPOT=STAKE/],
    [['--dice', '1,2,3'], /give at least one --bet/],
    [['--bet', 'small=1'], /--bet needs --dice/],
  ])('refuses %j with one clear line and exit 2', async (args, message) => {
    const { code, stdout, stderr } = await runCli(['settle', ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('cussec settle on NDJSON', () => {
  it('writes one settled round a line and passes other fields through', async () => {
    const input =
      '{"round":"r1","dice":[2,2,5],"bets":[{"spot":"small","stake":100}]}\n' +
      '\n' +
      '{"dice":[6,6,6],"bets":[{"spot":"big","stake":10},{"spot":"triple:6","stake":1},{"spot":"even","stake":3}]}\n';
    const { code, stdout } = await runCli(['settle'], input);
    expect(code).toBe(0);
    expect(
      stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      {
        round: 'r1',
        dice: [2, 2, 5],
        bets: [{ spot: 'small', stake: 100, win: 100, returned: 200 }],
      },
      {
        dice: [6, 6, 6],
        bets: [
          { spot: 'big', stake: 10, win: 0, returned: 0 },
          { spot: 'triple:6', stake: 1, win: 150, returned: 151 },
          { spot: 'even', stake: 3, win: 3, returned: 6 },
        ],
      },
    ]);
  });

  it.each([
    ['{"dice":[1,2,3],"bets":[]}\nnot json\n', /^cussec: line 2: not valid JSON/],
    ['{"dice":[1,2],"bets":[]}\n', /^cussec: line 1: "dice" must be exactly three faces/],
    ['{"dice":[1,2,3]}\n', /^cussec: line 1: "bets" must be an array/],
    ['[1,2,3]\n', /^cussec: line 1: a round must be a JSON object/],
    [
      '{"dice":[1,2,3],"bets":[{"spot":"small","stake":"100"}]}\n',
      /^cussec: line 1, bet 1: a stake must be a whole number/,
    ],
    [
      '{"dice":[1,2,3],"bets":[{"spot":"small","stake":1.5}]}\n',
      /^cussec: line 1, bet 1: a stake must be a whole number/,
    ],
    [
      '{"dice":[1,2,3],"bets":[{"spot":"nope","stake":1}]}\n',
      /^cussec: line 1, bet 1: "nope" is not a bet/,
    ],
  ])('names the line of a malformed round (%j)', async (input, message) => {
    const { code, stderr } = await runCli(['settle'], input);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('says how many rounds were written before the bad line', async () => {
    const { code, stdout, stderr } = await runCli(
      ['settle'],
      '{"dice":[1,2,3],"bets":[]}\n{"dice":[9,9,9],"bets":[]}\n',
    );
    expect(code).toBe(2);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('the 1 round(s) before it were written');
  });
});
