import { describe, expect, it } from 'vitest';
import { ELECTRONIC, LEVER, stateIn, T0, tableConfig } from './fixtures.js';
import { holdTable, releaseHold, setTableOpen } from './hold.js';
import { applyAll, can, check } from './machine.js';
import type { TableHold } from './types.js';

const HOLD: TableHold = { reason: 'fairness alert p = 1e-30', article: '1.1', sinceMs: T0 };

describe('a table held between rounds (Art. 1.1)', () => {
  it('finishes the round in progress but covers no new one until released', () => {
    const held = holdTable(stateIn(LEVER, 'revealed', [1, 1, 1]), HOLD);
    // Art. 4: the round's prizes are still paid.
    const paid = applyAll(LEVER, held, [{ type: 'pay-all' }], T0 + 1).state;
    expect(paid.phase).toBe('paid');
    expect(paid.hold).toEqual(HOLD);
    expect(check(LEVER, paid, { type: 'cover' })?.code).toBe('table_held');
    expect(check(LEVER, paid, { type: 'cover' })?.article).toBe('1.1');
    expect(can(LEVER, releaseHold(paid), { type: 'cover' })).toBe(true);
  });

  it('keeps the first reason when held twice', () => {
    const once = holdTable(stateIn(ELECTRONIC, 'idle'), HOLD);
    expect(holdTable(once, { ...HOLD, reason: 'another' }).hold?.reason).toBe(HOLD.reason);
  });

  it('refuses only covering and opening betting: the croupier console follows can()', () => {
    const betting = holdTable(stateIn(LEVER, 'betting'), HOLD);
    expect(can(LEVER, betting, { type: 'ring-bell' })).toBe(true);
    const shaken = holdTable(stateIn(ELECTRONIC, 'shaken'), HOLD);
    expect(check(ELECTRONIC, shaken, { type: 'open-betting' })?.code).toBe('table_held');
  });
});

describe('a table closed for play (Art. 2)', () => {
  it('finishes the round in progress, covers no new one until opened, and keeps the first time', () => {
    const closed = setTableOpen(stateIn(LEVER, 'revealed', [1, 1, 1]), false, T0);
    const paid = applyAll(LEVER, closed, [{ type: 'pay-all' }], T0 + 1).state;
    expect(check(LEVER, paid, { type: 'cover' })).toMatchObject({
      code: 'table_closed',
      article: '2',
    });
    expect(setTableOpen(paid, false, T0 + 5).closedSinceMs).toBe(T0);
    expect(can(LEVER, setTableOpen(paid, true, T0 + 5), { type: 'cover' })).toBe(true);
  });
});

describe('house options without a recorded authorization (Art. 8)', () => {
  const unauthorized = tableConfig({ optionsAuthorized: false });

  it('refuses to cover a round and to open betting', () => {
    expect(check(unauthorized, stateIn(LEVER, 'idle'), { type: 'cover' })).toMatchObject({
      code: 'house_options_unauthorized',
      article: '8',
    });
    expect(check(unauthorized, stateIn(LEVER, 'shaken'), { type: 'open-betting' })?.code).toBe(
      'house_options_unauthorized',
    );
  });

  it('lets the same table play once its options are authorized', () => {
    expect(can(LEVER, stateIn(LEVER, 'idle'), { type: 'cover' })).toBe(true);
  });
});
