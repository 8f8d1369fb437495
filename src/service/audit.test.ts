import { expect, it } from 'vitest';
import { canonicalJson } from '../journal/index.js';
import { withStores } from '../ledger/testing.js';
import { bankrollAccount, type Store, walletAccount } from '../ledger/index.js';
import { createPrng, type Prng } from '../dice/index.js';
import type { Command } from '../table/index.js';
import { AuditCheckpointError } from './audit.js';
import { audit } from './audit-runner.js';
import { deposit, openWallet, withdraw } from './cage.js';
import { simulatedTableSettings } from './table-settings.js';
import { TableService } from './table-service.js';

const players = ['p1', 'p2', 'p3'];

/** Plays seeded rounds with bets on random spots, voids and withdrawals. */
async function play(store: Store, rounds: number, seed: number): Promise<void> {
  const prng = createPrng(seed);
  const service = new TableService({ store, random: prng });
  await service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
  for (const p of players) {
    await openWallet(store, p);
    await deposit(store, {
      playerId: p,
      amountMinor: 10_000_000,
      cashierId: 'c',
      idempotencyKey: `d-${p}`,
    });
  }
  await playRounds(service, prng, 1, rounds);
  await withdraw(store, {
    playerId: 'p2',
    amountMinor: 1_000,
    cashierId: 'c',
    idempotencyKey: 'w-p2',
  });
}

/** Plays rounds first…last on table T1, its players' wallets funded. */
async function playRounds(
  service: TableService,
  prng: Prng,
  first: number,
  last: number,
): Promise<void> {
  const run = async (command: Command | { type: 'trigger-shaker' }) => {
    const outcome = await service.execute({ tableId: 'T1', command });
    if (!outcome.ok && command.type !== 'place-bet' && command.type !== 'withdraw-bet')
      throw new Error(outcome.rejection.code);
  };
  const spots = (await service.snapshot('T1'))!.settings.paytable.spots;
  for (let r = first; r <= last; r++) {
    await run({ type: 'cover' });
    for (let roll = 1; ; roll++) {
      await run({ type: 'fasten-latches' });
      await run({ type: 'trigger-shaker' });
      await run({ type: 'open-betting' });
      for (let b = 0; b < 8; b++) {
        await run({
          type: 'place-bet',
          betId: `r${r}-${roll}-${b}`,
          playerId: prng.pick(players),
          spot: prng.pick(spots),
          stakeMinor: prng.int(1, 50) * 1_000,
        });
      }
      await run({ type: 'withdraw-bet', betId: `r${r}-${roll}-0`, playerId: 'p1' });
      await run({ type: 'ring-bell' });
      await run({ type: 'lift-dome' });
      if (roll > 1 || !prng.chance(0.3)) break;
      await run({ type: 'void-roll', reason: 'stacked' });
      await run({ type: 'cover' });
    }
    await run({ type: 'reveal-dice' });
    await run({ type: 'pay-all' });
  }
}

