/**
 * Whole rounds with injected dice, checked the way a display board or an
 * auditor would: from the published events alone, recomputing every result
 * with src/rules and every commitment with SHA-256.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commitmentMessage } from '../dice/seal.js';
import { type Dice, oddsOn, OUTCOMES, settle, spotById } from '../rules/index.js';
import { ELECTRONIC, LEVER, PAYTABLE, T0, TIMED } from './fixtures.js';
import { simulate } from './simulation.js';
import type { PublicBet, RoundEvent, TableConfig } from './types.js';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

interface Audit {
  bets: Map<string, PublicBet>;
  commitment: string | null;
  dice: Dice | null;
  checkedRounds: number;
}

/** What an outside client keeps from events of one round, and the checks it can make. */
function auditEvent(audit: Audit, e: RoundEvent): void {
  switch (e.type) {
    case 'dome-covered':
      if (e.newRound) audit.bets = new Map();
      audit.commitment = null;
      return;
    case 'betting-opened':
      expect([...audit.bets.values()]).toEqual(e.standingBets);
      audit.commitment = e.commitmentHex;
      return;
    case 'bet-placed':
      audit.bets.set(e.bet.betId, e.bet);
      return;
    case 'bet-withdrawn':
      // Art. 3.4: only a bet of the current window can go.
      expect(e.bet.rollNo).toBe(e.rollNo);
      audit.bets.delete(e.bet.betId);
      return;
    case 'dice-revealed':
      // The seal published before any bet opens on exactly these dice (docs/table.md).
      expect(e.commitmentHex).toBe(audit.commitment);
      expect(sha256Hex(commitmentMessage(e, e.dice, e.nonceHex))).toBe(e.commitmentHex);
      audit.dice = e.dice;
      return;
    case 'roll-voided': {
      // An electronic table opens the void seal: it too must match what was published.
      const v = e.voidedRoll;
      if (v !== null) {
        expect(v.commitmentHex).toBe(audit.commitment);
        expect(sha256Hex(commitmentMessage(e, v.dice, v.nonceHex))).toBe(v.commitmentHex);
      }
      return;
    }
    case 'dice-read':
      audit.dice = e.dice;
      return;
    case 'round-settled':
      checkSettlement(audit, e);
      return;
    default:
      return;
  }
}

function checkSettlement(audit: Audit, e: Extract<RoundEvent, { type: 'round-settled' }>): void {
  expect(e.dice).toEqual(audit.dice);
  const bets = [...audit.bets.values()];
  const expected = settle(PAYTABLE, e.dice, bets);
  // Each return is aligned with the standing bets in the order they were placed.
  expect(e.returnsMinor).toEqual(expected.map((r) => r.returnedMinor));
  expect(e.totalStakeMinor).toBe(bets.reduce((t, b) => t + b.stakeMinor, 0));
  expect(e.totalReturnedMinor).toBe(expected.reduce((t, r) => t + r.returnedMinor, 0));
  // Art. 3.2: the spots to light are those of the layout that win on these dice.
  const lit = PAYTABLE.paytable.spots.filter(
    (id) => oddsOn(spotById(id)!, e.dice, PAYTABLE.paytable.totalOdds) > 0,
  );
  expect(e.winningSpots).toEqual(lit);
  audit.checkedRounds += 1;
}

function auditRounds(
  config: TableConfig,
  rounds: number,
  injectDice: (roundNo: number, rollNo: number) => Dice,
) {
  const sim = simulate({
    config,
    seed: 2004,
    rounds,
    startMs: T0,
    voidChance: 0.15,
    injectDice,
  });
  const audit: Audit = { bets: new Map(), commitment: null, dice: null, checkedRounds: 0 };
  for (const round of sim.rounds) for (const e of round.events) auditEvent(audit, e);
  return { sim, audit };
}

describe('whole rounds with injected dice, settled from events alone', () => {
  it.each([
    { table: 'lever', config: LEVER },
    { table: 'electronic (commitments checked)', config: ELECTRONIC },
    { table: 'lever with a betting timer', config: TIMED },
  ])('$table: every one of the 216 outcomes', ({ config }) => {
    const { sim, audit } = auditRounds(config, 216, (roundNo) => OUTCOMES[(roundNo - 1) % 216]!);
    expect(audit.checkedRounds).toBe(216);
    const shown = sim.rounds.map((r) => r.events.find((e) => e.type === 'round-settled')!);
    expect(new Set(shown.map((e) => e.type === 'round-settled' && e.dice.join(''))).size).toBe(216);
  });

  it('pays exactly what the settlement returned, then lets the next round be covered', () => {
    const { sim } = auditRounds(ELECTRONIC, 30, () => [3, 3, 3]);
    for (const round of sim.rounds) {
      const settled = round.events.find((e) => e.type === 'round-settled');
      const paid = round.events.at(-1);
      if (settled?.type !== 'round-settled' || paid?.type !== 'prizes-paid')
        throw new Error('round did not end in pay-all');
      expect(paid.payoutCount).toBe(settled.returnsMinor.filter((r) => r > 0).length);
      expect(paid.totalReturnedMinor).toBe(settled.totalReturnedMinor);
    }
    expect(sim.state.phase).toBe('paid');
  });

  it('includes void rolls whose bets stand into the next roll (Art. 3.3 and 3.4)', () => {
    const { sim } = auditRounds(
      LEVER,
      60,
      (roundNo, rollNo) => [1, rollNo, (roundNo % 6) + 1] as unknown as Dice,
    );
    const voids = sim.rounds.flatMap((r) => r.events).filter((e) => e.type === 'roll-voided');
    expect(voids.length).toBeGreaterThan(0);
    expect(
      sim.rounds.some((r) => r.events.some((e) => e.type === 'bet-placed' && e.rollNo > 1)),
    ).toBe(true);
  });
});
