/** `cussec serve`: the main job — the API, the WebSocket events and the web app. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { RollKeyError } from '../../dice/roll-key.js';
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
}

export function registerServe(program: Command, io: Io): void {
  program
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
    .action(async (options: ServeCliOptions) => {
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
      const tls = tlsFiles(options);
      let app;
      try {
        app = await serve({
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
          say: (line) => io.stdout.write(`${line}\n`),
          terminal: io.stdout.isTTY === true,
        });
      } catch (error) {
        if (error instanceof RollKeyError || error instanceof ServeRefused)
          throw new InputError(error.message);
        throw error;
      }
      const running = app;
      // SIGTERM: stop taking bets, finish the commit in flight, close connections (nothing acknowledged is lost).
      await new Promise<void>((done) => {
        const stop = (): void => {
          io.stdout.write('Shutting down: finishing the commits in flight.\n');
          void running
            .shutdown()
            .then(() => running.ctx.store.close())
            .then(done);
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
    });
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
