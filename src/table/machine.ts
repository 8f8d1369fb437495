/**
 * The round as a pure state machine (Arts. 2–4).
 *
 * `transition(config, state, command, now)` judges a command in this order:
 * its shape, the table's house option (lever or electronic), the phase, what
 * holds the table (unauthorized options, a fairness hold: hold.ts), then its
 * content. It returns the next state and the events to publish, or a
 * rejection with a stable code and the article it enforces. It reads no clock
 * (`now` is passed in), draws no random number and does no I/O.
 */
import { placeBet, ringBell, tick, withdrawBet } from './betting.js';
import { tableRefusal } from './hold.js';
import { phaseRefusal } from './phases.js';
import {
  cover,
  fastenLatches,
  liftDome,
  openBetting,
  pullLever,
  triggerShaker,
  voidRoll,
} from './procedure.js';
import { type RejectionCode, reject } from './rejections.js';
import { payAll, readDice, revealDice } from './result.js';
import { initialState } from './state.js';
import type {
  Command,
  MachineCommand,
  Rejection,
  RoundEvent,
  RoundState,
  TableConfig,
  TransitionResult,
} from './types.js';
import { shapeProblem, tableConfigProblems } from './validate.js';

/** Art. 2.1 and Art. 8: lever and electronic tables shake, and learn their dice, differently. */
function methodRefusal(
  config: TableConfig,
  command: MachineCommand,
): { code: RejectionCode; message: string } | null {
  const lever = config.shaker === 'lever';
  if ((command.type === 'pull-lever' && !lever) || (command.type === 'trigger-shaker' && lever)) {
    return {
      code: 'shake_method_mismatch',
      message: `${command.type} refused: table's shaker is ${config.shaker}`,
    };
  }
  if ((command.type === 'read-dice' && !lever) || (command.type === 'reveal-dice' && lever)) {
    return {
      code: 'reading_method_mismatch',
      message: `${command.type} refused: ${lever ? 'the croupier reads a lever table' : 'an electronic table reveals its sealed roll'}`,
    };
  }
  return null;
}

function dispatch(
  config: TableConfig,
  state: RoundState,
  command: MachineCommand,
  now: number,
): TransitionResult {
  switch (command.type) {
    case 'cover':
      return cover(config, state, command, now);
    case 'fasten-latches':
      return fastenLatches(config, state, command, now);
    case 'pull-lever':
      return pullLever(config, state, command, now);
    case 'trigger-shaker':
      return triggerShaker(config, state, command, now);
    case 'open-betting':
      return openBetting(config, state, command, now);
    case 'place-bet':
      return placeBet(config, state, command, now);
    case 'withdraw-bet':
      return withdrawBet(config, state, command, now);
    case 'ring-bell':
      return ringBell(config, state, command, now);
    case 'tick':
      return tick(config, state, now);
    case 'lift-dome':
      return liftDome(config, state, command, now);
    case 'read-dice':
      return readDice(config, state, command, now);
    case 'reveal-dice':
      return revealDice(config, state, command, now);
    case 'void-roll':
      return voidRoll(config, state, command, now);
    case 'pay-all':
      return payAll(config, state, command, now);
    case 'change-limits':
    case 'change-house-options':
    case 'record-between-rounds':
      // The phase rule is the whole check: the round is left as it was, for the service to journal.
      return { ok: true, state, events: [] };
  }
}

/**
 * Applies one command. `config` must have passed `tableConfigProblems`; `now`
 * is epoch milliseconds from the caller's clock. The input state is never
 * changed; a refused command leaves it exactly as it was.
 */
export function transition(
  config: TableConfig,
  state: RoundState,
  command: MachineCommand,
  now: number,
): TransitionResult {
  // A clock that is not a number is a bug in the caller, not a refusal to show a croupier.
  if (!Number.isSafeInteger(now))
    throw new TypeError(`transition: now must be epoch milliseconds, got ${String(now)}`);
  const shape = shapeProblem(command);
  if (shape !== null) return reject(shape.code, shape.message);
  const method = methodRefusal(config, command);
  if (method !== null) return reject(method.code, method.message);
  const phase = phaseRefusal(command.type, state.phase);
  if (phase !== null) return reject(phase.code, phase.message);
  const held = tableRefusal(config, state, command);
  if (held !== null) return reject(held.code, held.message);
  return dispatch(config, state, command, now);
}

/**
 * Why `command` would be refused now, or null when it would be accepted.
 * Without `now` the time of the last accepted command is used, which cannot
 * see a betting timer that ran out since; pass the clock for bets.
 */
export function check(
  config: TableConfig,
  state: RoundState,
  command: MachineCommand,
  now?: number,
): Rejection | null {
  const result = transition(config, state, command, now ?? state.lastAtMs ?? 0);
  return result.ok ? null : result.rejection;
}

/** Whether `command` would be accepted: what a croupier console enables its buttons with. */
export function can(
  config: TableConfig,
  state: RoundState,
  command: MachineCommand,
  now?: number,
): boolean {
  return check(config, state, command, now) === null;
}

/** Thrown by {@link applyAll} when a command of a scripted sequence is refused. */
export class CommandRefused extends Error {
  constructor(
    readonly command: Command,
    readonly rejection: Rejection,
  ) {
    super(
      `${command.type} refused: ${rejection.code} (Art. ${rejection.article}): ${rejection.message}`,
    );
    this.name = 'CommandRefused';
  }
}

/**
 * Applies commands in order at the same `now` (or at `now` + index × `stepMs`),
 * throwing on the first refusal. For scripts, simulations and tests, where a
 * refusal is a bug.
 */
export function applyAll(
  config: TableConfig,
  state: RoundState,
  commands: readonly Command[],
  now: number,
  stepMs = 0,
): { state: RoundState; events: RoundEvent[] } {
  let current = state;
  const events: RoundEvent[] = [];
  commands.forEach((command, i) => {
    const result = transition(config, current, command, now + i * stepMs);
    if (!result.ok) throw new CommandRefused(command, result.rejection);
    current = result.state;
    events.push(...result.events);
  });
  return { state: current, events };
}

/** The machine bound to one table's configuration, with the signatures a service calls. */
export interface RoundMachine {
  readonly config: TableConfig;
  initialState(lastRoundNo?: number): RoundState;
  transition(state: RoundState, command: MachineCommand, now: number): TransitionResult;
  can(state: RoundState, command: MachineCommand, now?: number): boolean;
  check(state: RoundState, command: MachineCommand, now?: number): Rejection | null;
}

/** Binds a configuration after checking it: a table that cannot run is refused before any round. */
export function roundMachine(config: TableConfig): RoundMachine {
  const problems = tableConfigProblems(config);
  if (problems.length > 0)
    throw new Error(`table ${String(config.tableId)}: ${problems.join('; ')}`);
  return {
    config,
    initialState,
    transition: (state, command, now) => transition(config, state, command, now),
    can: (state, command, now) => can(config, state, command, now),
    check: (state, command, now) => check(config, state, command, now),
  };
}
