import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYTABLE, SPOTS } from '../../../src/rules/index.js';
import { layoutGroups, topArea } from './layout.js';
import { layoutOdds, payLabel } from './paytable.js';

describe('the layout', () => {
  it('places each of the 117 spots once, in seven groups', () => {
    const groups = layoutGroups(new Set(SPOTS.map((s) => s.id)));
    expect(groups.map((g) => g.id)).toEqual([
      'top',
      'totals',
      'twoDice',
      'singles',
      'threeDice',
      'doubleSingle',
      'fourNumbers',
    ]);
    const ids = groups.flatMap((g) => g.spots.map((s) => s.id));
    expect(ids).toHaveLength(117);
    expect(new Set(ids).size).toBe(117);
  });

  it('leaves out the groups a paytable does not offer (Art. 8)', () => {
    const groups = layoutGroups(new Set(['small', 'big', 'total:4']));
    expect(groups.map((g) => g.id)).toEqual(['top', 'totals']);
  });

  it('gives each top-block spot its own grid area', () => {
    const top = layoutGroups(new Set(SPOTS.map((s) => s.id)))[0]!.spots;
    const areas = top.map(topArea);
    expect(new Set(areas).size).toBe(top.length);
    expect(areas).toContain('any');
  });
});

describe('payouts printed on the layout (Art. 6)', () => {
  it('prints N:1 from the rules, with the house odds for 5/16 and 6/15', () => {
    const odds = layoutOdds({
      spots: DEFAULT_PAYTABLE.spots,
      totalOdds: { '5/16': 24, '6/15': 16 },
    });
    const pay = (id: string): string => payLabel(odds.pays(SPOTS.find((s) => s.id === id)!));
    expect(pay('triple:3')).toBe('150:1');
    expect(pay('any-triple')).toBe('24:1');
    expect(pay('total:4')).toBe('50:1');
    expect(pay('total:16')).toBe('24:1');
    expect(pay('total:6')).toBe('16:1');
    expect(pay('single:2')).toBe('1/2/3:1');
    expect(pay('four-numbers:1-2-3-4')).toBe('7:1');
  });

  it('ignores spot ids it does not know', () => {
    const odds = layoutOdds({
      spots: ['small', 'lucky-seven'],
      totalOdds: { '5/16': 18, '6/15': 14 },
    });
    expect([...odds.offered]).toEqual(['small']);
  });
});
