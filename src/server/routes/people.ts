/**
 * Who may play: identities, eligibility, the exclusion register, workers'
 * causes, the large-transaction register and the suspicion flags (Lei
 * 10/2012, arts. 2, 6 and 11; Instrução 1/2016).
 *
 * Lei 8/2005, least privilege: an identity is read in full by the cashier at
 * the cage, the supervisor, the compliance officer and the inspector, and by
 * the person (GET /me/identity); never by a croupier or another player. Every
 * read by staff is recorded (who read whose, when and why), and the inspector
 * lists those reads. Eligibility answers say whether and why, not who.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { toCsv } from '../../compliance/index.js';
import type { FlagRow, LargeTransactionRow } from '../../ledger/index.js';
import { PeopleRefusal, type Reader } from '../../service/people.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { registerRoute, textBody } from '../route.js';
import {
  eligibilityAnswer,
  exclusionBody,
  exclusionFileAnswer,
  exclusionFileBody,
  exclusionOrderAnswer,
  exclusionsQuery,
  flagAnswer,
  flagDecisionBody,
  flagParams,
  flagsQuery,
  gifReportAnswer,
  identityAnswer,
  identityBody,
  identityChangeAnswer,
  identityOfAnswer,
  identityReadAnswer,
  identityReadsQuery,
  largeTransactionAnswer,
  largeTransactionsQuery,
  orderParams,
  playerParams,
  revocationBody,
  userParams,
  workerCauseAnswer,
  workerCauseBody,
} from '../schemas.js';

const MACAU_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The first instant of a Macau date. */
const macauDayStartMs = (date: string): number => Date.parse(`${date}T00:00:00Z`) - MACAU_OFFSET_MS;

export function peopleRoutes(app: FastifyInstance, ctx: AppContext): void {
  identityRoutes(app, ctx);
  exclusionRoutes(app, ctx);
  cashRegisterRoutes(app, ctx);
  flagRoutes(app, ctx);
}

function identityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { people } = ctx;
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/users/:userId/identity',
    summary: "A user's identity (recorded as a read: Lei 8/2005); null when none is on record",
    tag: 'people',
    roles: ['cashier', 'supervisor', 'compliance', 'inspector'],
    params: userParams,
    response: identityOfAnswer,
    handler: async ({ params, user }) => {
      await userOf(ctx, params.userId);
      const identity = await people.readIdentity(params.userId, user, purposeOf(user));
      return { identity: identity ?? null };
    },
  });

  registerRoute(app, ctx, {
    method: 'PUT',
    url: '/api/v1/users/:userId/identity',
    summary:
      "Records or corrects a user's identity (a cashier: players only; a supervisor: staff too); every version is kept",
    tag: 'people',
    roles: ['cashier', 'supervisor'],
    params: userParams,
    body: identityBody,
    response: identityAnswer,
    handler: async ({ params, body, user }) => {
      const subject = await userOf(ctx, params.userId);
      if (user.role === 'cashier' && subject.role !== 'player')
        throw new HttpError(403, 'forbidden', "a cashier records players' identities only");
      // A person at the cage is real: demonstration and simulated identities are the system's own.
      return people.recordIdentity(params.userId, { ...body, kind: 'real' }, user.id);
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/users/:userId/identity/history',
    summary: "Every version of a user's identity: who wrote which fields, and when",
    tag: 'people',
    roles: ['supervisor', 'compliance', 'inspector'],
    params: userParams,
    response: z.array(identityChangeAnswer),
    handler: async ({ params, user }) => {
      await userOf(ctx, params.userId);
      return people.identityHistory(params.userId, user);
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/me/identity',
    summary: 'Your own identity as the casino holds it',
    tag: 'people',
    roles: ['player'],
    response: identityOfAnswer,
    handler: async ({ user }) => ({
      identity: (await people.readIdentity(user.id, user, 'own')) ?? null,
    }),
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/players/:playerId/eligibility',
    summary:
      'Whether a player may play today (Lei 10/2012, arts. 2 and 6; Instrução 1/2016), and why not',
    tag: 'people',
    roles: ['cashier', 'supervisor', 'compliance', 'inspector'],
    params: playerParams,
    response: eligibilityAnswer,
    handler: async ({ params }) => {
      const player = await userOf(ctx, params.playerId);
      if (player.role !== 'player')
        throw new HttpError(404, 'unknown_player', `there is no player "${params.playerId}"`);
      return people.eligibility(params.playerId);
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/identity-reads',
    summary: 'Who read whose identity, and when (Lei 8/2005), newest first',
    tag: 'people',
    roles: ['inspector'],
    query: identityReadsQuery,
    response: z.array(identityReadAnswer),
    handler: ({ query }) =>
      ctx.store.registers.reads({
        limit: query.limit,
        ...(query.subject === undefined ? {} : { subjectId: query.subject }),
        ...(query.before === undefined ? {} : { beforeId: query.before }),
      }),
  });
}

function exclusionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { people } = ctx;
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/exclusions',
    summary: 'The exclusion register (Lei 10/2012, arts. 2 and 6), in id order',
    tag: 'people',
    roles: ['supervisor', 'compliance', 'inspector'],
    query: exclusionsQuery,
    response: z.array(exclusionOrderAnswer),
    handler: ({ query }) =>
      people.exclusions({ limit: query.limit, ...(query.after ? { afterId: query.after } : {}) }),
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/exclusions',
    summary: "Enters an exclusion order, with the DICJ's reference (Lei 10/2012, arts. 2 and 6)",
    tag: 'people',
    roles: ['inspector', 'supervisor'],
    body: exclusionBody,
    successStatus: 201,
    response: exclusionOrderAnswer,
    handler: async ({ body, user }) => {
      const order = await people.recordExclusion(body, user.id);
      ctx.floor.journaled();
      return order;
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/exclusions/bulk',
    summary:
      'Loads a file of exclusion orders as the DICJ sends them (JSON or CSV, docs/compliance.md): good rows kept, bad rows named',
    tag: 'people',
    roles: ['inspector', 'supervisor'],
    body: exclusionFileBody,
    response: exclusionFileAnswer,
    handler: async ({ body, user }) => {
      const loaded = await people.loadExclusions(body.text, body.format, user.id);
      ctx.floor.journaled();
      return loaded;
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/exclusions/:orderId/revocation',
    summary:
      'Records a request to revoke an order; it takes effect 30 days later (Lei 10/2012, art. 6)',
    tag: 'people',
    roles: ['inspector', 'supervisor'],
    params: orderParams,
    body: revocationBody,
    response: exclusionOrderAnswer,
    handler: async ({ params, body, user }) => {
      const order = await people.requestRevocation(params.orderId, body.requestedOn, user.id);
      ctx.floor.journaled();
      return order;
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/worker-causes',
    summary:
      "Records a casino worker's legitimate cause to play: training or an exceptional entry, with its approval and period (Lei 10/2012, art. 2)",
    tag: 'people',
    roles: ['supervisor'],
    body: workerCauseBody,
    successStatus: 201,
    response: workerCauseAnswer,
    handler: async ({ body, user }) => {
      if (body.to < body.from)
        throw new PeopleRefusal(
          'worker_cause_invalid',
          `the cause ends (${body.to}) before it begins (${body.from})`,
        );
      const cause = await people.recordWorkerCause(body, user.id);
      ctx.floor.journaled();
      return { ...cause, documentType: body.documentType, documentNumber: body.documentNumber };
    },
  });
}

const LARGE_CSV_HEADER = [
  'time_macau',
  'player_id',
  'username',
  'full_name',
  'document_type',
  'document_number',
  'amount_major',
  'currency',
  'kind',
  'reason',
  'cashier_or_table',
  'document_sighted',
  'journal_seq',
];

function cashRegisterRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/large-transactions',
    summary:
      'The large-transaction register (Instrução 1/2016) from one Macau date to another, inclusive: json, or csv',
    tag: 'people',
    roles: ['compliance', 'supervisor', 'inspector'],
    query: largeTransactionsQuery,
    response: z.array(largeTransactionAnswer),
    textAnswers: ['text/csv'],
    handler: async ({ query, reply, user }) => {
      if (query.to < query.from)
        throw new HttpError(
          400,
          'invalid_request',
          `"to" (${query.to}) is before "from" (${query.from})`,
        );
      const rows = await ctx.store.registers.largeTransactions({
        fromMs: macauDayStartMs(query.from),
        toMs: macauDayStartMs(query.to) + DAY_MS,
      });
      const named = await withNames(ctx, rows, user);
      if (query.format === 'json') return named;
      void reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="large-transactions-${query.from}-${query.to}.csv"`,
        );
      return textBody(
        toCsv(
          LARGE_CSV_HEADER,
          named.map((r) => csvRow(r, ctx.store.currency)),
        ),
      );
    },
  });
}

/** Amounts in major units with the currency (MOP and HKD have 100 minor units). */
const major = (minor: number): string =>
  `${Math.trunc(minor / 100)}.${String(Math.abs(minor % 100)).padStart(2, '0')}`;

const macauTime = (atMs: number): string =>
  `${new Date(atMs + MACAU_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')}+08:00`;

function csvRow(r: z.infer<typeof largeTransactionAnswer>, currency: string) {
  return [
    macauTime(r.atMs),
    r.playerId,
    r.username,
    r.fullName,
    r.documentType,
    r.documentNumber,
    major(r.amountMinor),
    currency,
    r.kind,
    r.reason,
    r.by ?? r.tableId,
    r.sighted ? 'yes' : 'no',
    r.journalSeq,
  ];
}

/** The register's rows with each player's username and name (a read of their identity, recorded). */
async function withNames(ctx: AppContext, rows: readonly LargeTransactionRow[], reader: Reader) {
  const ids = [...new Set(rows.map((r) => r.playerId))];
  const identities = new Map(
    (await ctx.store.registers.identitiesOf(ids)).map((i) => [i.userId, i]),
  );
  const users = new Map(
    await Promise.all(ids.map(async (id) => [id, await ctx.store.getUser(id)] as const)),
  );
  for (const id of identities.keys())
    await ctx.store.transaction((tx) =>
      tx.registers.recordRead({
        atMs: ctx.clock(),
        readerId: reader.id,
        subjectId: id,
        purpose: 'register',
      }),
    );
  return rows.map((r) => ({
    ...r,
    username: users.get(r.playerId)?.username ?? null,
    fullName: identities.get(r.playerId)?.fullName ?? null,
  }));
}

async function flagView(ctx: AppContext, flag: FlagRow) {
  const user = await ctx.store.getUser(flag.playerId);
  return { ...flag, journalSeqs: [...flag.journalSeqs], username: user?.username ?? null };
}

function flagRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/suspicion-flags',
    summary: "The compliance officer's queue of suspicions (Instrução 1/2016), newest first",
    tag: 'people',
    roles: ['compliance', 'inspector'],
    query: flagsQuery,
    response: z.array(flagAnswer),
    handler: async ({ query }) => {
      const flags = await ctx.store.registers.flags({
        limit: query.limit,
        ...(query.status === undefined ? {} : { status: query.status }),
      });
      return Promise.all(flags.map((f) => flagView(ctx, f)));
    },
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/suspicion-flags/:flagId/decision',
    summary: 'Closes a flag with a reason, or marks it reported to the GIF (journaled)',
    tag: 'people',
    roles: ['compliance'],
    params: flagParams,
    body: flagDecisionBody,
    response: flagAnswer,
    handler: async ({ params, body, user }) => {
      const decided = await ctx.store.transaction(async (tx) => {
        const flag = await tx.registers.flag(params.flagId);
        if (flag === undefined)
          throw new PeopleRefusal('flag_unknown', `there is no flag "${params.flagId}"`);
        const done = await tx.registers.decideFlag({
          id: params.flagId,
          status: body.decision,
          by: user.id,
          atMs: tx.nowMs,
          reason: body.reason,
        });
        if (!done)
          throw new PeopleRefusal(
            'flag_decided',
            `flag "${params.flagId}" was ${flag.status} already`,
          );
        await tx.appendJournal([
          {
            tableId: null,
            type: 'suspicion-reviewed',
            payload: {
              flagId: params.flagId,
              decision: body.decision,
              reason: body.reason,
              by: user.id,
            },
          },
        ]);
        return (await tx.registers.flag(params.flagId))!;
      });
      ctx.floor.journaled();
      return flagView(ctx, decided);
    },
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/suspicion-flags/:flagId/gif-report',
    summary:
      'A report to the GIF of one flag (Instrução 1/2016): who, what, when, the amounts and the journal seqs',
    tag: 'people',
    roles: ['compliance', 'inspector'],
    params: flagParams,
    response: gifReportAnswer,
    handler: async ({ params, user, reply }) => {
      const flag = await ctx.store.registers.flag(params.flagId);
      if (flag === undefined)
        throw new PeopleRefusal('flag_unknown', `there is no flag "${params.flagId}"`);
      const person = await ctx.people.readIdentity(flag.playerId, user, 'gif-report');
      const moves = [];
      for (const seq of flag.journalSeqs) {
        const [entry] = await ctx.store.readJournal({ fromSeq: seq, limit: 1 });
        if (entry?.seq === seq && (entry.type === 'deposit' || entry.type === 'withdrawal'))
          moves.push({
            seq,
            atMs: entry.atMs,
            type: entry.type,
            amountMinor: entry.payload.amountMinor,
            transferId: entry.payload.transferId,
          });
      }
      void reply.header(
        'content-disposition',
        `attachment; filename="gif-report-${flag.id.replace(/[^A-Za-z0-9_.-]/g, '_')}.json"`,
      );
      return {
        flag: await flagView(ctx, flag),
        person: person ?? null,
        moves,
        currency: ctx.store.currency,
        preparedAtMs: ctx.clock(),
        preparedBy: user.id,
      };
    },
  });
}

/** The user, or 404 unknown_user. */
async function userOf(ctx: AppContext, userId: string) {
  const user = await ctx.store.getUser(userId);
  if (user === undefined) throw new HttpError(404, 'unknown_user', `there is no user "${userId}"`);
  return user;
}

const purposeOf = (reader: Reader): string =>
  reader.role === 'cashier' ? 'cage' : reader.role === 'inspector' ? 'inspection' : 'review';
