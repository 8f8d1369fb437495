/** Liveness, readiness, metrics and the OpenAPI document. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { openApiDocument } from '../openapi.js';

export function healthRoutes(app: FastifyInstance, ctx: AppContext, isReady: () => boolean): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (!isReady()) return reply.status(503).send({ status: 'shutting-down' });
    await ctx.store.journalHead();
    return { status: 'ready' };
  });
  app.get('/metrics', async (_request, reply) => {
    void reply.type('text/plain; version=0.0.4');
    return ctx.metrics.render();
  });
  app.get('/openapi.json', async () => openApiDocument(ctx.routes));
}
