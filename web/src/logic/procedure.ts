/**
 * The croupier's procedure of Arts. 2–4 as a list of steps, each with the
 * articles behind it. Which buttons are enabled is never decided here: that is
 * the TableView's `allowed` map, the round machine's own `can()` (docs/api.md).
 * This module only says the order, the articles and which step is current.
 */
import type { CroupierCommand, Phase } from '../api/types.js';

export type Shaker = 'lever' | 'electronic';

/** A step of every round: its button sends the command alone (the lever's reading adds the dice). */
type RoundCommand = Exclude<CroupierCommand['type'], 'void-roll'>;

export interface Step<C extends CroupierCommand['type'] = CroupierCommand['type']> {
  readonly command: C;
  readonly articles: readonly string[];
}

export function procedure(shaker: Shaker): Step<RoundCommand>[] {
  return [
    { command: 'cover', articles: ['2.1', '4'] },
    { command: 'fasten-latches', articles: ['1.2', '2.1'] },
    shaker === 'lever'
      ? { command: 'pull-lever', articles: ['2.1'] }
      : { command: 'trigger-shaker', articles: ['2.1'] },
    { command: 'open-betting', articles: ['2.1', '2.2'] },
    { command: 'ring-bell', articles: ['3.1'] },
    { command: 'lift-dome', articles: ['3.2'] },
    shaker === 'lever'
      ? { command: 'read-dice', articles: ['1.1', '3.2'] }
      : { command: 'reveal-dice', articles: ['3.2'] },
    { command: 'pay-all', articles: ['4'] },
  ];
}

/** The void roll is a branch from the lifted dome, not a step of every round (Art. 3.3). */
export const VOID_STEP: Step<'void-roll'> = { command: 'void-roll', articles: ['3.3', '3.4'] };

const CURRENT_STEP: Readonly<Record<Phase, number>> = {
  idle: 0,
  paid: 0,
  voided: 0,
  covered: 1,
  latched: 2,
  shaking: 2,
  shaken: 3,
  betting: 4,
  closed: 5,
  lifted: 6,
  revealed: 7,
};

/** The index of the step the phase waits for. */
export const currentStep = (phase: Phase): number => CURRENT_STEP[phase];

export type StepState = 'done' | 'current' | 'todo';

export function stepState(index: number, phase: Phase): StepState {
  const current = currentStep(phase);
  // A round that is paid (or not started) has every step ahead of it again.
  if (phase === 'paid' || phase === 'idle' || phase === 'voided')
    return index === 0 ? 'current' : 'todo';
  return index < current ? 'done' : index === current ? 'current' : 'todo';
}
