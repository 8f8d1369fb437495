/**
 * Model-based tests: fast-check drives random command sequences against the
 * machine and against a small model written independently from the rules of
 * Arts. 2–4, and checks after every step that both agree and that the
 * invariants hold. The model says only accept or refuse, never which code:
 * codes are pinned by rejections.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Dice, settle, spotById } from '../rules/index.js';
import { fakeHex, NOT_OFFERED, PAYTABLE, T0, tableConfig } from './fixtures.js';
import { initialState, transition } from './index.js';
import type { Command, Phase, RoundEvent, RoundState, TableConfig } from './types.js';

interface ModelBet {
  betId: string;
  playerId: string;
  spot: string;
  stakeMinor: number;
  rollNo: number;
}

interface Model {
  readonly config: TableConfig;
  now: number;
  phase: Phase;
  roundNo: number;
  rollNo: number;
  pulls: number;
  deadline: number | null;
  seal: Dice | null;
  dice: Dice | null;
  bets: ModelBet[];
  usedIds: Set<string>;
}

interface Real {
  state: RoundState;
}

const LIMITS = { stakeMinorMin: 100, stakeMinorMax: 1000, betsPerRoundMax: 6 } as const;
const TABLES = [
  tableConfig({ ...LIMITS, tableId: 'M-LEVER', bettingTimerMs: 3000 }),
  tableConfig({ ...LIMITS, tableId: 'M-ELEC-TIMED', shaker: 'electronic', bettingTimerMs: 3000 }),
  tableConfig({ ...LIMITS, tableId: 'M-ELEC', shaker: 'electronic' }),
];

const offered = (spot: string): boolean => {
  const s = spotById(spot);
  return s !== undefined && PAYTABLE.offered[s.index] === 1;
};

function betAcceptable(m: Model, c: Extract<Command, { type: 'place-bet' }>): boolean {
  const { stakeMinorMin, stakeMinorMax, betsPerRoundMax } = m.config;
  const already = m.bets
    .filter((b) => b.playerId === c.playerId && b.spot === c.spot)
    .reduce((t, b) => t + b.stakeMinor, 0);
  return (
    !m.usedIds.has(c.betId) &&
    offered(c.spot) &&
    Number.isSafeInteger(c.stakeMinor) &&
    c.stakeMinor >= stakeMinorMin &&
    already + c.stakeMinor <= stakeMinorMax &&
    m.bets.length < betsPerRoundMax
  );
}

/** The model's own reading of Arts. 2–4: would the table accept `c` now? */
function accepts(m: Model, c: Command): boolean {
  const lever = m.config.shaker === 'lever';
  const bettingOpen = m.phase === 'betting' && (m.deadline === null || m.now < m.deadline);
  switch (c.type) {
    case 'cover':
      return m.phase === 'idle' || m.phase === 'paid' || m.phase === 'voided';
    case 'fasten-latches':
      return m.phase === 'covered';
    case 'pull-lever':
      return lever && (m.phase === 'latched' || m.phase === 'shaking');
    case 'trigger-shaker':
      return !lever && m.phase === 'latched';
    case 'open-betting':
      return m.phase === 'shaken';
    case 'place-bet':
      return bettingOpen && betAcceptable(m, c);
    case 'withdraw-bet': {
      const bet = m.bets.find((b) => b.betId === c.betId);
      return (
        bettingOpen && bet !== undefined && bet.playerId === c.playerId && bet.rollNo === m.rollNo
      );
    }
    case 'ring-bell':
      return m.phase === 'betting';
    case 'tick':
      return true;
    case 'lift-dome':
      return m.phase === 'closed';
    case 'read-dice':
      return (
        lever &&
        m.phase === 'lifted' &&
        c.dice.length === 3 &&
        c.dice.every((f) => Number.isInteger(f) && f >= 1 && f <= 6)
      );
    case 'reveal-dice':
      return !lever && m.phase === 'lifted';
    case 'void-roll':
      return m.phase === 'lifted';
    case 'pay-all':
      return m.phase === 'revealed';
  }
}

