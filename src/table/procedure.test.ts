import { describe, expect, it } from 'vitest';
import type { Dice } from '../rules/index.js';
import { ELECTRONIC, fakeHex, LEVER, T0, tableConfig, TIMED } from './fixtures.js';
import { transition } from './machine.js';
import { initialState } from './state.js';
import type { Command, EventType, Phase, RoundEvent, RoundState, TableConfig } from './types.js';

interface Step {
  readonly command: Command;
  readonly phase: Phase;
  readonly events: readonly EventType[];
}

const seal = (dice: Dice, n: number) => ({
  dice,
  nonceHex: fakeHex(n),
  commitmentHex: fakeHex(n + 1),
});
const bet = (betId: string, spot = 'big', stakeMinor = 500, playerId = 'p1'): Command => ({
  type: 'place-bet',
  betId,
  playerId,
  spot,
  stakeMinor,
});

const LEVER_ROUND: Step[] = [
  { command: { type: 'cover', croupierId: 'c1' }, phase: 'covered', events: ['dome-covered'] },
  { command: { type: 'fasten-latches' }, phase: 'latched', events: ['latches-fastened'] },
  { command: { type: 'pull-lever' }, phase: 'shaking', events: ['lever-pulled'] },
  { command: { type: 'pull-lever' }, phase: 'shaking', events: ['lever-pulled'] },
  { command: { type: 'pull-lever' }, phase: 'shaken', events: ['lever-pulled', 'dice-shaken'] },
  { command: { type: 'open-betting' }, phase: 'betting', events: ['betting-opened'] },
  { command: bet('b1'), phase: 'betting', events: ['bet-placed'] },
  { command: bet('b2', 'total:11', 200, 'p2'), phase: 'betting', events: ['bet-placed'] },
  {
    command: { type: 'withdraw-bet', betId: 'b2', playerId: 'p2' },
    phase: 'betting',
    events: ['bet-withdrawn'],
  },
  { command: { type: 'ring-bell' }, phase: 'closed', events: ['bell-rung'] },
  { command: { type: 'tick' }, phase: 'closed', events: [] },
  { command: { type: 'lift-dome' }, phase: 'lifted', events: ['dome-lifted'] },
  {
    command: { type: 'read-dice', dice: [6, 5, 1], croupierId: 'c1' },
    phase: 'revealed',
    events: ['dice-read', 'round-settled'],
  },
  { command: { type: 'pay-all' }, phase: 'paid', events: ['prizes-paid'] },
  { command: { type: 'cover' }, phase: 'covered', events: ['dome-covered'] },
];

const ELECTRONIC_ROUND: Step[] = [
  { command: { type: 'cover' }, phase: 'covered', events: ['dome-covered'] },
  { command: { type: 'fasten-latches' }, phase: 'latched', events: ['latches-fastened'] },
  {
    command: { type: 'trigger-shaker', sealedRoll: seal([4, 4, 4], 7) },
    phase: 'shaken',
    events: ['dice-shaken'],
  },
  { command: { type: 'open-betting' }, phase: 'betting', events: ['betting-opened'] },
  { command: bet('b1', 'any-triple', 100), phase: 'betting', events: ['bet-placed'] },
  { command: { type: 'ring-bell' }, phase: 'closed', events: ['bell-rung'] },
  { command: { type: 'lift-dome' }, phase: 'lifted', events: ['dome-lifted'] },
  {
    command: { type: 'reveal-dice' },
    phase: 'revealed',
    events: ['dice-revealed', 'round-settled'],
  },
  { command: { type: 'pay-all' }, phase: 'paid', events: ['prizes-paid'] },
];

/** Art. 3.3 and 3.4: a void roll, the operation repeated, old bets standing and new ones added. */
const VOID_PATH: Step[] = [
  { command: { type: 'cover' }, phase: 'covered', events: ['dome-covered'] },
  { command: { type: 'fasten-latches' }, phase: 'latched', events: ['latches-fastened'] },
  {
    command: { type: 'trigger-shaker', sealedRoll: seal([1, 1, 2], 1) },
    phase: 'shaken',
    events: ['dice-shaken'],
  },
  { command: { type: 'open-betting' }, phase: 'betting', events: ['betting-opened'] },
  { command: bet('old', 'small', 1000), phase: 'betting', events: ['bet-placed'] },
  { command: { type: 'ring-bell' }, phase: 'closed', events: ['bell-rung'] },
  { command: { type: 'lift-dome' }, phase: 'lifted', events: ['dome-lifted'] },
  { command: { type: 'void-roll', reason: 'tilted' }, phase: 'voided', events: ['roll-voided'] },
  { command: { type: 'cover' }, phase: 'covered', events: ['dome-covered'] },
  { command: { type: 'fasten-latches' }, phase: 'latched', events: ['latches-fastened'] },
  {
    command: { type: 'trigger-shaker', sealedRoll: seal([2, 3, 4], 3) },
    phase: 'shaken',
    events: ['dice-shaken'],
  },
  { command: { type: 'open-betting' }, phase: 'betting', events: ['betting-opened'] },
  { command: bet('new', 'small', 300), phase: 'betting', events: ['bet-placed'] },
  {
    command: { type: 'withdraw-bet', betId: 'new', playerId: 'p1' },
    phase: 'betting',
    events: ['bet-withdrawn'],
  },
  { command: bet('new-2', 'total:9', 300), phase: 'betting', events: ['bet-placed'] },
  { command: { type: 'ring-bell' }, phase: 'closed', events: ['bell-rung'] },
  { command: { type: 'lift-dome' }, phase: 'lifted', events: ['dome-lifted'] },
  {
    command: { type: 'reveal-dice' },
    phase: 'revealed',
    events: ['dice-revealed', 'round-settled'],
  },
  { command: { type: 'pay-all' }, phase: 'paid', events: ['prizes-paid'] },
];

