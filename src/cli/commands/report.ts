/**
 * `cussec report --db PATH|URL --table T1 --date YYYY-MM-DD [--format csv|json|html] [--out FILE]`:
 * a table's figures for one Macau day — rounds, void rolls, handle, payouts,
 * hold actual against theoretical, the biggest win — read from the journal.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { dayNumber } from '../../compliance/index.js';
import {
  readTableDay,
  REPORT_FORMATS,
  type ReportFormat,
  renderTableDay,
} from '../../service/daily-report.js';
import { InputError } from '../errors.js';
import type { Io } from '../io.js';
import { withExistingStore } from '../store.js';

interface ReportOptions {
  readonly db: string;
  readonly table: string;
  readonly date: string;
  readonly format: string;
  readonly out?: string;
}

export function registerReport(program: Command, io: Io): void {
  program
    .command('report')
    .description(
      "a table's day from the journal: rounds, voids, handle, payouts, hold actual vs theoretical, biggest win",
    )
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .requiredOption('--table <id>', 'the table')
    .requiredOption('--date <YYYY-MM-DD>', 'the Macau day (UTC+8)')
    .option('--format <csv|json|html>', 'csv, json, or html (a printable page)', 'csv')
    .option('--out <file>', 'write the report to this file instead of the standard output')
    .action(async (options: ReportOptions) => {
      const format = checkFormat(options.format);
      if (dayNumber(options.date) === null)
        throw new InputError(`--date must be a YYYY-MM-DD date, got "${options.date}"`);
      await withExistingStore(options.db, async (store) => {
        const day = await readTableDay(store, options.table, options.date);
        if (day === undefined) throw new InputError(`there is no table "${options.table}"`);
        const rendered = renderTableDay(day, format, Date.now());
        if (options.out === undefined) {
          io.stdout.write(rendered.body);
          return;
        }
        writeFileSync(options.out, rendered.body);
        const { rounds, bets } = day.report;
        io.stdout.write(
          `Wrote ${options.out}: table ${day.tableId}, ${day.date}, ${rounds} rounds, ${bets} bets.\n`,
        );
      });
    });
}

function checkFormat(format: string): ReportFormat {
  const found = REPORT_FORMATS.find((f) => f === format);
  if (found === undefined)
    throw new InputError(`--format must be one of ${REPORT_FORMATS.join(', ')}, got "${format}"`);
  return found;
}
