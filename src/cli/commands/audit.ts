/**
 * `cussec audit verify --db PATH|URL`: recomputes the journal's chain, replays
 * every round through settle(), and checks the ledger against the journal, in
 * one snapshot, so it may run beside a live floor.
 */
import type { Command } from 'commander';
import { AuditCheckpointError } from '../../service/audit.js';
import { audit, parseAuditFrom } from '../../service/audit-runner.js';
import { CheckFailed, InputError } from '../errors.js';
import { grouped } from '../format.js';
import type { Io } from '../io.js';
import { withExistingStore } from '../store.js';

interface AuditOptions {
  readonly db: string;
  readonly from: string;
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
    .option(
      '--from <checkpoint>',
      'start from a verified checkpoint: SEQ:HASH, "latest" (the newest stored) or "genesis" (everything)',
      'genesis',
    )
    .option('--json', 'print the verdict as JSON')
    .action(async (options: AuditOptions) => {
      const from = parseAuditFrom(options.from);
      if (from === undefined)
        throw new InputError(
          `--from must be SEQ:HASH (a seq and a 64-digit hex hash), latest or genesis, not ${options.from}`,
        );
      // Opened for its currency and its migrations; the audit reads on a connection of its own.
      await withExistingStore(options.db, async (store) => {
        const result = await audit(store, { from }).catch((error: unknown) => {
          if (error instanceof AuditCheckpointError) throw new InputError(error.message);
          throw error;
        });
        if (options.json) io.stdout.write(JSON.stringify(result) + '\n');
        if (!result.ok) {
          const where = result.failure.seq === null ? '' : ` (journal entry ${result.failure.seq})`;
          throw new CheckFailed(
            `audit failed: ${result.failure.check}${where}: ${result.failure.message}`,
          );
        }
        if (!options.json) {
          const span =
            result.from.seq === 0
              ? 'journal entries'
              : `journal entries (${grouped(result.checkedTo.seq - result.from.seq)} read after checkpoint ${result.from.seq})`;
          io.stdout.write(
            `audit passed: ${grouped(result.entries)} ${span} chain, ${grouped(result.rounds)} rounds settle as recorded, ` +
              `${grouped(result.transfers)} transfers match the journal, ${grouped(result.accounts)} accounts add up.\n` +
              `checked up to journal entry ${result.checkedTo.seq} (hash ${result.checkedTo.hash}).\n`,
          );
        }
      });
    });
}
