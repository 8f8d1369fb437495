/** The request schemas shared by routes and sockets (and the OpenAPI document). */
import { z } from 'zod';
import { payloadSchema, publicBetSchema, visibleRoundEventSchema } from '../journal/index.js';
import { ROLES } from '../ledger/index.js';
import { AUDIT_CHECKS } from '../service/audit.js';
import {
  DOCUMENT_TYPES,
  ELIGIBILITY_CODES,
  EXCLUSION_KINDS,
  IDENTITY_KINDS,
} from '../compliance/index.js';
import { PHASES } from '../table/index.js';
import { floorSettingsSchema } from '../service/floor-settings.js';
import { storedTableSettingsSchema } from '../service/table-settings.js';
import { FEEDS } from './feed.js';

export const id = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'an id: 1 to 64 letters, digits or _.:-');
export const amountMinor = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const tableParams = z.object({ tableId: id }).strict();
export const betParams = z.object({ tableId: id, betId: id }).strict();
export const playerParams = z.object({ playerId: id }).strict();

export const loginBody = z
  .object({ username: z.string().min(1).max(64), password: z.string().min(1).max(200) })
  .strict();

export const placeBetBody = z
  .object({ betId: id, spot: z.string().min(1).max(40), stakeMinor: amountMinor })
  .strict();

export const croupierCommandBody = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cover') }).strict(),
  z.object({ type: z.literal('fasten-latches') }).strict(),
  z.object({ type: z.literal('pull-lever') }).strict(),
  z.object({ type: z.literal('trigger-shaker') }).strict(),
  z.object({ type: z.literal('open-betting') }).strict(),
  z.object({ type: z.literal('ring-bell') }).strict(),
  z.object({ type: z.literal('lift-dome') }).strict(),
  z
    .object({
      type: z.literal('read-dice'),
      dice: z.tuple([z.number().int(), z.number().int(), z.number().int()]),
    })
    .strict(),
  z.object({ type: z.literal('reveal-dice') }).strict(),
  z.object({ type: z.literal('void-roll'), reason: z.enum(['stacked', 'tilted']) }).strict(),
  z.object({ type: z.literal('pay-all') }).strict(),
]);

/**
 * A deposit or withdrawal; `documentSighted`: the cashier saw the player's
 * document, which a large amount needs (Instrução 1/2016).
 */
export const cageBody = z.object({ amountMinor, documentSighted: z.boolean().optional() }).strict();

/** A password as typed; its strength is judged by passwordWeakness (passwords.ts). */
export const passwordText = z.string().min(1).max(200);

export const createUserBody = z
  .object({
    username: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits and _.- (1 to 64)'),
    password: passwordText,
    role: z.enum(ROLES),
    displayName: z.string().min(1).max(100).optional(),
    /**
     * The person's identity (docs/api.md, "Who may play"): a player's account
     * is refused to a person under 21, excluded or a casino worker (Lei
     * 10/2012, arts. 2 and 6); a staff account's ties it to its person.
     */
    identity: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const limitsBody = z
  .object({
    stakeMinorMin: amountMinor.optional(),
    stakeMinorMax: amountMinor.optional(),
    liabilityMinorMax: amountMinor.optional(),
    bettingTimerMs: z.number().int().min(1_000).max(600_000).nullable().optional(),
  })
  .strict();

export const pageQuery = z
  .object({
    after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    limit: z.coerce.number().int().min(1).max(1_000).default(100),
  })
  .strict();

export const recallQuery = z
  .object({ rounds: z.coerce.number().int().min(1).max(100).default(10) })
  .strict();

export const wsQuery = z
  .object({
    after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    feed: z.enum(FEEDS).optional(),
  })
  .strict();

/** Bets one `place-bets` or `withdraw-bets` message may carry (the limit of bets per message). */
export const BETS_PER_MESSAGE_MAX = 20;

const requestId = z.string().min(1).max(64);
const betFields = { betId: id, spot: z.string().min(1).max(40), stakeMinor: amountMinor };

/** What a player may send on a table's socket. */
export const wsMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('place-bet'), requestId, ...betFields }).strict(),
  z
    .object({
      type: z.literal('place-bets'),
      requestId,
      bets: z
        .array(z.object(betFields).strict())
        .min(1)
        .max(BETS_PER_MESSAGE_MAX, `at most ${BETS_PER_MESSAGE_MAX} bets a message`)
        .refine(
          (bets) => new Set(bets.map((b) => b.betId)).size === bets.length,
          'each bet of a message needs its own betId',
        ),
    })
    .strict(),
  z.object({ type: z.literal('withdraw-bet'), requestId, betId: id }).strict(),
  z
    .object({
      type: z.literal('withdraw-bets'),
      requestId,
      betIds: z
        .array(id)
        .min(1)
        .max(BETS_PER_MESSAGE_MAX, `at most ${BETS_PER_MESSAGE_MAX} bets a message`)
        .refine((ids) => new Set(ids).size === ids.length, 'each bet id once'),
    })
    .strict(),
]);