/** SQL literals of rows, for writing them into an older schema behind the store's back. */
function sqlValues(rows: readonly (readonly (string | number | null)[])[]): string {
  const literal = (v: string | number | null): string =>
    v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`;
  return rows.map((r) => `(${r.map(literal).join(', ')})`).join(', ');
}

withStores('audit', (h) => {
  it('audits a database of the release before (hex hashes, stored prev_hash) alike once migrated', async () => {
    // A played table, copied row by row into a database left at migration 5 in that
    // release's format, then opened: migration 6 rewrites the journal.
    const source = h.freshDb();
    const played = await h.open({ db: source });
    await play(played, 2, 11);
    const entries = await played.readJournal({ fromSeq: 1, limit: 1_000 });
    const db = h.freshDb();
    await h.migrateTo(db, 5);
    const accounts = await played.listAccounts();
    await h.raw(
      db,
      `INSERT INTO accounts (id, kind, balance_minor, created_at_ms) VALUES
      ${sqlValues(accounts.map((a) => [a.id, a.kind, a.balanceMinor, a.createdAtMs]))}
      ON CONFLICT (id) DO UPDATE SET balance_minor = excluded.balance_minor`,
    );
    const transfers = await played.listTransfers();
    await h.raw(
      db,
      `INSERT INTO transfers (id, debit_account_id, credit_account_id, amount_minor, kind, reference, created_at_ms)
      VALUES ${sqlValues(transfers.map((t) => [t.id, t.debitAccountId, t.creditAccountId, t.amountMinor, t.kind, t.reference, t.createdAtMs]))}`,
    );
    const tables = (await h.raw(
      source,
      'SELECT id, config_json, state_json, version, updated_at_ms FROM tables',
    )) as Record<string, string | number>[];
    await h.raw(
      db,
      `INSERT INTO tables (id, config_json, state_json, version, updated_at_ms)
      VALUES ${sqlValues(tables.map((t) => [t.id!, t.config_json!, t.state_json!, t.version!, t.updated_at_ms!]))}`,
    );
    await h.raw(
      db,
      `INSERT INTO journal (seq, table_id, type, payload_json, at_ms, prev_hash, hash)
      VALUES ${sqlValues(entries.map((e) => [e.seq, e.tableId, e.type, JSON.stringify(e.payload), e.atMs, e.prevHash, e.hash]))}`,
    );
    const last = entries[entries.length - 1]!;
    await h.raw(
      db,
      `UPDATE journal_head SET last_seq = ${last.seq}, last_hash = '${last.hash}' WHERE chain = 'global'`,
    );
    const store = await h.open({ db });
    expect(await store.schemaVersions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(await store.readJournal({ fromSeq: 1, limit: 1_000 })).toEqual(entries);
    expect(await h.raw(db, 'SELECT DISTINCT length(hash) AS n FROM journal')).toEqual([{ n: 32 }]);
    expect(await audit(store)).toMatchObject({ ok: true, rounds: 2 });
  });

  it('reads and audits a journal kept as canonical JSON before migration 9 and compact after it as one', async () => {
    // A played table copied row by row into a database left at migration 8, as that
    // release kept it (every payload as its canonical JSON), then opened and played on.
    const source = h.freshDb();
    const played = await h.open({ db: source });
    await play(played, 2, 12);
    const entries = await played.readJournal({ fromSeq: 1, limit: 1_000 });
    const db = h.freshDb();
    await h.migrateTo(db, 8);
    const accounts = await played.listAccounts();
    await h.raw(
      db,
      `INSERT INTO accounts (id, kind, balance_minor, created_at_ms) VALUES
      ${sqlValues(accounts.map((a) => [a.id, a.kind, a.balanceMinor, a.createdAtMs]))}
      ON CONFLICT (id) DO UPDATE SET balance_minor = excluded.balance_minor`,
    );
    const transfers = await played.listTransfers();
    await h.raw(
      db,
      `INSERT INTO transfers (id, debit_account_id, credit_account_id, amount_minor, kind, reference, created_at_ms)
      VALUES ${sqlValues(transfers.map((t) => [t.id, t.debitAccountId, t.creditAccountId, t.amountMinor, t.kind, t.reference, t.createdAtMs]))}`,
    );
    const tables = (await h.raw(
      source,
      'SELECT id, config_json, state_json, version, updated_at_ms FROM tables',
    )) as Record<string, string | number>[];
    await h.raw(
      db,
      `INSERT INTO tables (id, config_json, state_json, version, updated_at_ms)
      VALUES ${sqlValues(tables.map((t) => [t.id!, t.config_json!, t.state_json!, t.version!, t.updated_at_ms!]))}`,
    );
    const bytes = (hex: string): string =>
      h.engine === 'sqlite' ? `unhex('${hex}')` : `decode('${hex}', 'hex')`;
    const rows = entries.map(
      (e) =>
        `${sqlValues([[e.seq, e.tableId, e.type, canonicalJson(e.payload), e.atMs]]).slice(0, -1)}, ${bytes(e.hash)})`,
    );
    await h.raw(
      db,
      `INSERT INTO journal (seq, table_id, type, payload_json, at_ms, hash) VALUES ${rows.join(', ')}`,
    );
    const last = entries[entries.length - 1]!;
    await h.raw(
      db,
      `UPDATE journal_head SET last_seq = ${last.seq}, last_hash = '${last.hash}' WHERE chain = 'global'`,
    );
    const store = await h.open({ db });
    expect(await store.schemaVersions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const prng = createPrng(13);
    await playRounds(new TableService({ store, random: prng }), prng, 3, 4);
    const read = await store.readJournal({ fromSeq: 1, limit: 1_000 });
    expect(read.slice(0, entries.length)).toEqual(entries);
    expect(read.length).toBeGreaterThan(entries.length);
    expect(
      await h.raw(
        db,
        `SELECT substr(payload_json, 1, 1) AS form FROM journal WHERE type = 'bet-placed' GROUP BY 1 ORDER BY 1`,
      ),
    ).toEqual([{ form: '[' }, { form: '{' }]);
    expect(await audit(store)).toMatchObject({ ok: true, rounds: 4 });
  });

  it('passes on a ledger and journal written by the service', async () => {
    const store = await h.open();
    await play(store, 6, 7);
    const result = await audit(store);
    expect(result).toMatchObject({ ok: true, rounds: 6 });
  });

  it('names a transfer that no journal entry implies', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await play(store, 2, 8);
    await store.transaction(async (tx) => {
      await tx.postTransfers([
        {
          id: 'stray',
          debitAccountId: bankrollAccount('T1').id,
          creditAccountId: walletAccount('p1').id,
          amountMinor: 5,
          currency: 'MOP',
          kind: 'payout',
          reference: 'x',
        },
      ]);
    });
    const result = await audit(store);
    expect(result).toMatchObject({ ok: false, failure: { check: 'ledger' } });
    expect(result.ok ? '' : result.failure.message).toContain('transfer stray');
  });

  it('continues from a checkpoint taken mid-round and agrees with a full audit', async () => {
    const store = await h.open();
    await play(store, 2, 21);
    const service = new TableService({ store, random: createPrng(5) });
    const run = async (command: Command | { type: 'trigger-shaker' }) => {
      const outcome = await service.execute({ tableId: 'T1', command });
      if (!outcome.ok) throw new Error(outcome.rejection.code);
    };
    for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'] as const)
      await run({ type } as Command);
    const spots = (await service.snapshot('T1'))!.settings.paytable.spots.slice(0, 3);
    for (const [i, spot] of spots.entries())
      await run({ type: 'place-bet', betId: `m${i}`, playerId: 'p3', spot, stakeMinor: 2_000 });
    const first = await audit(store);
    if (!first.ok) throw new Error(first.failure.message);
    expect(first.from).toEqual({ seq: 0, hash: '0'.repeat(64) });
    for (const type of ['ring-bell', 'lift-dome', 'reveal-dice', 'pay-all'] as const)
      await run({ type });

    const later = await audit(store, { from: 'latest' });
    const full = await audit(store, { saveCheckpoint: false });
    expect(later).toMatchObject({ ok: true, from: first.checkedTo, rounds: 3 });
    expect(full).toMatchObject({ ok: true, from: { seq: 0 } });
    const { from: _later, ...laterCounts } = later as Extract<typeof later, { ok: true }>;
    const { from: _full, ...fullCounts } = full as Extract<typeof full, { ok: true }>;
    expect(laterCounts).toEqual(fullCounts);
  });

  it('finds from a checkpoint a transfer no entry implies, and refuses an unknown checkpoint', async () => {
    const store = await h.open();
    await play(store, 1, 22);
    const first = await audit(store);
    if (!first.ok) throw new Error(first.failure.message);
    await store.transaction((tx) =>
      tx.postTransfers([
        {
          id: 'stray',
          debitAccountId: bankrollAccount('T1').id,
          creditAccountId: walletAccount('p1').id,
          amountMinor: 5,
          currency: 'MOP',
          kind: 'payout',
          reference: 'x',
        },
      ]),
    );
    expect(await audit(store, { from: first.checkedTo })).toMatchObject({
      ok: false,
      failure: { check: 'ledger' },
    });
    await expect(
      audit(store, { from: { seq: first.checkedTo.seq, hash: 'f'.repeat(64) } }),
    ).rejects.toBeInstanceOf(AuditCheckpointError);
    await expect(audit(store, { from: { seq: 1, hash: 'f'.repeat(64) } })).rejects.toThrow(
      /no verified checkpoint at journal entry 1/,
    );
  });

  it('reads from a checkpoint only the entries after it: history edited since goes unseen there, not from the genesis', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await play(store, 2, 10);
    const first = await audit(store);
    if (!first.ok) throw new Error(first.failure.message);
    await play(store, 1, 11);
    const triggerDrop =
      h.engine === 'sqlite'
        ? 'DROP TRIGGER IF EXISTS journal_refuse_update'
        : 'ALTER TABLE journal DISABLE TRIGGER USER';
    await h.raw(db, triggerDrop);
    // An entry the checkpoint vouches for is changed: only a read of the history would see it.
    const [bet] = (await h.raw(
      db,
      `SELECT seq, payload_json AS "payloadJson" FROM journal WHERE type = 'bet-placed' ORDER BY seq LIMIT 1`,
    )) as { seq: number; payloadJson: string }[];
    // [layout, atMsLag, roundNo, rollNo, betId, playerId, spot, stakeMinor, …] (journal/stored-payload.ts)
    const values = JSON.parse(bet!.payloadJson) as number[];
    values[7] = values[7]! + 1_000;
    await h.raw(
      db,
      `UPDATE journal SET payload_json = '${JSON.stringify(values)}' WHERE seq = ${bet!.seq}`,
    );
    const daily = await audit(store, { from: 'latest', saveCheckpoint: false });
    expect(daily).toMatchObject({ ok: true, from: first.checkedTo });
    expect((daily as { checkedTo: { seq: number } }).checkedTo.seq).toBeGreaterThan(
      first.checkedTo.seq,
    );
    expect(await audit(store, { saveCheckpoint: false })).toMatchObject({
      ok: false,
      failure: { check: 'chain' },
    });
  });

  it('names the first journal entry whose payload was edited', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await play(store, 2, 9);
    // The journal refuses UPDATE; an attacker with the file drops the trigger first.
    const triggerDrop =
      h.engine === 'sqlite'
        ? 'DROP TRIGGER IF EXISTS journal_refuse_update'
        : 'ALTER TABLE journal DISABLE TRIGGER USER';
    await h.raw(db, triggerDrop);
    const [bet] = (await h.raw(
      db,
      `SELECT seq, payload_json AS "payloadJson" FROM journal WHERE type = 'bet-placed' ORDER BY seq LIMIT 1`,
    )) as { seq: number; payloadJson: string }[];
    // [layout, atMsLag, roundNo, rollNo, betId, playerId, spot, stakeMinor, …] (journal/stored-payload.ts)
    const values = JSON.parse(bet!.payloadJson) as number[];
    values[7] = values[7]! + 1_000;
    await h.raw(
      db,
      `UPDATE journal SET payload_json = '${JSON.stringify(values)}' WHERE seq = ${bet!.seq}`,
    );
    const result = await audit(store);
    expect(result).toMatchObject({ ok: false, failure: { check: 'chain' } });
  });
});
