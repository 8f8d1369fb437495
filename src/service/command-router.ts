/**
 * Where a table's commands run on a floor of several nodes: on the node that
 * holds the table's lease (docs/deployment.md, "Forwarding and fencing").
 *
 * - The holder runs them through its TableService lane, which batches and
 *   group-commits them; the table's row lock is never handed from node to node.
 * - Another node passes its clients' commands to the holder over HTTP (the
 *   internal route of src/server/forward.ts, authenticated by the floor's node
 *   secret) and relays the answers. Commands waiting for one holder go in one
 *   request, so a burst of bets costs a request, not a request a bet.
 * - Taking a lease raises the table's lease epoch and records where its holder
 *   listens; a batch commits only when the table row's epoch is the one its node
 *   took (the fence in TableService.batchInTx), so a node that lost its lease
 *   and does not know it yet writes nothing.
 * - Nobody holds the lease (its holder died): the node that has the command
 *   takes the lease and runs it. The holder cannot be reached once the command
 *   may have left: the client gets 503 `table_moving` and retries with its
 *   idempotency key, which lands once whichever node runs the retry.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { rethrowUnavailable, type Store, StoreUnavailableError } from '../ledger/index.js';
import type { CommandOutcome, CommandPlacement, CommandRequest } from './table-service.js';

/** The internal route a holder takes other nodes' commands on; never for clients. */
export const FORWARD_PATH = '/internal/v1/commands';
/** The header that carries the floor's node secret. */
export const NODE_SECRET_HEADER = 'x-cussec-node-secret';

/** What a holder answers for each command it was passed, in order. */
export type ForwardAnswer =
  | { readonly outcome: CommandOutcome }
  | { readonly error: { readonly code: string; readonly message: string } };

export interface ForwardBody {
  readonly commands: readonly CommandRequest[];
}

export interface CommandRouterOptions {
  readonly store: Store;
  /** Where the other nodes reach this one (http://10.0.1.11:8080); undefined until it listens. */
  readonly nodeUrl: () => string | undefined;
  /** Shared by every node of the floor. */
  readonly nodeSecret: string;
  /** How long a holder may take to answer passed commands. */
  readonly forwardTimeoutMs?: number;
  /** Commands in one request to a holder at most. */
  readonly forwardBatchMax?: number;
}

interface Waiting {
  readonly request: CommandRequest;
  readonly resolve: (answer: ForwardAnswer) => void;
  readonly reject: (error: unknown) => void;
}

interface Outbox {
  /** Where requests to the holder go, taken apart once (not a URL parsed a request). */
  readonly target: { readonly https: boolean; readonly options: RequestOptions };
  queue: Waiting[];
  inFlight: number;
  /** Whether a flush is due at the end of this turn of the event loop. */
  scheduled: boolean;
}

/** Requests in flight to one holder at most: one fills while the other is answered. */
const IN_FLIGHT_MAX = 2;
/** Placement attempts for one command (a holder that moved, a lease being taken). */
const ATTEMPTS = 4;
const RETRY_PAUSE_MS = 50;
const IDLE_CONNECTION_MS = 30_000;

export function leaseKey(tableId: string): string {
  return `table:${tableId}`;
}

/**
 * The table leases one process holds, each with the epoch it took: the fence
 * its batches commit under (run-batch.ts). `holder` is what takeTableLease
 * records (where this node takes other nodes' commands), undefined while it
 * cannot take any lease yet (a node that is not listening).
 */
