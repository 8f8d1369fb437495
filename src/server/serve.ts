/**
 * `cussec serve`: opens the database (an embedded SQLite file in the data
 * folder unless a PostgreSQL URL is given), makes sure there is a first table
 * and a first supervisor, and serves the API and the web app until SIGTERM.
 */
import { HolidayCalendarService } from '../service/holidays.js';
import { markedIdentity, People } from '../service/people.js';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkWritableFolder,
  type Currency,
  type PgTimeouts,
  type Role,
  type Store,
} from '../ledger/index.js';
import { deposit } from '../service/cage.js';
import {
  DEMO_CREATOR,
  demonstrationRefusal,
  demonstrationTraces,
  settleDatabaseKind,
} from '../service/database-kind.js';
import { startCommandSweeper } from '../service/command-sweeper.js';
import { tableIds } from '../service/reads.js';
import { databaseName, isPostgresUrl, openStore } from '../service/open-store.js';
import { checkSealedRolls } from '../service/stored-header.js';
import { TableService } from '../service/table-service.js';
import { defaultTableSettings, markedAuthorization } from '../service/table-settings.js';
import { macauDate } from '../compliance/index.js';
import { type App, buildApp } from './app.js';
import type { LogSink } from './log-sink.js';
import { createUser, roleHeld, userNamed } from '../service/accounts.js';
import { generatePassword, passwordWeakness } from '../service/passwords.js';
import { ROLL_KEY_ENV, rollKeys } from '../service/roll-key-source.js';
import type { RollKeyring } from '../dice/roll-key.js';

export const NODE_SECRET_ENV = 'CUSSEC_NODE_SECRET';

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
  /** Lets `demo` listen on an address other hosts can reach (the demo password is published). */
  readonly demoOnNetwork: boolean;
  /** The roll key file (docs/dice.md); CUSSEC_ROLL_KEY wins over it. */
  readonly rollKeyFile?: string;
  /** PEM certificate and key: serve HTTPS. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  /** The proxies whose X-Forwarded-* headers are believed (docs/deployment.md). */
  readonly trustProxy?: string;
  readonly allowedOrigins?: readonly string[];
  readonly sessionIdleMs?: number;
  /**
   * PostgreSQL: where the other nodes reach this one to pass it the commands of
   * the tables it holds (docs/deployment.md); the served URL by default.
   */
  readonly nodeUrl?: string;
  /** How long to wait for PostgreSQL before answering 503; defaults in DEFAULT_PG_TIMEOUTS. */
  readonly timeouts?: Partial<PgTimeouts>;
  /** Where the log lines go: stdout through a sink of the app's own unless given (log-sink.ts). */
  readonly log?: LogSink;
  /** Lines for the operator: startup, where to log in. The logs go to stdout too. */
  readonly say: (line: string) => void;
  /**
   * Whether `say` reaches a terminal. The first supervisor's one-time password
   * is said only then; otherwise (stdout kept by a service manager or
   * redirected to a file) it goes to a file only its owner can read.
   */
  readonly terminal: boolean;
}

/** Where the one-time password goes when there is no terminal to show it on. */
export const FIRST_PASSWORD_FILE = 'first-supervisor-password';

/** A setting of `cussec serve` that cannot work: the CLI says so and exits non-zero. */
export class ServeRefused extends Error {
  override readonly name = 'ServeRefused';
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export const DEMO_PASSWORD = 'cussec-demo-1';

/** The built web app beside the compiled server (dist/web), or in dist/ when running from source. */
export function webRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = resolve(here, '../web');
  return existsSync(join(beside, 'index.html')) ? beside : resolve(here, '../../dist/web');
}

