/**
 * `cussec exclusions load FILE --db PATH|URL [--format json|csv] [--by NAME]`
 * and `cussec exclusions list --db PATH|URL [--json]`: the exclusion register
 * (Lei 10/2012, arts. 2 and 6) from a terminal on the database host.
 *
 * `load` enters a file of orders as the DICJ sends them (the format:
 * src/compliance/people/exclusion-files.ts and docs/compliance.md, "The bulk
 * file format") through the same People.loadExclusions as `POST /api/v1/exclusions/bulk`:
 * the good rows in one transaction, each journaled with its document's digest,
 * the bad rows named and left out, an order already on record counted and not
 * entered again, so a corrected file may be loaded whole once more. A running
 * server reads the new entries from the journal and refuses the barred
 * players' next bets. Exit 0 when every row was good, 1 when some were
 * refused (the good ones are kept), 2 when the file cannot be read as orders
 * at all.
 *
 * `list` prints the register with the document numbers: it is personal data
 * (Lei 8/2005), printed for the operator who keeps it, on the host that holds it.
 */
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { Command } from 'commander';
import {
  addDays,
  type ExclusionFileBadRow,
  type ExclusionOrder,
  REVOCATION_DELAY_DAYS,
} from '../../compliance/index.js';
import type { Store } from '../../ledger/index.js';
import { HolidayCalendarService } from '../../service/holidays.js';
import { People } from '../../service/people.js';
import { CheckFailed, InputError } from '../errors.js';
import { printable, table } from '../format.js';
import type { Io } from '../io.js';
import { withExistingStore } from '../store.js';

interface LoadOptions {
  readonly db: string;
  readonly format?: string;
  readonly by?: string;
}

interface ListOptions {
  readonly db: string;
  readonly json?: boolean;
}

type FileFormat = 'json' | 'csv';
const FILE_FORMATS: readonly FileFormat[] = ['json', 'csv'];

/** Who the journal names for orders loaded here, when `--by` names nobody. */
export const LOAD_ACTOR = 'cussec exclusions load';
export const BY_LENGTH_MAX = 100;
/**
 * A bound on the file read into memory: the format's 100,000 orders of
 * ordinary length take a fraction of it.
 */
export const EXCLUSION_FILE_BYTES_MAX = 64 * 1024 * 1024;
/** Orders read from the register a page at a time (its page size, REGISTER_ROWS_MAX). */
const LIST_PAGE = 1_000;

const PERSONAL_DATA =
  'The output is personal data (Lei 8/2005): document numbers, and with --json\n' +
  'names and dates of birth. Print it only for the work that needs it, and keep\n' +
  'no copy beyond it.';

export function registerExclusions(program: Command, io: Io): void {
  const exclusions = program
    .command('exclusions')
    .description("load the DICJ's exclusion orders from a file, list the register (Lei 10/2012)");
  exclusions
    .command('load')
    .description(
      'enter a JSON or CSV file of exclusion orders: good rows kept, bad rows named (exit 1), orders on record not entered twice',
    )
    .argument('<file>', 'the orders (docs/compliance.md, "The bulk file format")')
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .option('--format <json|csv>', "the file's format (default: from its extension)")
    .option('--by <name>', `who loads it, as the journal names them (default "${LOAD_ACTOR}")`)
    .action(async (file: string, options: LoadOptions) => {
      const format = fileFormat(file, options.format);
      const by = actor(options.by);
      const text = readOrderFile(file);
      const loaded = await withExistingStore(options.db, (store) =>
        people(store).loadExclusions(text, format, by),
      );
      const whole = loaded.bad.find((b) => b.row === 0);
      if (whole !== undefined) throw new InputError(`${file}: ${issuesText(whole)}`);
      io.stdout.write(summary(file, loaded.recorded, loaded.existing.length, loaded.bad.length));
      for (const bad of loaded.bad) io.stdout.write(`row ${bad.row}: ${issuesText(bad)}\n`);
      if (loaded.bad.length > 0) {
        const good = loaded.recorded + loaded.existing.length;
        const kept = good === 0 ? 'no row was good' : 'the good rows are recorded';
        throw new CheckFailed(
          `${plural(loaded.bad.length, 'row')} refused; ${kept}. Correct the rows named and load the file again: orders on record are not entered twice`,
        );
      }
    });
  exclusions
    .command('list')
    .description(
      'the register in id order: id, kind, DICJ reference, document type and number, from, to, revocation requested (personal data)',
    )
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .option('--json', 'every field of every order, names and dates of birth included, as JSON')
    .addHelpText('after', `\n${PERSONAL_DATA}\n`)
    .action((options: ListOptions) =>
      withExistingStore(options.db, async (store) => {
        const orders = await allOrders(people(store));
        io.stdout.write(
          options.json ? JSON.stringify(orders, null, 2) + '\n' : registerText(orders),
        );
      }),
    );
}

