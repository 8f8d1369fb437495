import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYTABLE } from '../rules/index.js';
import { BUNDLED_HOLIDAY_YEARS, bundledCalendar } from './bundled-holidays.js';
import { createCalendar, type WorkingDayCalendar } from './calendar.js';
import type { HouseOptions, HouseOptionsChoice } from './house-options.js';
import {
  applyEvent,
  type HouseOptionsEvent,
  type HouseOptionsState,
  initialHouseOptionsState,
  proposalStatus,
} from './house-options-state.js';
import { decide, type DecisionContext, due, OPEN_PROPOSALS_MAX } from './house-options-workflow.js';
import { REJECTION_CODES, type RejectionCode } from './rejections.js';

const calendar = bundledCalendar();
const TABLE = 'T-07';
const INITIAL: HouseOptions = {
  version: 1,
  shaker: 'lever',
  layoutCount: 1,
  displayBoard: false,
  announceAloud: true,
  paytable: DEFAULT_PAYTABLE,
};
const NEW_OPTIONS: HouseOptionsChoice = {
  shaker: 'electronic',
  layoutCount: 2,
  displayBoard: true,
  announceAloud: true,
  paytable: {
    spots: ['small', 'big', 'total:5', 'total:16'],
    totalOdds: { '5/16': 24, '6/15': 14 },
  },
};

const ctx = (
  today: string,
  betweenRounds = true,
  cal: WorkingDayCalendar = calendar,
): DecisionContext => ({
  today,
  betweenRounds,
  calendar: cal,
});

const proposeCmd = (over: Record<string, unknown> = {}) => ({
  type: 'propose',
  proposalId: 'P-1',
  tableId: TABLE,
  options: NEW_OPTIONS,
  adoptionDate: '2026-03-06', // Friday: the earliest for a Monday 2 March request
  proposedBy: 'sup-1',
  ...over,
});
const authorizeCmd = (over: Record<string, unknown> = {}) => ({
  type: 'record-authorization',
  proposalId: 'P-1',
  reference: 'DICJ/2026/0042',
  authorizationDate: '2026-03-04',
  inspectorId: 'insp-9',
  ...over,
});
const adoptCmd = (proposalId = 'P-1') => ({ type: 'adopt', proposalId, adoptedBy: 'sup-1' });
const withdrawCmd = (proposalId = 'P-1') => ({
  type: 'withdraw',
  proposalId,
  withdrawnBy: 'sup-1',
});

/** Applies accepted steps in order; fails the test if one is refused. */
function run(
  steps: [unknown, DecisionContext][],
  start = initialHouseOptionsState(TABLE, INITIAL),
) {
  let state = start;
  const events: HouseOptionsEvent[] = [];
  for (const [command, context] of steps) {
    const decision = decide(state, command, context);
    if (!decision.ok) throw new Error(`refused: ${JSON.stringify(decision.rejection)}`);
    state = decision.state;
    events.push(...decision.events);
  }
  return { state, events };
}

const proposed = () => run([[proposeCmd(), ctx('2026-03-02')]]).state;
const authorized = () => run([[authorizeCmd(), ctx('2026-03-04')]], proposed()).state;

