import { describe, expect, it } from 'vitest';
import { OUTCOMES, settle } from '../rules/index.js';
import {
  deepFreeze,
  ELECTRONIC,
  fakeHex,
  LEVER,
  openBetting,
  PAYTABLE,
  stateIn,
  T0,
  tableConfig,
  TIMED,
} from './fixtures.js';
import { applyAll, can, check, roundMachine, transition } from './machine.js';
import { betResults } from './result.js';
import { PHASE_RULES } from './phases.js';
import { type Command, type CommandType, PHASES, type RoundState } from './types.js';
import { tableConfigProblems } from './validate.js';

const bet = (
  betId: string,
  over: Partial<Extract<Command, { type: 'place-bet' }>> = {},
): Command => ({
  type: 'place-bet',
  betId,
  playerId: 'p1',
  spot: 'big',
  stakeMinor: 500,
  ...over,
});
const withdraw = (betId: string, playerId = 'p1'): Command => ({
  type: 'withdraw-bet',
  betId,
  playerId,
});
const codeOf = (state: RoundState, command: Command, config = LEVER, now = T0 + 1) =>
  check(config, state, command, now)?.code ?? null;

describe('Art. 2.1 and 3.1: bets only between opening and the bell', () => {
  it.each(PHASES.filter((p) => p !== 'betting'))('refuses a bet while %s', (phase) => {
    expect(codeOf(stateIn(LEVER, phase), bet('x'))).toMatch(/^betting_(not_open|closed)$/);
  });

  it('accepts a bet once betting is open', () => {
    expect(codeOf(stateIn(LEVER, 'betting'), bet('x'))).toBeNull();
  });
});

describe('withdrawals', () => {
  it('lets a player withdraw a bet of the current window before the bell', () => {
    const after = applyAll(LEVER, stateIn(LEVER, 'betting'), [withdraw('bet-1')], T0).state;
    expect(after.bets).toEqual([]);
    expect(after.withdrawnBetIds).toEqual(['bet-1']);
  });

  it('does not let a withdrawn bet id come back in the same round', () => {
    const after = applyAll(LEVER, stateIn(LEVER, 'betting'), [withdraw('bet-1')], T0).state;
    expect(codeOf(after, bet('bet-1'))).toBe('duplicate_bet_id');
    expect(codeOf(after, withdraw('bet-1'))).toBe('unknown_bet');
  });

  it('frees the room under the maximum when a bet is withdrawn', () => {
    const full = applyAll(
      LEVER,
      stateIn(LEVER, 'betting'),
      [bet('a', { stakeMinor: 100_000 })],
      T0,
    ).state;
    expect(codeOf(full, bet('b', { stakeMinor: 100 }))).toBe('stake_above_max');
    const freed = applyAll(LEVER, full, [withdraw('a')], T0).state;
    expect(codeOf(freed, bet('b', { stakeMinor: 100_000 }))).toBeNull();
  });
});

