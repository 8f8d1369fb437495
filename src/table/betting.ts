/**
 * The betting window (Arts. 2.1, 3.1 and 3.4): placing and withdrawing bets,
 * and the bell that ends them, rung by the croupier or by the betting timer.
 */
import { validateBet } from '../rules/index.js';
import type { ExposureBook } from '../math/index.js';
import { betIndexOf, exposureOf, movePlaced, moveWithdrawn, stakeOnSeat } from './bet-index.js';
import { isRejectionCode, reject, type RejectionCode } from './rejections.js';
import { base, croupierOf, next, publicBet, totalStakeMinor } from './state.js';
import type { Command, PlacedBet, RoundState, TableConfig, TransitionResult } from './types.js';

type Of<T extends Command['type']> = Extract<Command, { type: T }>;

/** True when the betting timer has run out, whether or not a tick has rung the bell yet. */
export function timerExpired(state: RoundState, now: number): boolean {
  return state.bettingDeadlineMs !== null && now >= state.bettingDeadlineMs;
}

function timerRefusal(state: RoundState, what: string): TransitionResult {
  // Art. 3.1: betting ends with the bell; the timer's deadline is that bell even
  // when the tick that rings it has not arrived yet.
  return reject(
    'betting_closed',
    `${what} refused: the betting timer ran out at ${String(state.bettingDeadlineMs)}`,
  );
}

/** The rules' bet codes are ours too; a code we do not know means the rules changed under us. */
function ruleCode(code: string): RejectionCode {
  if (isRejectionCode(code)) return code;
  throw new Error(`rules returned bet code "${code}", which src/table does not document`);
}

/** The first reason the table refuses this bet's content, or null (precedence in docs/table.md). */
function betRefusal(
  config: TableConfig,
  state: RoundState,
  command: Of<'place-bet'>,
): { code: RejectionCode; message: string } | null {
  const { betId, playerId, spot, stakeMinor } = command;
  // The index answers what scans of state.bets did, in O(1) (bet-index.ts).
  const index = betIndexOf(state.bets, state.withdrawnBetIds);
  if (index.usedIds.has(betId)) {
    return {
      code: 'duplicate_bet_id',
      message: `bet "${betId}" was already placed in round ${state.roundNo}`,
    };
  }
  // Art. 5 and Art. 8: a bet of the regulation that this layout offers, with a whole stake.
  const valid = validateBet(config.paytable, { spot, stakeMinor });
  // A whole stake past what the rules can pay (STAKE_MINOR_MAX) is past the table's maximum
  // too, which is at most that: it is refused below as stake_above_max, the limit a player knows.
  const overRules =
    !valid.ok &&
    valid.error.code === 'invalid_stake' &&
    Number.isSafeInteger(stakeMinor) &&
    stakeMinor > 0;
  if (!valid.ok && !overRules)
    return { code: ruleCode(valid.error.code), message: valid.error.message };
  if (stakeMinor < config.stakeMinorMin) {
    return {
      code: 'stake_below_min',
      message: `the table's minimum stake is ${config.stakeMinorMin}, got ${stakeMinor}`,
    };
  }
  // The maximum counts every standing bet of the player on the spot, or two bets
  // would get round it; withdrawn bets no longer count.
  const already = stakeOnSeat(index, playerId, spot);
  if (already + stakeMinor > config.stakeMinorMax) {
    return {
      code: 'stake_above_max',
      message: `player "${playerId}" would stake ${already + stakeMinor} on "${spot}"; the table's maximum is ${config.stakeMinorMax}`,
    };
  }
  if (state.bets.length >= config.betsPerRoundMax) {
    return {
      code: 'bets_per_round_exceeded',
      message: `the round already holds ${state.bets.length} bets, the table's maximum`,
    };
  }
  // Last: only a bet the round would otherwise take is measured against the house's cap.
  const worst = exposureOf(index, config.paytable).worstLossWithMinor(spot, stakeMinor);
  if (worst > config.liabilityMinorMax) {
    return {
      code: 'liability_cap_exceeded',
      message: `this bet would raise the table's worst-case loss this round to ${worst}, over its cap of ${config.liabilityMinorMax} (minor units)`,
    };
  }
  return null;
}

