/**
 * Lei 10/2012, art. 11: an exclusion that starts while the person's bets
 * stand in a round. The round settles and pays as any other; the player's net
 * winnings of that round go to the Macau SAR's account, in the same
 * transaction, journaled; the audit and the independent verifier agree.
 */
import { expect, it } from 'vitest';
import { bundledCalendar, macauDate } from '../compliance/index.js';
import { SAR_ACCOUNT_ID, type Store, walletAccount } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { audit } from './audit-runner.js';
import { recallRounds } from './recall.js';
import { PeopleAdmission } from './bet-admission.js';
import { deposit, openWallet } from './cage.js';
import { exportBytes, verifyBytes } from './export/testing.js';
import { markedIdentity, People } from './people.js';
import { simulatedTableSettings } from './table-settings.js';
import { type CommandRequest, TableService } from './table-service.js';

const T = 'LV1';
type Command = CommandRequest['command'];

async function player(
  store: Store,
  people: People,
  id: string,
  fundMinor = 100_000,
): Promise<void> {
  await store.transaction((tx) =>
    tx.createUser({ id, username: id, displayName: id, role: 'player', passwordHash: 'scrypt$x' }),
  );
  await people.recordIdentity(id, markedIdentity(id, `Player ${id}`, 'simulated'), 'test');
  await openWallet(store, id);
  await deposit(store, {
    playerId: id,
    amountMinor: fundMinor,
    cashierId: 'test',
    idempotencyKey: `fund-${id}`,
  });
}

async function lever(store: Store, stakeMinorMax?: number) {
  const people = new People({ store, calendar: () => Promise.resolve(bundledCalendar()) });
  const admission = new PeopleAdmission(people, store);
  people.onChange(() => admission.changed());
  const service = new TableService({ store, admission });
  await service.createTable({
    ...simulatedTableSettings(T),
    shaker: 'lever',
    bettingTimerMs: null,
    ...(stakeMinorMax === undefined
      ? {}
      : { stakeMinorMax, liabilityMinorMax: stakeMinorMax * 200 }),
  });
  const run = async (command: Command) => {
    const outcome = await service.execute({ tableId: T, command });
    if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
    return outcome;
  };
  const bet = (betId: string, playerId: string, spot: string, stakeMinor: number) =>
    service.execute({
      tableId: T,
      command: { type: 'place-bet', betId, playerId, spot, stakeMinor },
    });
  const open = async () => {
    for (const type of ['cover', 'fasten-latches', 'pull-lever', 'pull-lever', 'pull-lever'])
      await run({ type } as Command);
    await run({ type: 'open-betting' });
  };
  const close = async (dice: [number, number, number]) => {
    await run({ type: 'ring-bell' });
    await run({ type: 'lift-dome' });
    await run({ type: 'read-dice', dice, croupierId: 'c1' } as Command);
    return run({ type: 'pay-all' });
  };
  return { people, service, bet, open, close };
}

const balance = async (store: Store, id: string) =>
  (await store.getAccount(id))?.balanceMinor ?? null;

/** An order barring `playerId`'s (simulated) document from today. */
const selfExclusion = (id: string, playerId: string) => {
  const today = macauDate(Date.now());
  const identity = markedIdentity(playerId, `Player ${playerId}`, 'simulated');
  return {
    id,
    kind: 'self',
    dicjReference: `DICJ/EXC/${id}`,
    documentType: identity.documentType,
    documentNumber: identity.documentNumber,
    fullName: null,
    dateOfBirth: null,
    from: today,
    to: today,
    revocationRequestedOn: null,
  };
};

