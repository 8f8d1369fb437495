/**
 * Croupier entry of physical dice, for tables whose shaker is worked by the
 * lever (Art. 1.2, Art. 2.1: "pulls the lever three times"). The croupier lifts
 * the dome and announces the result (Art. 3.2); the console sends what was
 * read. Nothing can be sealed in advance here, so the entry carries the
 * croupier's id: who read the dice is part of the record.
 */
import { type Dice, isDice, parseDice } from '../rules/dice.js';
import { err, ok, type Result, type RuleViolation } from '../rules/errors.js';

export interface CroupierRoll {
  readonly source: 'croupier';
  readonly dice: Dice;
  readonly croupierId: string;
}

export type CroupierEntryError = RuleViolation<'dice_malformed' | 'croupier_missing'>;

/** Reads "2,2,5", "2 2 5", "225" or [2, 2, 5]; anything else is refused. */
function readDice(input: unknown): Dice | undefined {
  if (typeof input === 'string') {
    const parsed = parseDice(input);
    return 'error' in parsed ? undefined : parsed;
  }
  return isDice(input) ? input : undefined;
}

/**
 * Validates what the croupier entered: exactly three faces 1–6 (Art. 1.1).
 * Returns a typed error, never throws, because this is user input.
 */
export function parseCroupierEntry(
  input: unknown,
  croupierId: string,
): Result<CroupierRoll, CroupierEntryError> {
  if (typeof croupierId !== 'string' || croupierId.trim() === '') {
    return err({ code: 'croupier_missing', message: 'a croupier entry needs the croupier id' });
  }
  const dice = readDice(input);
  if (dice === undefined) {
    const shown =
      typeof input === 'string' ? `"${input}"` : (JSON.stringify(input) ?? String(input));
    return err({
      code: 'dice_malformed',
      message: `dice must be exactly three faces 1–6, got ${shown}`,
      article: '1.1',
    });
  }
  return ok({ source: 'croupier', dice: [dice[0], dice[1], dice[2]], croupierId });
}
