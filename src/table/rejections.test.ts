import { describe, expect, it } from 'vitest';
import {
  deepFreeze,
  ELECTRONIC,
  fakeHex,
  LEVER,
  NOT_OFFERED,
  openBetting,
  stateIn,
  T0,
  tableConfig,
  TIMED,
} from './fixtures.js';
import { applyAll, can, check, transition } from './machine.js';
import { PHASE_RULES } from './phases.js';
import { REJECTION_CODES, REJECTIONS, type RejectionCode } from './rejections.js';
import {
  type Command,
  type CommandType,
  type MachineCommand,
  type Phase,
  PHASES,
  type RoundState,
  type TableConfig,
} from './types.js';

interface Row {
  readonly code: RejectionCode;
  readonly name: string;
  readonly config: TableConfig;
  readonly state: RoundState;
  readonly command: MachineCommand;
  readonly now?: number;
}

const place = (over: Partial<Extract<Command, { type: 'place-bet' }>> = {}): Command => ({
  type: 'place-bet',
  betId: 'bet-2',
  playerId: 'p1',
  spot: 'big',
  stakeMinor: 500,
  ...over,
});
const seal = { dice: [1, 2, 3] as const, nonceHex: fakeHex(1), commitmentHex: fakeHex(2) };
/** Smuggles a value the types forbid, as JSON from a client could. */
const raw = (value: unknown): Command => value as Command;

/** Betting reopened after a void roll, with "bet-1" standing from roll 1 (Art. 3.4). */
const reopened = openBetting(LEVER, stateIn(LEVER, 'voided'), T0);