export type WsMessage = z.infer<typeof wsMessage>;

/** A user as every answer shows one: never a password hash. */
export const userAnswer = z.strictObject({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  createdAtMs: z.number().int(),
  disabled: z.boolean(),
  mustChangePassword: z.boolean(),
});

/** A person an answer names: their id, and their username and name where the store knows them. */
export const personAnswer = z.strictObject({
  id: z.string(),
  username: z.string().nullable(),
  displayName: z.string().nullable(),
});

/** The answer to signing in or changing one's password: the session's token and the user. */
export const sessionAnswer = z.strictObject({ token: z.string(), user: userAnswer });

/** Who is signed in (GET /api/v1/me), with the wallet for a player. */
export const meAnswer = z.strictObject({
  user: userAnswer,
  wallet: z.strictObject({ balanceMinor: z.number().int(), currency: z.string() }).nullable(),
});

/** One of a user's live sessions (GET /api/v1/users/:id/sessions). */
export const userSessionAnswer = z.strictObject({
  id: z.string(),
  createdAtMs: z.number().int(),
  expiresAtMs: z.number().int(),
  lastSeenAtMs: z.number().int().nullable(),
  userAgent: z.string().nullable().describe("the browser's User-Agent at sign-in"),
  address: z.string().nullable().describe("the client's address at sign-in"),
  current: z.boolean().describe('the session this request was made with'),
});

/** A player as the cage lists them, with the wallet's balance. */
export const playerBalanceAnswer = z.strictObject({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  balanceMinor: z.number().int(),
});

/** A deposit or withdrawal at the cage: the wallet's balance after it and the transfer's id. */
export const cageMoveAnswer = z.strictObject({
  balanceMinor: z.number().int(),
  transferId: z.string(),
});

/** A player's deposit or withdrawal at the cage, as its history and receipt show it. */
export const cageMoveItemAnswer = z.strictObject({
  seq: z.number().int(),
  atMs: z.number().int(),
  kind: z.enum(['deposit', 'withdrawal']),
  amountMinor: z.number().int(),
  balanceAfterMinor: z
    .number()
    .int()
    .nullable()
    .describe('what the wallet held right after; null for moves made before migration 12'),
  cashier: z.strictObject({
    id: z.string(),
    username: z.string().nullable(),
    displayName: z.string().nullable(),
  }),
  transferId: z.string(),
});

