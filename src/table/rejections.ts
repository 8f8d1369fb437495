/**
 * Every way the round machine refuses a command: a stable code for programs,
 * the article it enforces, and a one-line summary for docs and consoles.
 *
 * Codes are snake_case like those of src/rules, whose bet checks this module
 * reuses (`unknown_spot`, `spot_not_offered`, `invalid_stake`). Where the
 * regulation itself is silent (stake limits, bet ids) the article named is the
 * one whose act the check guards: Art. 5 for bets, Art. 3.4 for withdrawals.
 * Never rename a code; add new ones at the end.
 */
import type { Rejection } from './types.js';

export const REJECTIONS = {
  malformed_command: {
    article: '2',
    summary:
      'the command lacks a field or has one of the wrong type (the procedure of Arts. 2–4 cannot apply it)',
  },
  unknown_command: { article: '2', summary: 'the procedure of Arts. 2–4 has no such step' },
  shake_method_mismatch: {
    article: '2.1',
    summary:
      'the table shakes the other way: lever pulls on a lever table, one trigger on an electronic one (house option, Art. 8)',
  },
  reading_method_mismatch: {
    article: '3.2',
    summary:
      'a lever table reads the dice from the croupier; an electronic table reveals its sealed roll',
  },
  prizes_unpaid: {
    article: '4',
    summary: 'the dome may not be covered until every prize of the round is paid',
  },
  roll_unresolved: {
    article: '3.3',
    summary:
      'the lifted dice must be read, or the roll declared void, before the dome is covered again',
  },
  dome_already_covered: {
    article: '2.1',
    summary: 'the movable dome already covers the glass dome',
  },
  dome_not_covered: { article: '2.1', summary: 'the movable dome does not cover the glass dome' },
  latches_already_fastened: { article: '2.1', summary: 'both latches are already fastened' },
  latches_not_fastened: {
    article: '2.1',
    summary: 'the dice may not be shaken before both latches are fastened',
  },
  dice_already_shaken: { article: '2.1', summary: 'the dice of this roll are already shaken' },
  lever_pulls_incomplete: {
    article: '2.1',
    summary: 'the lever must be pulled three times in a row before betting',
  },
  invalid_sealed_roll: {
    article: '2.1',
    summary: 'a sealed roll is three faces 1–6, a 64-hex-digit nonce and a 64-hex-digit commitment',
  },
  dice_not_shaken: { article: '2.1', summary: 'betting may only open once the dice are shaken' },
  betting_already_open: { article: '2.1', summary: 'betting is already open' },
  betting_not_open: { article: '2.1', summary: 'betting has not opened for this roll' },
  betting_closed: {
    article: '3.1',
    summary: 'betting ended with the bell (or the betting timer ran out)',
  },
  duplicate_bet_id: {
    article: '5',
    summary: 'a bet with this id was already placed in this round',
  },
  unknown_spot: { article: '5', summary: 'the spot is not a bet of the regulation' },
  spot_not_offered: { article: '8', summary: "the table's layout does not offer this spot" },
  invalid_stake: { article: '5', summary: 'a stake is a positive whole number of minor units' },
  stake_below_min: { article: '5', summary: "the stake is below the table's minimum" },
  stake_above_max: {
    article: '5',
    summary: "the player's stakes on this spot in this round would exceed the table's maximum",
  },
  bets_per_round_exceeded: {
    article: '5',
    summary: 'the round holds as many bets as the table allows',
  },
  unknown_bet: { article: '3.4', summary: 'no standing bet of this round has this id' },
  not_bet_owner: { article: '3.4', summary: 'only the player who placed a bet may withdraw it' },
  bet_stands_after_void: {
    article: '3.4',
    summary: 'a bet placed before a void roll stands and may not be withdrawn',
  },
  bell_not_rung: {
    article: '3.1',
    summary: 'the dome may not be lifted before the bell ends betting',
  },
  dome_already_lifted: { article: '3.2', summary: 'the movable dome is already lifted' },
  dome_not_lifted: {
    article: '3.2',
    summary: 'the dice are read only once the movable dome is lifted on a live roll',
  },
  invalid_dice: { article: '1.1', summary: 'a reading is exactly three faces 1–6' },
  dice_already_known: { article: '3.2', summary: 'the result of this round is already announced' },
  round_not_settled: {
    article: '4',
    summary: 'there are no prizes to pay before the result is announced',
  },
  prizes_already_paid: { article: '4', summary: 'every prize of this round is already paid' },
  house_options_unauthorized: {
    article: '8',
    summary:
      "the table's house options carry no recorded DICJ authorization: no round is covered and betting does not open",
  },
  table_held: {
    article: '1.1',
    summary:
      'the table is held between rounds (a severe fairness alert) until a supervisor acknowledges it or the dice are changed',
  },
  liability_cap_exceeded: {
    article: '5',
    summary: "the bet would raise the round's worst-case loss for the house beyond the table's cap",
  },
  table_mid_round: {
    article: '8',
    summary:
      'house options (Art. 8), limits and records of new dice change between rounds only: finish the round first',
  },
  table_closed: {
    article: '2',
    summary:
      'the table is closed for play: no round is covered and betting does not open until a supervisor opens it',
  },
} as const satisfies Record<string, { article: string; summary: string }>;

export type RejectionCode = keyof typeof REJECTIONS;

/** Every rejection code, in the order documented in docs/table.md. */
export const REJECTION_CODES = Object.keys(REJECTIONS) as readonly RejectionCode[];

/** A refused transition: the code's article, and a message that says what to do instead. */
export function reject(
  code: RejectionCode,
  message: string,
): { readonly ok: false; readonly rejection: Rejection } {
  return { ok: false, rejection: { code, message, article: REJECTIONS[code].article } };
}

export function isRejectionCode(value: string): value is RejectionCode {
  return Object.hasOwn(REJECTIONS, value);
}