const ROWS: Row[] = [
  {
    code: 'malformed_command',
    name: 'empty bet id',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ betId: '' }),
  },
  {
    code: 'malformed_command',
    name: 'reading without croupier',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'read-dice', dice: [1, 2, 3] }),
  },
  {
    code: 'malformed_command',
    name: 'void for no Art. 3.3 reason',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'void-roll', reason: 'fell' }),
  },
  {
    code: 'malformed_command',
    name: 'croupier id of the wrong type',
    config: LEVER,
    state: stateIn(LEVER, 'idle'),
    command: raw({ type: 'cover', croupierId: 7 }),
  },
  {
    code: 'malformed_command',
    name: 'stake as a string',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: raw({ ...place(), stakeMinor: '500' }),
  },
  {
    code: 'unknown_command',
    name: 'a step the procedure lacks',
    config: LEVER,
    state: stateIn(LEVER, 'idle'),
    command: raw({ type: 'shuffle' }),
  },
  {
    code: 'unknown_command',
    name: 'not an object',
    config: LEVER,
    state: stateIn(LEVER, 'idle'),
    command: raw(null),
  },
  {
    code: 'shake_method_mismatch',
    name: 'lever pulled on an electronic table',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'latched'),
    command: { type: 'pull-lever' },
  },
  {
    code: 'shake_method_mismatch',
    name: 'shaker triggered on a lever table',
    config: LEVER,
    state: stateIn(LEVER, 'latched'),
    command: { type: 'trigger-shaker', sealedRoll: seal },
  },
  {
    code: 'reading_method_mismatch',
    name: 'reveal on a lever table',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: { type: 'reveal-dice' },
  },
  {
    code: 'reading_method_mismatch',
    name: 'keyed dice on an electronic table',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'lifted'),
    command: { type: 'read-dice', dice: [1, 2, 3], croupierId: 'c' },
  },
  {
    code: 'prizes_unpaid',
    name: 'cover before pay-all (Art. 4)',
    config: LEVER,
    state: stateIn(LEVER, 'revealed'),
    command: { type: 'cover' },
  },
  {
    code: 'roll_unresolved',
    name: 'cover over lifted, unread dice',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: { type: 'cover' },
  },
  {
    code: 'dome_already_covered',
    name: 'cover during betting',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: { type: 'cover' },
  },
  {
    code: 'dome_not_covered',
    name: 'latches with no dome',
    config: LEVER,
    state: stateIn(LEVER, 'idle'),
    command: { type: 'fasten-latches' },
  },
  {
    code: 'dome_not_covered',
    name: 'lift after the round is paid',
    config: LEVER,
    state: stateIn(LEVER, 'paid'),
    command: { type: 'lift-dome' },
  },
  {
    code: 'latches_already_fastened',
    name: 'latches twice',
    config: LEVER,
    state: stateIn(LEVER, 'latched'),
    command: { type: 'fasten-latches' },
  },
  {
    code: 'latches_not_fastened',
    name: 'lever before the latches',
    config: LEVER,
    state: stateIn(LEVER, 'covered'),
    command: { type: 'pull-lever' },
  },
  {
    code: 'latches_not_fastened',
    name: 'trigger before the latches',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'covered'),
    command: { type: 'trigger-shaker', sealedRoll: seal },
  },
  {
    code: 'dice_already_shaken',
    name: 'a fourth pull',
    config: LEVER,
    state: stateIn(LEVER, 'shaken'),
    command: { type: 'pull-lever' },
  },
  {
    code: 'dice_already_shaken',
    name: 'a second trigger during betting',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'betting'),
    command: { type: 'trigger-shaker', sealedRoll: seal },
  },
  {
    code: 'lever_pulls_incomplete',
    name: 'betting after one pull',
    config: LEVER,
    state: stateIn(LEVER, 'shaking'),
    command: { type: 'open-betting' },
  },
  {
    code: 'invalid_sealed_roll',
    name: 'a face of 7',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'latched'),
    command: raw({ type: 'trigger-shaker', sealedRoll: { ...seal, dice: [1, 2, 7] } }),
  },
  {
    code: 'invalid_sealed_roll',
    name: 'a short nonce',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'latched'),
    command: { type: 'trigger-shaker', sealedRoll: { ...seal, nonceHex: 'ab' } },
  },
  {
    code: 'invalid_sealed_roll',
    name: 'an upper-case commitment',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'latched'),
    command: {
      type: 'trigger-shaker',
      sealedRoll: { ...seal, commitmentHex: fakeHex(10).toUpperCase().replace(/^0/, 'A') },
    },
  },
  {
    code: 'invalid_sealed_roll',
    name: 'no seal at all',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'latched'),
    command: raw({ type: 'trigger-shaker' }),
  },
  {
    code: 'dice_not_shaken',
    name: 'betting before the shake',
    config: LEVER,
    state: stateIn(LEVER, 'latched'),
    command: { type: 'open-betting' },
  },
  {
    code: 'betting_already_open',
    name: 'opening twice',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: { type: 'open-betting' },
  },
  {
    code: 'betting_not_open',
    name: 'a bet before betting opens',
    config: LEVER,
    state: stateIn(LEVER, 'shaken'),
    command: place(),
  },
  {
    code: 'betting_not_open',
    name: 'a bet after a void, before betting reopens',
    config: LEVER,
    state: stateIn(LEVER, 'voided'),
    command: place(),
  },
  {
    code: 'betting_not_open',
    name: 'the bell with no betting',
    config: LEVER,
    state: stateIn(LEVER, 'idle'),
    command: { type: 'ring-bell' },
  },
  {
    code: 'betting_closed',
    name: 'a bet after the bell (Art. 3.1)',
    config: LEVER,
    state: stateIn(LEVER, 'closed'),
    command: place(),
  },
  {
    code: 'betting_closed',
    name: 'a withdrawal after the bell',
    config: LEVER,
    state: stateIn(LEVER, 'closed'),
    command: { type: 'withdraw-bet', betId: 'bet-1', playerId: 'p1' },
  },
  {
    code: 'betting_closed',
    name: 'a bet at the timer deadline, before any tick',
    config: TIMED,
    state: stateIn(TIMED, 'betting'),
    command: place(),
    now: T0 + 30_000,
  },
  {
    code: 'betting_closed',
    name: 'a withdrawal after the timer deadline',
    config: TIMED,
    state: stateIn(TIMED, 'betting'),
    command: { type: 'withdraw-bet', betId: 'bet-1', playerId: 'p1' },
    now: T0 + 31_000,
  },
  {
    code: 'betting_closed',
    name: 'reopening betting after the bell',
    config: LEVER,
    state: stateIn(LEVER, 'closed'),
    command: { type: 'open-betting' },
  },
  {
    code: 'duplicate_bet_id',
    name: 'a bet id used in the round',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ betId: 'bet-1' }),
  },
  {
    code: 'unknown_spot',
    name: 'total 3 is no bet',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ spot: 'total:3' }),
  },
  {
    code: 'spot_not_offered',
    name: 'a spot the layout leaves out (Art. 8)',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ spot: NOT_OFFERED }),
  },
  {
    code: 'invalid_stake',
    name: 'a fractional stake',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ stakeMinor: 100.5 }),
  },
  {
    code: 'invalid_stake',
    name: 'a zero stake',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ stakeMinor: 0 }),
  },
  {
    code: 'invalid_stake',
    name: 'NaN',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ stakeMinor: Number.NaN }),
  },
  {
    code: 'stake_below_min',
    name: 'one below the minimum',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ stakeMinor: 99 }),
  },
  {
    code: 'stake_above_max',
    name: 'one above the maximum',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ stakeMinor: 100_001 }),
  },
  {
    code: 'stake_above_max',
    name: 'a whole stake past what the rules can pay (2^53 - 1)',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ stakeMinor: Number.MAX_SAFE_INTEGER }),
  },
  {
    code: 'stake_above_max',
    name: 'the player’s bets on the spot add up past it',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: place({ spot: 'small', stakeMinor: 99_001 }),
  },
  {
    code: 'bets_per_round_exceeded',
    name: 'one bet too many',
    config: tableConfig({ betsPerRoundMax: 1 }),
    state: stateIn(LEVER, 'betting'),
    command: place(),
  },
  {
    code: 'unknown_bet',
    name: 'withdrawing a bet never placed',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: { type: 'withdraw-bet', betId: 'nope', playerId: 'p1' },
  },
  {
    code: 'not_bet_owner',
    name: 'withdrawing another player’s bet',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: { type: 'withdraw-bet', betId: 'bet-1', playerId: 'p2' },
  },
  {
    code: 'bet_stands_after_void',
    name: 'withdrawing a bet of a void roll (Art. 3.4)',
    config: LEVER,
    state: reopened,
    command: { type: 'withdraw-bet', betId: 'bet-1', playerId: 'p1' },
  },
  {
    code: 'bell_not_rung',
    name: 'lifting during betting',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: { type: 'lift-dome' },
  },
  {
    code: 'dome_already_lifted',
    name: 'lifting twice',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: { type: 'lift-dome' },
  },
  {
    code: 'dome_not_lifted',
    name: 'reading under the dome',
    config: LEVER,
    state: stateIn(LEVER, 'closed'),
    command: { type: 'read-dice', dice: [1, 2, 3], croupierId: 'c' },
  },
  {
    code: 'dome_not_lifted',
    name: 'revealing a void roll',
    config: ELECTRONIC,
    state: stateIn(ELECTRONIC, 'voided'),
    command: { type: 'reveal-dice' },
  },
  {
    code: 'invalid_dice',
    name: 'a face of 7',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'read-dice', dice: [1, 2, 7], croupierId: 'c' }),
  },
  {
    code: 'invalid_dice',
    name: 'two dice',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'read-dice', dice: [1, 2], croupierId: 'c' }),
  },
  {
    code: 'invalid_dice',
    name: 'four dice',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'read-dice', dice: [1, 2, 3, 4], croupierId: 'c' }),
  },
  {
    code: 'invalid_dice',
    name: 'a face as text',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'read-dice', dice: ['1', 2, 3], croupierId: 'c' }),
  },
  {
    code: 'invalid_dice',
    name: 'a face of 2.5',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'read-dice', dice: [1, 2.5, 3], croupierId: 'c' }),
  },
  {
    code: 'invalid_dice',
    name: 'no dice',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: raw({ type: 'read-dice', croupierId: 'c' }),
  },
  {
    code: 'dice_already_known',
    name: 'reading twice',
    config: LEVER,
    state: stateIn(LEVER, 'revealed'),
    command: { type: 'read-dice', dice: [1, 2, 3], croupierId: 'c' },
  },
  {
    code: 'dice_already_known',
    name: 'voiding a settled roll',
    config: LEVER,
    state: stateIn(LEVER, 'paid'),
    command: { type: 'void-roll', reason: 'stacked' },
  },
  {
    code: 'round_not_settled',
    name: 'paying before the result',
    config: LEVER,
    state: stateIn(LEVER, 'lifted'),
    command: { type: 'pay-all' },
  },
  {
    code: 'prizes_already_paid',
    name: 'paying twice',
    config: LEVER,
    state: stateIn(LEVER, 'paid'),
    command: { type: 'pay-all' },
  },
  {
    code: 'house_options_unauthorized',
    name: 'covering at a table whose options carry no authorization',
    config: tableConfig({ optionsAuthorized: false }),
    state: stateIn(LEVER, 'idle'),
    command: { type: 'cover' },
  },
  {
    code: 'house_options_unauthorized',
    name: 'opening betting at a table whose options carry no authorization',
    config: tableConfig({ optionsAuthorized: false }),
    state: stateIn(LEVER, 'shaken'),
    command: { type: 'open-betting' },
  },
  {
    code: 'table_held',
    name: 'covering a held table',
    config: LEVER,
    state: { ...stateIn(LEVER, 'paid'), hold: { reason: 'alert', article: '1.1', sinceMs: T0 } },
    command: { type: 'cover' },
  },
  {
    code: 'table_held',
    name: 'opening betting at a held table',
    config: ELECTRONIC,
    state: {
      ...stateIn(ELECTRONIC, 'shaken'),
      hold: { reason: 'alert', article: '1.1', sinceMs: T0 },
    },
    command: { type: 'open-betting' },
  },
  {
    code: 'liability_cap_exceeded',
    name: 'a bet past the house’s worst-case cap',
    config: tableConfig({ liabilityMinorMax: 1_000 }),
    state: stateIn(LEVER, 'betting'),
    command: place({ spot: 'triple:6', stakeMinor: 100 }),
  },
  {
    code: 'table_mid_round',
    name: 'new limits during betting',
    config: LEVER,
    state: stateIn(LEVER, 'betting'),
    command: { type: 'change-limits' },
  },
  {
    code: 'table_mid_round',
    name: 'house options once the dice are revealed, before the payment (Art. 8)',
    config: LEVER,
    state: stateIn(LEVER, 'revealed'),
    command: { type: 'change-house-options' },
  },
  {
    code: 'table_mid_round',
    name: 'new dice recorded after a void roll',
    config: LEVER,
    state: stateIn(LEVER, 'voided'),
    command: { type: 'record-between-rounds' },
  },
  {
    code: 'table_closed',
    name: 'covering a table closed for play',
    config: LEVER,
    state: { ...stateIn(LEVER, 'paid'), closedSinceMs: T0 },
    command: { type: 'cover' },
  },
  {
    code: 'table_closed',
    name: 'opening betting at a table closed for play',
    config: ELECTRONIC,
    state: { ...stateIn(ELECTRONIC, 'shaken'), closedSinceMs: T0 },
    command: { type: 'open-betting' },
  },
];