function play(
  config: TableConfig,
  steps: readonly Step[],
): { state: RoundState; events: RoundEvent[] } {
  let state = initialState();
  const events: RoundEvent[] = [];
  steps.forEach((step, i) => {
    const result = transition(config, state, step.command, T0 + i * 1000);
    if (!result.ok) throw new Error(`step ${i} (${step.command.type}): ${result.rejection.code}`);
    expect({
      step: i,
      phase: result.state.phase,
      events: result.events.map((e) => e.type),
    }).toEqual({
      step: i,
      phase: step.phase,
      events: step.events,
    });
    state = result.state;
    events.push(...result.events);
  });
  return { state, events };
}

describe('the procedure of Arts. 2–4, step by step', () => {
  it.each([
    {
      name: 'lever table (Art. 2.1: three pulls, the croupier reads the dice)',
      config: LEVER,
      steps: LEVER_ROUND,
    },
    {
      name: 'electronic table (one trigger, sealed roll revealed)',
      config: ELECTRONIC,
      steps: ELECTRONIC_ROUND,
    },
    {
      name: 'void path (Art. 3.3 repeat, Art. 3.4 bets stand, new ones allowed)',
      config: ELECTRONIC,
      steps: VOID_PATH,
    },
  ])('$name', ({ config, steps }) => {
    play(config, steps);
  });

  it('numbers rounds from 1 and rolls from 1, a void roll adding one (Art. 3.3)', () => {
    const { state, events } = play(ELECTRONIC, VOID_PATH);
    expect(state.roundNo).toBe(1);
    expect(state.rollNo).toBe(2);
    const voided = events.find((e) => e.type === 'roll-voided');
    expect(voided).toMatchObject({ rollNo: 1, nextRollNo: 2, reason: 'tilted' });
    const covers = events.filter((e) => e.type === 'dome-covered');
    expect(
      covers.map((e) => [e.roundNo, e.rollNo, e.type === 'dome-covered' && e.newRound]),
    ).toEqual([
      [1, 1, true],
      [1, 2, false],
    ]);
  });

  it('starts round 2 at roll 1 after round 1 is paid (Art. 4)', () => {
    const { state, events } = play(LEVER, LEVER_ROUND);
    expect([state.roundNo, state.rollNo, state.bets]).toEqual([2, 1, []]);
    expect(events.at(-1)).toMatchObject({
      type: 'dome-covered',
      roundNo: 2,
      rollNo: 1,
      newRound: true,
      croupierId: null,
    });
  });

  it('names the croupier on croupier events, null when the command did not', () => {
    const { events } = play(LEVER, LEVER_ROUND);
    expect(events[0]).toMatchObject({ type: 'dome-covered', croupierId: 'c1' });
    expect(events.find((e) => e.type === 'dice-read')).toMatchObject({
      croupierId: 'c1',
      dice: [6, 5, 1],
    });
    expect(events.find((e) => e.type === 'bell-rung')).toMatchObject({ croupierId: null });
  });

  it('numbers the lever pulls 1, 2, 3 (Art. 2.1)', () => {
    const { events } = play(LEVER, LEVER_ROUND);
    expect(events.flatMap((e) => (e.type === 'lever-pulled' ? [e.pullNo] : []))).toEqual([1, 2, 3]);
  });

  it('stamps every event with the table, round, roll and the time of its command', () => {
    const { events } = play(LEVER, LEVER_ROUND.slice(0, 3));
    expect(events.map((e) => [e.tableId, e.roundNo, e.rollNo, e.atMs])).toEqual([
      ['T-LEVER', 1, 1, T0],
      ['T-LEVER', 1, 1, T0 + 1000],
      ['T-LEVER', 1, 1, T0 + 2000],
    ]);
  });
});

describe('betting opened (Arts. 2.1 and 2.2)', () => {
  const openOn = (config: TableConfig, steps: readonly Step[]) =>
    play(
      config,
      steps.slice(0, steps.findIndex((s) => s.command.type === 'open-betting') + 1),
    ).events.at(-1);

  it.each([
    { displayBoard: true, lit: true },
    { displayBoard: false, lit: false },
  ])(
    'lights the display board only where the table has one ($displayBoard)',
    ({ displayBoard, lit }) => {
      expect(openOn(tableConfig({ displayBoard }), LEVER_ROUND)).toMatchObject({
        displayBoardLit: lit,
      });
    },
  );

  it('carries the deadline of the betting timer, or null without one', () => {
    expect(openOn(TIMED, LEVER_ROUND)).toMatchObject({ deadlineMs: T0 + 5000 + 30_000 });
    expect(openOn(LEVER, LEVER_ROUND)).toMatchObject({ deadlineMs: null });
  });

  it('carries the commitment, table, round and roll of an electronic roll, never its dice or nonce', () => {
    const event = openOn(ELECTRONIC, ELECTRONIC_ROUND);
    expect(event).toEqual({
      type: 'betting-opened',
      tableId: 'T-ELEC',
      roundNo: 1,
      rollNo: 1,
      atMs: T0 + 3000,
      commitmentHex: fakeHex(8),
      deadlineMs: null,
      displayBoardLit: false,
      standingBets: [],
      croupierId: null,
    });
  });

  it('lists the bets standing from a void roll when betting reopens (Art. 3.4)', () => {
    const { events } = play(ELECTRONIC, VOID_PATH);
    const reopened = events.filter((e) => e.type === 'betting-opened').at(-1);
    expect(reopened).toMatchObject({
      rollNo: 2,
      standingBets: [{ betId: 'old', playerId: 'p1', spot: 'small', stakeMinor: 1000, rollNo: 1 }],
    });
  });
});
