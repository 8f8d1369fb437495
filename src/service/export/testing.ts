/**
 * Test helpers for exports: an export written in-process (no worker), the
 * shipped verifier run in-process on bytes, what a forger does to a file
 * (edit an entry and hash the chain again from there, recompute the digest),
 * and the floors the tests export. Import from tests only.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_PAYTABLE } from '../../rules/index.js';
import { canonicalJson, GENESIS_HASH, sha256Hex } from '../../journal/index.js';
import { openAuditDb, type Store } from '../../ledger/index.js';
import { createVerifier } from '../../../verifier/cussec-verify.mjs';
import {
  createLeverTable,
  fundPlayers,
  leverRound,
  macauMs,
  playLeverRounds,
  runAll,
  testClock,
} from '../compliance-testing.js';
import { HolidayCalendarService } from '../holidays.js';
import { HouseOptionsService } from '../house-options.js';
import { playTable } from '../simulated-table.js';
import { TableService } from '../table-service.js';
import { type ExportRequest, writeExport } from './write-export.js';

/** The export's time in tests: fixed, so two exports of one journal are byte for byte the same. */
export const EXPORTED_AT_MS = 1_800_000_000_000;

/** An export written in-process over one snapshot, as bytes. */
export async function exportBytes(
  store: Store,
  options: Pick<ExportRequest, 'fromSeq' | 'toSeq'> & { readonly tableId?: string | null } = {},
): Promise<Buffer> {
  const db = await openAuditDb(store.location);
  const parts: Buffer[] = [];
  try {
    await db.snapshot((reader) =>
      writeExport(
        reader,
        store.currency,
        {
          ...options,
          tableId: options.tableId ?? null,
          exportedAtMs: EXPORTED_AT_MS,
          generator: 'test',
        },
        { write: (bytes) => parts.push(bytes) },
      ),
    );
  } finally {
    await db.close();
  }
  return Buffer.concat(parts);
}

/** Node's SHA-256, as the verifier's command line gives it. */
export const NODE_SHA256 = {
  sha256: () => {
    const h = createHash('sha256');
    return { update: (bytes: Uint8Array) => void h.update(bytes), hex: () => h.digest('hex') };
  },
};

/** The shipped verifier's verdict on these bytes, fed in chunks of `chunkBytes`. */
export function verifyBytes(bytes: Uint8Array, chunkBytes = 65_536) {
  const verifier = createVerifier(NODE_SHA256);
  for (let at = 0; at < bytes.length; at += chunkBytes)
    if (!verifier.write(bytes.subarray(at, at + chunkBytes))) break;
  return verifier.end();
}

/** A line of an export, parsed. */
export type ExportLine = Record<string, unknown> & { readonly record: string };

export function exportLines(bytes: Uint8Array): ExportLine[] {
  return Buffer.from(bytes)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ExportLine);
}

/**
 * What a forger with the file (or the database) would do after editing lines:
 * hash every entry again, chaining each to the one before from the anchor,
 * and write the end record anew. The result is internally consistent: only
 * the checks of the rules can tell.
 */
export function reforge(lines: readonly ExportLine[]): Buffer {
  const out = lines.filter((l) => l.record !== 'end').map((l) => ({ ...l }));
  const header = out[0]!;
  let prevHash = (header['anchor'] as { hash: string }).hash;
  for (const line of out) {
    if (line.record !== 'entry') continue;
    line['prevHash'] = prevHash;
    const { seq, tableId, type, atMs, payload } = line;
    line['hash'] = sha256Hex(canonicalJson([seq, prevHash, tableId, type, atMs, payload]));
    prevHash = line['hash'] as string;
  }
  const last = out.filter((l) => l.record === 'entry').at(-1);
  if (last !== undefined && (header['head'] as { seq: number }).seq === last['seq'])
    header['head'] = { seq: last['seq'], hash: last['hash'] };
  const body = out.map((l) => `${canonicalJson(l)}\n`).join('');
  const end = {
    record: 'end',
    lines: out.length,
    sha256: createHash('sha256').update(body).digest('hex'),
  };
  return Buffer.from(`${body}${canonicalJson(end)}\n`);
}