describe('the liability cap comes after the round’s own refusals', () => {
  const capped = tableConfig({ liabilityMinorMax: 1 });

  it('answers betting_not_open before the cap (Art. 2.1)', () => {
    expect(check(capped, stateIn(LEVER, 'shaken'), place(), T0 + 1)?.code).toBe('betting_not_open');
  });

  it('answers stake_above_max for a stake of 2^53 - 1, not the cap', () => {
    const command = place({ stakeMinor: Number.MAX_SAFE_INTEGER });
    expect(check(capped, stateIn(LEVER, 'betting'), command, T0 + 1)?.code).toBe('stake_above_max');
  });

  it('counts withdrawn bets out of the worst case', () => {
    // bet-1 is 1,000 on small; big (1:1) hedges it while it stands, and risks its whole stake alone.
    const config = tableConfig({ liabilityMinorMax: 1_000 });
    const betting = stateIn(config, 'betting');
    expect(can(config, betting, place({ betId: 'b-2', stakeMinor: 1_001 }), T0 + 1)).toBe(true);
    const bet = place({ betId: 'b-big', stakeMinor: 1_000 });
    const withdrawn = applyAll(
      config,
      betting,
      betting.bets.map((b) => ({ type: 'withdraw-bet', betId: b.betId, playerId: b.playerId })),
      T0 + 1,
    ).state;
    expect(can(config, withdrawn, bet, T0 + 1)).toBe(true);
    expect(can(config, withdrawn, place({ betId: 'b-2', stakeMinor: 1_001 }), T0 + 1)).toBe(false);
  });
});

