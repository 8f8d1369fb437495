/** `cussec serve`: the main job — the API, the WebSocket events and the web app. */
import type { Command } from 'commander';
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
    .action(async (options: ServeCliOptions) => {
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
        say: (line) => io.stdout.write(`${line}\n`),
        terminal: io.stdout.isTTY === true,
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
