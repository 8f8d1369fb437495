/**
 * `cussec serve`: opens the database (an embedded SQLite file in the data
 * folder unless a PostgreSQL URL is given), makes sure there is a first table
 * and a first supervisor, and serves the API and the web app until SIGTERM.
 */
import { mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Currency, Role, Store } from '../ledger/index.js';
import { deposit } from '../service/cage.js';
import { openStore } from '../service/open-store.js';
import { defaultTableSettings } from '../service/table-settings.js';
import { type App, buildApp } from './app.js';
import { generatePassword } from './passwords.js';
import { createUser } from './accounts.js';

export interface ServeOptions {
  readonly dataDir: string;
  readonly db?: string;
  readonly port: number;
  readonly host: string;
  readonly currency: Currency;
  readonly tableId: string;
  readonly supervisor: string;
  /** Creates demo users with a known password; for trying the system out, never for a casino floor. */
  readonly demo: boolean;
  readonly say: (line: string) => void;
}

export const DEMO_PASSWORD = 'cussec-demo-1';

/** The built web app beside the compiled server (dist/web), or in dist/ when running from source. */
export function webRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = resolve(here, '../web');
  return existsSync(join(beside, 'index.html')) ? beside : resolve(here, '../../dist/web');
}

export async function serve(options: ServeOptions): Promise<App> {
  mkdirSync(options.dataDir, { recursive: true });
  const db = options.db ?? join(options.dataDir, 'cussec.db');
  const store = await openStore(db, options.currency);
  if ((await store.listTables()).length === 0) {
    const app = await buildApp({ store, logger: false });
    await app.ctx.service.createTable(defaultTableSettings(options.tableId));
    await app.shutdown();
  }
  const firstPassword = await firstSupervisor(store, options.supervisor);
  if (options.demo) await demoUsers(store);
  const app = await buildApp({
    store,
    webRoot: webRoot(),
    logger: { level: process.env['CUSSEC_LOG_LEVEL'] ?? 'warn' },
  });
  await app.fastify.listen({ port: options.port, host: options.host });
  const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${options.port}/`;
  options.say(
    `Cussec is serving ${url} (database: ${db.startsWith('postgres') ? 'PostgreSQL' : db})`,
  );
  if (firstPassword !== undefined) {
    options.say(
      `First start: log in as "${options.supervisor}" with the one-time password ${firstPassword}`,
    );
    options.say(
      'It is shown only now. Create the croupiers, cashiers, inspectors and players from there.',
    );
  } else if (!options.demo) {
    options.say(`Log in at ${url} with your account.`);
  }
  if (options.demo)
    options.say(
      `Demo users croupier, cashier, inspector, player1, player2: password ${DEMO_PASSWORD}`,
    );
  return app;
}

async function firstSupervisor(store: Store, username: string): Promise<string | undefined> {
  if ((await store.countUsers('supervisor')) > 0) return undefined;
  const password = process.env['CUSSEC_SUPERVISOR_PASSWORD'] ?? generatePassword();
  await createUser(
    store,
    {
      username,
      password,
      role: 'supervisor',
      displayName: 'Supervisor',
      // A password printed on a console is changed at first sign-in.
      mustChangePassword: process.env['CUSSEC_SUPERVISOR_PASSWORD'] === undefined,
    },
    'cussec serve',
  );
  return process.env['CUSSEC_SUPERVISOR_PASSWORD'] === undefined ? password : undefined;
}

async function demoUsers(store: Store): Promise<void> {
  const users: [string, Role, string][] = [
    ['croupier', 'croupier', 'Croupier Chan'],
    ['cashier', 'cashier', 'Cashier Lei'],
    ['inspector', 'inspector', 'DICJ Inspector'],
    ['player1', 'player', 'Player One'],
    ['player2', 'player', 'Player Two'],
  ];
  for (const [username, role, displayName] of users) {
    if ((await store.findUserByUsername(username)) !== undefined) continue;
    const user = await createUser(
      store,
      { username, password: DEMO_PASSWORD, role, displayName, mustChangePassword: false },
      'cussec serve --demo',
    );
    if (role === 'player') {
      await deposit(store, {
        playerId: user.id,
        amountMinor: 1_000_000,
        cashierId: 'demo',
        idempotencyKey: `demo-${user.id}`,
      });
    }
  }
}