describe('every rejection code', () => {
  it.each(ROWS)('$code: $name', ({ code, config, state, command, now }) => {
    const frozen = deepFreeze(structuredClone(state));
    const result = transition(config, frozen, command, now ?? T0 + 1);
    expect(result).toEqual({
      ok: false,
      rejection: { code, article: REJECTIONS[code].article, message: expect.any(String) as string },
    });
    expect(frozen).toEqual(state);
    expect(can(config, frozen, command, now ?? T0 + 1)).toBe(false);
    expect(check(config, frozen, command, now ?? T0 + 1)?.code).toBe(code);
  });

  it('has at least one scenario for every documented code', () => {
    const tested = new Set(ROWS.map((r) => r.code));
    expect(REJECTION_CODES.filter((c) => !tested.has(c))).toEqual([]);
  });

  it('names an article for every code', () => {
    for (const code of REJECTION_CODES) expect(REJECTIONS[code].article).toMatch(/^\d+(\.\d+)?$/);
  });

  it('throws on a clock that is not epoch milliseconds: a caller bug, not a refusal', () => {
    expect(() => transition(LEVER, stateIn(LEVER, 'idle'), { type: 'cover' }, Number.NaN)).toThrow(
      TypeError,
    );
  });
});

/** A command of each type whose content is acceptable, so only the phase can refuse it. */
function validCommand(
  type: CommandType,
  config: TableConfig,
  state: RoundState,
): MachineCommand | null {
  const lever = config.shaker === 'lever';
  switch (type) {
    case 'pull-lever':
    case 'read-dice':
      return lever
        ? type === 'pull-lever'
          ? { type }
          : { type, dice: [3, 3, 4], croupierId: 'c' }
        : null;
    case 'trigger-shaker':
      return lever ? null : { type, sealedRoll: seal };
    case 'reveal-dice':
      return lever ? null : { type };
    case 'place-bet':
      return place({ betId: 'fresh' });
    case 'withdraw-bet':
      return { type, betId: state.bets.at(-1)?.betId ?? 'bet-1', playerId: 'p1' };
    case 'void-roll':
      return { type, reason: 'stacked' };
    default:
      return { type };
  }
}

