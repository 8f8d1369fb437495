/**
 * What the server's real-socket suites share: a JSON HTTP client and a
 * WebSocket client that keeps every message it receives, so a test can wait
 * for the next one that matches.
 */
import { WebSocket } from 'ws';

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  readonly headers: Headers;
}

export interface ErrorAnswer {
  readonly error: { readonly code: string; readonly message: string; readonly article?: string };
}

export async function http(
  base: string,
  method: string,
  path: string,
  options: {
    token?: string | undefined;
    body?: unknown;
    /** Sent as is, instead of JSON.stringify(body). */
    raw?: string | Buffer;
    headers?: Record<string, string>;
  } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(base + path, { method, headers, ...(body ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

/** The error code of a 4xx answer, after checking it has the API's one error shape. */
export function errorCode(answer: HttpAnswer): string {
  const body = answer.body as ErrorAnswer | undefined;
  if (
    answer.status < 400 ||
    answer.status >= 500 ||
    typeof body?.error?.code !== 'string' ||
    typeof body.error.message !== 'string'
  ) {
    throw new Error(`not a 4xx with {error:{code,message}}: ${answer.status} ${answer.text}`);
  }
  return body.error.code;
}

export type Message = Record<string, unknown> & { type: string };

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

/** A WebSocket client that records every message and how the socket closed. */
export class SocketClient {
  readonly messages: Message[] = [];
  readonly closed: Promise<Closed>;
  private cursor = 0;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as Message);
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code: number, reason: Buffer) =>
        resolve({ code, reason: reason.toString('utf8') }),
      );
    });
  }

  /**
   * Opens a socket with a bearer token or a cookie header (as a browser does);
   * rejects with `HTTP <status>` when the upgrade is refused.
   */
  static connect(url: string, auth?: string | { cookie: string }): Promise<SocketClient> {
    const headers =
      auth === undefined
        ? undefined
        : typeof auth === 'string'
          ? { authorization: `Bearer ${auth}` }
          : { cookie: auth.cookie };
    const socket = new WebSocket(url, headers === undefined ? {} : { headers });
    const client = new SocketClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request, response) => {
        reject(new Error(`HTTP ${response.statusCode}`));
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The next message after the previous `next` that matches, waiting for it if need be. */
  async next(match: (m: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    const start = Date.now();
    for (;;) {
      for (let i = this.cursor; i < this.messages.length; i++) {
        if (match(this.messages[i]!)) {
          this.cursor = i + 1;
          return this.messages[i]!;
        }
      }
      if (Date.now() - start > timeoutMs) {
        const seen = this.messages.slice(-5).map((m) => JSON.stringify(m).slice(0, 200));
        throw new Error(`no matching message within ${timeoutMs} ms; last: ${seen.join('\n')}`);
      }
      await sleep(5);
    }
  }

  /** The answer to a request: its ack, batch-ack or error. */
  answer(requestId: string, timeoutMs?: number): Promise<Message> {
    return this.next((m) => m['requestId'] === requestId, timeoutMs);
  }

  /** The next event of this type. */
  async event(type: string, timeoutMs?: number): Promise<{ seq: number; event: Message }> {
    const m = await this.next(
      (m) => m.type === 'event' && (m['event'] as Message).type === type,
      timeoutMs,
    );
    return { seq: m['seq'] as number, event: m['event'] as Message };
  }

  /** Every round event received so far, in order, with its seq. */
  events(): { seq: number; event: Message }[] {
    return this.messages
      .filter((m) => m.type === 'event')
      .map((m) => ({ seq: m['seq'] as number, event: m['event'] as Message }));
  }

  close(): void {
    this.socket.close();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
