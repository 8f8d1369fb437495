/**
 * `cussec backup --db PATH DEST`: a consistent copy of a live SQLite database.
 *
 * SQLite's online backup API copies the database page by page through a read
 * transaction of its own; in WAL mode that takes no lock the tables' commits
 * wait for. The copy is taken in one step, so it is one snapshot (a step that
 * a commit interrupts would start over), written beside DEST and renamed onto
 * it only once complete and checked: DEST is never a partial file. The copy
 * is a database like any other: restoring is copying it into place and
 * starting `cussec serve` (or `play`) on it. PostgreSQL has its own tools
 * (docs/deployment.md).
 */
import type { Command } from 'commander';
import { existsSync, renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isPostgresUrl } from '../../service/open-store.js';
import { InputError } from '../errors.js';
import { grouped } from '../format.js';
import type { Io } from '../io.js';

interface BackupOptions {
  readonly db: string;
}

/** Pages per backup step: all of them, so that the copy is one snapshot. */
const ALL_PAGES = 0x7fffffff;

export function registerBackup(program: Command, io: Io): void {
  program
    .command('backup')
    .description('copy a live SQLite database, consistently, to a new file')
    .requiredOption('--db <path>', 'the SQLite file to copy (it may be in use)')
    .argument('<dest>', 'the file to write; it must not exist')
    .action(async (dest: string, options: BackupOptions) => {
      if (isPostgresUrl(options.db))
        throw new InputError(
          'cussec backup copies SQLite files; back PostgreSQL up with pg_basebackup or pg_dump (docs/deployment.md)',
        );
      if (!existsSync(options.db)) throw new InputError(`no database at ${options.db}`);
      if (existsSync(dest)) throw new InputError(`${dest} exists already; give a new file`);
      const partial = `${dest}.partial`;
      rmSync(partial, { force: true });
      const source = new Database(options.db, { readonly: true, fileMustExist: true });
      try {
        await source.backup(partial, { progress: () => ALL_PAGES }).catch((error: unknown) => {
          throw new InputError(
            `cannot copy to ${dest}: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
        const head = checkCopy(partial);
        renameSync(partial, dest);
        io.stdout.write(
          `backup written to ${dest}: journal up to entry ${grouped(head.lastSeq)} (hash ${head.lastHash}).\n`,
        );
      } finally {
        source.close();
        rmSync(partial, { force: true });
      }
    });
}

/** Opens the copy on its own and checks its pages; what journal head it holds. */
function checkCopy(path: string): { lastSeq: number; lastHash: string } {
  const copy = new Database(path, { fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok')
      throw new InputError(`the copy does not check out: ${String(integrity)}`);
    // One file, no WAL beside it: the copy is complete as it stands.
    copy.pragma('wal_checkpoint(TRUNCATE)');
    return copy
      .prepare(
        `SELECT last_seq AS "lastSeq", last_hash AS "lastHash" FROM journal_head WHERE chain = 'global'`,
      )
      .get() as { lastSeq: number; lastHash: string };
  } finally {
    copy.close();
  }
}
