/** `cussec serve`: the main job — the API, the WebSocket events and the web app. */
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { RollKeyError } from '../../dice/roll-key.js';
import { DEFAULT_PG_TIMEOUTS, type PgTimeouts } from '../../ledger/index.js';
import { LogSink } from '../../server/log-sink.js';
import { serve, ServeRefused } from '../../server/serve.js';
import { InputError } from '../errors.js';
import type { Io } from '../io.js';

interface ServeCliOptions {
  readonly data: string;
  readonly db?: string;
  readonly port: string;
  readonly host: string;
  readonly currency: string;
  readonly table: string;
  readonly supervisor: string;
  readonly demo?: boolean;
  readonly demoOnNetwork?: boolean;
  readonly rollKeyFile?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  readonly trustProxy?: string;
  readonly allowedOrigin?: string[];
  readonly sessionIdleMinutes: string;
  readonly nodeUrl?: string;
  readonly dbConnectTimeoutMs: string;
  readonly dbStatementTimeoutMs: string;
  readonly dbLockTimeoutMs: string;
  readonly dbIdleInTransactionTimeoutMs: string;
}

/** The PostgreSQL timeouts: flag, environment variable, field. */
const TIMEOUT_OPTIONS: readonly [string, string, keyof PgTimeouts, string][] = [
  ['--db-connect-timeout-ms', 'CUSSEC_DB_CONNECT_TIMEOUT_MS', 'connectTimeoutMs', 'to connect'],
  [
    '--db-statement-timeout-ms',
    'CUSSEC_DB_STATEMENT_TIMEOUT_MS',
    'statementTimeoutMs',
    'for a statement',
  ],
  ['--db-lock-timeout-ms', 'CUSSEC_DB_LOCK_TIMEOUT_MS', 'lockTimeoutMs', 'for a lock'],
  [
    '--db-idle-in-transaction-timeout-ms',
    'CUSSEC_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
    'idleInTransactionTimeoutMs',
    'before ending a transaction its client left idle',
  ],
];

function timeoutsOf(options: ServeCliOptions): PgTimeouts {
  const texts: Record<keyof PgTimeouts, string> = {
    connectTimeoutMs: options.dbConnectTimeoutMs,
    statementTimeoutMs: options.dbStatementTimeoutMs,
    lockTimeoutMs: options.dbLockTimeoutMs,
    idleInTransactionTimeoutMs: options.dbIdleInTransactionTimeoutMs,
  };
  const timeouts = { ...DEFAULT_PG_TIMEOUTS };
  for (const [flag, , field] of TIMEOUT_OPTIONS) {
    const ms = Number(texts[field]);
    if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000)
      throw new InputError(`${flag} must be 1 to 3600000 (ms), got "${texts[field]}"`);
    timeouts[field] = ms;
  }
  return timeouts;
}

