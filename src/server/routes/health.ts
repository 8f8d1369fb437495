/** Liveness, readiness, metrics and the OpenAPI document. */
import { statfs } from 'node:fs/promises';
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { asStoreUnavailable } from '../../ledger/index.js';
import { journalHeadSeq } from '../../service/reads.js';
import type { AppContext } from '../context.js';
import { errorBody } from '../http-error.js';
import { openApiDocument } from '../openapi.js';
import { NO_QUERY, parse } from '../route.js';

/** They take no query: an unknown parameter is refused, as on every route of the API. */
const noQuery: { preValidation: preValidationHookHandler } = {
  preValidation: (request, _reply, done) => {
    try {
      parse(NO_QUERY, request.query, 'query');
      done();
    } catch (error) {
      done(error as Error);
    }
  },
};

export function healthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  isReady: () => boolean,
  sqliteDir: string | undefined,
): void {
  app.get('/healthz', noQuery, (_request, reply) => reply.send({ status: 'ok' }));
  // Ready means able to commit: a database that is away or slower than its timeouts, or an
  // SQLite disk without room, makes a 503.
  app.get('/readyz', noQuery, async (_request, reply) => {
    if (!isReady()) return reply.status(503).send({ status: 'shutting-down' });
    if (sqliteDir !== undefined) {
      const disk = await statfs(sqliteDir);
      const freeBytes = disk.bavail * disk.bsize;
      if (freeBytes < ctx.limits.diskFreeBytesMin)
        return reply.status(503).send({
          status: 'disk-full',
          ...errorBody(
            'disk_full',
            `the database's disk has ${freeBytes} bytes free, below ${ctx.limits.diskFreeBytesMin}`,
          ),
        });
    }
    try {
      await journalHeadSeq(ctx.store);
    } catch (error) {
      const unavailable = asStoreUnavailable(error);
      if (unavailable === undefined) throw error;
      return reply.status(503).send({
        status: 'database-unavailable',
        ...errorBody(unavailable.code, unavailable.message),
      });
    }
    return { status: 'ready' };
  });
  app.get('/metrics', noQuery, async (_request, reply) =>
    reply.type(ctx.metrics.contentType).send(await ctx.metrics.render()),
  );
  app.get('/openapi.json', noQuery, (_request, reply) => reply.send(openApiDocument(ctx.routes)));
}