/** Newest first: `before` a seq (default: the newest). */
export const cageMovesQuery = z
  .object({
    before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

/** The floor's settings in force, and who set them when (null: the defaults, never set). */
export const floorSettingsAnswer = z.strictObject({
  settings: floorSettingsSchema,
  seq: z.number().int().nullable(),
  changedAtMs: z.number().int().nullable(),
  changedBy: personAnswer.nullable(),
});

/** A table as the list of tables shows it, with its stake limits per spot (the chooser's limits sign). */
export const tableSummaryAnswer = z.strictObject({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  shaker: z.enum(['lever', 'electronic']),
  phase: z.enum(PHASES),
  roundNo: z.number().int(),
  stakeMinorMin: z.number().int(),
  stakeMinorMax: z.number().int(),
});

/** A bet placed or withdrawn: the bet as the round's event has it, its seq, and the wallet after. */
export const betAnswerSchema = z.strictObject({
  bet: publicBetSchema.nullable(),
  seq: z.number().int().nullable(),
  balanceMinor: z.number().int(),
});

/** The player's bets of the round; `winMinor` and `returnedMinor` once it is settled. */
export const myBetsAnswer = z.strictObject({
  roundNo: z.number().int(),
  bets: z.array(
    z.strictObject({
      betId: z.string(),
      spot: z.string(),
      stakeMinor: z.number().int(),
      rollNo: z.number().int(),
      winMinor: z.number().int().exactOptional(),
      returnedMinor: z.number().int().exactOptional(),
    }),
  ),
});

const int = z.number().int();
const minor = int;
const dice = z.tuple([int, int, int]).readonly();

/** The round's stakes and the worst of the 216 outcomes for the house (Art. 6). */
export const exposureAnswer = z.strictObject({
  stakedMinor: minor,
  worstCase: z.strictObject({
    dice: z.tuple([z.number().int(), z.number().int(), z.number().int()]).readonly(),
    returnedMinor: minor,
    houseLossMinor: minor,
  }),
  expectedHouseGainMinor: minor,
  liabilityCapMinor: minor,
});

const chainPoint = z.strictObject({ seq: z.number().int(), hash: z.string() });

/** An audit's verdict (GET /api/v1/journal/verify): the counts and where it ended, or the first failure. */
export const auditAnswer = z.union([
  z.strictObject({
    ok: z.literal(true),
    entries: z.number().int(),
    rounds: z.number().int(),
    transfers: z.number().int(),
    accounts: z.number().int(),
    from: chainPoint,
    checkedTo: chainPoint,
  }),
  z.strictObject({
    ok: z.literal(false),
    failure: z.strictObject({
      check: z.enum(AUDIT_CHECKS),
      seq: z.number().int().nullable(),
      message: z.string(),
    }),
  }),
]);

/** A paytable: the spots the layout offers and the house's odds of totals 5/16 and 6/15 (Arts. 5, 6.6). */
export const paytableAnswer = z.strictObject({
  spots: z.array(z.string()).readonly(),
  totalOdds: z.strictObject({ '5/16': z.number().int(), '6/15': z.number().int() }).readonly(),
});

/** Art. 8: the authorization house options carry, with its mark. */
export const optionsAuthorizationAnswer = z.strictObject({
  mark: z.enum(['dicj', 'demonstration', 'simulation']),
  reference: z.string(),
  authorizedOn: z.string(),
  recordedBy: z.string(),
  proposalId: z.string().nullable(),
});

/** A table as its view shows it (GET /api/v1/tables/:id, and what open, close, limits and create answer). */
export const tableViewAnswer = z.strictObject({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  shaker: z.enum(['lever', 'electronic']),
  displayBoard: z.boolean(),
  bettingTimerMs: z.number().int().nullable(),
  stakeMinorMin: minor,
  stakeMinorMax: minor,
  liabilityMinorMax: minor,
  paytable: paytableAnswer,
  phase: z.enum(PHASES),
  roundNo: z.number().int(),
  rollNo: z.number().int(),
  leverPulls: z.number().int(),
  commitmentHex: z.string().nullable(),
  bettingDeadlineMs: z.number().int().nullable(),
  stakesBySpotMinor: z.record(z.string(), minor),
  betCount: z.number().int(),
  totalStakeMinor: minor,
  lastRound: z
    .strictObject({
      roundNo: z.number().int(),
      rollNo: z.number().int(),
      dice,
      winningSpots: z.array(z.string()).readonly(),
      totalReturnedMinor: minor,
      payoutCount: z.number().int(),
      nonceHex: z.string().nullable(),
      commitmentHex: z.string().nullable(),
    })
    .nullable(),
  history: z
    .array(z.strictObject({ roundNo: z.number().int(), dice, total: z.number().int() }))
    .readonly(),
  /** Which croupier steps the round machine would accept now. */
  allowed: z.record(z.string(), z.boolean()),
  optionsAuthorized: z.boolean(),
  hold: z
    .strictObject({ reason: z.string(), article: z.string(), sinceMs: z.number().int() })
    .nullable(),
  closedSinceMs: z.number().int().nullable(),
  lastEventSeq: z.number().int(),
});

/** A croupier's step: the events it published, each with its journal seq, and the table after. */
export const commandAnswer = z.strictObject({
  events: z
    .array(z.strictObject({ seq: z.number().int(), event: visibleRoundEventSchema }))
    .readonly(),
  view: tableViewAnswer,
});

// The answers of the routes below, each beside its route's neighbours: the web app's types are
// these schemas' (web/src/api/types.ts), so a field the page reads and the server does not send
// does not compile.

/** A table's line on the floor; its settings and round are null when its snapshot is not here. */
export const floorTableAnswer = z.strictObject({
  id: z.string(),
  name: z.string(),
  shaker: z.enum(['lever', 'electronic']).nullable(),
  phase: z.enum(PHASES).nullable(),
  roundNo: int.nullable(),
  bettingDeadlineMs: int.nullable(),
  stakeMinorMin: int.nullable(),
  stakeMinorMax: int.nullable(),
  liabilityMinorMax: int.nullable(),
  bettingTimerMs: int.nullable(),
  limitsChangeAllowed: z.boolean(),
  players: int,
  stakedMinor: int,
  worstCaseHouseLossMinor: int,
  leaseHeldHere: z.boolean(),
  leaseHolder: z.string().nullable(),
  closedSinceMs: int.nullable(),
  day: z
    .strictObject({
      rounds: int,
      handleMinor: int,
      payoutsMinor: int,
      holdMinor: int,
      holdPercentActual: z.number().nullable(),
      holdPercentTheoretical: z.number().nullable(),
    })
    .nullable(),
  fairnessAlerts: int,
});

export const floorAnswer = z.strictObject({
  today: z.string().describe('YYYY-MM-DD, in Macau'),
  node: z
    .string()
    .nullable()
    .describe("this node's URL on a floor (the lease holder it records); null off a floor"),
  calendar: z.strictObject({
    years: z.array(
      z.strictObject({ year: int, official: z.boolean(), origin: z.enum(['bundled', 'loaded']) }),
    ),
    nextYear: z.strictObject({ year: int, status: z.enum(['missing', 'official', 'computed']) }),
    earliestAdoptionDate: z.string().nullable(),
  }),
  tables: z.array(floorTableAnswer),
});

export const isoDateText = z.string().describe('YYYY-MM-DD');

export const houseOptionsChoiceAnswer = z.strictObject({
  shaker: z.enum(['lever', 'electronic']),
  layoutCount: z.number().int(),
  displayBoard: z.boolean(),
  announceAloud: z.boolean(),
  paytable: paytableAnswer,
});

/** A proposal of house options with its DICJ authorization, how it ended, and its status today. */
const proposalAnswer = {
  proposalId: z.string(),
  options: houseOptionsChoiceAnswer,
  adoptionDate: isoDateText,
  requestDate: isoDateText,
  proposedBy: z.string(),
  baseVersion: z.number().int(),
  authorization: z
    .strictObject({
      reference: z.string(),
      authorizationDate: isoDateText,
      inspectorId: z.string(),
      recordedOn: isoDateText,
    })
    .nullable(),
  closed: z
    .discriminatedUnion('reason', [
      z.strictObject({
        reason: z.literal('adopted'),
        on: isoDateText,
        by: z.string(),
        version: z.number().int(),
      }),
      z.strictObject({ reason: z.literal('withdrawn'), on: isoDateText, by: z.string() }),
      z.strictObject({
        reason: z.literal('superseded'),
        on: isoDateText,
        byProposalId: z.string(),
      }),
    ])
    .nullable(),
  status: z.enum(['pending', 'authorized', 'expired', 'adopted', 'withdrawn', 'superseded']),
};

export const houseOptionsAnswer = z.strictObject({
  tableId: z.string(),
  today: isoDateText,
  current: houseOptionsChoiceAnswer.extend({ version: z.number().int() }),
  adoptedOn: isoDateText.nullable(),
  betweenRounds: z.boolean(),
  dueProposalIds: z.array(z.string()).readonly(),
  proposals: z.array(z.strictObject(proposalAnswer)).readonly(),
  /** Who proposed, withdrew or recorded an authorization, by user id: a page names people, not ids. */
  people: z.record(z.string(), personAnswer),
});

/** A decision on a proposal: the proposal, and the calendar Art. 8's working days were counted with. */
export const decisionAnswer = z.strictObject({
  ...proposalAnswer,
  computedHolidayYears: z.array(z.number().int()).readonly(),
  calendarNote: z.string().nullable(),
});

/** A year of public holidays and where its list came from. */
export const calendarYearAnswer = z.strictObject({
  year: z.number().int(),
  official: z.boolean(),
  source: z.string(),
  origin: z.enum(['bundled', 'loaded']),
  loadedBy: z.string().nullable(),
  loadedAtMs: z.number().int().nullable(),
  seq: z.number().int().nullable(),
  days: z
    .array(
      z.strictObject({
        date: isoDateText,
        name: z.string(),
        kind: z.enum(['holiday', 'compensatory']),
        obligatory: z.boolean().exactOptional(),
      }),
    )
    .readonly(),
});

const fairnessSpan = z.enum(['window', 'since-dice-change']);
const fairnessTest = z.enum(['faces', 'totals']);
const spanEvaluation = z.strictObject({
  span: fairnessSpan,
  rolls: z.number().int(),
  tests: z
    .array(
      z.strictObject({
        test: fairnessTest,
        statistic: z.number().nullable(),
        df: z.number().int(),
        pValue: z.number().nullable(),
        note: z.string().exactOptional(),
      }),
    )
    .readonly(),
});
const detectable = z.strictObject({
  oneDie: z.number().nullable(),
  allDice: z.number().nullable(),
});

/** Art. 1.1: the fairness of a table's dice over both spans, its alerts and the tests' power. */
export const fairnessAnswer = z.strictObject({
  tableId: z.string(),
  config: z.strictObject({
    windowRolls: z.number().int(),
    alertPValue: z.number(),
    clearPValue: z.number(),
  }),
  rollSeq: z.number().int(),
  diceSetId: z.string().nullable(),
  spans: z.array(spanEvaluation).readonly(),
  window: spanEvaluation,
  sinceDiceChange: spanEvaluation,
  activeAlerts: z
    .array(
      z.strictObject({
        span: fairnessSpan,
        test: fairnessTest,
        raisedAtRollSeq: z.number().int(),
        pValue: z.number(),
      }),
    )
    .readonly(),
  detectionPower: z
    .array(
      z.strictObject({
        excess: z.number(),
        loadedDice: z.literal([1, 2, 3]),
        significance: z.number(),
        power: z.number(),
        rolls: z.number().int(),
      }),
    )
    .readonly(),
  smallestDetectableExcess: z.strictObject({ window: detectable, sinceDiceChange: detectable }),
});

const percentOrNull = z.number().nullable();

/** A table's figures for a Macau day (the JSON of the daily reports). */
export const dailyReportAnswer = z.strictObject({
  tableId: z.string(),
  macauDay: isoDateText,
  currency: z.string(),
  rounds: z.number().int(),
  voidRolls: z.number().int(),
  bets: z.number().int(),
  handleMinor: z.number().int(),
  payoutsMinor: z.number().int(),
  holdMinor: z.number().int(),
  holdPercentActual: percentOrNull,
  holdPercentTheoretical: percentOrNull,
  biggestWin: z
    .strictObject({
      roundId: z.string(),
      settledAtMs: z.number().int(),
      betId: z.string().nullable(),
      spot: z.string(),
      stakeMinor: z.number().int(),
      returnedMinor: z.number().int(),
      winMinor: z.number().int(),
    })
    .nullable(),
  bySpot: z
    .array(
      z.strictObject({
        spot: z.string(),
        bets: z.number().int(),
        handleMinor: z.number().int(),
        payoutsMinor: z.number().int(),
        holdMinor: z.number().int(),
        holdPercentActual: percentOrNull,
        holdPercentTheoretical: percentOrNull,
      }),
    )
    .readonly(),
});

/** A table's day as JSON: its figures and the options in force at the day's start, then each change. */
export const tableDayAnswer = z.strictObject({
  tableId: z.string(),
  tableName: z.string(),
  report: dailyReportAnswer,
  optionsInForce: z
    .array(
      z.strictObject({
        fromMs: z.number().int(),
        totalOdds: paytableAnswer.shape.totalOdds,
        shaker: z.enum(['lever', 'electronic']),
        authorization: optionsAuthorizationAnswer.nullable(),
      }),
    )
    .readonly(),
});

/** The floor's day as JSON: every table's figures and the floor's totals. */
export const floorDayAnswer = z.strictObject({
  date: isoDateText,
  currency: z.string(),
  tables: z
    .array(
      z.strictObject({ tableId: z.string(), tableName: z.string(), report: dailyReportAnswer }),
    )
    .readonly(),
  // The floor's totals are a table's figures, summed (floor-report.ts).
  totals: dailyReportAnswer.pick({
    rounds: true,
    voidRolls: true,
    bets: true,
    handleMinor: true,
    payoutsMinor: true,
    holdMinor: true,
    holdPercentActual: true,
  }),
});

const sealedRoll = z.strictObject({ dice, nonceHex: z.string(), commitmentHex: z.string() });

/** A round as the journal and the ledger recorded it (service/recall.ts). */
export const recalledRoundAnswer = z.strictObject({
  tableId: z.string(),
  roundNo: int,
  status: z.enum(['open', 'settled', 'paid']),
  firstSeq: int,
  lastSeq: int,
  startedAtMs: int,
  paidAtMs: int.nullable(),
  rolls: z
    .array(
      z.strictObject({
        rollNo: int,
        commitmentHex: z.string().nullable(),
        bettingOpenedAtMs: int.nullable(),
        bellRungAtMs: int.nullable(),
        bellAutomatic: z.boolean().nullable(),
        voided: z
          .strictObject({
            reason: z.enum(['stacked', 'tilted']),
            atMs: int,
            croupierId: z.string().nullable(),
            openedSeal: sealedRoll.nullable(),
            sealVerified: z.boolean().nullable(),
          })
          .nullable(),
      }),
    )
    .readonly(),
  result: z
    .discriminatedUnion('method', [
      z.strictObject({
        method: z.literal('electronic'),
        rollNo: int,
        dice,
        nonceHex: z.string(),
        commitmentHex: z.string(),
        verified: z.boolean(),
        atMs: int,
      }),
      z.strictObject({
        method: z.literal('lever'),
        rollNo: int,
        dice,
        croupierId: z.string(),
        atMs: int,
      }),
    ])
    .nullable(),
  winningSpots: z.array(z.string()).readonly(),
  bets: z
    .array(
      z.strictObject({
        betId: z.string(),
        playerId: z.string(),
        spot: z.string(),
        stakeMinor: int,
        rollNo: int,
        placedAtMs: int,
        withdrawnAtMs: int.nullable(),
        winMinor: int.nullable(),
        returnedMinor: int.nullable(),
      }),
    )
    .readonly(),
  totalStakeMinor: int,
  totalReturnedMinor: int.nullable(),
  players: z
    .array(
      z.strictObject({
        playerId: z.string(),
        displayName: z.string().nullable(),
        balanceBeforeMinor: int.nullable(),
        balanceAfterMinor: int.nullable(),
        stakedMinor: int,
        returnedMinor: int.nullable(),
        forfeitedMinor: int,
      }),
    )
    .readonly(),
  authorization: optionsAuthorizationAnswer.nullable(),
});

const staffPerson = z.strictObject({
  id: z.string(),
  username: z.string().nullable(),
  displayName: z.string().nullable(),
});

export const staffActionAnswer = z.strictObject({
  seq: z.number().int(),
  atMs: z.number().int(),
  type: z.string(),
  tableId: z.string().nullable(),
  by: staffPerson.nullable(),
  user: staffPerson.nullable(),
  settings: storedTableSettingsSchema.nullable(),
});

// What the server sends on a table's socket (docs/api.md, "WebSocket"): each message is typed by
// these schemas where it is built, and the web app reads them as these types.

/** A refusal: its code, the server's English sentence (for logs) and the article it enforces. */
export const errorAnswer = z.strictObject({
  code: z.string(),
  message: z.string(),
  article: z.string().exactOptional(),
  issues: z.array(z.unknown()).readonly().exactOptional(),
});

const fairnessAlertPayload = z.union([
  payloadSchema('fairness-alert-raised'),
  payloadSchema('fairness-alert-cleared'),
]);

/** One bet of a `place-bets` or `withdraw-bets` message: taken, or refused on its own. */
export const batchResultAnswer = z.discriminatedUnion('ok', [
  z.strictObject({
    betId: z.string(),
    ok: z.literal(true),
    seq: int.nullable(),
    bet: publicBetSchema.nullable(),
  }),
  z.strictObject({ betId: z.string(), ok: z.literal(false), error: errorAnswer }),
]);

/** The summary feed's stakes by spot, as of at least `seq`. */
export const stakesMessage = z.strictObject({
  type: z.literal('stakes'),
  tableId: z.string(),
  seq: int,
  roundNo: int,
  rollNo: int,
  phase: z.enum(PHASES),
  stakesBySpotMinor: z.record(z.string(), minor),
  betCount: int,
  totalStakeMinor: minor,
});

/** Art. 1.1: a chi-square test of the table's dice fell under the alert level, or recovered (staff). */
export const fairnessAlertMessage = z.strictObject({
  type: z.literal('fairness-alert'),
  tableId: z.string(),
  seq: int,
  raised: z.boolean(),
  alert: fairnessAlertPayload,
});

/** Art. 1.1: a severe fairness alert held the table, or its hold was released (staff). */
export const tableHoldMessage = z.strictObject({
  type: z.literal('table-hold'),
  tableId: z.string(),
  seq: int,
  held: z.boolean(),
  detail: z.union([payloadSchema('table-held'), payloadSchema('table-hold-released')]),
});

export const serverMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('hello'),
    tableId: z.string(),
    view: tableViewAnswer,
    user: userAnswer.nullable(),
  }),
  z.strictObject({ type: z.literal('event'), seq: int, event: visibleRoundEventSchema }),
  z.strictObject({
    type: z.literal('ack'),
    requestId: z.string(),
    seq: int.nullable(),
    bet: publicBetSchema.nullable(),
    balanceMinor: minor,
  }),
  z.strictObject({
    type: z.literal('batch-ack'),
    requestId: z.string(),
    results: z.array(batchResultAnswer).readonly(),
    balanceMinor: minor,
  }),
  stakesMessage,
  fairnessAlertMessage,
  tableHoldMessage,
  /** Art. 2: a supervisor opened or closed the table for play (to every socket of the table). */
  z.strictObject({
    type: z.literal('table-open'),
    tableId: z.string(),
    seq: int,
    open: z.boolean(),
  }),
  /** To a player's sockets when the cage moves money in or out of the wallet. */
  z.strictObject({ type: z.literal('wallet'), balanceMinor: minor }),
  z.strictObject({
    type: z.literal('error'),
    requestId: z.string().nullable(),
    error: errorAnswer,
  }),
]);

