/**
 * Which command each phase accepts, and for every other phase the refusal that
 * tells the croupier what is missing. Declared as data so that the docs, the
 * console (via `can`) and the machine read one table.
 */
import { type RejectionCode, REJECTIONS } from './rejections.js';
import { type CommandType, type Phase, PHASES } from './types.js';

/** For one command: null where it is accepted, else the refusal. Every phase is listed. */
export type PhaseRule = Readonly<Record<Phase, RejectionCode | null>>;

/** Phases in which no round is running or the last roll was void: the dome is not on. */
const UNCOVERED: readonly Phase[] = ['idle', 'paid', 'voided'];
const BEFORE_BETTING: readonly Phase[] = [
  'idle',
  'paid',
  'voided',
  'covered',
  'latched',
  'shaking',
  'shaken',
];

function rule(
  allowed: readonly Phase[],
  refusals: readonly (readonly [RejectionCode, readonly Phase[]])[],
): PhaseRule {
  const out = {} as Record<Phase, RejectionCode | null>;
  const assign = (p: Phase, value: RejectionCode | null): void => {
    if (p in out) throw new Error(`phase rule lists ${p} twice`);
    out[p] = value;
  };
  for (const p of allowed) assign(p, null);
  for (const [code, phases] of refusals) for (const p of phases) assign(p, code);
  // A phase left out would be a hole in the procedure; fail at load, not at the table.
  const missing = PHASES.filter((p) => !(p in out));
  if (missing.length > 0) throw new Error(`phase rule leaves out ${missing.join(', ')}`);
  return out;
}

const shakeRule = (allowed: readonly Phase[]): PhaseRule =>
  rule(allowed, [
    // Art. 2.1: cover, fasten both latches, then shake.
    ['latches_not_fastened', ['covered']],
    ['dome_not_covered', [...UNCOVERED, 'lifted', 'revealed']],
    [
      'dice_already_shaken',
      ['shaken', 'betting', 'closed', ...(allowed.includes('shaking') ? [] : ['shaking' as const])],
    ],
  ]);

const bettingRule: PhaseRule = rule(
  ['betting'],
  [
    // Art. 2.1: bets come after the shake; Art. 3.1: the bell ends them.
    ['betting_not_open', BEFORE_BETTING],
    ['betting_closed', ['closed', 'lifted', 'revealed']],
  ],
);

const readingRule: PhaseRule = rule(
  ['lifted'],
  [
    // Art. 3.2: the result is announced once the dome is lifted; Art. 3.3: a void roll has none.
    [
      'dome_not_lifted',
      ['idle', 'voided', 'covered', 'latched', 'shaking', 'shaken', 'betting', 'closed'],
    ],
    ['dice_already_known', ['revealed', 'paid']],
  ],
);

/** Art. 8: what changes the table itself waits for the round to end (paid, or none yet). */
const betweenRoundsRule: PhaseRule = rule(
  ['idle', 'paid'],
  [['table_mid_round', PHASES.filter((p) => p !== 'idle' && p !== 'paid')]],
);

export const PHASE_RULES: Readonly<Record<CommandType, PhaseRule>> = {
  cover: rule(UNCOVERED, [
    // Art. 4: no cover while prizes are unpaid; Art. 3.3: a lifted roll is read or voided first.
    ['prizes_unpaid', ['revealed']],
    ['roll_unresolved', ['lifted']],
    ['dome_already_covered', ['covered', 'latched', 'shaking', 'shaken', 'betting', 'closed']],
  ]),
  'fasten-latches': rule(
    ['covered'],
    [
      ['dome_not_covered', [...UNCOVERED, 'lifted', 'revealed']],
      ['latches_already_fastened', ['latched', 'shaking', 'shaken', 'betting', 'closed']],
    ],
  ),
  // Art. 2.1: three consecutive pulls, so a lever table stays in `shaking` between them.
  'pull-lever': shakeRule(['latched', 'shaking']),
  'trigger-shaker': shakeRule(['latched']),
  'open-betting': rule(
    ['shaken'],
    [
      ['dice_not_shaken', [...UNCOVERED, 'covered', 'latched']],
      ['lever_pulls_incomplete', ['shaking']],
      ['betting_already_open', ['betting']],
      ['betting_closed', ['closed', 'lifted', 'revealed']],
    ],
  ),
  'place-bet': bettingRule,
  'withdraw-bet': bettingRule,
  'ring-bell': bettingRule,
  // A tick is the clock, not an act; it does something only when a betting timer runs out.
  tick: rule(PHASES, []),
  'lift-dome': rule(
    ['closed'],
    [
      ['dome_not_covered', UNCOVERED],
      // Art. 3.1 and 3.2: the bell ends betting, then the dome is lifted.
      ['bell_not_rung', ['covered', 'latched', 'shaking', 'shaken', 'betting']],
      ['dome_already_lifted', ['lifted', 'revealed']],
    ],
  ),
  'read-dice': readingRule,
  'reveal-dice': readingRule,
  'void-roll': readingRule,
  'pay-all': rule(
    ['revealed'],
    [
      ['prizes_already_paid', ['paid']],
      ['round_not_settled', PHASES.filter((p) => p !== 'revealed' && p !== 'paid')],
    ],
  ),
  'change-limits': betweenRoundsRule,
  'change-house-options': betweenRoundsRule,
  'record-between-rounds': betweenRoundsRule,
};

/** The refusal of `type` in `phase`, or null when the phase accepts it. */
export function phaseRefusal(
  type: CommandType,
  phase: Phase,
): { code: RejectionCode; message: string } | null {
  const code = PHASE_RULES[type][phase];
  if (code === null) return null;
  return {
    code,
    message: `${type} refused while the round is ${phase}: ${REJECTIONS[code].summary}`,
  };
}
