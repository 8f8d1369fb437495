/**
 * `cussec play --db PATH|URL --rounds R --players P [--seed S]`: a headless
 * table with seeded simulated players (see src/service/simulated-table.ts). Run again on the
 * same database it continues where the last run stopped, mid-round included.
 */
import { resolve } from 'node:path';
import { RollKeyError, type RollKeyring } from '../../dice/roll-key.js';
import { ROLL_KEY_ENV, rollKeys } from '../../service/roll-key-source.js';
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { type Currency, type Store, StoreOpenError } from '../../ledger/index.js';
import { settleDatabaseKind } from '../../service/database-kind.js';
import {
  databaseName,
  isPostgresUrl,
  openExistingStore,
  openStore,
} from '../../service/open-store.js';
import { InputError } from '../errors.js';
import { grouped, percent } from '../format.js';
import type { Io } from '../io.js';
import { progressBar } from '../progress.js';
import { type PlayReport, playTable, TableLeaseHeld } from '../../service/simulated-table.js';

export const PLAY_ROUNDS_MAX = 1_000_000;
export const PLAY_PLAYERS_MAX = 1_000;
const TABLE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
// The seed goes into idempotency keys and journal-visible ids, so it stays short and plain.
const SEED = /^[A-Za-z0-9_.-]{1,64}$/;

interface PlayCliOptions {
  readonly db: string;
  readonly rounds: string;
  readonly players: string;
  readonly seed?: string;
  readonly table: string;
  readonly currency?: string;
  readonly shaker: string;
  readonly json?: boolean;
  readonly rollKeyFile?: string;
}

export function registerPlay(program: Command, io: Io): void {
  program
    .command('play')
    .description('run a table with seeded simulated players; a rerun continues where it stopped')
    .requiredOption('--db <path|url>', 'a SQLite file (created when missing) or a postgres:// URL')
    .requiredOption('--rounds <n>', `rounds to play in this run, 1 to ${grouped(PLAY_ROUNDS_MAX)}`)
    .requiredOption('--players <n>', `simulated players, 1 to ${grouped(PLAY_PLAYERS_MAX)}`)
    .option('--seed <seed>', 'seed of the players and dice (default: a fresh one, printed)')
    .option('--table <id>', 'the table to play (created when missing)', 'T1')
    .option('--currency <MOP|HKD>', "a new database's currency (default MOP)")
    .option('--shaker <electronic|lever>', 'shaker of a table this run creates', 'electronic')
    .option('--json', 'print the summary as JSON')
    .option(
      '--roll-key-file <path>',
      'the key that seals stored rolls (CUSSEC_ROLL_KEY wins; on SQLite by default a file beside the database)',
    )
    .action(async (raw: PlayCliOptions) => {
      const options = readOptions(raw);
      const store = await open(raw.db, options.currency);
      try {
        // A database is a demonstration or a casino floor for its whole life (database-kind.ts).
        if ((await settleDatabaseKind(store, 'demonstration')) === 'casino-floor')
          throw new InputError(
            `${databaseName(raw.db)} is a casino floor: cussec play writes simulated players and tables with no DICJ authorization (Art. 8); play on a database of its own (cussec play --db NEW-FILE)`,
          );
        const progress = progressBar(io.stderr);
        const report = await playTable({
          store,
          ...options,
          // A run killed mid-round is resumed by the next: it opens the roll the first sealed (docs/dice.md).
          rollKeys: playRollKeys(raw),
          onStart: (s) =>
            io.stderr.write(
              `play: table ${s.tableId} (${s.shaker} shaker), round ${s.roundNo} at phase ${s.phase}, seed ${options.seed}\n`,
            ),
          onRound: (done) => progress?.update(done / options.rounds),
        }).catch((error: unknown) => {
          if (error instanceof TableLeaseHeld)
            throw new InputError(
              `--table ${error.tableId}: another node runs this table (it holds the lease); play another table or stop that node`,
            );
          throw error;
        });
        progress?.done();
        io.stdout.write(
          options.json ? JSON.stringify(report, null, 2) + '\n' : summary(report, store.currency),
        );
      } finally {
        await store.close();
      }
    });
}

function readOptions(raw: PlayCliOptions) {
  const seed = raw.seed ?? randomBytes(8).toString('hex');
  if (!SEED.test(seed))
    throw new InputError(`--seed must be 1 to 64 letters, digits, ".", "_" or "-", got "${seed}"`);
  if (!TABLE_ID.test(raw.table))
    throw new InputError(`--table must be 1 to 32 letters, digits, - and _, got "${raw.table}"`);
  return {
    rounds: readCount(raw.rounds, '--rounds', PLAY_ROUNDS_MAX),
    players: readCount(raw.players, '--players', PLAY_PLAYERS_MAX),
    seed,
    tableId: raw.table,
    currency: raw.currency === undefined ? undefined : readCurrency(raw.currency),
    shaker: readShaker(raw.shaker),
    json: raw.json === true,
  };
}

function playRollKeys(raw: PlayCliOptions): RollKeyring {
  try {
    const source = rollKeys({
      env: process.env[ROLL_KEY_ENV],
      keyFile: raw.rollKeyFile,
      sqlitePath: isPostgresUrl(raw.db) ? undefined : resolve(raw.db),
    });
    // A table it resumes after a kill reveals with the key it sealed with: kept from the first round.
    source.keep();
    return source.keys;
  } catch (error) {
    if (error instanceof RollKeyError) throw new InputError(error.message);
    throw error;
  }
}

function readCurrency(text: string): Currency {
  if (text === 'MOP' || text === 'HKD') return text;
  throw new InputError(`--currency must be MOP or HKD, got "${text}"`);
}

function readShaker(text: string): 'electronic' | 'lever' {
  if (text === 'electronic' || text === 'lever') return text;
  throw new InputError(`--shaker must be electronic or lever, got "${text}"`);
}

function readCount(text: string, option: string, max: number): number {
  const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw new InputError(
      `${option} must be a whole number from 1 to ${grouped(max)}, got "${text}"`,
    );
  return n;
}

async function open(db: string, currency: Currency | undefined): Promise<Store> {
  if (currency === undefined) return openExistingStore(db);
  try {
    return await openStore(db, currency);
  } catch (error) {
    if (error instanceof StoreOpenError && error.code === 'currency_mismatch')
      throw new InputError(`${db} keeps another currency than ${currency}`);
    throw error;
  }
}

function summary(r: PlayReport, currency: Currency): string {
  const span =
    r.firstRoundNo === null ? '' : ` (rounds ${r.firstRoundNo}–${r.lastRoundNo ?? r.firstRoundNo})`;
  const refused = Object.entries(r.refused)
    .map(([code, n]) => `${code} ${grouped(n)}`)
    .join(', ');
  return (
    `played ${grouped(r.rounds)} rounds of table ${r.tableId}${span}, seed ${r.seed}: ` +
    `${grouped(r.bets)} bets, handle ${grouped(r.handleMinor)}, returned ${grouped(r.returnedMinor)}, ` +
    `hold ${percent(r.hold)} (minor units of ${currency}); ` +
    `void rolls ${grouped(r.voidRolls)}, withdrawals ${grouped(r.withdrawals)}` +
    (refused === '' ? '' : `, refused: ${refused}`) +
    '\n'
  );
}