/**
 * What the round's standing bets cost the house under each outcome, as the
 * liability cap sees it. The book belongs to the round's bet index: copy it to
 * keep it past the next transition.
 */
export function roundExposure(config: TableConfig, state: RoundState): ExposureBook {
  return exposureOf(betIndexOf(state.bets, state.withdrawnBetIds), config.paytable);
}

export function placeBet(
  config: TableConfig,
  state: RoundState,
  command: Of<'place-bet'>,
  now: number,
): TransitionResult {
  if (timerExpired(state, now)) return timerRefusal(state, 'place-bet');
  const refusal = betRefusal(config, state, command);
  if (refusal !== null) return reject(refusal.code, refusal.message);
  const bet: PlacedBet = {
    betId: command.betId,
    playerId: command.playerId,
    spot: command.spot,
    stakeMinor: command.stakeMinor,
    rollNo: state.rollNo,
    placedAtMs: now,
  };
  const index = betIndexOf(state.bets, state.withdrawnBetIds);
  // A new array per state keeps every earlier state as it was; copying references is cheap.
  const bets = state.bets.slice();
  bets.push(bet);
  movePlaced(index, bets, bet);
  const nextState = next(state, { bets }, now);
  const event = {
    type: 'bet-placed',
    ...base(config, nextState, now),
    bet: publicBet(bet),
    totalStakeMinor: index.totalStakeMinor,
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

export function withdrawBet(
  config: TableConfig,
  state: RoundState,
  command: Of<'withdraw-bet'>,
  now: number,
): TransitionResult {
  if (timerExpired(state, now)) return timerRefusal(state, 'withdraw-bet');
  const bet = state.bets.find((b) => b.betId === command.betId);
  if (bet === undefined) {
    const why = state.withdrawnBetIds.includes(command.betId)
      ? 'was already withdrawn'
      : 'is not a bet of this round';
    return reject('unknown_bet', `bet "${command.betId}" ${why}`);
  }
  if (bet.playerId !== command.playerId) {
    return reject('not_bet_owner', `bet "${bet.betId}" belongs to another player`);
  }
  // Art. 3.4: after a void roll players may not withdraw their bets; only bets of
  // the current betting window can go.
  if (bet.rollNo !== state.rollNo) {
    return reject(
      'bet_stands_after_void',
      `bet "${bet.betId}" was placed before roll ${bet.rollNo} was voided and stands`,
    );
  }
  const index = betIndexOf(state.bets, state.withdrawnBetIds);
  const bets = state.bets.filter((b) => b.betId !== bet.betId);
  const withdrawnBetIds = [...state.withdrawnBetIds, bet.betId];
  moveWithdrawn(index, bets, withdrawnBetIds, bet);
  const nextState = next(state, { bets, withdrawnBetIds }, now);
  const event = {
    type: 'bet-withdrawn',
    ...base(config, nextState, now),
    bet: publicBet(bet),
    totalStakeMinor: index.totalStakeMinor,
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

function bell(
  config: TableConfig,
  state: RoundState,
  croupierId: string | null,
  automatic: boolean,
  now: number,
): TransitionResult {
  // Art. 3.1: the bell ends betting.
  const nextState = next(state, { phase: 'closed', bettingDeadlineMs: null }, now);
  const event = {
    type: 'bell-rung',
    ...base(config, nextState, now),
    automatic,
    betCount: state.bets.length,
    totalStakeMinor: totalStakeMinor(state.bets),
    croupierId,
  } as const;
  return { ok: true, state: nextState, events: [event] };
}

export function ringBell(
  config: TableConfig,
  state: RoundState,
  command: Of<'ring-bell'>,
  now: number,
): TransitionResult {
  return bell(config, state, croupierOf(command), false, now);
}

/**
 * The clock. It rings the bell when the betting timer has run out (a table
 * option) and otherwise changes nothing: the state comes back as it was, so a
 * service can skip persisting it.
 */
export function tick(config: TableConfig, state: RoundState, now: number): TransitionResult {
  if (state.phase === 'betting' && timerExpired(state, now))
    return bell(config, state, null, true, now);
  return { ok: true, state, events: [] };
}
