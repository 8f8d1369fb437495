/**
 * A refusal by the rules: a stable code for programs, a sentence for people,
 * and the article of the regulation it enforces.
 */
/** The rules' own codes: a paytable against Arts. 5 and 6, a bet against its layout. */
export const RULE_VIOLATION_CODES = [
  'paytable_malformed',
  'unknown_spot',
  'duplicate_spot',
  'odds_out_of_range',
  'spot_not_offered',
  'invalid_stake',
] as const;

export type RuleViolationCode = (typeof RULE_VIOLATION_CODES)[number];

export interface RuleViolation<C extends string = RuleViolationCode> {
  readonly code: C;
  readonly message: string;
  /** e.g. "6.6" for Art. 6.6; absent when no article is involved (a malformed document). */
  readonly article?: string;
}

export type Result<T, E = RuleViolation> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });

/** "Art. 6.6: ..." — how a violation reads on one line. */
export function describeViolation(v: RuleViolation<string>): string {
  return v.article === undefined ? v.message : `${v.message} (Art. ${v.article})`;
}
