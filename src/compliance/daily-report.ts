/**
 * The daily figures of a table, per Macau day: rounds, void rolls (Art. 3.3),
 * handle, payouts, hold, actual against theoretical hold percentage, and the
 * biggest win. Pure: the caller passes the settled rounds; money is in integer
 * minor units throughout.
 *
 * Theoretical hold is what the house keeps on average given where the money
 * was staked: Σ (handle on a spot × its exact house edge) / handle, the edge
 * coming from src/math's `spotOdds` under the odds in force for the round
 * (Art. 6.6 lets them differ between days, or even between rounds).
 */
import { z } from 'zod';
import { spotOdds } from '../math/index.js';
import {
  compilePaytable,
  type CompiledPaytable,
  err,
  ok,
  OUTCOME_COUNT,
  type Result,
  spotById,
  SPOTS,
  TOTAL_ODDS_RANGES,
  type TotalOdds,
} from '../rules/index.js';
import { type IsoDate, macauDate } from './iso-date.js';
import {
  type BiggestWin,
  type DailyReport,
  newTally,
  type SpotTally,
  tallyBet,
  toSpotFigures,
} from './daily-report-tally.js';

const id = z.string().min(1).max(64);
const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const oddsIn = ([min, max]: readonly [number, number]) => z.number().int().min(min).max(max);
const totalOddsSchema = z.strictObject({
  '5/16': oddsIn(TOTAL_ODDS_RANGES['5/16']),
  '6/15': oddsIn(TOTAL_ODDS_RANGES['6/15']),
});

const betSchema = z.strictObject({
  betId: id.optional(),
  spot: z.string().refine((s) => spotById(s) !== undefined, 'not a spot of Art. 5'),
  stakeMinor: minor.min(1),
  returnedMinor: minor,
});

const roundSchema = z.strictObject({
  roundId: id,
  settledAtMs: z.number().int().min(0),
  /** Rolls declared void in the round (Art. 3.3: dice stacked or tilted). */
  voidRolls: z.number().int().min(0),
  bets: z.array(betSchema),
  /** The Art. 6.6 odds in force for this round, when not the input's. */
  totalOdds: totalOddsSchema.optional(),
});

const inputSchema = z.strictObject({
  tableId: id,
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as MOP or HKD'),
  totalOdds: totalOddsSchema,
  rounds: z.array(roundSchema),
});

export type SettledBet = z.infer<typeof betSchema>;
export type SettledRound = z.infer<typeof roundSchema>;
export type DailyReportInput = z.infer<typeof inputSchema>;

export interface ReportInputError {
  readonly code: 'report_input_invalid';
  readonly message: string;
}

/** The odds a day's rounds were settled under: a handful, compiled once each. */
const compiled = new Map<string, CompiledPaytable>();

function compiledFor(odds: TotalOdds): CompiledPaytable {
  const k = `${odds['5/16']}/${odds['6/15']}`;
  let paytable = compiled.get(k);
  if (paytable === undefined) {
    paytable = compilePaytable({ spots: SPOTS.map((s) => s.id), totalOdds: odds });
    compiled.set(k, paytable);
  }
  return paytable;
}

/** Exact house edge of a spot as an integer over 216: 216 − Σ returns of a unit stake. */
function edgeUnits(paytable: CompiledPaytable, spot: string): number {
  return OUTCOME_COUNT - spotOdds(paytable, spotById(spot)!).returnSum;
}

function validate(input: unknown): Result<DailyReportInput, ReportInputError> {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const message = `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`;
    return err({ code: 'report_input_invalid', message });
  }
  const ids = new Set<string>();
  for (const round of parsed.data.rounds) {
    if (ids.has(round.roundId)) {
      return err({
        code: 'report_input_invalid',
        message: `round ${round.roundId} is listed twice`,
      });
    }
    ids.add(round.roundId);
  }
  return ok(parsed.data);
}

/**
 * One report per Macau day on which a round of the input was settled, in date
 * order. Rounds are taken in settlement order (then round id), so the biggest
 * win on a tie is the earliest.
 */
