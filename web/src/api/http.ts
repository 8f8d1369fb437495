/**
 * JSON over HTTP to /api/v1, same origin, with the session cookie. Every error
 * becomes an {@link ApiError} carrying the server's code, message and article
 * (docs/api.md: `{error: {code, message, article?}}`), so pages can show it.
 */
import type { ApiErrorBody } from './types.js';

export const API_BASE = '/api/v1';

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly article: string | undefined;
  /** Every problem found, where the server lists them (a holiday list's). */
  readonly issues: readonly unknown[];

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.article = body.article;
    this.issues = body.issues ?? [];
  }
}

function errorBody(status: number, parsed: unknown): ApiErrorBody {
  if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) {
    const e = (parsed as { error: Partial<ApiErrorBody> }).error;
    if (typeof e.code === 'string' && typeof e.message === 'string') {
      return {
        code: e.code,
        message: e.message,
        ...(e.article === undefined ? {} : { article: String(e.article) }),
        ...(Array.isArray(e.issues) ? { issues: e.issues } : {}),
      };
    }
  }
  return { code: `http_${status}`, message: `HTTP ${status}` };
}

/** A fresh key per user action, so a network retry cannot place a bet twice. */
export function newKey(prefix = 'k'): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return prefix + '-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Sends `Idempotency-Key` (commands that move money or change a table). */
  readonly idempotent?: boolean;
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotent === true) headers['Idempotency-Key'] = newKey();
  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new ApiError(0, { code: 'network', message: 'The server cannot be reached.' });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined; // Not JSON (a proxy's error page): the status alone describes it.
  }
  if (response.status === 401 && path !== '/session' && path !== '/me') {
    // The session ended (expired, or signed out elsewhere): back to the sign-in page.
    location.hash = '#/';
  }
  if (!response.ok) throw new ApiError(response.status, errorBody(response.status, parsed));
  return parsed as T;
}

export const get = <T>(path: string): Promise<T> => api<T>('GET', path);

/** A file the API sends as a download: its bytes and the name its Content-Disposition gives. */
export async function getFile(path: string): Promise<{ blob: Blob; fileName: string | null }> {
  let response: Response;
  try {
    response = await fetch(API_BASE + path, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, { code: 'network', message: 'The server cannot be reached.' });
  }
  if (!response.ok) {
    const parsed: unknown = await response.json().catch(() => undefined);
    throw new ApiError(response.status, errorBody(response.status, parsed));
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), fileName };
}
