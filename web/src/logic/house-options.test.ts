import { describe, expect, it } from 'vitest';
import { SPOTS } from '../../../src/rules/index.js';
import type { HouseOptionsChoice } from '../api/types.js';
import { BET_KINDS, offeredKinds, optionChanges, spotsOfKinds } from './house-options.js';

const ALL = SPOTS.map((s) => s.id);
const IN_FORCE: HouseOptionsChoice = {
  shaker: 'electronic',
  layoutCount: 1,
  displayBoard: true,
  announceAloud: true,
  paytable: { spots: ALL, totalOdds: { '5/16': 18, '6/15': 14 } },
};

describe('the house options of Art. 8', () => {
  it('groups the 117 spots into the 13 bets of Art. 5', () => {
    expect(BET_KINDS).toHaveLength(13);
    expect(BET_KINDS.flatMap((k) => k.spots)).toHaveLength(117);
    expect(offeredKinds(ALL).size).toBe(13);
    expect(spotsOfKinds(offeredKinds(ALL))).toEqual(ALL);
  });

  it('finds nothing to show when a proposal keeps every option', () => {
    expect(optionChanges(IN_FORCE, IN_FORCE)).toEqual([]);
  });

  it('names each option a proposal changes, from what to what', () => {
    const kinds = offeredKinds(ALL);
    kinds.delete('four-numbers');
    const proposed: HouseOptionsChoice = {
      ...IN_FORCE,
      shaker: 'lever',
      layoutCount: 2,
      displayBoard: false,
      paytable: { spots: spotsOfKinds(kinds), totalOdds: { '5/16': 24, '6/15': 14 } },
    };
    expect(optionChanges(IN_FORCE, proposed)).toEqual([
      { option: 'shaker', from: 'electronic', to: 'lever' },
      { option: 'layoutCount', from: 1, to: 2 },
      { option: 'odds5/16', from: 18, to: 24 },
      { option: 'displayBoard', from: true, to: false },
      { option: 'spots', added: [], removed: ['four-numbers'] },
    ]);
    expect(optionChanges(proposed, IN_FORCE).at(-1)).toEqual({
      option: 'spots',
      added: ['four-numbers'],
      removed: [],
    });
  });
});