withStores('Lei 10/2012, art. 11: a barred player forfeits the net winnings', (h) => {
  it('records a bet and a payout of the threshold or more in the large-transaction register (Instrução 1/2016)', async () => {
    const store = await h.open();
    const t = await lever(store, 60_000_000);
    await player(store, t.people, 'pa', 200_000_000);
    await t.open();
    const big = await t.bet('a1', 'pa', 'big', 50_000_000);
    expect(big.ok ? 'ok' : big.rejection.code).toBe('ok');
    expect((await t.bet('a2', 'pa', 'small', 1_000)).ok).toBe(true);
    await t.close([4, 5, 6]);
    const rows = await store.registers.largeTransactions({ fromMs: 0, toMs: Date.now() + 1 });
    expect(rows.map((r) => [r.kind, r.amountMinor, r.tableId])).toEqual([
      ['bet', 50_000_000, T],
      ['payout', 100_000_000, T],
    ]);
    const entries = await store.readJournal({ fromSeq: 0, limit: 1_000 });
    expect(entries.filter((e) => e.type === 'large-transaction-recorded')).toHaveLength(2);
    expect(await audit(store)).toMatchObject({ ok: true });
  });

  it('settles the round, then moves the excluded player’s net winnings to the SAR, once', async () => {
    const store = await h.open();
    const t = await lever(store);
    await player(store, t.people, 'pa');
    await player(store, t.people, 'pb');
    await t.open();
    expect((await t.bet('a1', 'pa', 'big', 2_000)).ok).toBe(true);
    expect((await t.bet('a2', 'pa', 'small', 1_000)).ok).toBe(true);
    expect((await t.bet('b1', 'pb', 'big', 1_000)).ok).toBe(true);
    // The exclusion starts while pa's bets stand: the round goes on.
    await t.people.recordExclusion(selfExclusion('X-ART11', 'pa'), 'inspector-1');
    expect(await t.bet('a3', 'pa', 'big', 1_000)).toMatchObject({
      ok: false,
      rejection: { code: 'excluded' },
    });
    const paid = await t.close([4, 5, 6]);
    expect(paid.events.map((e) => e.event.type)).toContain('prizes-paid');

    // pa staked 3,000 and got 4,000 back: the net 1,000 goes to the SAR, pa keeps the stakes.
    expect(await balance(store, walletAccount('pa').id)).toBe(100_000);
    expect(await balance(store, SAR_ACCOUNT_ID)).toBe(1_000);
    // pb, not barred, keeps the win.
    expect(await balance(store, walletAccount('pb').id)).toBe(101_000);
    const entries = await store.readJournal({ fromSeq: 0, limit: 1_000, tableId: T });
    const types = entries.map((e) => e.type);
    const forfeit = entries.find((e) => e.type === 'winnings-forfeited');
    expect(types.indexOf('winnings-forfeited')).toBe(types.indexOf('prizes-paid') + 1);
    expect(forfeit?.payload).toEqual({
      tableId: T,
      roundNo: 1,
      playerId: 'pa',
      stakesMinor: 3_000,
      returnsMinor: 4_000,
      forfeitedMinor: 1_000,
      transferId: `forfeit:${T}:1:pa`,
    });
    const [recalled] = (await recallRounds(store, T, 1))!;
    expect(
      recalled!.players.map((p) => [p.playerId, p.forfeitedMinor, p.balanceAfterMinor]),
    ).toEqual([
      ['pa', 1_000, 100_000],
      ['pb', 0, 101_000],
    ]);
    expect(await audit(store)).toMatchObject({ ok: true, rounds: 1 });
    const verdict = verifyBytes(await exportBytes(store));
    expect(verdict).toMatchObject({ ok: true });
  });

  it('takes nothing from a barred player who lost, or broke even', async () => {
    const store = await h.open();
    const t = await lever(store);
    await player(store, t.people, 'pa');
    await t.open();
    expect((await t.bet('a1', 'pa', 'small', 1_000)).ok).toBe(true);
    await t.people.recordExclusion(selfExclusion('X-LOST', 'pa'), 'inspector-1');
    await t.close([4, 5, 6]);
    expect(await balance(store, walletAccount('pa').id)).toBe(99_000);
    expect(await balance(store, SAR_ACCOUNT_ID)).toBeNull();
    const entries = await store.readJournal({ fromSeq: 0, limit: 1_000, tableId: T });
    expect(entries.some((e) => e.type === 'winnings-forfeited')).toBe(false);
    expect(await audit(store)).toMatchObject({ ok: true });
  });

  it('passes the audit, and the verifier refuses a forfeit one avo off its net winnings', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    const t = await lever(store);
    await player(store, t.people, 'pa');
    await t.open();
    await t.bet('a1', 'pa', 'big', 1_000);
    await t.people.recordExclusion(selfExclusion('X-BAD', 'pa'), 'inspector-1');
    await t.close([4, 5, 6]);
    expect(await audit(store)).toMatchObject({ ok: true });
    // The independent verifier recomputes it from the bets: one avo more fails.
    const bytes = await exportBytes(store);
    const text = bytes.toString('utf8').replace('"forfeitedMinor":1000', '"forfeitedMinor":1001');
    expect(text).not.toBe(bytes.toString('utf8'));
    expect(verifyBytes(Buffer.from(text))).toMatchObject({ ok: false });
  });
});