export class TableLeases {
  private readonly epochs = new Map<string, number>();
  private readonly taking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: Store,
    private readonly holder: () => string | null | undefined,
  ) {}

  /** The epoch of this process's lease on the table, while it holds it. */
  epoch(tableId: string): number | undefined {
    return this.store.cluster.holds(leaseKey(tableId)) ? this.epochs.get(tableId) : undefined;
  }

  /**
   * Takes the table's lease when nobody holds it, with the next epoch and this
   * process's holder; true while this process holds it. One taking at a time a table.
   */
  take(tableId: string): Promise<boolean> {
    let taking = this.taking.get(tableId);
    if (taking === undefined) {
      taking = this.takeOnce(tableId).finally(() => this.taking.delete(tableId));
      this.taking.set(tableId, taking);
    }
    return taking;
  }

  private async takeOnce(tableId: string): Promise<boolean> {
    const key = leaseKey(tableId);
    const cluster = this.store.cluster;
    const had = cluster.holds(key);
    const holder = this.holder();
    if (holder === undefined || !(await cluster.tryLease(key).catch(rethrowUnavailable))) {
      this.epochs.delete(tableId);
      return false;
    }
    if (had && this.epochs.has(tableId)) return true;
    const epoch = await this.store.transaction((tx) => tx.takeTableLease(tableId, holder));
    // No such table: the command runs here and is refused unknown_table.
    if (epoch !== undefined) this.epochs.set(tableId, epoch);
    return true;
  }
}

/**
 * A process that runs its tables alone, passing no command on and taking none
 * (`cussec play`): it takes each table's lease as a node of the floor does, so
 * that it commits only under it, and records no holder. A table another node
 * holds is refused, never run unfenced.
 */
export class LonePlacement implements CommandPlacement {
  private readonly leases: TableLeases;

  constructor(store: Store) {
    this.leases = new TableLeases(store, () => null);
  }

  epoch(tableId: string): number | undefined {
    return this.leases.epoch(tableId);
  }

  take(tableId: string): Promise<boolean> {
    return this.leases.take(tableId);
  }

  async place(request: CommandRequest): Promise<'here'> {
    if (await this.leases.take(request.tableId)) return 'here';
    throw new StoreUnavailableError(
      `table ${request.tableId}: another node runs it`,
      undefined,
      'table_moving',
    );
  }
}

