/**
 * The one error type of the HTTP API and the one place it becomes a response:
 * `{"error": {"code", "message", "article"?}}` with a 4xx (or 503) status.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from '../ledger/index.js';
import type { ServiceRejection } from '../service/table-service.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly article?: string,
  ) {
    super(message);
  }
}

export interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly article?: string };
}

export function errorBody(code: string, message: string, article?: string): ErrorBody {
  return { error: article === undefined ? { code, message } : { code, message, article } };
}

/** The HTTP status of a refusal by the table service or the rules. */
export function statusOf(code: string): number {
  switch (code) {
    case 'unknown_table':
    case 'unknown_bet':
    case 'unknown_player':
      return 404;
    case 'malformed_command':
    case 'unknown_command':
    case 'invalid_request':
      return 400;
    case 'not_bet_owner':
      return 403;
    case 'table_busy':
    case 'rate_limited':
      return 429;
    case 'shutting_down':
    case 'database_unavailable':
      return 503;
    default:
      // The request was well formed but the rules or the state refuse it now.
      return 409;
  }
}

export function fromRejection(rejection: ServiceRejection): HttpError {
  return new HttpError(
    statusOf(rejection.code),
    rejection.code,
    rejection.message,
    rejection.article,
  );
}

/** Fastify's own errors (bad JSON, body too large, …) keep their status and get a stable code. */
export function errorHandler(
  error: FastifyError | HttpError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error instanceof HttpError) {
    void reply.status(error.statusCode).send(errorBody(error.code, error.message, error.article));
    return;
  }
  if (error instanceof StoreUnavailableError) {
    // Retryable: the same request with the same idempotency key answers as the first would have.
    request.log.warn({ err: error.cause }, 'database unavailable');
    void reply.status(503).header('retry-after', '1').send(errorBody(error.code, error.message));
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    void reply
      .status(500)
      .send(
        errorBody(
          'internal_error',
          'the server failed to answer; the request did not take effect unless its answer says so',
        ),
      );
    return;
  }
  const code = FASTIFY_CODES[error.code] ?? 'invalid_request';
  void reply.status(status).send(errorBody(code, error.message));
}

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
};
