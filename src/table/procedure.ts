/**
 * The croupier's acts around the shaker (Arts. 2 and 3.3): cover, fasten the
 * latches, shake, open betting, lift the dome and, when the dice are stacked or
 * tilted, void the roll. Each handler runs after the phase check of
 * phases.ts, so it only has to judge the command's content.
 */
import { reject } from './rejections.js';
import { base, croupierOf, next, publicBet } from './state.js';
import type { Command, RoundState, TableConfig, TransitionResult } from './types.js';
import { isSealedRoll } from './validate.js';

type Of<T extends Command['type']> = Extract<Command, { type: T }>;

/** Art. 2.1: the croupier pulls the lever three times in a row. */
export const LEVER_PULLS = 3;

export function cover(
  config: TableConfig,
  state: RoundState,
  command: Of<'cover'>,
  now: number,
): TransitionResult {
  // Art. 3.3: after a void roll "the operation is repeated" within the same round;
  // otherwise (Art. 4 already checked: everything is paid) a new round begins.
  const newRound = state.phase !== 'voided';
  const common = { phase: 'covered', leverPulls: 0, seal: null, bettingDeadlineMs: null } as const;
  const nextState = newRound
    ? next(
        state,
        {
          ...common,
          roundNo: state.roundNo + 1,
          rollNo: 1,
          bets: [],
          withdrawnBetIds: [],
          settlement: null,
        },
        now,
      )
    : next(state, common, now);
  const event = {
    type: 'dome-covered',
    ...base(config, nextState, now),
    newRound,
    croupierId: croupierOf(command),
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

export function fastenLatches(
  config: TableConfig,
  state: RoundState,
  command: Of<'fasten-latches'>,
  now: number,
): TransitionResult {
  // Art. 1.2(2) and 2.1: the movable dome is held by both latches before the shake.
  const nextState = next(state, { phase: 'latched' }, now);
  const event = {
    type: 'latches-fastened',
    ...base(config, nextState, now),
    croupierId: croupierOf(command),
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

export function pullLever(
  config: TableConfig,
  state: RoundState,
  command: Of<'pull-lever'>,
  now: number,
): TransitionResult {
  // Art. 2.1: three consecutive pulls. Between them the phase is `shaking`, which
  // accepts nothing but the next pull, so no other act can come in between.
  const pullNo = state.leverPulls + 1;
  const done = pullNo === LEVER_PULLS;
  const nextState = next(state, { phase: done ? 'shaken' : 'shaking', leverPulls: pullNo }, now);
  const croupierId = croupierOf(command);
  const pulled = {
    type: 'lever-pulled',
    ...base(config, nextState, now),
    pullNo,
    croupierId,
  } as const;
  if (!done) return { ok: true, state: nextState, events: [pulled] };
  const shaken = {
    type: 'dice-shaken',
    ...base(config, nextState, now),
    method: 'lever',
    commitmentHex: null,
    croupierId,
  } as const;
  return { ok: true, state: nextState, events: [pulled, shaken] };
}

export function triggerShaker(
  config: TableConfig,
  state: RoundState,
  command: Of<'trigger-shaker'>,
  now: number,
): TransitionResult {
  const seal: unknown = command.sealedRoll;
  if (!isSealedRoll(seal)) {
    return reject(
      'invalid_sealed_roll',
      'trigger-shaker: the sealed roll must be three faces 1–6 with 64-hex-digit nonce and commitment',
    );
  }
  // Copy the seal field by field so the state holds plain data only, whatever the caller sent.
  const kept = {
    dice: [seal.dice[0], seal.dice[1], seal.dice[2]] as const,
    nonceHex: seal.nonceHex,
    commitmentHex: seal.commitmentHex,
  };
  const nextState = next(state, { phase: 'shaken', seal: kept }, now);
  // The public learns only the commitment until the reveal (docs/table.md, "Sealed rolls").
  const event = {
    type: 'dice-shaken',
    ...base(config, nextState, now),
    method: 'electronic',
    commitmentHex: kept.commitmentHex,
    croupierId: croupierOf(command),
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

export function openBetting(
  config: TableConfig,
  state: RoundState,
  command: Of<'open-betting'>,
  now: number,
): TransitionResult {
  const deadlineMs = config.bettingTimerMs === null ? null : now + config.bettingTimerMs;
  const nextState = next(state, { phase: 'betting', bettingDeadlineMs: deadlineMs }, now);
  const event = {
    type: 'betting-opened',
    ...base(config, nextState, now),
    commitmentHex: state.seal?.commitmentHex ?? null,
    deadlineMs,
    // Art. 2.2: the board lights only where the house chose to have one.
    displayBoardLit: config.displayBoard,
    // Art. 3.4: bets of void rolls stand; a client that joins now sees them here.
    standingBets: state.bets.map(publicBet),
    croupierId: croupierOf(command),
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

export function liftDome(
  config: TableConfig,
  state: RoundState,
  command: Of<'lift-dome'>,
  now: number,
): TransitionResult {
  const nextState = next(state, { phase: 'lifted' }, now);
  const event = {
    type: 'dome-lifted',
    ...base(config, nextState, now),
    croupierId: croupierOf(command),
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

export function voidRoll(
  config: TableConfig,
  state: RoundState,
  command: Of<'void-roll'>,
  now: number,
): TransitionResult {
  // Art. 3.3: stacked or tilted dice make the roll void and the operation is
  // repeated; Art. 3.4: the round's bets stay, so `bets` is left as it is.
  const nextState = next(
    state,
    { phase: 'voided', rollNo: state.rollNo + 1, leverPulls: 0, seal: null },
    now,
  );
  const event = {
    type: 'roll-voided',
    ...base(config, state, now),
    reason: command.reason,
    croupierId: croupierOf(command),
    nextRollNo: nextState.rollNo,
    // Opening a void seal costs nothing (those dice decide nothing) and lets an
    // auditor see every roll the shaker drew, including the voided ones.
    voidedRoll: state.seal,
  } as const;
  return { ok: true, state: nextState, events: [event] };
}
