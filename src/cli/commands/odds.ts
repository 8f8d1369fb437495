/**
 * `cussec odds`: the exact odds of every spot a paytable offers.
 */
import type { Command } from 'commander';
import { oddsReport, type SpotOdds } from '../../math/index.js';
import { InputError } from '../errors.js';
import { decimal, percent, table } from '../format.js';
import type { Io } from '../io.js';
import { readPaytable } from '../inputs.js';

const LANGUAGES = ['en', 'pt', 'zh'] as const;
type Language = (typeof LANGUAGES)[number];

interface OddsOptions {
  readonly paytable?: string;
  readonly json?: boolean;
  readonly lang: string;
}

export function registerOdds(program: Command, io: Io): void {
  program
    .command('odds')
    .description('exact odds, return to player, house edge and standard deviation of every spot')
    .option(
      '--paytable <file>',
      'a paytable JSON document (default: all 117 spots, 5/16 at 18, 6/15 at 14)',
    )
    .option('--lang <lang>', "names in en, pt (the regulation's) or zh", 'en')
    .option('--json', 'print a JSON array instead of a table')
    .action((options: OddsOptions) => {
      const compiled = readPaytable(options.paytable);
      const report = oddsReport(compiled);
      if (options.json) {
        io.stdout.write(JSON.stringify(report.map(toJson), null, 2) + '\n');
        return;
      }
      if (!(LANGUAGES as readonly string[]).includes(options.lang)) {
        throw new InputError(
          `--lang must be one of ${LANGUAGES.join(', ')}, got "${options.lang}"`,
        );
      }
      io.stdout.write(toText(report, options.lang as Language));
      const { totalOdds } = compiled.paytable;
      io.stdout.write(
        `\n${report.length} spots. Totals 5/16 pay ${totalOdds['5/16']} to 1 and 6/15 pay ${totalOdds['6/15']} to 1 (Art. 6.6).\n` +
          'Pays: N to 1, stake returned on a win. Ways: winning outcomes of 216. RTP: expected return per unit staked.\n' +
          'Std dev: of the net result per unit staked. Art. 7 makes Small and Big lose on triples; Odd and Even keep them.\n',
      );
    });
}

function toJson(row: SpotOdds): object {
  return {
    spot: row.spot.id,
    names: row.spot.names,
    article: row.spot.article,
    pays: row.pays,
    ways: row.ways,
    probability: row.probability,
    rtp: row.rtp,
    houseEdge: row.houseEdge,
    stdDev: row.stdDev,
  };
}

function toText(report: readonly SpotOdds[], lang: Language): string {
  const header = [
    'Spot',
    'Name',
    'Art.',
    'Pays',
    'Ways',
    'Probability',
    'RTP',
    'House edge',
    'Std dev',
  ];
  const rows = report.map((r) => [
    r.spot.id,
    r.spot.names[lang],
    r.spot.article,
    r.pays.join('/'),
    `${r.ways}/216`,
    percent(r.probability),
    percent(r.rtp),
    percent(r.houseEdge),
    decimal(r.stdDev, 3),
  ]);
  return table(header, rows, [
    'left',
    'left',
    'left',
    'right',
    'right',
    'right',
    'right',
    'right',
    'right',
  ]);
}