describe('the Art. 8 workflow, accepted', () => {
  it('proposes, records the authorization and adopts at the round boundary', () => {
    const state = authorized();
    const midRound = decide(state, adoptCmd(), ctx('2026-03-06', false));
    expect(!midRound.ok && midRound.rejection.code).toBe('table_mid_round');

    const atBoundary = decide(state, adoptCmd(), ctx('2026-03-06', true));
    if (!atBoundary.ok) throw new Error(atBoundary.rejection.message);
    expect(atBoundary.state.current).toEqual({ ...NEW_OPTIONS, version: 2 });
    expect(atBoundary.state.adoptedOn).toBe('2026-03-06');
    expect(atBoundary.events).toEqual([
      {
        type: 'house-options-adopted',
        tableId: TABLE,
        on: '2026-03-06',
        proposalId: 'P-1',
        version: 2,
        options: NEW_OPTIONS,
        adoptedBy: 'sup-1',
        authorizationReference: 'DICJ/2026/0042',
        supersededProposalIds: [],
      },
    ]);
  });

  it('emits one event per accepted command, and the events alone rebuild the state', () => {
    const { state, events } = run([
      [proposeCmd(), ctx('2026-03-02')],
      [authorizeCmd(), ctx('2026-03-04')],
      [adoptCmd(), ctx('2026-03-09')], // adoption may come later than the date, once authorized
      [proposeCmd({ proposalId: 'P-2', adoptionDate: '2026-03-20' }), ctx('2026-03-10')],
      [withdrawCmd('P-2'), ctx('2026-03-11')],
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'house-options-proposed',
      'dicj-authorization-recorded',
      'house-options-adopted',
      'house-options-proposed',
      'house-options-withdrawn',
    ]);
    expect(events.reduce(applyEvent, initialHouseOptionsState(TABLE, INITIAL))).toEqual(state);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state.proposals.map((p) => proposalStatus(p, '2026-03-11'))).toEqual([
      'adopted',
      'withdrawn',
    ]);
  });

  it('records the request date as the day of the proposal', () => {
    const [p] = proposed().proposals;
    expect([p?.requestDate, p?.baseVersion, p?.authorization]).toEqual(['2026-03-02', 1, null]);
  });

  it('an adoption supersedes open proposals due no later than it', () => {
    const { state } = run([
      [proposeCmd(), ctx('2026-03-02')],
      [proposeCmd({ proposalId: 'P-2', adoptionDate: '2026-03-09' }), ctx('2026-03-02')],
      [proposeCmd({ proposalId: 'P-3', adoptionDate: '2026-03-20' }), ctx('2026-03-02')],
      [authorizeCmd(), ctx('2026-03-04')],
      [authorizeCmd({ proposalId: 'P-2' }), ctx('2026-03-04')],
    ]);
    expect(due(state, ctx('2026-03-09')).map((p) => p.proposalId)).toEqual(['P-1', 'P-2']);
    const adopted = decide(state, adoptCmd('P-2'), ctx('2026-03-09'));
    if (!adopted.ok) throw new Error(adopted.rejection.message);
    expect(adopted.events[0]).toMatchObject({ supersededProposalIds: ['P-1'], version: 2 });
    const statuses = adopted.state.proposals.map((p) => proposalStatus(p, '2026-03-09'));
    expect(statuses).toEqual(['superseded', 'adopted', 'pending']);
    // P-1 would roll the table back to options the DICJ saw replaced.
    const rollBack = decide(adopted.state, adoptCmd('P-1'), ctx('2026-03-09'));
    expect(!rollBack.ok && rollBack.rejection.code).toBe('proposal_closed');
  });
});

describe('due', () => {
  it('lists authorized proposals once their date has come, between rounds only', () => {
    const state = authorized();
    expect(due(state, ctx('2026-03-05'))).toEqual([]);
    expect(due(state, ctx('2026-03-06', false))).toEqual([]);
    expect(due(state, ctx('2026-03-06')).map((p) => p.proposalId)).toEqual(['P-1']);
    expect(due(proposed(), ctx('2026-03-06'))).toEqual([]); // no authorization
  });
});

/** A calendar in which Wed 4 March 2026 was (say) declared a holiday after the proposal. */
function calendarWithExtraHoliday(): WorkingDayCalendar {
  const [y2026, y2027] = BUNDLED_HOLIDAY_YEARS;
  const days = [
    ...y2026!.days,
    { date: '2026-03-04', name: 'extra', kind: 'holiday' as const },
  ].sort((a, b) => (a.date < b.date ? -1 : 1));
  return createCalendar([{ ...y2026!, days }, y2027!]);
}

function fullTable(): HouseOptionsState {
  const steps: [unknown, DecisionContext][] = [];
  for (let i = 0; i < OPEN_PROPOSALS_MAX; i++) {
    steps.push([proposeCmd({ proposalId: `P-${i + 10}` }), ctx('2026-03-02')]);
  }
  return run(steps).state;
}

type Scenario = [string, () => HouseOptionsState, unknown, DecisionContext, RejectionCode, string];

const initial = () => initialHouseOptionsState(TABLE, INITIAL);
const withOptions = (over: Record<string, unknown>) =>
  proposeCmd({ options: { ...NEW_OPTIONS, ...over } });

