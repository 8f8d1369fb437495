/**
 * `cussec export --db PATH|URL --out FILE [--table ID] [--from-seq N] [--to-seq M]`:
 * a self-contained file of the journal's entries in the range (the whole
 * journal by default), in the form their hashes cover, with what an
 * independent verifier needs (docs/export-format.md). One snapshot, so it may
 * run beside a live floor. `node verifier/cussec-verify.mjs FILE` checks it.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { exportJournal } from '../../service/export/export-runner.js';
import { ExportRequestError } from '../../service/export/write-export.js';
import { InputError } from '../errors.js';
import { grouped } from '../format.js';
import type { Io } from '../io.js';
import { withExistingStore } from '../store.js';

interface ExportCliOptions {
  readonly db: string;
  readonly out: string;
  readonly table?: string;
  readonly fromSeq?: string;
  readonly toSeq?: string;
}

export function registerExport(program: Command, io: Io): void {
  program
    .command('export')
    .description('write the journal (or a range of it) for an independent verifier')
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .requiredOption('--out <file>', 'the file to write (NDJSON, docs/export-format.md)')
    .option('--table <id>', 'check this table only (the chain still runs through every entry)')
    .option('--from-seq <n>', 'the first journal entry (default 1)')
    .option('--to-seq <n>', "the last journal entry (default the journal's last)")
    .action(async (options: ExportCliOptions) => {
      const fromSeq = seqOption(options.fromSeq, '--from-seq');
      const toSeq = seqOption(options.toSeq, '--to-seq');
      const out = resolve(options.out);
      if (!existsSync(dirname(out)) || !statSync(dirname(out)).isDirectory())
        throw new InputError(`--out: no folder ${dirname(out)}`);
      // Opened for its currency and its migrations; the export reads on a connection of its own.
      await withExistingStore(options.db, async (store) => {
        const written = await exportJournal(
          store,
          { fromSeq, toSeq, tableId: options.table ?? null },
          out,
        ).catch((error: unknown) => {
          if (error instanceof ExportRequestError) throw new InputError(error.message);
          throw error;
        });
        const { range, anchor, last } = written;
        io.stdout.write(
          `Wrote ${options.out}: journal entries ${range.fromSeq}–${range.toSeq} ` +
            `(${grouped(written.entries)} entries, ${grouped(written.contextEntries)} from before the range, ` +
            `${grouped(written.transfers)} transfers` +
            (written.ledger === 'whole' ? `, ${grouped(written.accounts)} accounts` : '') +
            `), ${grouped(written.bytes)} bytes.\n` +
            `anchor ${anchor.seq}:${anchor.hash}\nlast   ${last.seq}:${last.hash}\n` +
            `Check it with: node verifier/cussec-verify.mjs ${options.out}\n`,
        );
      });
    });
}

function seqOption(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d{0,14}$/.test(text))
    throw new InputError(`${name} must be a journal seq (a whole number from 1), got "${text}"`);
  return Number(text);
}