export type ServerMessage = z.infer<typeof serverMessage>;
export type BatchResultAnswer = z.infer<typeof batchResultAnswer>;

// Who may play (Lei 10/2012; Instrução 1/2016; routes/people.ts). Lei 8/2005:
// identity answers go only to the roles that need them (docs/api.md).

export const userParams = z.object({ userId: id }).strict();
export const orderParams = z.object({ orderId: id }).strict();
export const flagParams = z.object({ flagId: z.string().min(1).max(200) }).strict();
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date, YYYY-MM-DD');

/** An identity as the cashier or supervisor enters it (checked by parseIdentity, field by field). */
export const identityBody = z.record(z.string(), z.unknown());

export const identityAnswer = z.strictObject({
  userId: z.string(),
  fullName: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  documentNumber: z.string(),
  issuingPlace: z.string(),
  dateOfBirth: z.string(),
  nationality: z.string(),
  kind: z.enum(IDENTITY_KINDS),
  version: z.number().int(),
  updatedAtMs: z.number().int(),
  updatedBy: z.string(),
});

export const identityOfAnswer = z.strictObject({ identity: identityAnswer.nullable() });

export const identityChangeAnswer = z.strictObject({
  userId: z.string(),
  version: z.number().int(),
  atMs: z.number().int(),
  by: z.string(),
  fields: z.array(z.string()),
  identity: z.record(z.string(), z.unknown()),
});

