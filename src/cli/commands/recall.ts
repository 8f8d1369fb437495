/**
 * `cussec recall --db PATH|URL --table T1 [--rounds N] [--json]`: the last N
 * rounds of a table — bets, rolls, dice with their commitment and nonce (or the
 * croupier who read them), wins, and each player's wallet before and after.
 */
import type { Command } from 'commander';
import type { Store } from '../../ledger/index.js';
import {
  RECALL_ROUNDS_DEFAULT,
  RECALL_ROUNDS_MAX,
  type RecalledRound,
  recallRounds,
} from '../../service/recall.js';
import { authorizationText } from '../../service/table-settings.js';
import { InputError } from '../errors.js';
import { grouped, table } from '../format.js';
import type { Io } from '../io.js';
import { withExistingStore } from '../store.js';

interface RecallOptions {
  readonly db: string;
  readonly table: string;
  readonly rounds: string;
  readonly json?: boolean;
}

export function registerRecall(program: Command, io: Io): void {
  program
    .command('recall')
    .description(
      "a table's last rounds: bets, dice and commitment, wins, balances before and after",
    )
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .option('--table <id>', 'the table', 'T1')
    .option('--rounds <n>', `rounds to show, 1 to ${RECALL_ROUNDS_MAX}`, `${RECALL_ROUNDS_DEFAULT}`)
    .option('--json', 'print every field as JSON')
    .action(async (options: RecallOptions) => {
      const rounds = /^[0-9]+$/.test(options.rounds) ? Number(options.rounds) : Number.NaN;
      if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > RECALL_ROUNDS_MAX) {
        throw new InputError(
          `--rounds must be a whole number from 1 to ${RECALL_ROUNDS_MAX}, got "${options.rounds}"`,
        );
      }
      await withExistingStore(options.db, async (store) => {
        const recalled = await recallRounds(store, options.table, rounds);
        if (recalled === undefined) throw new InputError(`there is no table "${options.table}"`);
        io.stdout.write(
          options.json
            ? JSON.stringify({ tableId: options.table, rounds: recalled }, null, 2) + '\n'
            : toText(options.table, recalled, store),
        );
      });
    });
}

function toText(tableId: string, rounds: readonly RecalledRound[], store: Store): string {
  if (rounds.length === 0) return `Table ${tableId} has played no round yet.\n`;
  const head = `Table ${tableId}: the last ${rounds.length} round${rounds.length === 1 ? '' : 's'}, oldest first (amounts in minor units of ${store.currency}).\n`;
  return [head, ...rounds.map(roundText)].join('\n');
}

const time = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString());

function roundText(r: RecalledRound): string {
  const lines = [
    `Round ${r.roundNo} — ${r.status}, started ${time(r.startedAtMs)}, journal entries ${r.firstSeq}–${r.lastSeq}`,
    `  House options authorized by: ${authorizationText(r.authorization)} (Art. 8)`,
  ];
  for (const roll of r.rolls) {
    const sealed = roll.commitmentHex === null ? '' : `, commitment ${roll.commitmentHex}`;
    if (roll.voided === null) {
      lines.push(`  Roll ${roll.rollNo}${sealed}`);
      continue;
    }
    const v = roll.voided;
    const opened =
      v.openedSeal === null
        ? ''
        : `; seal opened: dice ${v.openedSeal.dice.join('-')}, nonce ${v.openedSeal.nonceHex} (${v.sealVerified ? 'matches' : 'DOES NOT MATCH'} the commitment)`;
    lines.push(`  Roll ${roll.rollNo}${sealed}: void, dice ${v.reason} (Art. 3.3)${opened}`);
  }
  lines.push(`  ${resultText(r)}`);
  if (r.winningSpots.length > 0) lines.push(`  Winning spots: ${r.winningSpots.join(', ')}`);
  lines.push('', indent(betsTable(r)), indent(playersTable(r)));
  return lines.join('\n');
}

function resultText(r: RecalledRound): string {
  const res = r.result;
  if (res === null) return 'Dice: not yet known';
  const dice = `Dice ${res.dice.join('-')} (roll ${res.rollNo})`;
  if (res.method === 'lever') return `${dice}, read by croupier ${res.croupierId}`;
  return `${dice}, nonce ${res.nonceHex}: ${res.verified ? 'opens the commitment betting opened with' : 'DOES NOT open the commitment'}`;
}

function betsTable(r: RecalledRound): string {
  const rows = r.bets.map((b) => [
    b.betId,
    b.playerId,
    b.spot,
    String(b.rollNo),
    grouped(b.stakeMinor),
    b.withdrawnAtMs !== null ? 'withdrawn' : b.winMinor === null ? '—' : grouped(b.winMinor),
    b.withdrawnAtMs !== null || b.returnedMinor === null ? '—' : grouped(b.returnedMinor),
  ]);
  const totals = `Staked ${grouped(r.totalStakeMinor)}, returned ${r.totalReturnedMinor === null ? '—' : grouped(r.totalReturnedMinor)}.`;
  return (
    table(['Bet', 'Player', 'Spot', 'Roll', 'Stake', 'Win', 'Returned'], rows, [
      'left',
      'left',
      'left',
      'right',
      'right',
      'right',
      'right',
    ]) + `${totals}\n`
  );
}

function playersTable(r: RecalledRound): string {
  const amount = (v: number | null): string => (v === null ? '—' : grouped(v));
  const rows = r.players.map((p) => [
    p.displayName === null ? p.playerId : `${p.displayName} (${p.playerId})`,
    amount(p.balanceBeforeMinor),
    amount(p.stakedMinor),
    amount(p.returnedMinor),
    amount(p.balanceAfterMinor),
  ]);
  return table(['Player', 'Wallet before', 'Staked', 'Returned', 'Wallet after'], rows, [
    'left',
    'right',
    'right',
    'right',
    'right',
  ]);
}

const indent = (block: string): string =>
  block
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