// [behaviour, state, command, context, code, article]
const SCENARIOS: Scenario[] = [
  [
    'refuses a command of unknown type',
    initial,
    { type: 'adopt-now' },
    ctx('2026-03-02'),
    'command_invalid',
    '8',
  ],
  [
    'refuses a proposal without a proposer',
    initial,
    proposeCmd({ proposedBy: '' }),
    ctx('2026-03-02'),
    'command_invalid',
    '8',
  ],
  [
    'refuses an impossible adoption date',
    initial,
    proposeCmd({ adoptionDate: '2026-02-30' }),
    ctx('2026-03-02'),
    'command_invalid',
    '8',
  ],
  [
    'refuses a proposal for another table',
    initial,
    proposeCmd({ tableId: 'T-08' }),
    ctx('2026-03-02'),
    'table_mismatch',
    '8',
  ],
  [
    'refuses a proposal id used before',
    proposed,
    proposeCmd({ adoptionDate: '2026-03-20' }),
    ctx('2026-03-03'),
    'proposal_id_taken',
    '8',
  ],
  [
    'refuses past the open-proposal limit',
    fullTable,
    proposeCmd(),
    ctx('2026-03-02'),
    'open_proposals_limit',
    '8',
  ],
  [
    'refuses options that are not an object',
    initial,
    proposeCmd({ options: 'electronic' }),
    ctx('2026-03-02'),
    'options_malformed',
    '8',
  ],
  [
    'refuses an unknown option',
    initial,
    withOptions({ lights: true }),
    ctx('2026-03-02'),
    'options_malformed',
    '8',
  ],
  [
    'refuses a shaker that is neither lever nor electronic',
    initial,
    withOptions({ shaker: 'hand' }),
    ctx('2026-03-02'),
    'shaker_invalid',
    '1.2',
  ],
  [
    'refuses zero layouts',
    initial,
    withOptions({ layoutCount: 0 }),
    ctx('2026-03-02'),
    'layout_count_invalid',
    '1.3',
  ],
  [
    'refuses a display board that is not a yes or no',
    initial,
    withOptions({ displayBoard: 'yes' }),
    ctx('2026-03-02'),
    'display_board_invalid',
    '2.2',
  ],
  [
    'refuses an announcement that is not a yes or no',
    initial,
    withOptions({ announceAloud: 1 }),
    ctx('2026-03-02'),
    'announcement_invalid',
    '2.3',
  ],
  [
    'refuses odds outside the Art. 6.6 range',
    initial,
    withOptions({ paytable: { spots: ['small'], totalOdds: { '5/16': 31, '6/15': 14 } } }),
    ctx('2026-03-02'),
    'paytable_invalid',
    '6.6',
  ],
  [
    'refuses a bet the regulation does not have',
    initial,
    withOptions({ paytable: { spots: ['red'], totalOdds: { '5/16': 18, '6/15': 14 } } }),
    ctx('2026-03-02'),
    'paytable_invalid',
    '5',
  ],
  [
    'refuses when the holiday list of a year involved is missing',
    initial,
    proposeCmd({ adoptionDate: '2028-01-10' }),
    ctx('2027-12-20'),
    'calendar_year_missing',
    '8',
  ],
  [
    'refuses a request with less than three working days of notice',
    initial,
    proposeCmd({ adoptionDate: '2026-03-05' }),
    ctx('2026-03-02'),
    'request_not_timely',
    '8',
  ],
  [
    'refuses over Lunar New Year when the holidays leave too few working days',
    initial,
    proposeCmd({ adoptionDate: '2026-02-23' }),
    ctx('2026-02-13'),
    'request_not_timely',
    '8',
  ],
  [
    'refuses an adoption date in the past',
    initial,
    proposeCmd({ adoptionDate: '2026-03-01' }),
    ctx('2026-03-02'),
    'request_not_timely',
    '8',
  ],
  [
    'refuses to authorize an unknown proposal',
    initial,
    authorizeCmd(),
    ctx('2026-03-04'),
    'proposal_unknown',
    '8',
  ],
  [
    'refuses to withdraw a withdrawn proposal',
    () => run([[withdrawCmd(), ctx('2026-03-03')]], proposed()).state,
    withdrawCmd(),
    ctx('2026-03-03'),
    'proposal_closed',
    '8',
  ],
  [
    'refuses to adopt an adopted proposal again',
    () => run([[adoptCmd(), ctx('2026-03-06')]], authorized()).state,
    adoptCmd(),
    ctx('2026-03-07'),
    'proposal_closed',
    '8',
  ],
  [
    'refuses a second authorization',
    authorized,
    authorizeCmd({ reference: 'DICJ/2' }),
    ctx('2026-03-05'),
    'authorization_already_recorded',
    '8',
  ],
  [
    'refuses an authorization recorded after the adoption date',
    proposed,
    authorizeCmd({ authorizationDate: '2026-03-06' }),
    ctx('2026-03-07'),
    'proposal_expired',
    '8',
  ],
  [
    'refuses to adopt a proposal never authorized by its date',
    proposed,
    adoptCmd(),
    ctx('2026-03-09'),
    'proposal_expired',
    '8',
  ],
  [
    'refuses an authorization dated before the request',
    proposed,
    authorizeCmd({ authorizationDate: '2026-02-27' }),
    ctx('2026-03-04'),
    'authorization_date_invalid',
    '8',
  ],
  [
    'refuses an authorization dated in the future',
    proposed,
    authorizeCmd({ authorizationDate: '2026-03-05' }),
    ctx('2026-03-04'),
    'authorization_date_invalid',
    '8',
  ],
  [
    'refuses to adopt mid-round',
    authorized,
    adoptCmd(),
    ctx('2026-03-06', false),
    'table_mid_round',
    '8',
  ],
  [
    'refuses to adopt before the adoption date',
    authorized,
    adoptCmd(),
    ctx('2026-03-05'),
    'adoption_date_not_reached',
    '8',
  ],
  [
    'refuses to adopt on the date without an authorization',
    proposed,
    adoptCmd(),
    ctx('2026-03-06'),
    'authorization_missing',
    '8',
  ],
  [
    'refuses to adopt when a holiday declared since cuts the notice short',
    authorized,
    adoptCmd(),
    ctx('2026-03-06', true, calendarWithExtraHoliday()),
    'request_not_timely',
    '8',
  ],
  [
    'refuses to adopt when the holiday list was unloaded since',
    authorized,
    adoptCmd(),
    ctx('2026-03-06', true, createCalendar(BUNDLED_HOLIDAY_YEARS.slice(1))),
    'calendar_year_missing',
    '8',
  ],
];

