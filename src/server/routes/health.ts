/** Liveness, readiness, metrics and the OpenAPI document. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { openApiDocument } from '../openapi.js';

export function healthRoutes(app: FastifyInstance, ctx: AppContext, isReady: () => boolean): void {
  app.get('/healthz', (_request, reply) => reply.send({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (!isReady()) return reply.status(503).send({ status: 'shutting-down' });
    await ctx.store.journalHead();
    return { status: 'ready' };
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(ctx.metrics.contentType).send(await ctx.metrics.render()),
  );
  app.get('/openapi.json', (_request, reply) => reply.send(openApiDocument(ctx.routes)));
}