describe('Art. 3.3 and 3.4: a void roll', () => {
  const reopened = openBetting(LEVER, stateIn(LEVER, 'voided'), T0);

  it('keeps the round, its bets and their stakes', () => {
    const voided = stateIn(LEVER, 'voided');
    const lifted = stateIn(LEVER, 'lifted');
    expect([voided.roundNo, voided.rollNo, voided.bets]).toEqual([
      lifted.roundNo,
      lifted.rollNo + 1,
      lifted.bets,
    ]);
  });

  it('refuses to withdraw the bets placed before it, even in the reopened window', () => {
    expect(reopened.phase).toBe('betting');
    expect(codeOf(reopened, withdraw('bet-1'))).toBe('bet_stands_after_void');
  });

  it('accepts new bets in the reopened window, and lets those be withdrawn in it', () => {
    const added = applyAll(LEVER, reopened, [bet('new')], T0).state;
    expect(added.bets.map((b) => [b.betId, b.rollNo])).toEqual([
      ['bet-1', 1],
      ['new', 2],
    ]);
    expect(codeOf(added, withdraw('new'))).toBeNull();
  });

  it('settles the standing and the new bets together on the next roll', () => {
    const s = applyAll(
      LEVER,
      reopened,
      [bet('new', { spot: 'small' }), { type: 'ring-bell' }, { type: 'lift-dome' }],
      T0,
    ).state;
    const done = applyAll(
      LEVER,
      s,
      [{ type: 'read-dice', dice: [1, 2, 3], croupierId: 'c' }],
      T0,
    ).state;
    expect(betResults(done.bets, done.settlement!).map((r) => [r.betId, r.returnedMinor])).toEqual([
      ['bet-1', 2000],
      ['new', 1000],
    ]);
  });

  it('opens the void seal of an electronic roll for auditors, and has none to open on a lever table', () => {
    const lifted = stateIn(ELECTRONIC, 'lifted', [5, 5, 6]);
    const { events } = applyAll(ELECTRONIC, lifted, [{ type: 'void-roll', reason: 'stacked' }], T0);
    expect(events[0]).toMatchObject({ type: 'roll-voided', voidedRoll: lifted.seal });
    const lever = applyAll(
      LEVER,
      stateIn(LEVER, 'lifted'),
      [{ type: 'void-roll', reason: 'tilted' }],
      T0,
    );
    expect(lever.events[0]).toMatchObject({ type: 'roll-voided', voidedRoll: null });
  });
});

describe('Art. 4: no cover until every prize is paid', () => {
  it('refuses cover after the result and accepts it after pay-all', () => {
    const revealed = stateIn(LEVER, 'revealed');
    expect(codeOf(revealed, { type: 'cover' })).toBe('prizes_unpaid');
    const paid = applyAll(LEVER, revealed, [{ type: 'pay-all' }], T0).state;
    expect(codeOf(paid, { type: 'cover' })).toBeNull();
  });

  it('pays exactly the bets that returned money', () => {
    const lifted = applyAll(
      LEVER,
      stateIn(LEVER, 'betting'),
      [bet('b2'), { type: 'ring-bell' }, { type: 'lift-dome' }],
      T0,
    ).state;
    const { events } = applyAll(
      LEVER,
      lifted,
      [{ type: 'read-dice', dice: [1, 1, 2], croupierId: 'c' }, { type: 'pay-all' }],
      T0,
    );
    expect(events.at(-1)).toMatchObject({
      type: 'prizes-paid',
      payoutCount: 1,
      totalReturnedMinor: 2000,
    });
  });
});

describe('Art. 2.1: the shake', () => {
  const others = (Object.keys(PHASE_RULES) as CommandType[]).filter(
    (t) => t !== 'pull-lever' && t !== 'tick',
  );

  it.each([1, 2])('accepts nothing but the next pull after %i pull(s)', (pulls) => {
    let state = stateIn(LEVER, 'latched');
    state = applyAll(
      LEVER,
      state,
      Array.from({ length: pulls }, () => ({ type: 'pull-lever' }) as const),
      T0,
    ).state;
    expect(state.phase).toBe('shaking');
    for (const type of others) {
      const command = {
        type,
        reason: 'stacked',
        dice: [1, 2, 3],
        croupierId: 'c',
        betId: 'q',
        playerId: 'p',
        spot: 'big',
        stakeMinor: 500,
      } as unknown as Command;
      expect([type, can(LEVER, state, command, T0)]).toEqual([type, false]);
    }
    expect(can(LEVER, state, { type: 'pull-lever' }, T0)).toBe(true);
  });

  it('shakes a lever table on the third pull and no sooner', () => {
    const latched = stateIn(LEVER, 'latched');
    const { events, state } = applyAll(
      LEVER,
      latched,
      [{ type: 'pull-lever' }, { type: 'pull-lever' }, { type: 'pull-lever' }],
      T0,
    );
    expect(events.map((e) => e.type)).toEqual([
      'lever-pulled',
      'lever-pulled',
      'lever-pulled',
      'dice-shaken',
    ]);
    expect([state.phase, state.leverPulls]).toEqual(['shaken', 3]);
  });

  it('shakes an electronic table with one trigger', () => {
    const shaken = stateIn(ELECTRONIC, 'shaken');
    expect([shaken.phase, shaken.leverPulls, shaken.seal?.dice]).toEqual(['shaken', 0, [2, 3, 5]]);
  });

  it('counts the pulls again from zero after a void roll', () => {
    const covered = applyAll(
      LEVER,
      stateIn(LEVER, 'voided'),
      [{ type: 'cover' }, { type: 'fasten-latches' }, { type: 'pull-lever' }],
      T0,
    ).state;
    expect([covered.phase, covered.leverPulls]).toEqual(['shaking', 1]);
  });
});