export const eligibilityAnswer = z.strictObject({
  userId: z.string(),
  identity: z.enum(['recorded', 'missing']),
  kind: z.enum(IDENTITY_KINDS).nullable(),
  macauDate: z.string(),
  eligible: z.boolean(),
  refusal: z
    .strictObject({
      code: z.enum(ELIGIBILITY_CODES),
      message: z.string(),
      law: z.string(),
      until: z.string().nullable(),
    })
    .nullable(),
  warnings: z.array(z.strictObject({ orderId: z.string(), message: z.string() })),
});

export const identityReadsQuery = z
  .object({
    subject: id.optional(),
    before: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(1_000).default(200),
  })
  .strict();

export const identityReadAnswer = z.strictObject({
  id: z.number().int(),
  atMs: z.number().int(),
  readerId: z.string(),
  subjectId: z.string(),
  purpose: z.string(),
});

export const exclusionOrderAnswer = z.strictObject({
  id: z.string(),
  kind: z.enum(EXCLUSION_KINDS),
  dicjReference: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  documentNumber: z.string(),
  fullName: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  revocationRequestedOn: z.string().nullable(),
});

export const exclusionsQuery = z
  .object({
    after: id.optional(),
    limit: z.coerce.number().int().min(1).max(1_000).default(200),
  })
  .strict();