export class CommandRouter implements CommandPlacement {
  private readonly leases: TableLeases;
  private readonly holders = new Map<string, string>();
  private readonly outboxes = new Map<string, Outbox>();
  private readonly secretDigest: Buffer;
  /**
   * Connections to the holders are kept and reused; an idle one is closed
   * before the holder's own keep-alive timeout (72 s) would close it under a request.
   */
  private readonly httpAgent = new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });

  constructor(private readonly options: CommandRouterOptions) {
    this.secretDigest = digest(options.nodeSecret);
    this.leases = new TableLeases(options.store, options.nodeUrl);
  }

  epoch(tableId: string): number | undefined {
    return this.leases.epoch(tableId);
  }

  /** Takes the table's lease when nobody holds it, recording this node's address (TableLeases.take). */
  async take(tableId: string): Promise<boolean> {
    const taken = await this.leases.take(tableId);
    if (taken) this.holders.delete(tableId);
    return taken;
  }

  /** Whether a request carries the floor's node secret. */
  authentic(secret: string | undefined): boolean {
    return secret !== undefined && timingSafeEqual(digest(secret), this.secretDigest);
  }

  async place(request: CommandRequest): Promise<CommandOutcome | 'here'> {
    const { tableId } = request;
    for (let attempt = 1; ; attempt++) {
      // The holder this node knows of gets the command at once: no lease query a command.
      let holder = attempt === 1 ? this.holders.get(tableId) : undefined;
      if (holder === undefined || holder === this.options.nodeUrl()) {
        if (await this.take(tableId)) return 'here';
        holder = await this.holderOf(tableId);
      }
      const answer =
        holder === undefined || holder === this.options.nodeUrl()
          ? undefined // the lease is being taken: its holder has not recorded itself yet
          : await this.send(holder, request);
      if (answer !== undefined && 'outcome' in answer) return answer.outcome;
      if (answer !== undefined && answer.error.code !== 'table_moving')
        throw new StoreUnavailableError(answer.error.message, undefined, 'database_unavailable');
      // The holder is gone, moved or refusing: ask the database again, or take the lease.
      this.holders.delete(tableId);
      if (attempt >= ATTEMPTS)
        throw new StoreUnavailableError(
          `table ${tableId}: the node running it is changing; retry`,
          undefined,
          'table_moving',
        );
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * attempt));
    }
  }

  /** The holder the table row names now (it is remembered until a command sent there fails). */
  private async holderOf(tableId: string): Promise<string | undefined> {
    const holder = (await this.options.store.getTable(tableId))?.leaseHolder ?? undefined;
    if (holder !== undefined) this.holders.set(tableId, holder);
    return holder;
  }

  /**
   * Queues the command for the holder; undefined when it surely never ran there
   * (the holder refused the connection), so that it may be placed again.
   */
  private send(holder: string, request: CommandRequest): Promise<ForwardAnswer | undefined> {
    let outbox = this.outboxes.get(holder);
    if (outbox === undefined) {
      const url = new URL(FORWARD_PATH, holder);
      const target = { https: url.protocol === 'https:', options: urlToHttpOptions(url) };
      outbox = { target, queue: [], inFlight: 0, scheduled: false };
      this.outboxes.set(holder, outbox);
    }
    const box = outbox;
    return new Promise<ForwardAnswer>((resolve, reject) => {
      box.queue.push({ request, resolve, reject });
      // One flush at the end of the turn: the commands of the same turn join its request.
      if (!box.scheduled && box.inFlight < IN_FLIGHT_MAX) {
        box.scheduled = true;
        setImmediate(() => {
          box.scheduled = false;
          this.flush(holder, box);
        });
      }
    }).catch((error: unknown) => {
      if (error === NEVER_SENT) return undefined;
      throw error;
    });
  }

  private flush(holder: string, box: Outbox): void {
    if (box.queue.length === 0 || box.inFlight >= IN_FLIGHT_MAX) return;
    const batch = box.queue.splice(0, this.options.forwardBatchMax ?? 2_000);
    box.inFlight++;
    this.post(
      holder,
      box.target,
      batch.map((w) => w.request),
    )
      .then(
        (answers) => batch.forEach((w, i) => w.resolve(answers[i]!)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        box.inFlight--;
        this.flush(holder, box);
      });
  }

  private post(
    holder: string,
    target: Outbox['target'],
    commands: readonly CommandRequest[],
  ): Promise<ForwardAnswer[]> {
    const body = JSON.stringify({ commands } satisfies ForwardBody);
    const timeoutMs = this.options.forwardTimeoutMs ?? 10_000;
    return new Promise<ForwardAnswer[]>((resolve, reject) => {
      const request = (target.https ? httpsRequest : httpRequest)(
        {
          ...target.options,
          method: 'POST',
          agent: target.https ? this.httpsAgent : this.httpAgent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            [NODE_SECRET_HEADER]: this.options.nodeSecret,
          },
          // The socket's own timer, not an AbortSignal and a timer of its own a request:
          // the holder sends nothing until the commands committed, so silence is the wait.
          timeout: timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) => reject(moving(holder, error)));
          response.on('end', () => {
            let answer: { answers?: ForwardAnswer[]; error?: { code?: string } } | undefined;
            try {
              answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof answer;
            } catch {
              answer = undefined;
            }
            const status = response.statusCode ?? 0;
            if (
              status === 200 &&
              Array.isArray(answer?.answers) &&
              answer.answers.length === commands.length
            )
              resolve(answer.answers);
            // The holder is shutting down: it took none of them.
            else if (status === 503 && answer?.error?.code === 'shutting_down') reject(NEVER_SENT);
            else reject(moving(holder, new Error(`${status} ${JSON.stringify(answer)}`)));
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer in ${timeoutMs} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) =>
        // Refused: nothing listens there (the holder is gone), so nothing ran.
        reject(error.code === 'ECONNREFUSED' ? NEVER_SENT : moving(holder, error)),
      );
      request.end(body);
    });
  }
}

/** Commands that surely never ran on the holder: they may be placed again. */
const NEVER_SENT = new Error('the holder took none of the commands');

function moving(holder: string, cause: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    `the node running this table (${holder}) did not answer; retry with the same idempotency key`,
    cause,
    'table_moving',
  );
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
