/**
 * Paytables: which spots a layout offers and the odds the house chose where
 * Art. 6 gives a range. A paytable is a JSON document; `compilePaytable` turns
 * it once into flat tables that settle a bet with one lookup.
 */
import { OUTCOME_COUNT, OUTCOMES } from './dice.js';
import { err, ok, type Result, type RuleViolation, type RuleViolationCode } from './errors.js';
import { isRecord } from './shape.js';
import { type HouseTotal, oddsOn, SPOT_COUNT, spotById, SPOTS, type TotalOdds } from './spots.js';

export interface Paytable {
  /** Ids of the spots the layout offers (Art. 5; which ones is a house option, Art. 8). */
  readonly spots: readonly string[];
  /** Art. 6.6(2) and (3): odds of totals 5/16 (18 to 30) and 6/15 (14 to 18). */
  readonly totalOdds: TotalOdds;
}

/** Art. 6.6: the ranges inside which the house picks the odds of these totals. */
export const TOTAL_ODDS_RANGES: Readonly<Record<HouseTotal, readonly [number, number]>> = {
  '5/16': [18, 30],
  '6/15': [14, 18],
};

/** All 117 spots, 5/16 at 18 and 6/15 at 14. */
export const DEFAULT_PAYTABLE: Paytable = Object.freeze({
  spots: Object.freeze(SPOTS.map((s) => s.id)),
  totalOdds: Object.freeze({ '5/16': 18, '6/15': 14 }),
});

function violation(code: RuleViolationCode, message: string, article?: string): Result<never> {
  return err<RuleViolation>(article === undefined ? { code, message } : { code, message, article });
}

/**
 * Checks a document (parsed JSON) against the regulation and returns a paytable,
 * or the first violation with the article it breaks.
 */
export function parsePaytable(doc: unknown): Result<Paytable> {
  if (!isRecord(doc)) return violation('paytable_malformed', 'a paytable must be a JSON object');
  const unknownKey = Object.keys(doc).find((k) => k !== 'spots' && k !== 'totalOdds');
  if (unknownKey !== undefined) {
    return violation('paytable_malformed', `unknown paytable field "${unknownKey}"`);
  }
  const { spots, totalOdds } = doc;
  if (!Array.isArray(spots) || spots.length === 0) {
    return violation('paytable_malformed', '"spots" must be a non-empty array of spot ids', '5');
  }
  const seen = new Set<string>();
  for (const id of spots) {
    if (typeof id !== 'string' || spotById(id) === undefined) {
      return violation('unknown_spot', `"${String(id)}" is not a bet of the regulation`, '5');
    }
    if (seen.has(id)) return violation('duplicate_spot', `spot "${id}" is listed twice`);
    seen.add(id);
  }
  if (!isRecord(totalOdds)) {
    return violation('paytable_malformed', '"totalOdds" must be {"5/16": N, "6/15": N}', '6.6');
  }
  for (const key of Object.keys(totalOdds)) {
    if (!(key in TOTAL_ODDS_RANGES)) {
      return violation('paytable_malformed', `"totalOdds" has no house option "${key}"`, '6.6');
    }
  }
  for (const [key, [min, max]] of Object.entries(TOTAL_ODDS_RANGES)) {
    const odds = totalOdds[key];
    if (typeof odds !== 'number' || !Number.isInteger(odds) || odds < min || odds > max) {
      return violation(
        'odds_out_of_range',
        `totals ${key} pay ${min} to ${max} to 1, got ${JSON.stringify(odds ?? null)}`,
        '6.6',
      );
    }
  }
  // Keep the layout in the regulation's order whatever order the document used.
  const ordered = SPOTS.filter((s) => seen.has(s.id)).map((s) => s.id);
  return ok({
    spots: ordered,
    totalOdds: { '5/16': totalOdds['5/16'] as number, '6/15': totalOdds['6/15'] as number },
  });
}

export interface CompiledPaytable {
  readonly paytable: Paytable;
  /** 1 where the layout offers the spot, by spot index. */
  readonly offered: Uint8Array;
  /**
   * `returnMultipliers[outcome * SPOT_COUNT + spot]` is 1 + odds when the spot wins
   * on that outcome and 0 when it loses: what a stake of one comes back as.
   */
  readonly returnMultipliers: Int32Array;
  /** The largest return multiplier of each spot over the 216 outcomes. */
  readonly maxReturnMultiplier: Int32Array;
}

/** Builds the lookup tables once; a valid paytable (from {@link parsePaytable}) is assumed. */
export function compilePaytable(paytable: Paytable): CompiledPaytable {
  const offered = new Uint8Array(SPOT_COUNT);
  for (const id of paytable.spots) offered[spotById(id)!.index] = 1;
  const returnMultipliers = new Int32Array(OUTCOME_COUNT * SPOT_COUNT);
  const maxReturnMultiplier = new Int32Array(SPOT_COUNT);
  OUTCOMES.forEach((dice, outcome) => {
    for (const spot of SPOTS) {
      const odds = oddsOn(spot, dice, paytable.totalOdds);
      const multiplier = odds === 0 ? 0 : odds + 1;
      returnMultipliers[outcome * SPOT_COUNT + spot.index] = multiplier;
      if (multiplier > maxReturnMultiplier[spot.index]!)
        maxReturnMultiplier[spot.index] = multiplier;
    }
  });
  return { paytable, offered, returnMultipliers, maxReturnMultiplier };
}

/** Parses and compiles in one step: the usual way to load a paytable file. */
export function loadPaytable(doc: unknown): Result<CompiledPaytable> {
  const parsed = parsePaytable(doc);
  return parsed.ok ? ok(compilePaytable(parsed.value)) : parsed;
}

export const DEFAULT_COMPILED: CompiledPaytable = compilePaytable(DEFAULT_PAYTABLE);
