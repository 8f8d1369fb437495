/**
 * Tables and round positions that the tests of this folder share. Kept free of
 * vitest and deterministic, like the machine: seals have fixed nonces and real
 * commitments (src/dice).
 */
import { rollCommitment } from '../dice/seal.js';
import { compilePaytable, type Dice, SPOTS } from '../rules/index.js';
import { applyAll } from './machine.js';
import { initialState } from './state.js';
import type { Command, Phase, RoundState, SealedRoll, TableConfig } from './types.js';

/** A spot the fixture layout leaves out, to exercise Art. 8's house choice of bets. */
export const NOT_OFFERED = 'four-numbers:3-4-5-6';

export const PAYTABLE = compilePaytable({
  spots: SPOTS.map((s) => s.id).filter((id) => id !== NOT_OFFERED),
  totalOdds: { '5/16': 18, '6/15': 14 },
});

/** 1 Jan 2025 00:00 Macau time, in epoch ms: a clock value that looks like one. */
export const T0 = 1_735_660_800_000;

export function tableConfig(overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    tableId: 'T-LEVER',
    shaker: 'lever',
    displayBoard: true,
    bettingTimerMs: null,
    stakeMinorMin: 100,
    stakeMinorMax: 100_000,
    betsPerRoundMax: 50,
    // No cap unless a test sets one: the house may lose what the bets can win.
    liabilityMinorMax: Number.MAX_SAFE_INTEGER,
    paytable: PAYTABLE,
    optionsAuthorized: true,
    ...overrides,
  };
}

export const LEVER = tableConfig();
export const ELECTRONIC = tableConfig({
  tableId: 'T-ELEC',
  shaker: 'electronic',
  displayBoard: false,
});
export const TIMED = tableConfig({ tableId: 'T-TIMED', bettingTimerMs: 30_000 });

/** A hex string of 64 digits that stands in for a SHA-256 where only the format matters. */
export function fakeHex(n: number): string {
  return n.toString(16).padStart(64, '0');
}

/**
 * A sealed roll of `dice` for `state`'s current roll: a nonce fixed by the round
 * and roll numbers, so tests can look for it, and the real commitment.
 */
export function sealFor(config: TableConfig, state: RoundState, dice: Dice): SealedRoll {
  const { roundNo, rollNo } = state;
  const nonceHex = fakeHex(roundNo * 1000 + rollNo);
  const commitmentHex = rollCommitment(
    { tableId: config.tableId, roundNo, rollNo },
    dice,
    nonceHex,
  );
  return { dice, nonceHex, commitmentHex };
}

/** The commands that shake this table: three pulls, or one trigger with a seal of `dice`. */
export function shakeCommands(config: TableConfig, state: RoundState, dice: Dice): Command[] {
  if (config.shaker === 'lever')
    return [{ type: 'pull-lever' }, { type: 'pull-lever' }, { type: 'pull-lever' }];
  return [{ type: 'trigger-shaker', sealedRoll: sealFor(config, state, dice) }];
}

/** Covers, latches and shakes (with `dice` sealed on an electronic table), then opens betting. */
export function openBetting(
  config: TableConfig,
  state: RoundState,
  now: number,
  dice: Dice = [1, 2, 3],
): RoundState {
  let s = applyAll(config, state, [{ type: 'cover' }, { type: 'fasten-latches' }], now).state;
  s = applyAll(config, s, [...shakeCommands(config, s, dice), { type: 'open-betting' }], now).state;
  return s;
}

/** The commands that announce the result: the croupier's reading, or the seal's reveal. */
export function announceCommand(config: TableConfig, dice: Dice): Command {
  return config.shaker === 'lever'
    ? { type: 'read-dice', dice, croupierId: 'croupier-1' }
    : { type: 'reveal-dice' };
}

/**
 * A state in `phase`, reached by legal commands at T0, with one bet standing
 * ("bet-1", player "p1", 1 000 on small) from betting onwards. `shaking` exists
 * only on a lever table.
 */
export function stateIn(config: TableConfig, phase: Phase, dice: Dice = [2, 3, 5]): RoundState {
  const at = (commands: Command[], from: RoundState): RoundState =>
    applyAll(config, from, commands, T0).state;
  const idle = initialState();
  if (phase === 'idle') return idle;
  const covered = at([{ type: 'cover' }], idle);
  if (phase === 'covered') return covered;
  const latched = at([{ type: 'fasten-latches' }], covered);
  if (phase === 'latched') return latched;
  if (phase === 'shaking') return at([{ type: 'pull-lever' }], latched);
  const shaken = at(shakeCommands(config, latched, dice), latched);
  if (phase === 'shaken') return shaken;
  const bet: Command = {
    type: 'place-bet',
    betId: 'bet-1',
    playerId: 'p1',
    spot: 'small',
    stakeMinor: 1000,
  };
  const betting = at([{ type: 'open-betting' }, bet], shaken);
  if (phase === 'betting') return betting;
  const closed = at([{ type: 'ring-bell' }], betting);
  if (phase === 'closed') return closed;
  const lifted = at([{ type: 'lift-dome' }], closed);
  if (phase === 'lifted') return lifted;
  if (phase === 'voided') return at([{ type: 'void-roll', reason: 'stacked' }], lifted);
  const revealed = at([announceCommand(config, dice)], lifted);
  if (phase === 'revealed') return revealed;
  return at([{ type: 'pay-all' }], revealed);
}

/** Freezes a value and everything in it, so a test fails if the machine mutates its input. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