export function registerServe(program: Command, io: Io): void {
  const command = program
    .command('serve')
    .description('serve the tables: HTTP and WebSocket API, and the web app')
    .option('--data <dir>', 'data folder for the embedded SQLite database', './cussec-data')
    .option(
      '--db <url>',
      'a postgres:// URL (several nodes) or a SQLite file instead of <data>/cussec.db',
    )
    .option('--port <port>', 'TCP port', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--currency <MOP|HKD>', 'the currency of a new database', 'MOP')
    .option('--table <id>', 'the id of the first table, created when there is none', 'T1')
    .option('--supervisor <username>', 'the first supervisor, created on first start', 'supervisor')
    .option(
      '--demo',
      'also create demo users (croupier, cashier, inspector, player1, player2) with a known password',
    )
    .option(
      '--demo-on-network',
      'allow --demo on an address other than loopback (never on a floor)',
    )
    .option(
      '--roll-key-file <path>',
      'the key that seals stored rolls (mode 0600; CUSSEC_ROLL_KEY wins; see docs/dice.md)',
    )
    .option('--tls-cert <pem>', 'serve HTTPS with this certificate (with --tls-key)')
    .option('--tls-key <pem>', 'the private key of --tls-cert')
    .option(
      '--trust-proxy <addresses>',
      'believe X-Forwarded-For/-Proto/-Host from these proxies (IPs or CIDRs, comma-separated)',
    )
    .option(
      '--allowed-origin <origin...>',
      "origins besides this server's whose pages may use its session (e.g. https://board.example)",
    )
    .option('--session-idle-minutes <minutes>', 'a session unused this long ends', '30')
    .addOption(
      new Option(
        '--node-url <url>',
        'PostgreSQL: where the other nodes reach this one (default: the served URL)',
      ).env('CUSSEC_NODE_URL'),
    );
  // PostgreSQL only: how long to wait before answering 503 rather than hanging.
  for (const [flag, env, field, what] of TIMEOUT_OPTIONS)
    command.addOption(
      new Option(`${flag} <ms>`, `PostgreSQL: how long to wait ${what}`)
        .env(env)
        .default(String(DEFAULT_PG_TIMEOUTS[field])),
    );
  command.action(async (options: ServeCliOptions) => {
    const port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new InputError(`--port must be 0 to 65535, got "${options.port}"`);
    if (options.currency !== 'MOP' && options.currency !== 'HKD')
      throw new InputError(`--currency must be MOP or HKD, got "${options.currency}"`);
    const idleMinutes = Number(options.sessionIdleMinutes);
    if (!Number.isInteger(idleMinutes) || idleMinutes < 1 || idleMinutes > 720)
      throw new InputError(
        `--session-idle-minutes must be 1 to 720, got "${options.sessionIdleMinutes}"`,
      );
    for (const origin of options.allowedOrigin ?? [])
      if (!/^https?:\/\/[^/\s]+$/.test(origin))
        throw new InputError(`--allowed-origin: "${origin}" is not scheme://host[:port]`);
    if (options.nodeUrl !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(options.nodeUrl))
      throw new InputError(`--node-url: "${options.nodeUrl}" is not scheme://host[:port]`);
    const tls = tlsFiles(options);
    const timeouts = timeoutsOf(options);
    // Logging never blocks or kills the server: its log and these lines share one sink (log-sink.ts).
    const log = io.stdoutFd === undefined ? undefined : new LogSink(io.stdoutFd);
    const say = (line: string): void => {
      if (log === undefined) io.stdout.write(`${line}\n`);
      else log.write(`${line}\n`);
    };
    let running;
    try {
      running = await serve({
        dataDir: options.data,
        ...(options.db ? { db: options.db } : {}),
        port,
        host: options.host,
        currency: options.currency,
        tableId: options.table,
        supervisor: options.supervisor,
        demo: options.demo === true,
        demoOnNetwork: options.demoOnNetwork === true,
        ...(options.rollKeyFile !== undefined ? { rollKeyFile: options.rollKeyFile } : {}),
        ...(tls ? { tls } : {}),
        ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
        ...(options.allowedOrigin ? { allowedOrigins: options.allowedOrigin } : {}),
        sessionIdleMs: idleMinutes * 60_000,
        ...(options.nodeUrl !== undefined ? { nodeUrl: options.nodeUrl } : {}),
        timeouts,
        ...(log !== undefined ? { log } : {}),
        say,
        terminal: io.stdout.isTTY === true,
      });
    } catch (error) {
      if (error instanceof RollKeyError || error instanceof ServeRefused)
        throw new InputError(error.message);
      throw error;
    }
    const app = running;
    // SIGTERM: stop taking bets, finish the commit in flight, close connections (nothing acknowledged is lost).
    await new Promise<void>((done) => {
      const stop = (): void => {
        say('Shutting down: finishing the commits in flight.');
        void app
          .shutdown()
          .then(() => app.ctx.store.close())
          .then(() => endLog(log))
          .then(done);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
  });
}

/** How long the last log lines may take to leave at shutdown. */
const LOG_DRAIN_MS_MAX = 5_000;

/**
 * The last lines written, or given up on: a write stuck on a pipe nobody reads
 * would keep the process alive, so after LOG_DRAIN_MS_MAX it ends (exit 0: the
 * commits in flight are finished, only log lines are lost).
 */
async function endLog(log: LogSink | undefined): Promise<void> {
  if (log !== undefined && !(await log.drained(LOG_DRAIN_MS_MAX))) process.exit(0);
}

function tlsFiles(options: ServeCliOptions): { cert: Buffer; key: Buffer } | undefined {
  if (options.tlsCert === undefined && options.tlsKey === undefined) return undefined;
  if (options.tlsCert === undefined || options.tlsKey === undefined)
    throw new InputError('--tls-cert and --tls-key go together');
  const read = (flag: string, path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new InputError(`${flag}: cannot read ${path} (${(error as Error).message})`);
    }
  };
  return { cert: read('--tls-cert', options.tlsCert), key: read('--tls-key', options.tlsKey) };
}
