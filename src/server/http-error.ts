/**
 * The one error type of the HTTP API and the one place it becomes a response:
 * `{"error": {"code", "message", "article"?}}` with a 4xx (or 503) status.
 * Fastify's own refusals (a bad URL, a request the HTTP parser could not read)
 * are answered in the same shape (frameworkErrors, clientErrorHandler).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from '../ledger/index.js';
import { PeopleRefusal } from '../service/people.js';
import { ServiceRefusal, type ServiceErrorCode } from '../service/refusal.js';
import type { ServiceRejection } from '../service/table-service.js';

/** The HTTP layer's own codes: a request it cannot read, or one it will not let through. */
export const HTTP_ERROR_CODES = [
  'invalid_request',
  'invalid_json',
  'unsupported_media_type',
  'body_too_large',
  'headers_too_large',
  'request_timeout',
  'not_found',
  'upgrade_required',
  'unauthenticated',
  'invalid_credentials',
  'too_many_attempts',
  'forbidden',
  'password_change_required',
  'current_session',
  'cross_origin',
  'disk_full',
  'internal_error',
] as const;

/**
 * Every code an answer of the API can carry, one union: the services' (and
 * through them the rules', the round machine's, Art. 8's and the ledger's) and
 * the HTTP layer's. An error is made with one of them or does not compile.
 */
export type ApiErrorCode = ServiceErrorCode | (typeof HTTP_ERROR_CODES)[number];

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly article?: string,
    /** Every problem found, where the client can fix them all at once (a holiday list). */
    readonly issues?: readonly unknown[],
  ) {
    super(message);
  }
}

export interface ErrorBody {
  readonly error: {
    readonly code: ApiErrorCode;
    readonly message: string;
    readonly article?: string;
    readonly issues?: readonly unknown[];
  };
}

export function errorBody(
  code: ApiErrorCode,
  message: string,
  article?: string,
  issues?: readonly unknown[],
): ErrorBody {
  return {
    error: {
      code,
      message,
      ...(article === undefined ? {} : { article }),
      ...(issues === undefined ? {} : { issues }),
    },
  };
}

/** The HTTP status of a refusal by the table service or the rules. */
export function statusOf(code: ApiErrorCode): number {
  switch (code) {
    case 'unknown_table':
    case 'unknown_bet':
    case 'unknown_player':
    case 'unknown_user':
    case 'unknown_session':
    case 'exclusion_unknown':
    case 'flag_unknown':
      return 404;
    case 'malformed_command':
    case 'unknown_command':
    case 'invalid_request':
    case 'invalid_table_settings':
    case 'weak_password':
    case 'export_range_invalid':
    case 'identity_invalid':
    case 'exclusion_order_invalid':
    case 'worker_cause_invalid':
    case 'threshold_above_law':
      // Settings that do not fit together can never be taken, whatever the table's state.
      return 400;
    case 'not_bet_owner':
    case 'wrong_password':
      return 403;
    // Lei 10/2012 and Instrução 1/2016: this person may not play, whatever the request.
    case 'identity_missing':
    case 'under_age':
    case 'excluded':
    case 'casino_worker':
    case 'staff_cannot_bet':
      return 403;
    case 'table_busy':
      return 429;
    case 'shutting_down':
    case 'database_unavailable':
    case 'table_moving':
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
    void reply
      .status(error.statusCode)
      .send(errorBody(error.code, error.message, error.article, error.issues));
    return;
  }
  if (error instanceof PeopleRefusal) {
    void reply
      .status(statusOf(error.code))
      .send(errorBody(error.code, error.message, error.article, error.issues));
    return;
  }
  if (error instanceof ServiceRefusal) {
    void reply.status(statusOf(error.code)).send(errorBody(error.code, error.message));
    return;
  }
  if (error instanceof StoreUnavailableError) {
    // Retryable: the same request with the same idempotency key answers as the first would have.
    request.log.warn({ err: error.cause, code: error.code }, 'retryable failure');
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

/**
 * Fastify's refusals before any route runs (a path that is not valid
 * percent-encoding, a path parameter too long): the API's shape, code invalid_request.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  request.log.info({ code: error.code }, 'request refused before routing');
  void reply.status(400).send(errorBody('invalid_request', error.message));
}

/**
 * A request the HTTP parser refused (headers or URL over the size it reads, a
 * malformed request line, a timeout): the API's shape, on the raw socket.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ApiErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'the URL and headers are over the size the server reads']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request did not arrive in time']
        : [400, 'invalid_request', 'the request could not be read as HTTP'];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

const FASTIFY_CODES: Readonly<Record<string, ApiErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
};
