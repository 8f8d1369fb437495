/**
 * One log line per request, when it is answered, instead of fastify's two:
 * the user it came from, the route, the status and the time taken. The route
 * is its pattern (`/api/v1/tables/:tableId`), or for an unknown one the path
 * without its query, which may hold a token and is never logged.
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { requestUserId } from './auth.js';

export class RequestLog extends LogController {
  override incomingRequest(): void {
    // Said once, at the end (requestCompleted).
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      userId: requestUserId(request),
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request');
    else reply.log.info(line, 'request');
  }
}
