/**
 * A seeded simulation of whole rounds: pure (the seed decides everything, no
 * clock, no Math.random, no CSPRNG), so any round replays exactly from its seed
 * and the state before it. Players bet and withdraw at random, rolls are
 * sometimes void (Art. 3.3), the bell is rung by hand or by the timer. Dice come
 * from the seeded generator of src/dice unless the caller injects them.
 */
import { createPrng, type Prng } from '../dice/prng.js';
import { sealDice } from '../dice/seal.js';
import type { Dice } from '../rules/index.js';
import { applyAll } from './machine.js';
import { LEVER_PULLS } from './procedure.js';
import type { Command, RoundEvent, RoundState, TableConfig } from './types.js';
import { initialState } from './state.js';

export interface SimulationOptions {
  readonly config: TableConfig;
  readonly seed: number;
  /** How many rounds `simulate` plays; at most {@link SIMULATED_ROUNDS_MAX}. */
  readonly rounds: number;
  /** Epoch ms of the first command; 0 when absent. */
  readonly startMs?: number;
  /** Distinct players at the table; 3 when absent. */
  readonly players?: number;
  /** Chance that a roll is found stacked or tilted; 0.1 when absent. */
  readonly voidChance?: number;
  /** Dice to use instead of the generator's, e.g. to force triples. */
  readonly injectDice?: (roundNo: number, rollNo: number) => Dice;
}

export interface SimulatedRound {
  readonly roundNo: number;
  /** Replays the round with {@link playRound}, from `stateBefore` at `startMs`. */
  readonly seed: number;
  readonly startMs: number;
  readonly stateBefore: RoundState;
  readonly events: readonly RoundEvent[];
}

export const SIMULATED_ROUNDS_MAX = 100_000;
/** Bounds the void-and-repeat loop of one round (Art. 3.3): the last roll allowed is never voided. */
export const SIMULATED_ROLLS_MAX = 4;
const BET_ACTIONS_MAX = 12;

/** One round in progress: the state, the events so far and the simulated clock. */
interface Run {
  readonly options: SimulationOptions;
  readonly prng: Prng;
  state: RoundState;
  now: number;
  readonly events: RoundEvent[];
}

function apply(run: Run, command: Command, elapsedMs = 0): void {
  run.now += elapsedMs;
  // The simulation only issues legal commands, so a refusal (which applyAll
  // throws) is a bug in it or in the machine.
  const result = applyAll(run.options.config, run.state, [command], run.now);
  run.state = result.state;
  run.events.push(...result.events);
}

function drawDice(run: Run): Dice {
  return run.options.injectDice?.(run.state.roundNo, run.state.rollNo) ?? run.prng.dice();
}

function shake(run: Run): void {
  const { config } = run.options;
  if (config.shaker === 'lever') {
    // Art. 2.1: three pulls in a row.
    for (let i = 0; i < LEVER_PULLS; i++)
      apply(run, { type: 'pull-lever', croupierId: 'sim-croupier' }, 300);
    return;
  }
  const { roundNo, rollNo } = run.state;
  // Sealed as a live shaker seals (docs/dice.md), but the nonce comes from the
  // round's seeded generator so the seal replays with the round.
  const sealedRoll = sealDice(
    { tableId: config.tableId, roundNo, rollNo },
    drawDice(run),
    run.prng,
  );
  apply(run, { type: 'trigger-shaker', sealedRoll, croupierId: 'sim-croupier' }, 300);
}

/** A legal bet at random, or null when the chosen player has no room left on the chosen spot. */
function randomBet(run: Run, betNo: number): Command | null {
  const { config, players = 3 } = run.options;
  if (run.state.bets.length >= config.betsPerRoundMax) return null;
  const playerId = `player-${run.prng.int(1, players)}`;
  const spot = run.prng.pick(config.paytable.paytable.spots);
  let already = 0;
  for (const b of run.state.bets)
    if (b.playerId === playerId && b.spot === spot) already += b.stakeMinor;
  const room = Math.min(config.stakeMinorMax - already, config.stakeMinorMin * 20);
  if (room < config.stakeMinorMin) return null;
  const stakeMinor = run.prng.int(config.stakeMinorMin, room);
  return {
    type: 'place-bet',
    betId: `r${run.state.roundNo}-b${betNo}`,
    playerId,
    spot,
    stakeMinor,
  };
}

