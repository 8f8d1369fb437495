/**
 * The round of Sic Bo as a pure state machine (Arts. 2–4 of the regulation of
 * «Cussec»). See docs/table.md for the state diagram, the commands, the events
 * and every rejection code.
 */
export {
  applyAll,
  can,
  check,
  CommandRefused,
  roundMachine,
  transition,
  type RoundMachine,
} from './machine.js';
export { holdTable, releaseHold, setTableOpen, tableRefusal } from './hold.js';
export { PHASE_RULES, phaseRefusal, type PhaseRule } from './phases.js';
export { isRejectionCode, REJECTION_CODES, REJECTIONS, type RejectionCode } from './rejections.js';
export { assertAligned, betResults, settlementOf, settleRound, winningSpots } from './result.js';
export { LEVER_PULLS } from './procedure.js';
export { roundExposure, timerExpired } from './betting.js';
export { initialState } from './state.js';
export { isSealedRoll, tableConfigProblems } from './validate.js';
export {
  playRound,
  simulate,
  SIMULATED_ROLLS_MAX,
  SIMULATED_ROUNDS_MAX,
  type SimulatedRound,
  type SimulationOptions,
} from './simulation.js';
export * from './types.js';
