/** The inspector's view of the journal and its verification. */
import type { FastifyInstance } from 'fastify';
import { audit } from '../../service/audit.js';
import type { AppContext } from '../context.js';
import { registerRoute } from '../route.js';
import { pageQuery } from '../schemas.js';
import { visibleEntries } from '../visibility.js';

export function journalRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/journal',
    summary: 'Journal entries after a seq',
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    query: pageQuery,
    // Every read of the journal goes through the one filter by role (whole for these roles).
    handler: async ({ query, user }) =>
      visibleEntries(
        await ctx.store.readJournal({ fromSeq: query.after + 1, limit: query.limit }),
        user,
      ),
  });

  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/journal/verify',
    summary: 'Recompute the hash chain, replay every round and match the ledger to the journal',
    tag: 'inspector',
    roles: ['inspector', 'supervisor'],
    handler: async () => {
      const result = await audit(ctx.store);
      return result.ok ? result : { ok: false, failure: result.failure };
    },
  });
}