export function dailyReports(input: unknown): Result<DailyReport[], ReportInputError> {
  const valid = validate(input);
  if (!valid.ok) return valid;
  const { tableId, currency, totalOdds, rounds } = valid.value;
  const days = new Map<IsoDate, DayTally>();
  const ordered = [...rounds].sort((a, b) =>
    a.settledAtMs === b.settledAtMs
      ? a.roundId < b.roundId
        ? -1
        : 1
      : a.settledAtMs - b.settledAtMs,
  );
  for (const round of ordered) {
    const day = macauDate(round.settledAtMs);
    const tally = days.get(day) ?? newDayTally();
    days.set(day, tally);
    tallyRound(tally, round, round.totalOdds ?? totalOdds);
  }
  const reports = [...days.entries()].map(([macauDay, t]) =>
    dayReport(tableId, currency, macauDay, t),
  );
  return ok(reports.sort((a, b) => (a.macauDay < b.macauDay ? -1 : 1)));
}

/**
 * A day's figures so far, as plain data: what its report is made of. A day
 * is tallied round by round, in settlement order, so a tally kept after a
 * round and given the rounds settled since is the tally of them all.
 */
export interface DayTally {
  rounds: number;
  voidRolls: number;
  /** By spot id. */
  readonly spots: Record<string, SpotTally>;
  biggestWin: BiggestWin | null;
}

export const newDayTally = (): DayTally => ({
  rounds: 0,
  voidRolls: 0,
  spots: {},
  biggestWin: null,
});

/** Adds a settled round to its day's tally, its bets' edges under the odds in force for it (Art. 6.6). */
export function tallyRound(tally: DayTally, round: SettledRound, totalOdds: TotalOdds): void {
  tally.rounds++;
  tally.voidRolls += round.voidRolls;
  const paytable = compiledFor(totalOdds);
  for (const bet of round.bets) {
    const spotTally = (tally.spots[bet.spot] ??= newTally());
    tallyBet(spotTally, bet, edgeUnits(paytable, bet.spot));
    tally.biggestWin = biggerWin(tally.biggestWin, round, bet);
  }
}

function biggerWin(
  best: BiggestWin | null,
  round: SettledRound,
  bet: SettledBet,
): BiggestWin | null {
  const winMinor = bet.returnedMinor - bet.stakeMinor;
  // Strictly larger: on a tie the earlier win stays.
  if (winMinor <= 0 || (best !== null && winMinor <= best.winMinor)) return best;
  const { roundId, settledAtMs } = round;
  const { spot, stakeMinor, returnedMinor } = bet;
  return {
    roundId,
    settledAtMs,
    betId: bet.betId ?? null,
    spot,
    stakeMinor,
    returnedMinor,
    winMinor,
  };
}

/** A day's report from its tally. */
export function dayReport(
  tableId: string,
  currency: string,
  macauDay: IsoDate,
  t: DayTally,
): DailyReport {
  // Spots in the regulation's order, so that reports of different days line up.
  const spots = SPOTS.filter((s) => t.spots[s.id] !== undefined).map((s) =>
    toSpotFigures(s.id, t.spots[s.id]!),
  );
  const all = newTally();
  for (const s of Object.values(t.spots)) {
    all.bets += s.bets;
    all.handleMinor += s.handleMinor;
    all.payoutsMinor += s.payoutsMinor;
    all.edgeWeighted += s.edgeWeighted;
  }
  const totals = toSpotFigures('', all);
  return {
    tableId,
    macauDay,
    currency,
    rounds: t.rounds,
    voidRolls: t.voidRolls,
    bets: all.bets,
    handleMinor: totals.handleMinor,
    payoutsMinor: totals.payoutsMinor,
    holdMinor: totals.holdMinor,
    holdPercentActual: totals.holdPercentActual,
    holdPercentTheoretical: totals.holdPercentTheoretical,
    biggestWin: t.biggestWin,
    bySpot: spots,
  };
}
