/**
 * The house's options: what the regulation lets the house choose, per table.
 *
 * Art. 8 subjects to the DICJ's prior authorization whatever the house decides
 * among the alternatives of Arts. 1, 2, 5 and 6:
 * - Art. 1.2(1): the shaker is worked by a lever or by an electronic device;
 * - Art. 1.3: one or more betting layouts;
 * - Art. 2.2: whether shaking lights a display board in front of the shaker;
 * - Art. 2.3: whether the croupier also announces the start of betting aloud;
 * - Art. 5: which bets the layout offers, and Art. 6.6 the odds of totals 5/16
 *   and 6/15 inside their ranges — both in the paytable (src/rules).
 * (Art. 3.2's lit layout is optional too, but Art. 8 does not name Art. 3.)
 */
import { err, isRecord, ok, parsePaytable, type Paytable, type Result } from '../rules/index.js';
import type { Rejection } from './rejections.js';

export type ShakerKind = 'lever' | 'electronic';

/** The options chosen, without a version: what a proposal carries. */
export interface HouseOptionsChoice {
  /** Art. 1.2(1). */
  readonly shaker: ShakerKind;
  /** Art. 1.3: how many betting layouts the table has. */
  readonly layoutCount: number;
  /** Art. 2.2. */
  readonly displayBoard: boolean;
  /** Art. 2.3. */
  readonly announceAloud: boolean;
  /** Arts. 5 and 6.6. */
  readonly paytable: Paytable;
}

/** The options in force at a table; the version goes up by one at each adoption. */
export interface HouseOptions extends HouseOptionsChoice {
  readonly version: number;
}

/** Art. 1.3 says "one or more"; a limit keeps a typo from meaning a thousand layouts. */
export const LAYOUT_COUNT_MAX = 16;

const CHOICE_KEYS = new Set(['shaker', 'layoutCount', 'displayBoard', 'announceAloud', 'paytable']);

function refuse(
  code: Rejection['code'],
  message: string,
  article: string,
): Result<never, Rejection> {
  return err({ code, message, article });
}

/** The first field of the choice that breaks its article, if any. */
function fieldRejection(doc: Record<string, unknown>): Result<never, Rejection> | null {
  const { shaker, layoutCount, displayBoard, announceAloud } = doc;
  if (shaker !== 'lever' && shaker !== 'electronic') {
    return refuse('shaker_invalid', 'the shaker is worked by "lever" or "electronic"', '1.2');
  }
  if (
    typeof layoutCount !== 'number' ||
    !Number.isInteger(layoutCount) ||
    layoutCount < 1 ||
    layoutCount > LAYOUT_COUNT_MAX
  ) {
    return refuse(
      'layout_count_invalid',
      `one or more layouts, at most ${LAYOUT_COUNT_MAX}`,
      '1.3',
    );
  }
  if (typeof displayBoard !== 'boolean') {
    return refuse('display_board_invalid', '"displayBoard" must be true or false', '2.2');
  }
  if (typeof announceAloud !== 'boolean') {
    return refuse('announcement_invalid', '"announceAloud" must be true or false', '2.3');
  }
  return null;
}

/**
 * Validates a choice of options (parsed JSON). Each refusal names the article
 * of the option it breaks; the paytable is checked by `parsePaytable`
 * (e.g. Art. 6.6 for odds outside the range).
 */
export function parseHouseOptionsChoice(doc: unknown): Result<HouseOptionsChoice, Rejection> {
  if (!isRecord(doc)) return refuse('options_malformed', 'the options must be a JSON object', '8');
  const unknownKey = Object.keys(doc).find((k) => !CHOICE_KEYS.has(k));
  if (unknownKey !== undefined) {
    return refuse('options_malformed', `unknown house option "${unknownKey}"`, '8');
  }
  const rejection = fieldRejection(doc);
  if (rejection !== null) return rejection;
  const paytable = parsePaytable(doc['paytable']);
  if (!paytable.ok) {
    const { code, message, article } = paytable.error;
    return err({ code: 'paytable_invalid', message, article: article ?? '5', ruleCode: code });
  }
  return ok({
    shaker: doc['shaker'] as ShakerKind,
    layoutCount: doc['layoutCount'] as number,
    displayBoard: doc['displayBoard'] as boolean,
    announceAloud: doc['announceAloud'] as boolean,
    paytable: paytable.value,
  });
}
