/**
 * Why the house-options workflow refuses a command: a stable code for
 * programs, a sentence for people and the article enforced (Art. 8, or the
 * article of the option for an invalid choice). Codes are a public contract:
 * snake_case like every code of the system, never renamed again, new ones
 * added at the end.
 */

/** Every code, with the article it enforces ('varies' = the article of the option). */
export const REJECTIONS = {
  command_invalid: { article: '8', when: 'the command is not well-formed' },
  table_mismatch: { article: '8', when: 'the proposal names another table' },
  proposal_id_taken: { article: '8', when: 'a proposal with that id already exists' },
  open_proposals_limit: { article: '8', when: 'the table has too many open proposals' },
  options_malformed: { article: '8', when: 'the options are not an object of known fields' },
  shaker_invalid: { article: '1.2', when: 'the shaker is neither lever nor electronic' },
  layout_count_invalid: { article: '1.3', when: 'not one or more layouts' },
  display_board_invalid: { article: '2.2', when: 'displayBoard is not a boolean' },
  announcement_invalid: { article: '2.3', when: 'announceAloud is not a boolean' },
  paytable_invalid: { article: 'varies', when: 'parsePaytable refuses the paytable (5, 6.6)' },
  calendar_year_missing: { article: '8', when: 'a year involved has no holiday list' },
  request_not_timely: { article: '8', when: 'fewer than three working days of notice' },
  proposal_unknown: { article: '8', when: 'no proposal with that id' },
  proposal_closed: { article: '8', when: 'the proposal was adopted, withdrawn or superseded' },
  proposal_expired: { article: '8', when: 'adoption date passed without authorization' },
  authorization_already_recorded: { article: '8', when: 'the proposal is already authorized' },
  authorization_date_invalid: { article: '8', when: 'dated before the request or after today' },
  table_mid_round: { article: '8', when: 'adoption attempted during a round' },
  adoption_date_not_reached: { article: '8', when: 'adoption attempted before the date' },
  authorization_missing: { article: '8', when: 'no DICJ authorization on record' },
} as const;

export type RejectionCode = keyof typeof REJECTIONS;

export const REJECTION_CODES = Object.keys(REJECTIONS) as RejectionCode[];

export interface Rejection {
  readonly code: RejectionCode;
  readonly message: string;
  /** The article enforced, e.g. "8" or "6.6". */
  readonly article: string;
  /** For `paytable_invalid`: the code of the rules' violation (e.g. "odds_out_of_range"). */
  readonly ruleCode?: string;
}

/**
 * A code read back from a journaled `house-options-refused` entry. Entries
 * written before every code was snake_case spell it in kebab-case
 * (`table-mid-round`); read back, they mean the same code. The journal itself
 * is never rewritten: its entries are hash-chained.
 */
export function journaledRejectionCode(code: string): RejectionCode {
  const snake = code.replaceAll('-', '_');
  if (!isRejectionCode(snake))
    throw new RangeError(`not a house-options rejection code: ${JSON.stringify(code)}`);
  return snake;
}

/** Whether `code` names a house-options refusal (today's snake_case spelling). */
export function isRejectionCode(code: string): code is RejectionCode {
  return Object.hasOwn(REJECTIONS, code);
}
