/**
 * A refusal of the server as a sentence in the user's language: the code's
 * sentence from the dictionary, with amounts in the table's currency where the
 * sentence names one ({min}, {max}). The server's own message (in
 * English, with ids and minor units) is for logs and programs, never shown.
 */
import { DICT, type Key } from './dict.js';
import { type Lang, translate } from './i18n.js';

/**
 * What a sentence may name: the table's limits, already formatted in its
 * currency ({min}, {max}), or a holiday list's bad date ({date}).
 */
export interface ErrorParams {
  readonly min?: string;
  readonly max?: string;
  readonly date?: string;
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
  // Lei 10/2012 and Instrução 1/2016: who may not play is refused every bet.
  'identity_missing',
  'under_age',
  'excluded',
  'casino_worker',
  'staff_cannot_bet',
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

/** A holiday list's issues whose sentence names the bad date ({date}). */
export const CODES_WITH_DATE: readonly string[] = [
  'holiday_date_invalid',
  'holiday_date_outside_year',
  'holiday_date_duplicate',
];

/** The pages' own refusals, made before anything is sent: not the server's codes. */
export const PAGE_ERROR_CODES = ['network', 'minAboveMax', 'holidayFileNotJson'] as const;

/**
 * The sentence for `code`. Only the stake limits' sentences name amounts, and
 * only a player's page (which holds the table) meets them.
 */
export function errorSentence(lang: Lang, code: string, params: ErrorParams = {}): string {
  const key = `err.${code}`;
  if (!(key in DICT)) return translate(lang, 'app.errorGeneric', { code });
  return translate(lang, key as Key, { ...params });
}

/**
 * A holiday list's first problem (the server's `issues`, src/compliance/holiday-list.ts)
 * as a sentence naming the bad date, read from the uploaded document at the
 * issue's path (`days.3.date`); undefined when the issue is not one about a date.
 */
export function holidayIssueSentence(
  lang: Lang,
  issues: readonly unknown[],
  doc: unknown,
): string | undefined {
  const issue = issues[0];
  if (typeof issue !== 'object' || issue === null) return undefined;
  const { code, path } = issue as { code?: unknown; path?: unknown };
  if (typeof code !== 'string' || typeof path !== 'string') return undefined;
  if (code === 'holiday_list_malformed') return errorSentence(lang, code);
  let value: unknown = doc;
  for (const part of path.split('.'))
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)[part]
        : undefined;
  if (value === undefined) return undefined;
  return errorSentence(lang, code, {
    date: typeof value === 'string' ? value : JSON.stringify(value),
  });
}