const people = (store: Store): People =>
  new People({ store, calendar: () => new HolidayCalendarService(store).calendar() });

/** `--format`, or the file's extension (case aside). */
function fileFormat(file: string, option: string | undefined): FileFormat {
  if (option !== undefined) {
    const format = FILE_FORMATS.find((f) => f === option);
    if (format === undefined) throw new InputError(`--format must be json or csv, got "${option}"`);
    return format;
  }
  const format = FILE_FORMATS.find((f) => extname(file).toLowerCase() === `.${f}`);
  if (format === undefined)
    throw new InputError(
      `cannot tell the format of ${file} from its name: give --format json or --format csv`,
    );
  return format;
}

/** The journal's `by`: the name given, with the channel, so it is never taken for a user's id. */
function actor(by: string | undefined): string {
  if (by === undefined) return LOAD_ACTOR;
  const name = by.trim();
  if (name === '' || name.length > BY_LENGTH_MAX || printable(name) !== name)
    throw new InputError(
      `--by must name who loads the file in 1 to ${BY_LENGTH_MAX} printable characters`,
    );
  return `${name} (${LOAD_ACTOR})`;
}

/** The file as UTF-8 text (a byte-order mark dropped), or one line saying why not. */
function readOrderFile(file: string): string {
  let bytes: Buffer;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new InputError(`${file} is not a file`);
    if (stat.size > EXCLUSION_FILE_BYTES_MAX)
      throw new InputError(
        `${file} is larger than ${EXCLUSION_FILE_BYTES_MAX / 1024 / 1024} MiB: split the file`,
      );
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(`cannot read ${file} (${code})`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${file} is not UTF-8 text: the DICJ's files are UTF-8`);
  }
}

/** "documentNumber: a hk-id number is …; to: …": a row's problems on one line. */
function issuesText(bad: ExclusionFileBadRow): string {
  return bad.issues.map((i) => `${printable(i.path)}: ${printable(i.message)}`).join('; ');
}

function summary(file: string, recorded: number, existing: number, bad: number): string {
  const refused = bad === 0 ? 'no row refused' : `${plural(bad, 'row')} refused:`;
  return `${file}: ${plural(recorded, 'order')} recorded, ${existing} already on record, ${refused}\n`;
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The whole register, page by page in id order. */
async function allOrders(people: People): Promise<ExclusionOrder[]> {
  const orders: ExclusionOrder[] = [];
  for (;;) {
    const last = orders.at(-1);
    const page = await people.exclusions({
      limit: LIST_PAGE,
      ...(last === undefined ? {} : { afterId: last.id }),
    });
    orders.push(...page);
    if (page.length < LIST_PAGE) return orders;
  }
}

/** Lei 10/2012, art. 6: the day asked, and the day the revocation takes effect (30 days later). */
function revocationText(order: ExclusionOrder): string {
  const asked = order.revocationRequestedOn;
  if (asked === null) return '—';
  return `${asked} (effective ${addDays(asked, REVOCATION_DELAY_DAYS)})`;
}

function registerText(orders: readonly ExclusionOrder[]): string {
  if (orders.length === 0) return 'The exclusion register is empty.\n';
  const rows = orders.map((o) =>
    [
      o.id,
      o.kind,
      o.dicjReference,
      o.documentType,
      o.documentNumber,
      o.from,
      o.to,
      revocationText(o),
    ].map(printable),
  );
  const head = `The exclusion register: ${plural(orders.length, 'order')}, in id order (Lei 10/2012, arts. 2 and 6).\n${PERSONAL_DATA}\n\n`;
  return (
    head +
    table(
      ['Id', 'Kind', 'DICJ reference', 'Document', 'Number', 'From', 'To', 'Revocation requested'],
      rows,
      ['left', 'left', 'left', 'left', 'left', 'left', 'left', 'left'],
    )
  );
}