/** The entry line of a type (the n-th, from 0), for a forger to edit. */
export function entryOfType(lines: readonly ExportLine[], type: string, n = 0): ExportLine {
  const found = lines.filter((l) => l.record === 'entry' && l['type'] === type)[n];
  if (found === undefined) throw new Error(`no ${type} entry #${n} in the export`);
  return found;
}

export { GENESIS_HASH };

/** 1 Jan 2026 00:00 UTC: the instant a played floor's clock starts at. */
export const T0 = 1_767_225_600_000;

/**
 * Two seeded tables on a ticking clock (the journal of hash-format.test.ts):
 * an electronic one with a void roll and withdrawals, and a lever one; the
 * cage's deposits. The same seeds give the same journal on either engine.
 */
export async function playFloor(store: Store, clock: () => number): Promise<void> {
  const common = { store, clock } as const;
  await playTable({
    ...common,
    tableId: 'T1',
    rounds: 6,
    players: 4,
    seed: 'export',
    shaker: 'electronic',
  });
  await playTable({
    ...common,
    tableId: 'T2',
    rounds: 3,
    players: 2,
    seed: 'export-lever',
    shaker: 'lever',
  });
}

/** A clock that moves on by 250 ms each time it is read, from T0. */
export function tickingClock(start = T0): () => number {
  let tick = start;
  return () => (tick += 250);
}

const T = 'T1';
const ODDS_24 = { ...DEFAULT_PAYTABLE, totalOdds: { '5/16': 24, '6/15': 14 } };
const TOTAL_5_ROUND = {
  dice: [1, 1, 3] as const,
  bets: [{ betId: 'b5', playerId: 'bob', spot: 'total:5', stakeMinor: 1_000 }],
};

/**
 * Art. 8 done right: a lever table's 5/16 odds go from 18 to 24 by a proposal
 * of Monday 2 March 2026, authorized on the 3rd and adopted on Friday the 6th,
 * after a round at 18; then a total of 5 pays 24.
 */
export async function adoptOdds(store: Store): Promise<void> {
  const clock = testClock(macauMs('2026-03-02', 10));
  const tables = new TableService({ store, clock: clock.now });
  const holidays = new HolidayCalendarService(store);
  const options = new HouseOptionsService({ store, tables, holidays, clock: clock.now });
  await createLeverTable(tables, T);
  await fundPlayers(store, ['alice', 'bob']);
  const proposal = { proposalId: 'P1', options: { paytable: ODDS_24 }, adoptionDate: '2026-03-06' };
  if (!(await options.propose(T, proposal, 'sup-1')).ok) throw new Error('propose');
  clock.at('2026-03-03');
  const authorization = { reference: 'DICJ/2026/0042', authorizedOn: '2026-03-03' };
  if (!(await options.authorize(T, 'P1', authorization, 'insp-1')).ok) throw new Error('authorize');
  clock.at('2026-03-06', 9);
  await playLeverRounds(tables, T, [TOTAL_5_ROUND]);
  if ((await options.adoptDue(T)) !== 'P1') throw new Error('adopt');
  await playLeverRounds(tables, T, [
    { ...TOTAL_5_ROUND, bets: [{ ...TOTAL_5_ROUND.bets[0]!, betId: 'b6' }] },
  ]);
}

/**
 * Art. 8 broken: the same table's 5/16 odds go to 24 between two rounds with
 * no proposal and no authorization (the table's queue told to change them, as
 * only an adoption should), and a total of 5 is paid at 24.
 */
export async function rogueOdds(store: Store): Promise<void> {
  const clock = testClock(macauMs('2026-03-02', 10));
  const tables = new TableService({ store, clock: clock.now });
  await createLeverTable(tables, T);
  await fundPlayers(store, ['alice', 'bob']);
  await playLeverRounds(tables, T, [TOTAL_5_ROUND]);
  const authorization = (await tables.snapshot(T))!.settings.authorization!;
  const changed = await tables.changeHouseOptions(T, {
    options: { shaker: 'lever', displayBoard: true, paytable: ODDS_24 },
    authorization,
    changedBy: 'sup-1',
    entries: [],
  });
  if (!changed.ok) throw new Error(`rogue change: ${changed.rejection.code}`);
  await runAll(
    tables,
    T,
    leverRound({ ...TOTAL_5_ROUND, bets: [{ ...TOTAL_5_ROUND.bets[0]!, betId: 'b6' }] }),
  );
}