/** A withdrawal of a bet of the current window (Art. 3.4 forbids the others), or null. */
function randomWithdrawal(run: Run): Command | null {
  const mine = run.state.bets.filter((b) => b.rollNo === run.state.rollNo);
  if (mine.length === 0) return null;
  const bet = run.prng.pick(mine);
  return { type: 'withdraw-bet', betId: bet.betId, playerId: bet.playerId };
}

function bettingWindow(run: Run): void {
  apply(run, { type: 'open-betting', croupierId: 'sim-croupier' }, 200);
  const actions = run.prng.int(0, BET_ACTIONS_MAX);
  for (let i = 0; i < actions; i++) {
    const elapsedMs = run.prng.int(50, 1500);
    const deadline = run.state.bettingDeadlineMs;
    // Bets stop at the timer's deadline (Art. 3.1); the simulation respects it.
    if (deadline !== null && run.now + elapsedMs >= deadline) break;
    const command = run.prng.chance(0.2)
      ? randomWithdrawal(run)
      : randomBet(run, run.events.length);
    if (command !== null) apply(run, command, elapsedMs);
  }
  const deadline = run.state.bettingDeadlineMs;
  if (deadline !== null && run.prng.chance(0.5))
    apply(run, { type: 'tick' }, Math.max(0, deadline - run.now));
  else apply(run, { type: 'ring-bell', croupierId: 'sim-croupier' }, 100);
}

function announce(run: Run): void {
  if (run.options.config.shaker === 'electronic') {
    apply(run, { type: 'reveal-dice', croupierId: 'sim-croupier' }, 500);
  } else {
    apply(run, { type: 'read-dice', dice: drawDice(run), croupierId: 'sim-croupier' }, 500);
  }
}

/**
 * Plays one whole round from `stateBefore` (a table whose last round is paid,
 * or a fresh one): cover, latch, shake, bet, bell, lift, maybe void and repeat,
 * read or reveal, pay all. The same arguments always give the same events.
 */
export function playRound(
  options: SimulationOptions,
  stateBefore: RoundState,
  seed: number,
  startMs: number,
): { state: RoundState; events: readonly RoundEvent[]; endMs: number } {
  const run: Run = {
    options,
    prng: createPrng(seed),
    state: stateBefore,
    now: startMs,
    events: [],
  };
  const voidChance = options.voidChance ?? 0.1;
  apply(run, { type: 'cover', croupierId: 'sim-croupier' });
  for (let roll = 1; ; roll++) {
    apply(run, { type: 'fasten-latches', croupierId: 'sim-croupier' }, 200);
    shake(run);
    bettingWindow(run);
    apply(run, { type: 'lift-dome', croupierId: 'sim-croupier' }, 500);
    if (roll >= SIMULATED_ROLLS_MAX || !run.prng.chance(voidChance)) break;
    // Art. 3.3: stacked or tilted dice; the operation is repeated.
    apply(
      run,
      {
        type: 'void-roll',
        reason: run.prng.pick(['stacked', 'tilted'] as const),
        croupierId: 'sim-croupier',
      },
      300,
    );
    apply(run, { type: 'cover', croupierId: 'sim-croupier' }, 500);
  }
  announce(run);
  apply(run, { type: 'pay-all', croupierId: 'sim-croupier' }, 1000);
  return { state: run.state, events: run.events, endMs: run.now };
}

/** Plays `options.rounds` rounds from a fresh table; each round gets its own seed from the master seed. */
export function simulate(options: SimulationOptions): {
  rounds: SimulatedRound[];
  state: RoundState;
} {
  if (
    !Number.isSafeInteger(options.rounds) ||
    options.rounds < 0 ||
    options.rounds > SIMULATED_ROUNDS_MAX
  ) {
    throw new RangeError(`simulate: rounds must be 0 to ${SIMULATED_ROUNDS_MAX}`);
  }
  const master = createPrng(options.seed);
  const rounds: SimulatedRound[] = [];
  let state = initialState();
  let now = options.startMs ?? 0;
  for (let i = 0; i < options.rounds; i++) {
    const seed = master.uint32();
    const played = playRound(options, state, seed, now);
    rounds.push({
      roundNo: played.state.roundNo,
      seed,
      startMs: now,
      stateBefore: state,
      events: played.events,
    });
    state = played.state;
    now = played.endMs + 5000;
  }
  return { rounds, state };
}