describe('the betting timer (Art. 3.1, a table option)', () => {
  const betting = stateIn(TIMED, 'betting');
  const deadline = T0 + 30_000;

  it('rings the bell automatically on the first tick at or after the deadline', () => {
    const result = transition(TIMED, betting, { type: 'tick' }, deadline);
    expect(result.ok && result.events).toEqual([
      expect.objectContaining({
        type: 'bell-rung',
        automatic: true,
        betCount: 1,
        totalStakeMinor: 1000,
        croupierId: null,
      }),
    ]);
    expect(result.ok && result.state.phase).toBe('closed');
  });

  it('leaves the very same state on a tick before the deadline', () => {
    const result = transition(TIMED, betting, { type: 'tick' }, deadline - 1);
    expect(result).toEqual({ ok: true, state: betting, events: [] });
    expect(result.ok && result.state).toBe(betting);
  });

  it('refuses bets from the deadline on, though no tick came, and takes them one ms before', () => {
    expect(codeOf(betting, bet('x'), TIMED, deadline)).toBe('betting_closed');
    expect(codeOf(betting, bet('x'), TIMED, deadline - 1)).toBeNull();
  });

  it('still lets the croupier ring the bell before the deadline', () => {
    const { events } = applyAll(TIMED, betting, [{ type: 'ring-bell', croupierId: 'c9' }], T0 + 10);
    expect(events[0]).toMatchObject({ type: 'bell-rung', automatic: false, croupierId: 'c9' });
  });

  it('never rings by itself on a table without a timer', () => {
    const plain = stateIn(LEVER, 'betting');
    expect(transition(LEVER, plain, { type: 'tick' }, T0 + 10 ** 9)).toEqual({
      ok: true,
      state: plain,
      events: [],
    });
  });
});

describe('sealed rolls', () => {
  const nonce = fakeHex(1001);

  it('publishes only the commitment until the reveal, then the dice and the nonce', () => {
    const lifted = stateIn(ELECTRONIC, 'lifted', [6, 6, 1]);
    const { events: before } = applyAll(
      ELECTRONIC,
      stateIn(ELECTRONIC, 'idle'),
      [{ type: 'cover' }, { type: 'fasten-latches' }],
      T0,
    );
    const shaken = applyAll(
      ELECTRONIC,
      stateIn(ELECTRONIC, 'latched'),
      [
        { type: 'trigger-shaker', sealedRoll: lifted.seal! },
        { type: 'open-betting' },
        bet('z'),
        { type: 'ring-bell' },
        { type: 'lift-dome' },
      ],
      T0,
    );
    expect(lifted.seal?.nonceHex).toBe(nonce);
    const published = JSON.stringify([...before, ...shaken.events]);
    expect(published).not.toContain(nonce);
    expect(published).not.toContain('"dice"');
    const { events } = applyAll(ELECTRONIC, shaken.state, [{ type: 'reveal-dice' }], T0);
    expect(events[0]).toMatchObject({
      type: 'dice-revealed',
      dice: [6, 6, 1],
      nonceHex: nonce,
      commitmentHex: lifted.seal?.commitmentHex,
    });
  });

  it('keeps its own copy of the seal, so the caller cannot change it later', () => {
    const sealedRoll = {
      dice: [1, 1, 1] as [1, 1, 1],
      nonceHex: fakeHex(5),
      commitmentHex: fakeHex(6),
    };
    const { state } = applyAll(
      ELECTRONIC,
      stateIn(ELECTRONIC, 'latched'),
      [{ type: 'trigger-shaker', sealedRoll }],
      T0,
    );
    (sealedRoll as { dice: number[] }).dice[0] = 6;
    expect(state.seal?.dice).toEqual([1, 1, 1]);
  });
});

