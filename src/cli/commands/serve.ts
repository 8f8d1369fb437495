/** `cussec serve`: the main job — the API, the WebSocket events and the web app. */
import { type Command, Option } from 'commander';
import { DEFAULT_PG_TIMEOUTS, type PgTimeouts } from '../../ledger/index.js';
import { serve } from '../../server/serve.js';
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
    );
  // PostgreSQL only: how long to wait before answering 503 rather than hanging.
  for (const [flag, env, field, what] of TIMEOUT_OPTIONS)
    command.addOption(
      new Option(`${flag} <ms>`, `PostgreSQL: how long to wait ${what}`)
        .env(env)
        .default(String(DEFAULT_PG_TIMEOUTS[field])),
    );
  command.action(async (options: ServeCliOptions) => {
    const timeouts = timeoutsOf(options);
    const port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new InputError(`--port must be 0 to 65535, got "${options.port}"`);
    if (options.currency !== 'MOP' && options.currency !== 'HKD')
      throw new InputError(`--currency must be MOP or HKD, got "${options.currency}"`);
    const app = await serve({
      dataDir: options.data,
      ...(options.db ? { db: options.db } : {}),
      port,
      host: options.host,
      currency: options.currency,
      tableId: options.table,
      supervisor: options.supervisor,
      demo: options.demo === true,
      timeouts,
      say: (line) => io.stdout.write(`${line}\n`),
    });
    // SIGTERM: stop taking bets, finish the commit in flight, close connections (nothing acknowledged is lost).
    await new Promise<void>((done) => {
      const stop = (): void => {
        io.stdout.write('Shutting down: finishing the commits in flight.\n');
        void app
          .shutdown()
          .then(() => app.ctx.store.close())
          .then(done);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
  });
}