describe('the phase table (phases.ts) is what the machine does', () => {
  const cases = [LEVER, ELECTRONIC].flatMap((config) =>
    PHASES.filter((p) => config.shaker === 'lever' || p !== 'shaking').flatMap((phase: Phase) =>
      (Object.keys(PHASE_RULES) as CommandType[]).map((type) => ({
        table: config.shaker,
        config,
        phase,
        type,
      })),
    ),
  );

  it.each(cases)('$table table, $phase: $type', ({ config, phase, type }) => {
    const state = stateIn(config, phase);
    const command = validCommand(type, config, state);
    if (command === null) return; // the other table's method, covered by the mismatch rows
    expect(check(config, state, command, T0 + 1)?.code ?? null).toBe(PHASE_RULES[type][phase]);
  });

  it('needs a fresh cover after a void roll before anything but a tick', () => {
    const voided = stateIn(LEVER, 'voided');
    const accepted = (Object.keys(PHASE_RULES) as CommandType[]).filter((type) => {
      const command = validCommand(type, LEVER, voided);
      return command !== null && can(LEVER, voided, command, T0 + 1);
    });
    expect(accepted.sort()).toEqual(['cover', 'tick']);
    expect(applyAll(LEVER, voided, [{ type: 'cover' }], T0).state.phase).toBe('covered');
  });
});
