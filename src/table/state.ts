/**
 * Small helpers shared by the handlers: the first state, the next state, and
 * the fields every event carries.
 */
import type { EventBase, PlacedBet, PublicBet, RoundState, TableConfig } from './types.js';

/**
 * The state of a table before its first round. A service that resumes a table
 * whose rounds are numbered elsewhere passes the last round number used.
 */
export function initialState(lastRoundNo = 0): RoundState {
  return {
    phase: 'idle',
    roundNo: lastRoundNo,
    rollNo: 0,
    leverPulls: 0,
    seal: null,
    bettingDeadlineMs: null,
    bets: [],
    withdrawnBetIds: [],
    settlement: null,
    lastAtMs: null,
    hold: null,
    closedSinceMs: null,
  };
}

/** The state after an accepted command: `patch` applied and the clock recorded. */
export function next(state: RoundState, patch: Partial<RoundState>, now: number): RoundState {
  return { ...state, ...patch, lastAtMs: now };
}

/** What every event carries; `state` is the one the event is about. */
export function base(config: TableConfig, state: RoundState, now: number): EventBase {
  return { tableId: config.tableId, roundNo: state.roundNo, rollNo: state.rollNo, atMs: now };
}

export function publicBet(bet: PlacedBet): PublicBet {
  return {
    betId: bet.betId,
    playerId: bet.playerId,
    spot: bet.spot,
    stakeMinor: bet.stakeMinor,
    rollNo: bet.rollNo,
  };
}

export function totalStakeMinor(bets: readonly PlacedBet[]): number {
  let total = 0;
  for (const bet of bets) total += bet.stakeMinor;
  return total;
}

/** The croupier named on a command, or null: events always carry the field. */
export function croupierOf(command: { readonly croupierId?: string }): string | null {
  return command.croupierId ?? null;
}
