/**
 * `cussec audit verify --db PATH|URL`: recomputes the journal's chain, replays
 * every round through settle(), and checks the ledger against the journal.
 */
import type { Command } from 'commander';
import { audit } from '../../service/audit.js';
import { openExistingStore } from '../../service/open-store.js';
import { CheckFailed, InputError } from '../errors.js';
import { grouped } from '../format.js';
import type { Io } from '../io.js';
import { existsSync } from 'node:fs';
import { isPostgresUrl } from '../../service/open-store.js';

interface AuditOptions {
  readonly db: string;
  readonly json?: boolean;
}

export function registerAudit(program: Command, io: Io): void {
  const group = program
    .command('audit')
    .description('check a database: journal, settlements and ledger');
  group
    .command('verify')
    .description('recompute the hash chain, replay every round, match the ledger to the journal')
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .option('--json', 'print the verdict as JSON')
    .action(async (options: AuditOptions) => {
      if (!isPostgresUrl(options.db) && !existsSync(options.db)) {
        throw new InputError(`no database at ${options.db}`);
      }
      const store = await openExistingStore(options.db);
      try {
        const result = await audit(store);
        if (options.json) io.stdout.write(JSON.stringify(result) + '\n');
        if (!result.ok) {
          const where = result.failure.seq === null ? '' : ` (journal entry ${result.failure.seq})`;
          throw new CheckFailed(
            `audit failed: ${result.failure.check}${where}: ${result.failure.message}`,
          );
        }
        if (!options.json) {
          io.stdout.write(
            `audit passed: ${grouped(result.entries)} journal entries chain, ${grouped(result.rounds)} rounds settle as recorded, ` +
              `${grouped(result.transfers)} transfers match the journal, ${grouped(result.accounts)} accounts add up.\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
}
