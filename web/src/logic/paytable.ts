/**
 * What each spot pays at this table, computed by src/rules and src/math from
 * the TableView's paytable, so the layout prints exactly what settlement pays.
 * Payouts are printed "N:1" everywhere (the regulation's N to 1, Art. 6).
 */
import { spotOdds } from '../../../src/math/odds.js';
import {
  compilePaytable,
  type CompiledPaytable,
  spotById,
  type Spot,
} from '../../../src/rules/index.js';

export interface TablePaytable {
  readonly spots: readonly string[];
  readonly totalOdds: { readonly '5/16': number; readonly '6/15': number };
}

export interface LayoutOdds {
  readonly compiled: CompiledPaytable;
  readonly offered: ReadonlySet<string>;
  /** The odds a spot can pay, ascending ([1, 2, 3] for a single number). */
  pays(spot: Spot): readonly number[];
}

/** "150:1", and "1/2/3:1" for a single number (Art. 6.3). */
export const payLabel = (pays: readonly number[]): string => `${pays.join('/')}:1`;

export function layoutOdds(paytable: TablePaytable): LayoutOdds {
  // Unknown ids (a newer server) are left out rather than breaking the layout.
  const spots = paytable.spots.filter((id) => spotById(id) !== undefined);
  const compiled = compilePaytable({ spots, totalOdds: paytable.totalOdds });
  const cache = new Map<string, readonly number[]>();
  return {
    compiled,
    offered: new Set(spots),
    pays(spot) {
      let pays = cache.get(spot.id);
      if (pays === undefined) {
        pays = spotOdds(compiled, spot).pays;
        cache.set(spot.id, pays);
      }
      return pays;
    },
  };
}