export async function serve(options: ServeOptions): Promise<App> {
  if (options.demo && !LOOPBACK.test(options.host) && !options.demoOnNetwork) {
    throw new ServeRefused(
      `--demo on ${options.host} would let anyone on the network sign in with the published demo password: add --demo-on-network if that is what you want`,
    );
  }
  const envPassword = process.env['CUSSEC_SUPERVISOR_PASSWORD'];
  const weak =
    envPassword === undefined ? undefined : passwordWeakness(envPassword, options.supervisor);
  if (weak !== undefined) throw new ServeRefused(`CUSSEC_SUPERVISOR_PASSWORD: ${weak}`);
  // A read-only data folder is named as such (exit 73), not met as "unable to open database file".
  checkWritableFolder(options.dataDir);
  mkdirSync(options.dataDir, { recursive: true });
  const db = options.db ?? join(options.dataDir, 'cussec.db');
  // Art. 2.1: the key that keeps sealed rolls secret in the database (docs/dice.md).
  const roll = rollKeys({
    env: process.env[ROLL_KEY_ENV],
    keyFile: options.rollKeyFile,
    sqlitePath: isPostgresUrl(db) ? undefined : db,
  });
  const store = await openStore(db, options.currency, options.timeouts);
  // Nodes started together take turns: the first makes the table and the users, the others find them.
  const firstPassword = await store.cluster
    .exclusive('first-start', async () => {
      await checkDatabaseKind(store, options.demo, databaseName(db));
      return firstStart(store, options, roll.keys);
    })
    .catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
  // Art. 2.1: a node that cannot open a table's sealed roll could never reveal it: it does not start.
  try {
    await checkSealedRolls(store, roll.keys);
    roll.keep();
  } catch (error) {
    await store.close();
    throw error;
  }
  // A floor: each table's commands run on its lease holder; known once listening.
  let nodeUrl = options.nodeUrl;
  const app = await buildApp({
    store,
    demo: options.demo,
    ...(isPostgresUrl(db)
      ? { node: { nodeUrl: () => nodeUrl, nodeSecret: nodeSecret(roll.keys) } }
      : {}),
    ...(isPostgresUrl(db) ? {} : { sqliteDir: dirname(resolve(db)) }),
    webRoot: webRoot(),
    logger: {
      level: process.env['CUSSEC_LOG_LEVEL'] ?? 'info',
      ...(options.log !== undefined ? { stream: options.log } : {}),
    },
    rollKeys: roll.keys,
    ...(options.tls ? { tls: options.tls } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.sessionIdleMs !== undefined ? { sessionIdleMs: options.sessionIdleMs } : {}),
  });
  const stopSweeper = startCommandSweeper(store, {
    onError: (error) =>
      app.fastify.log.error({ err: error }, 'sweeping idempotency records failed'),
  });
  app.fastify.addHook('onClose', () => stopSweeper());
  // Before the port opens (so before /readyz can say ready): the first reads do not start threads.
  await app.warm();
  await app.fastify.listen({ port: options.port, host: options.host });
  const urls = servedUrls(app, options.host, options.tls !== undefined);
  // Other machines cannot reach a loopback address: with a wildcard host, the first other one.
  nodeUrl ??= urls.find((u) => !/^https?:\/\/127\./.test(u)) ?? urls[0];
  options.say(
    `Cussec is serving ${urls.join(' ')} (database: ${isPostgresUrl(db) ? 'PostgreSQL' : db}; roll key: ${roll.from})`,
  );
  if (firstPassword !== undefined && options.terminal) {
    options.say(
      `First start: log in as "${options.supervisor}" with the one-time password ${firstPassword}`,
    );
    options.say('It is shown only now, on this terminal; it is never logged.');
  } else if (firstPassword !== undefined) {
    const file = join(options.dataDir, FIRST_PASSWORD_FILE);
    // Made anew, so that its mode is ours whatever a file left there had.
    rmSync(file, { force: true });
    writeFileSync(file, `${firstPassword}\n`, { mode: 0o600 });
    options.say(
      `First start: log in as "${options.supervisor}" with the one-time password in ${file} (readable by this user only); delete the file after the first login`,
    );
  }
  if (firstPassword !== undefined) {
    options.say('Create the croupiers, cashiers, inspectors and players from there.');
  } else if (!options.demo) {
    options.say(`Log in at ${urls[0]} with your account.`);
  }
  if (options.demo)
    options.say(
      `Demo users croupier, cashier, inspector, player1, player2: password ${DEMO_PASSWORD}`,
    );
  if (options.demo && !LOOPBACK.test(options.host)) {
    options.say('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
    options.say(`WARNING: demo users with the PUBLISHED password are reachable from the network`);
    options.say(
      `on ${urls.join(' ')}. Anyone who can reach it can sign in. Never on a casino floor.`,
    );
    options.say('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  }
  for (const line of await unauthorizedTablesNotice(app, urls[0]!)) options.say(line);
  return app;
}

/**
 * A database is a demonstration or a casino floor for its whole life
 * (src/service/database-kind.ts): `serve` refuses to serve one as the other.
 */
async function checkDatabaseKind(store: Store, demo: boolean, where: string): Promise<void> {
  const kind = await settleDatabaseKind(store, demo ? 'demonstration' : 'casino-floor');
  if (kind === 'demonstration' && !demo)
    throw new ServeRefused(demonstrationRefusal(where, await demonstrationTraces(store)));
  if (kind === 'casino-floor' && demo)
    throw new ServeRefused(
      `${where} is a casino floor: --demo would add users with the published password and tables with no DICJ authorization (Art. 8). Try the demo on a database of its own: cussec serve --demo --data NEW-FOLDER`,
    );
}

/** The first table and the first supervisor (and with --demo, the demo users), when missing. */
async function firstStart(
  store: Store,
  options: ServeOptions,
  keys: RollKeyring,
): Promise<string | undefined> {
  if ((await tableIds(store)).length === 0) {
    // Art. 8: the first table's options wait for a recorded authorization, unless this is a demo.
    const authorization = options.demo
      ? markedAuthorization('demonstration', macauDate(Date.now()), DEMO_CREATOR)
      : null;
    await new TableService({ store, rollKeys: keys }).createTable({
      ...defaultTableSettings(options.tableId),
      authorization,
    });
  }
  const password = await firstSupervisor(store, options.supervisor);
  if (options.demo) await demoUsers(store);
  return password;
}

/**
 * The secret a floor's nodes show each other on the internal route (CUSSEC_NODE_SECRET,
 * or else derived from the roll key, which every node has already).
 */
function nodeSecret(keys: RollKeyring): string {
  const given = process.env[NODE_SECRET_ENV];
  if (given !== undefined && given !== '') return given;
  return createHmac('sha256', keys.current.key).update('cussec node secret').digest('base64url');
}

/**
 * The URLs the server answers on: its scheme, the port it actually bound
 * (port 0 picks one) and, for a wildcard host, this machine's addresses.
 */
function servedUrls(app: App, host: string, tls: boolean): string[] {
  const scheme = tls ? 'https' : 'http';
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const wildcard = host === '0.0.0.0' || host === '::';
  const hosts = wildcard
    ? Object.values(networkInterfaces())
        .flat()
        .filter((i) => i !== undefined && i.family === 'IPv4')
        .map((i) => i.address)
    : [host];
  return hosts.map((h) => `${scheme}://${h.includes(':') ? `[${h}]` : h}:${port}/`);
}

/**
 * Art. 8: tables whose house options carry no recorded authorization do not
 * open betting; say so at start, with the way to record one.
 */
async function unauthorizedTablesNotice(app: App, url: string): Promise<string[]> {
  const waiting: string[] = [];
  for (const tableId of await tableIds(app.ctx.store)) {
    const snap = await app.ctx.service.snapshot(tableId);
    if (snap !== undefined && !snap.config.optionsAuthorized) waiting.push(tableId);
  }
  if (waiting.length === 0) return [];
  const first = waiting[0]!;
  return [
    `Betting stays closed at ${waiting.join(', ')} until its house options carry a DICJ authorization (Art. 8).`,
    `The supervisor proposes them (POST ${url}api/v1/tables/${first}/house-options/proposals, at least three working days ahead), an inspector records the DICJ's reference (POST …/house-options/proposals/:proposalId/authorization), and they are adopted on their date; see docs/compliance.md.`,
  ];
}

async function firstSupervisor(store: Store, username: string): Promise<string | undefined> {
  if (await roleHeld(store, 'supervisor')) return undefined;
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
  const people = new People({
    store,
    calendar: () => new HolidayCalendarService(store).calendar(),
  });
  const users: [string, Role, string][] = [
    ['croupier', 'croupier', 'Croupier Chan'],
    ['cashier', 'cashier', 'Cashier Lei'],
    ['inspector', 'inspector', 'DICJ Inspector'],
    ['player1', 'player', 'Player One'],
    ['player2', 'player', 'Player Two'],
  ];
  for (const [username, role, displayName] of users) {
    if ((await userNamed(store, username)) !== undefined) continue;
    const user = await createUser(
      store,
      { username, password: DEMO_PASSWORD, role, displayName, mustChangePassword: false },
      DEMO_CREATOR,
    );
    // Instrução 1/2016: nobody plays without an identity; a demonstration's are marked as such.
    await people.recordIdentity(
      user.id,
      markedIdentity(user.id, displayName, 'demonstration'),
      DEMO_CREATOR,
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