/** An order as an inspector, or a supervisor quoting the DICJ reference, enters it. */
export const exclusionBody = z.record(z.string(), z.unknown());

export const exclusionFileBody = z
  .object({ format: z.enum(['json', 'csv']), text: z.string().min(1).max(20_000_000) })
  .strict();

export const exclusionFileAnswer = z.strictObject({
  recorded: z.number().int(),
  existing: z.array(z.string()),
  bad: z.array(
    z.strictObject({
      row: z.number().int(),
      issues: z.array(z.strictObject({ path: z.string(), code: z.string(), message: z.string() })),
    }),
  ),
});

export const revocationBody = z.object({ requestedOn: isoDay }).strict();

export const workerCauseBody = z
  .object({
    id,
    documentType: z.enum(DOCUMENT_TYPES),
    documentNumber: z.string().min(1).max(64),
    kind: z.enum(['training', 'exceptional-entry']),
    approvalReference: z.string().trim().min(1).max(100),
    from: isoDay,
    to: isoDay,
  })
  .strict();

export const workerCauseAnswer = z.strictObject({
  id: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  documentNumber: z.string(),
  kind: z.enum(['training', 'exceptional-entry']),
  approvalReference: z.string(),
  from: z.string(),
  to: z.string(),
});

export const largeTransactionsQuery = z
  .object({ from: isoDay, to: isoDay, format: z.enum(['json', 'csv']).default('json') })
  .strict();

