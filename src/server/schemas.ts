/** The request schemas shared by routes and sockets (and the OpenAPI document). */
import { z } from 'zod';
import { publicBetSchema, visibleRoundEventSchema } from '../journal/index.js';
import { ROLES } from '../ledger/index.js';
import { AUDIT_CHECKS } from '../service/audit.js';
import { PHASES } from '../table/index.js';
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

export const cageBody = z.object({ amountMinor }).strict();

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

const minor = z.number().int();

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

const dice = z.tuple([z.number().int(), z.number().int(), z.number().int()]).readonly();

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
