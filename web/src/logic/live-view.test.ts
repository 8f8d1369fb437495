import { describe, expect, it } from 'vitest';
import type { Dice } from '../../../src/rules/index.js';
import {
  transition,
  type Command,
  type RoundState,
  type TableConfig,
} from '../../../src/table/index.js';
import { ELECTRONIC, LEVER, sealFor, T0, TIMED } from '../../../src/table/fixtures.js';
import { initialState } from '../../../src/table/state.js';
import type { TableView } from '../api/types.js';
import { applyEvent, applyStakes, HISTORY_MAX } from './live-view.js';

const startView = (config: TableConfig): TableView => ({
  id: config.tableId,
  name: config.tableId,
  currency: 'MOP',
  shaker: config.shaker,
  displayBoard: config.displayBoard,
  bettingTimerMs: config.bettingTimerMs,
  stakeMinorMin: config.stakeMinorMin,
  stakeMinorMax: config.stakeMinorMax,
  liabilityMinorMax: 1_000_000_000,
  paytable: { spots: [], totalOdds: { '5/16': 18, '6/15': 14 } },
  phase: 'idle',
  roundNo: 0,
  rollNo: 1,
  leverPulls: 0,
  commitmentHex: null,
  bettingDeadlineMs: null,
  stakesBySpotMinor: {},
  betCount: 0,
  totalStakeMinor: 0,
  lastRound: null,
  history: [],
  allowed: {},
  optionsAuthorized: true,
  hold: null,
  closedSinceMs: null,
  lastEventSeq: 0,
});

/** What src/server/views.ts shows of a state (the fields events can move). */
function serverSees(state: RoundState) {
  return {
    phase: state.phase,
    roundNo: state.roundNo,
    rollNo: state.rollNo,
    leverPulls: state.leverPulls,
    commitmentHex: state.seal?.commitmentHex ?? null,
    bettingDeadlineMs: state.bettingDeadlineMs,
    totalStakeMinor: state.bets.reduce((s, b) => s + b.stakeMinor, 0),
    lastRound:
      state.settlement === null
        ? null
        : {
            dice: state.settlement.dice,
            winningSpots: state.settlement.winningSpots,
            totalReturnedMinor: state.settlement.totalReturnedMinor,
            payoutCount: state.settlement.returnsMinor.filter((m) => m > 0).length,
            nonceHex: state.seal?.nonceHex ?? null,
          },
  };
}

function viewSees(view: TableView) {
  return {
    phase: view.phase,
    roundNo: view.roundNo,
    rollNo: view.rollNo,
    leverPulls: view.leverPulls,
    commitmentHex: view.commitmentHex,
    bettingDeadlineMs: view.bettingDeadlineMs,
    totalStakeMinor: view.totalStakeMinor,
    lastRound:
      view.lastRound === null
        ? null
        : {
            dice: view.lastRound.dice,
            winningSpots: view.lastRound.winningSpots,
            totalReturnedMinor: view.lastRound.totalReturnedMinor,
            payoutCount: view.lastRound.payoutCount,
            nonceHex: view.lastRound.nonceHex ?? null,
          },
  };
}

/** Runs the round machine and the view side by side; after every command they agree. */
function playAlong(config: TableConfig, rounds: readonly (readonly Dice[])[]) {
  let state = initialState();
  let view = startView(config);
  let seq = 0;
  const run = (command: Command | ((s: RoundState) => Command)): void => {
    const result = transition(
      config,
      state,
      typeof command === 'function' ? command(state) : command,
      T0,
    );
    if (!result.ok) throw new Error(`${result.rejection.code}: ${result.rejection.message}`);
    state = result.state;
    for (const event of result.events) view = applyEvent(view, event, ++seq);
    expect(viewSees(view)).toEqual(serverSees(state));
  };
  for (const rolls of rounds) {
    rolls.forEach((dice, i) => {
      run({ type: 'cover' });
      run({ type: 'fasten-latches' });
      if (config.shaker === 'lever') for (let p = 0; p < 3; p++) run({ type: 'pull-lever' });
      else run((s) => ({ type: 'trigger-shaker', sealedRoll: sealFor(config, s, dice) }));
      run({ type: 'open-betting' });
      run({ type: 'place-bet', betId: `b${seq}`, playerId: 'p1', spot: 'small', stakeMinor: 500 });
      run({ type: 'place-bet', betId: `w${seq}`, playerId: 'p1', spot: 'big', stakeMinor: 700 });
      run((s) => ({ type: 'withdraw-bet', betId: s.bets.at(-1)!.betId, playerId: 'p1' }));
      run({ type: 'ring-bell' });
      run({ type: 'lift-dome' });
      if (i < rolls.length - 1) run({ type: 'void-roll', reason: 'tilted' });
      else if (config.shaker === 'lever') run({ type: 'read-dice', dice, croupierId: 'c' });
      else run({ type: 'reveal-dice' });
    });
    run({ type: 'pay-all' });
  }
  return { view, seq };
}

describe('the view kept from events (summary feed)', () => {
  it('follows the round machine on a lever table, a void roll included (Arts. 2–4, 3.3)', () => {
    const { view } = playAlong(LEVER, [
      [[1, 2, 3]],
      [
        [6, 6, 1],
        [4, 4, 4],
      ],
    ]);
    expect(view.history.map((h) => [h.roundNo, h.total])).toEqual([
      [1, 6],
      [2, 12],
    ]);
  });

  it('keeps the sealed roll of an electronic table for the check (Art. 2.1)', () => {
    const { view } = playAlong(ELECTRONIC, [
      [[2, 2, 5]],
      [
        [3, 4, 5],
        [1, 1, 2],
      ],
    ]);
    expect(view.lastRound?.rollNo).toBe(2);
    expect(view.lastRound?.commitmentHex).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carries the betting deadline of a timed table', () => {
    playAlong(TIMED, [[[5, 5, 6]]]);
  });

  it('keeps at most the server’s number of results', () => {
    let view = startView(LEVER);
    for (let r = 1; r <= HISTORY_MAX + 5; r++) {
      view = applyEvent(
        view,
        {
          type: 'round-settled',
          tableId: 'T',
          roundNo: r,
          rollNo: 1,
          atMs: T0,
          dice: [1, 1, 2],
          winningSpots: [],
          returnsMinor: [],
          totalStakeMinor: 0,
          totalReturnedMinor: 0,
        },
        r,
      );
    }
    expect(view.history).toHaveLength(HISTORY_MAX);
    expect(view.history[0]!.roundNo).toBe(6);
  });

  it('takes stakes of the roll it shows, not of an older one', () => {
    const view = { ...startView(LEVER), roundNo: 3, rollNo: 2 };
    const stakes = { seq: 9, stakesBySpotMinor: { small: 900 }, betCount: 2, totalStakeMinor: 900 };
    expect(applyStakes(view, { ...stakes, roundNo: 3, rollNo: 2 }).totalStakeMinor).toBe(900);
    expect(applyStakes(view, { ...stakes, roundNo: 3, rollNo: 1 })).toBe(view);
  });
});
