/**
 * What keeps a table from starting a round although the procedure would allow
 * it: house options without a recorded authorization (Art. 8), a supervisor
 * having closed the table for play (Art. 2), or a hold set between rounds after
 * a severe fairness alert (Art. 1.1). All refuse the same two acts, covering the
 * dome for a new roll and opening betting, so a round in progress is finished
 * and paid (Art. 4) but no new one starts.
 *
 * The closure and the hold are part of the state, so `can` sees them and the
 * croupier's console disables its buttons; the service sets and clears them
 * (`setTableOpen`, `holdTable`, `releaseHold`), never mid-command.
 */
import { type RejectionCode, REJECTIONS } from './rejections.js';
import type { CommandType, MachineCommand, RoundState, TableConfig, TableHold } from './types.js';

const GUARDED = new Set<CommandType>(['cover', 'open-betting']);

/** The refusal of a guarded act on this table, or null when nothing holds it. */
export function tableRefusal(
  config: TableConfig,
  state: RoundState,
  command: MachineCommand,
): { code: RejectionCode; message: string } | null {
  if (!GUARDED.has(command.type)) return null;
  // Art. 8: options in force without a recorded authorization never reach a player.
  if (!config.optionsAuthorized) {
    return {
      code: 'house_options_unauthorized',
      message: `${command.type} refused: ${REJECTIONS.house_options_unauthorized.summary}`,
    };
  }
  // Art. 2: a round opens only at a table the supervisor has opened for play.
  if (state.closedSinceMs !== null) {
    return {
      code: 'table_closed',
      message: `${command.type} refused: ${REJECTIONS.table_closed.summary}`,
    };
  }
  // Art. 1.1: dice that may not be balanced do not start another round.
  if (state.hold !== null) {
    return {
      code: 'table_held',
      message: `${command.type} refused: the table is held (${state.hold.reason}) until a supervisor acknowledges it or the dice are changed`,
    };
  }
  return null;
}

/** The state with the table held; a hold already set is kept (the first reason stands). */
export function holdTable(state: RoundState, hold: TableHold): RoundState {
  return state.hold !== null ? state : { ...state, hold: { ...hold } };
}

/** The state of a table closed for play at `nowMs` (a closed one keeps its time), or open again. */
export function setTableOpen(state: RoundState, open: boolean, nowMs: number): RoundState {
  if (open) return state.closedSinceMs === null ? state : { ...state, closedSinceMs: null };
  return state.closedSinceMs !== null ? state : { ...state, closedSinceMs: nowMs };
}

/** The state with no hold. */
export function releaseHold(state: RoundState): RoundState {
  return state.hold === null ? state : { ...state, hold: null };
}