/** The model's state after an accepted command. */
function advance(m: Model, c: Command): void {
  switch (c.type) {
    case 'cover':
      if (m.phase !== 'voided')
        Object.assign(m, {
          roundNo: m.roundNo + 1,
          rollNo: 1,
          bets: [],
          usedIds: new Set(),
          dice: null,
        });
      Object.assign(m, { phase: 'covered', pulls: 0, seal: null });
      return;
    case 'fasten-latches':
      m.phase = 'latched';
      return;
    case 'pull-lever':
      m.pulls += 1;
      m.phase = m.pulls === 3 ? 'shaken' : 'shaking';
      return;
    case 'trigger-shaker':
      Object.assign(m, { phase: 'shaken', seal: c.sealedRoll.dice });
      return;
    case 'open-betting':
      Object.assign(m, {
        phase: 'betting',
        deadline: m.config.bettingTimerMs === null ? null : m.now + m.config.bettingTimerMs,
      });
      return;
    case 'place-bet':
      m.bets.push({
        betId: c.betId,
        playerId: c.playerId,
        spot: c.spot,
        stakeMinor: c.stakeMinor,
        rollNo: m.rollNo,
      });
      m.usedIds.add(c.betId);
      return;
    case 'withdraw-bet':
      m.bets = m.bets.filter((b) => b.betId !== c.betId);
      return;
    case 'tick':
      if (!(m.phase === 'betting' && m.deadline !== null && m.now >= m.deadline)) return;
      Object.assign(m, { phase: 'closed', deadline: null });
      return;
    case 'ring-bell':
      Object.assign(m, { phase: 'closed', deadline: null });
      return;
    case 'lift-dome':
      m.phase = 'lifted';
      return;
    case 'read-dice':
    case 'reveal-dice':
      Object.assign(m, { phase: 'revealed', dice: c.type === 'read-dice' ? c.dice : m.seal });
      return;
    case 'void-roll':
      Object.assign(m, { phase: 'voided', rollNo: m.rollNo + 1, pulls: 0, seal: null });
      return;
    case 'pay-all':
      m.phase = 'paid';
  }
}

function checkInvariants(
  m: Model,
  before: Phase,
  c: Command,
  state: RoundState,
  events: readonly RoundEvent[],
): void {
  expect([state.phase, state.roundNo, state.rollNo]).toEqual([m.phase, m.roundNo, m.rollNo]);
  // The bets kept are exactly the model's, and their stakes add up.
  expect(state.bets.map((b) => ({ ...b, placedAtMs: undefined }))).toEqual(m.bets);
  const stakes = state.bets.reduce((t, b) => t + b.stakeMinor, 0);
  expect(stakes).toBe(m.bets.reduce((t, b) => t + b.stakeMinor, 0));
  for (const e of events) {
    // No bet accepted outside betting; no bet of a void roll ever withdrawn (Art. 3.4).
    if (e.type === 'bet-placed') expect(before).toBe('betting');
    if (e.type === 'bet-withdrawn') expect(e.bet.rollNo).toBe(e.rollNo);
    if (e.type === 'bet-placed' || e.type === 'bet-withdrawn')
      expect(e.totalStakeMinor).toBe(stakes);
  }
  if (m.phase === 'revealed' || m.phase === 'paid') {
    const expected = settle(PAYTABLE, m.dice!, m.bets);
    expect(state.settlement?.returnsMinor).toEqual(expected.map((r) => r.returnedMinor));
    expect(state.settlement?.dice).toEqual(m.dice);
  }
  expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  if (c.type === 'cover' && before === 'revealed')
    throw new Error('cover accepted with prizes unpaid (Art. 4)');
}

class Step implements fc.Command<Model, Real> {
  constructor(
    private readonly label: string,
    private readonly build: (m: Readonly<Model>) => Command,
  ) {}
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    const command = this.build(m);
    const expected = accepts(m, command);
    const before = m.phase;
    const result = transition(m.config, r.state, command, m.now);
    if (result.ok !== expected) {
      const got = result.ok ? 'accepts' : `refuses (${result.rejection.code})`;
      throw new Error(
        `${this.label} while ${before}: the model ${expected ? 'accepts' : 'refuses'}, the machine ${got}`,
      );
    }
    if (!result.ok) return;
    advance(m, command);
    checkInvariants(m, before, command, result.state, result.events);
    r.state = result.state;
  }
  toString = (): string => this.label;
}

const diceArb = fc.tuple(
  fc.integer({ min: 1, max: 6 }),
  fc.integer({ min: 1, max: 6 }),
  fc.integer({ min: 1, max: 6 }),
) as fc.Arbitrary<Dice>;
const betIdArb = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const playerArb = fc.constantFrom('p1', 'p2');
const spotArb = fc.constantFrom('small', 'big', 'triple:6', 'total:10', NOT_OFFERED, 'total:3');
const stakeArb = fc.constantFrom(50, 100, 300, 700, 1000, 1001, 250.5);