export const largeTransactionAnswer = z.strictObject({
  id: z.string(),
  atMs: z.number().int(),
  playerId: z.string(),
  username: z.string().nullable(),
  fullName: z.string().nullable(),
  documentType: z.string(),
  documentNumber: z.string(),
  amountMinor: z.number().int(),
  kind: z.string(),
  reason: z.string(),
  by: z.string().nullable(),
  tableId: z.string().nullable(),
  sighted: z.boolean(),
  journalSeq: z.number().int().nullable(),
});

export const flagsQuery = z
  .object({
    status: z.enum(['open', 'closed', 'reported']).optional(),
    limit: z.coerce.number().int().min(1).max(1_000).default(200),
  })
  .strict();

export const flagAnswer = z.strictObject({
  id: z.string(),
  rule: z.string(),
  playerId: z.string(),
  username: z.string().nullable(),
  raisedAtMs: z.number().int(),
  message: z.string(),
  details: z.record(z.string(), z.number()),
  status: z.enum(['open', 'closed', 'reported']),
  decidedBy: z.string().nullable(),
  decidedAtMs: z.number().int().nullable(),
  reason: z.string().nullable(),
  journalSeqs: z.array(z.number().int()),
});

export const flagDecisionBody = z
  .object({ decision: z.enum(['closed', 'reported']), reason: z.string().trim().min(1).max(2_000) })
  .strict();

/** Instrução 1/2016: what a report to the GIF carries: who, what, when, the amounts, the journal's seqs. */
export const gifReportAnswer = z.strictObject({
  flag: flagAnswer,
  person: identityAnswer.nullable(),
  moves: z.array(
    z.strictObject({
      seq: z.number().int(),
      atMs: z.number().int(),
      type: z.string(),
      amountMinor: z.number().int(),
      transferId: z.string(),
    }),
  ),
  currency: z.string(),
  preparedAtMs: z.number().int(),
  preparedBy: z.string(),
});
