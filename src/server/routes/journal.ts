/** The inspector's view of the journal and its verification. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { journalEntrySchema } from '../../journal/index.js';
import { AuditCheckpointError } from '../../service/audit.js';
import { AuditBusyError, audit, parseAuditFrom } from '../../service/audit-runner.js';
import { journalPage } from '../../service/reads.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { registerRoute } from '../route.js';
import { auditAnswer, pageQuery, staffActionAnswer } from '../schemas.js';
import { staffActions } from '../../service/staff-actions.js';
import { visibleEntries } from '../visibility.js';

/** `from`: SEQ:HASH of a verified checkpoint, latest, or genesis (the default: everything). */
/** Newest first: `before` a seq (default: the newest). */
const staffQuery = z
  .object({
    before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

const verifyQuery = z
  .object({
    from: z
      .string()
      .max(100)
      .refine((text) => parseAuditFrom(text) !== undefined, {
        message: 'must be SEQ:HASH (a seq and a 64-digit hex hash), latest or genesis',
      })
      .default('genesis'),
  })
  .strict();

export function journalRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/journal',
    summary: 'Journal entries after a seq',
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    query: pageQuery,
    response: z.array(journalEntrySchema),
    // Every read of the journal goes through the one filter by role (whole for these roles).
    handler: async ({ query, user }) =>
      visibleEntries(
        await journalPage(ctx.store, { afterSeq: query.after, limit: query.limit }),
        user,
      ),
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/staff-actions',
    summary: 'What the staff did to accounts and tables (who, to whom, when), newest first',
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    query: staffQuery,
    response: z.array(staffActionAnswer),
    handler: ({ query }) =>
      staffActions(ctx.store, {
        limit: query.limit,
        ...(query.before === undefined ? {} : { beforeSeq: query.before }),
      }),
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/journal/verify',
    summary: 'Recompute the hash chain, replay every round and match the ledger to the journal',
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    query: verifyQuery,
    response: auditAnswer,
    // On a worker thread of its own, over one snapshot: the node keeps serving while it runs.
    handler: async ({ query }) => {
      try {
        return await audit(ctx.store, { from: parseAuditFrom(query.from)! });
      } catch (error) {
        if (error instanceof AuditCheckpointError)
          throw new HttpError(404, error.code, error.message);
        if (error instanceof AuditBusyError) throw new HttpError(503, error.code, error.message);
        throw error;
      }
    },
  });
}