/** The next step of the procedure, so random runs get deep into rounds rather than stall at the cover. */
const procedureArb = fc.tuple(diceArb, fc.boolean()).map(
  ([dice, voidIt]) =>
    new Step(`procedure(${dice.join(',')}${voidIt ? ', void' : ''})`, (m): Command => {
      const lever = m.config.shaker === 'lever';
      const next: Record<Phase, Command> = {
        idle: { type: 'cover' },
        paid: { type: 'cover' },
        voided: { type: 'cover' },
        covered: { type: 'fasten-latches' },
        latched: lever
          ? { type: 'pull-lever' }
          : {
              type: 'trigger-shaker',
              sealedRoll: { dice, nonceHex: fakeHex(m.rollNo), commitmentHex: fakeHex(99) },
            },
        shaking: { type: 'pull-lever' },
        shaken: { type: 'open-betting' },
        betting: { type: 'ring-bell' },
        closed: { type: 'lift-dome' },
        lifted: voidIt
          ? { type: 'void-roll', reason: 'stacked' }
          : lever
            ? { type: 'read-dice', dice, croupierId: 'c' }
            : { type: 'reveal-dice' },
        revealed: { type: 'pay-all' },
      };
      return next[m.phase];
    }),
);

const anyArb = fc.oneof(
  fc
    .constantFrom<Command>(
      { type: 'cover' },
      { type: 'fasten-latches' },
      { type: 'pull-lever' },
      { type: 'open-betting' },
      { type: 'ring-bell' },
      { type: 'tick' },
      { type: 'lift-dome' },
      { type: 'reveal-dice' },
      { type: 'void-roll', reason: 'tilted' },
      { type: 'pay-all' },
    )
    .map((c) => new Step(c.type, () => c)),
  diceArb.map(
    (dice) =>
      new Step(`trigger(${dice.join(',')})`, () => ({
        type: 'trigger-shaker',
        sealedRoll: { dice, nonceHex: fakeHex(1), commitmentHex: fakeHex(2) },
      })),
  ),
  fc.constantFrom<number[]>([1, 2, 3], [6, 6, 6], [0, 1, 2], [1, 2]).map(
    (dice) =>
      new Step(`read(${dice.join(',')})`, () => ({
        type: 'read-dice',
        dice: dice as unknown as Dice,
        croupierId: 'c',
      })),
  ),
);

const betArb = fc.tuple(betIdArb, playerArb, spotArb, stakeArb).map(
  ([betId, playerId, spot, stakeMinor]) =>
    new Step(`bet(${betId},${playerId},${spot},${stakeMinor})`, () => ({
      type: 'place-bet',
      betId,
      playerId,
      spot,
      stakeMinor,
    })),
);
/** Mostly a standing bet by its owner (the interesting case), sometimes any id by any player. */
const withdrawArb = fc.tuple(fc.nat(), fc.boolean(), betIdArb, playerArb).map(
  ([i, own, betId, playerId]) =>
    new Step(`withdraw(${own ? `standing #${i}` : `${betId},${playerId}`})`, (m): Command => {
      const target = m.bets[i % Math.max(1, m.bets.length)];
      if (own && target !== undefined)
        return { type: 'withdraw-bet', betId: target.betId, playerId: target.playerId };
      return { type: 'withdraw-bet', betId, playerId };
    }),
);
const clockArb = fc.integer({ min: 1, max: 3000 }).map(
  (ms) =>
    new (class extends Step {
      override run(m: Model, r: Real): void {
        m.now += ms; // time passes between commands; the machine only sees it through `now`
        super.run(m, r);
      }
    })(`wait ${ms}ms then tick`, () => ({ type: 'tick' })),
);

/** Time passes with no tick, so bets can arrive after the timer ran out but before the bell. */
const waitArb = fc.integer({ min: 500, max: 4000 }).map((ms): fc.Command<Model, Real> => ({
  check: () => true,
  run: (m) => {
    m.now += ms;
  },
  toString: () => `wait ${ms}ms`,
}));

describe('model-based: random command sequences against an independent model', () => {
  it.each(TABLES.map((config) => ({ table: config.tableId, config })))('$table', ({ config }) => {
    const commands = fc.commands(
      [
        procedureArb,
        procedureArb,
        betArb,
        betArb,
        withdrawArb,
        withdrawArb,
        clockArb,
        waitArb,
        anyArb,
      ],
      {
        maxCommands: 120,
        size: 'max', // the default size stops at ten commands, too few to reach a void roll and its reopened window
      },
    );
    fc.assert(
      fc.property(commands, (cmds) => {
        const model: Model = {
          config,
          now: T0,
          phase: 'idle',
          roundNo: 0,
          rollNo: 0,
          pulls: 0,
          deadline: null,
          seal: null,
          dice: null,
          bets: [],
          usedIds: new Set(),
        };
        fc.modelRun(() => ({ model, real: { state: initialState() } }), cmds);
      }),
      { numRuns: 400 },
    );
  });
});