describe('Art. 1.1: a reading is exactly three faces 1–6', () => {
  const lifted = stateIn(LEVER, 'lifted');

  it('accepts each of the 216 outcomes and settles it as src/rules does', () => {
    for (const dice of OUTCOMES) {
      const result = transition(LEVER, lifted, { type: 'read-dice', dice, croupierId: 'c' }, T0);
      if (!result.ok) throw new Error(`refused ${dice.join(',')}`);
      const [expected] = settle(PAYTABLE, dice, lifted.bets);
      expect(result.state.settlement?.returnsMinor[0]).toBe(expected?.returnedMinor);
    }
  });

  it.each([
    [[0, 1, 2]],
    [[1, 2, 3, 4]],
    [[1, 2]],
    [[7, 7, 7]],
    [[-1, 3, 3]],
    [[1, 2, Number.NaN]],
    ['123'],
  ])('refuses %j', (dice) => {
    expect(codeOf(lifted, { type: 'read-dice', dice, croupierId: 'c' } as unknown as Command)).toBe(
      'invalid_dice',
    );
  });
});

describe('state is plain data a service can persist', () => {
  it('survives a JSON round trip in every phase, without the compiled paytable', () => {
    for (const config of [LEVER, ELECTRONIC]) {
      for (const phase of PHASES.filter((p) => config.shaker === 'lever' || p !== 'shaking')) {
        const state = stateIn(config, phase);
        expect(JSON.parse(JSON.stringify(state))).toEqual(state);
        expect(JSON.stringify(state)).not.toContain('returnMultipliers');
      }
    }
  });

  it('never changes the state it is given, accepted or refused', () => {
    const frozen = deepFreeze(stateIn(LEVER, 'betting'));
    expect(() =>
      applyAll(
        LEVER,
        frozen,
        [bet('a'), withdraw('a'), { type: 'ring-bell' }, { type: 'lift-dome' }],
        T0,
      ),
    ).not.toThrow();
    expect(can(LEVER, frozen, bet('bet-1'), T0)).toBe(false);
  });
});

describe('table configuration', () => {
  it('binds a valid configuration into a machine', () => {
    const machine = roundMachine(LEVER);
    const covered = machine.transition(machine.initialState(), { type: 'cover' }, T0);
    expect(covered.ok && covered.state.phase).toBe('covered');
    expect(machine.can(machine.initialState(41), { type: 'cover' })).toBe(true);
    expect(machine.check(machine.initialState(), { type: 'pay-all' })?.code).toBe(
      'round_not_settled',
    );
  });

  it('numbers the next round after the last one a resumed table used', () => {
    const result = transition(LEVER, roundMachine(LEVER).initialState(41), { type: 'cover' }, T0);
    expect(result.ok && result.state.roundNo).toBe(42);
  });

  it.each([
    [{ tableId: '' }, 'tableId'],
    [{ shaker: 'dice-cup' as 'lever' }, 'shaker'],
    [{ stakeMinorMin: 0 }, 'stakeMinorMin'],
    [{ stakeMinorMax: 50 }, 'stakeMinorMax'],
    [{ stakeMinorMin: 1.5 }, 'stakeMinorMin'],
    [{ betsPerRoundMax: 0 }, 'betsPerRoundMax'],
    [{ stakeMinorMax: 10 ** 13, betsPerRoundMax: 1000 }, 'betsPerRoundMax'],
    [{ bettingTimerMs: 0 }, 'bettingTimerMs'],
  ])('refuses %j', (override, field) => {
    const config = tableConfig(override);
    expect(tableConfigProblems(config).join(' ')).toContain(field);
    expect(() => roundMachine(config)).toThrow(field);
  });

  it('finds no problem with the fixture tables', () => {
    expect([LEVER, ELECTRONIC, TIMED].flatMap(tableConfigProblems)).toEqual([]);
  });
});
