import { describe, expect, it } from 'vitest';
import { can, initialState, roundMachine } from '../../../src/table/index.js';
import type { RoundState, TableConfig } from '../../../src/table/index.js';
import { DEFAULT_COMPILED } from '../../../src/rules/index.js';
import { currentStep, procedure, stepState } from './procedure.js';

const config = (shaker: 'lever' | 'electronic'): TableConfig => ({
  tableId: 'T1',
  shaker,
  displayBoard: true,
  bettingTimerMs: null,
  stakeMinorMin: 100,
  stakeMinorMax: 10000,
  betsPerRoundMax: 10,
  liabilityMinorMax: Number.MAX_SAFE_INTEGER,
  paytable: DEFAULT_COMPILED,
  optionsAuthorized: true,
});

/** Walks a real round with the round machine, recording each phase it passes. */
function phasesOf(shaker: 'lever' | 'electronic'): RoundState[] {
  const machine = roundMachine(config(shaker));
  const seal = {
    dice: [1, 2, 3] as const,
    nonceHex: 'a'.repeat(64),
    commitmentHex: 'b'.repeat(64),
  };
  const commands =
    shaker === 'lever'
      ? [
          { type: 'cover' },
          { type: 'fasten-latches' },
          { type: 'pull-lever' },
          { type: 'pull-lever' },
          { type: 'pull-lever' },
          { type: 'open-betting' },
          { type: 'ring-bell' },
          { type: 'lift-dome' },
          { type: 'read-dice', dice: [1, 2, 3], croupierId: 'c' },
          { type: 'pay-all' },
        ]
      : [
          { type: 'cover' },
          { type: 'fasten-latches' },
          { type: 'trigger-shaker', sealedRoll: seal },
          { type: 'open-betting' },
          { type: 'ring-bell' },
          { type: 'lift-dome' },
          { type: 'reveal-dice' },
          { type: 'pay-all' },
        ];
  const states = [initialState()];
  for (const command of commands) {
    const result = machine.transition(states.at(-1)!, command as never, 1000);
    if (!result.ok) throw new Error(result.rejection.code);
    states.push(result.state);
  }
  return states;
}

describe('the croupier procedure', () => {
  for (const shaker of ['lever', 'electronic'] as const) {
    it(`points at a step the round machine accepts in every phase (${shaker})`, () => {
      const steps = procedure(shaker);
      for (const state of phasesOf(shaker)) {
        const step = steps[currentStep(state.phase)]!;
        const cmd =
          step.command === 'read-dice'
            ? { type: 'read-dice', dice: [1, 2, 3], croupierId: 'c' }
            : step.command === 'trigger-shaker'
              ? {
                  type: 'trigger-shaker',
                  sealedRoll: {
                    dice: [1, 2, 3],
                    nonceHex: 'a'.repeat(64),
                    commitmentHex: 'b'.repeat(64),
                  },
                }
              : { type: step.command };
        expect(
          can(config(shaker), state, cmd as never, 1000),
          `${state.phase} → ${step.command}`,
        ).toBe(true);
      }
    });
  }

  it('cites the articles behind each step', () => {
    const steps = procedure('electronic');
    expect(steps.find((s) => s.command === 'pay-all')!.articles).toEqual(['4']);
    expect(steps.find((s) => s.command === 'ring-bell')!.articles).toEqual(['3.1']);
  });

  it('marks steps done, current and to do', () => {
    expect(stepState(0, 'betting')).toBe('done');
    expect(stepState(4, 'betting')).toBe('current');
    expect(stepState(5, 'betting')).toBe('todo');
    expect(stepState(0, 'paid')).toBe('current');
  });
});