describe('every refusal', () => {
  it.each(SCENARIOS)('%s', (_, makeState, command, context, code, article) => {
    const state = makeState();
    const decision = decide(state, command, context);
    if (decision.ok) throw new Error('expected a refusal');
    expect(decision.rejection).toMatchObject({ code, article });
    expect(decision.events).toEqual([
      {
        type: 'house-options-refused',
        tableId: TABLE,
        on: context.today,
        command:
          typeof (command as { type?: unknown }).type === 'string'
            ? (command as { type: string }).type
            : null,
        proposalId: (command as { proposalId?: string }).proposalId ?? null,
        code,
        article,
        message: decision.rejection.message,
      },
    ]);
    // A refusal changes nothing: applying its event leaves the state as it was.
    expect(applyEvent(state, decision.events[0])).toBe(state);
  });

  it('the scenarios cover every rejection code', () => {
    expect(new Set(SCENARIOS.map((s) => s[4]))).toEqual(new Set(REJECTION_CODES));
  });

  it('names the rules code of a refused paytable', () => {
    const bad = withOptions({
      paytable: { spots: ['small'], totalOdds: { '5/16': 18, '6/15': 19 } },
    });
    const decision = decide(initial(), bad, ctx('2026-03-02'));
    expect(!decision.ok && decision.rejection).toMatchObject({
      article: '6.6',
      ruleCode: 'odds_out_of_range',
    });
  });

  it('throws on a context that is not a date: a programming error', () => {
    expect(() => decide(initial(), proposeCmd(), ctx('02/03/2026'))).toThrow(RangeError);
  });
});
