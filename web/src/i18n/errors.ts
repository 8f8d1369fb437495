/**
 * A refusal of the server as a sentence in the user's language: the code's
 * sentence from the dictionary, with amounts in the table's currency where the
 * sentence names one ({min}, {max}). The server's own message (in
 * English, with ids and minor units) is for logs and programs, never shown.
 */
import { DICT, type Key } from './dict.js';
import { type Lang, translate } from './i18n.js';

/** The amounts a sentence may name, already formatted in the table's currency. */
export interface ErrorAmounts {
  readonly min: string;
  readonly max: string;
}

/**
 * Every code a player's page can be refused with: the bet and withdrawal
 * checks of the round machine (src/table/rejections.ts), the wallet, the
 * service and the server around them, and the sign-in and password pages.
 */
export const PLAYER_ERROR_CODES = [
  'betting_not_open',
  'betting_closed',
  'duplicate_bet_id',
  'unknown_spot',
  'spot_not_offered',
  'invalid_stake',
  'stake_below_min',
  'stake_above_max',
  'bets_per_round_exceeded',
  'unknown_bet',
  'not_bet_owner',
  'bet_stands_after_void',
  'insufficient_funds',
  'liability_cap_exceeded',
  'unknown_table',
  'table_busy',
  'table_moving',
  'idempotency_key_conflict',
  'database_unavailable',
  'shutting_down',
  'internal_error',
  'network',
  'unauthenticated',
  'forbidden',
  'cross_origin',
  'invalid_request',
  'invalid_credentials',
  'too_many_attempts',
  'password_change_required',
  'wrong_password',
  'weak_password',
] as const;

/** The codes whose sentence names the table's limits ({min}, {max}). */
export const CODES_WITH_AMOUNTS: readonly string[] = ['stake_below_min', 'stake_above_max'];

/**
 * The sentence for `code`. Only the stake limits' sentences name amounts, and
 * only a player's page (which holds the table) meets them.
 */
export function errorSentence(lang: Lang, code: string, amounts?: ErrorAmounts): string {
  const key = `err.${code}`;
  if (!(key in DICT)) return translate(lang, 'app.errorGeneric', { code });
  return translate(lang, key as Key, amounts === undefined ? {} : { ...amounts });
}
