/**
 * Races at the table: bets fired at the moment the bell rings, and prizes paid
 * twice at once — through one service, and through two services on two stores
 * over one database (two nodes).
 */
import { expect, it } from 'vitest';
import { createPrng, type RandomSource } from '../dice/index.js';
import { inPlayAccount, type Store, walletAccount } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { betResults, type Command, type RoundEvent } from '../table/index.js';
import { deposit, openWallet } from './cage.js';
import { readTableJournal, StandingBets } from './round-snapshot.js';
import { simulatedTableSettings } from './table-settings.js';
import { type CommandOutcome, TableService } from './table-service.js';
import { isRoundEventEntry } from '../journal/index.js';

const T = 'T1';
const PLAYERS = ['ana', 'bo', 'chan', 'dora'];
const FUNDS_MINOR = 10_000_000;

type AnyCommand = Command | { readonly type: 'trigger-shaker' };

async function table(store: Store, seed: number): Promise<TableService> {
  const service = new TableService({ store, random: createPrng(seed) });
  await service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  for (const playerId of PLAYERS) {
    await openWallet(store, playerId);
    await deposit(store, {
      playerId,
      amountMinor: FUNDS_MINOR,
      cashierId: 'cage',
      idempotencyKey: `fund-${playerId}`,
    });
  }
  return service;
}

const run = (service: TableService, command: AnyCommand, idempotencyKey?: string) =>
  service.execute({ tableId: T, command, ...(idempotencyKey ? { idempotencyKey } : {}) });

async function steps(service: TableService, ...commands: AnyCommand[]): Promise<void> {
  for (const command of commands) {
    const outcome = await run(service, command);
    if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
  }
}

const OPEN: AnyCommand[] = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
];

const bet = (betId: string, playerId: string, spot: string, stakeMinor: number): Command => ({
  type: 'place-bet',
  betId,
  playerId,
  spot,
  stakeMinor,
});

const seqOf = (outcome: CommandOutcome): number => (outcome.ok ? outcome.events[0]!.seq : NaN);

async function balance(store: Store, accountId: string): Promise<number> {
  return (await store.getAccount(accountId))!.balanceMinor;
}

async function roundEvents(store: Store, roundNo: number): Promise<RoundEvent[]> {
  const events: RoundEvent[] = [];
  for await (const entry of readTableJournal(store, T, 1)) {
    if (isRoundEventEntry(entry) && entry.payload.roundNo === roundNo) events.push(entry.payload);
  }
  return events;
}

/** Two services, on one store or on two stores over one database (two nodes). */
async function nodes(
  h: Parameters<Parameters<typeof withStores>[1]>[0],
  twoNodes: boolean,
): Promise<{ a: TableService; b: TableService; store: Store }> {
  const db = h.freshDb();
  const store = await h.open({ db });
  const a = await table(store, 11);
  const b = twoNodes ? new TableService({ store: await h.open({ db }) }) : a;
  return { a, b, store };
}

withStores('races at the table', (h) => {
  it.each([
    ['one node', false],
    ['two nodes', true],
  ])('lands no bet after the bell (Art. 3.1), %s', async (_name, twoNodes) => {
    const { a, b, store } = await nodes(h, twoNodes);
    await steps(a, ...OPEN);
    const prng = createPrng(3);
    const stake = () => prng.int(1, 20) * 1_000;
    const stakes = new Map<string, { playerId: string; stakeMinor: number }>();
    const fire = (i: number): Promise<CommandOutcome> => {
      const playerId = prng.pick(PLAYERS);
      const stakeMinor = stake();
      stakes.set(`b${i}`, { playerId, stakeMinor });
      return run(a, bet(`b${i}`, playerId, prng.pick(['small', 'big', 'odd', 'even']), stakeMinor));
    };
    // Some bets are in before the race starts, so some are surely accepted.
    const early = await Promise.all(Array.from({ length: 40 }, (_, i) => fire(i)));
    const racing: Promise<CommandOutcome>[] = [];
    let bell: Promise<CommandOutcome> | undefined;
    for (let i = 40; i < 400; i++) {
      if (i === 200) bell = run(b, { type: 'ring-bell' });
      racing.push(fire(i));
      // Yield now and then, so the bets arrive over several batches on both sides of the bell.
      if (prng.chance(0.1)) await new Promise((r) => setImmediate(r));
    }
    const bellOutcome = await bell!;
    // Bets sent once the bell is known on either node are surely late: the race never
    // depends on which side of the bell the scheduler put the racing ones.
    const late = Array.from({ length: 20 }, (_, k) => {
      const i = 400 + k;
      const playerId = prng.pick(PLAYERS);
      stakes.set(`b${i}`, { playerId, stakeMinor: 1_000 });
      return run(k % 2 ? a : b, bet(`b${i}`, playerId, 'small', 1_000));
    });
    const outcomes = [...early, ...(await Promise.all(racing)), ...(await Promise.all(late))];
    const bellSeq = seqOf(bellOutcome);
    expect(bellSeq).toBeGreaterThan(0);

    const accepted = outcomes.flatMap((o, i) => (o.ok ? [`b${i}`] : []));
    for (const o of outcomes) {
      if (o.ok) expect(seqOf(o)).toBeLessThan(bellSeq);
      else expect(o.rejection).toMatchObject({ code: 'betting_closed', article: '3.1' });
    }
    expect(accepted.length).toBeGreaterThanOrEqual(40);
    expect(outcomes.slice(400).every((o) => !o.ok)).toBe(true);

    // The journal agrees: every bet entry of the round precedes the bell, one per accepted bet.
    const events = await roundEvents(store, 1);
    const bellAt = events.findIndex((e) => e.type === 'bell-rung');
    const placed = events.filter((e) => e.type === 'bet-placed');
    expect(events.slice(bellAt).some((e) => e.type === 'bet-placed')).toBe(false);
    expect(placed.map((e) => e.bet.betId).sort()).toEqual([...accepted].sort());

    // And so does the money: in play is exactly the accepted stakes, taken once from each wallet.
    const total = accepted.reduce((s, id) => s + stakes.get(id)!.stakeMinor, 0);
    expect(await balance(store, inPlayAccount(T).id)).toBe(total);
    expect(events[bellAt]).toMatchObject({ betCount: accepted.length, totalStakeMinor: total });
    for (const playerId of PLAYERS) {
      const own = accepted.filter((id) => stakes.get(id)!.playerId === playerId);
      const spent = own.reduce((s, id) => s + stakes.get(id)!.stakeMinor, 0);
      expect(await balance(store, walletAccount(playerId).id)).toBe(FUNDS_MINOR - spent);
    }
  });

  /** A round with a sure winner (odd or even always wins, Art. 5.7–5.8), revealed and unpaid. */
  async function revealedRound(service: TableService): Promise<void> {
    await steps(
      service,
      ...OPEN,
      bet('odd1', 'ana', 'odd', 50_000),
      bet('even1', 'bo', 'even', 30_000),
      bet('small1', 'chan', 'small', 20_000),
      bet('t1', 'dora', 'triple:2', 1_000),
      { type: 'ring-bell' },
      { type: 'lift-dome' },
      { type: 'reveal-dice' },
    );
  }

  /** Every wallet is its deposit − stakes + what the settlement returned, and nothing is in play. */
  async function paidOnce(store: Store, service: TableService): Promise<void> {
    const events = await roundEvents(store, 1);
    expect(events.filter((e) => e.type === 'prizes-paid')).toHaveLength(1);
    const settled = events.find((e) => e.type === 'round-settled')!;
    if (settled.type !== 'round-settled') throw new Error('unreachable');
    const payouts = await store.transfersByReference(`round:${T}:1`);
    const standing = new StandingBets();
    for (const e of events) standing.apply(e);
    const results = betResults(standing.list, settled);
    const winners = results.filter((r) => r.returnedMinor > 0);
    expect(winners.length).toBeGreaterThan(0);
    expect(payouts.filter((t) => t.kind === 'payout')).toHaveLength(winners.length);
    expect(payouts.filter((t) => t.kind === 'stakes-collected')).toHaveLength(1);
    for (const playerId of PLAYERS) {
      const own = results.filter((r) => r.playerId === playerId);
      const net = own.reduce((s, r) => s - r.stakeMinor + r.returnedMinor, 0);
      expect(await balance(store, walletAccount(playerId).id)).toBe(FUNDS_MINOR + net);
    }
    expect(await balance(store, inPlayAccount(T).id)).toBe(0);
    expect((await service.snapshot(T))!.state.phase).toBe('paid');
  }

  it.each([
    ['one node', false],
    ['two nodes', true],
  ])('pays a round once when two settlements race (Art. 4), %s', async (_name, twoNodes) => {
    const { a, b, store } = await nodes(h, twoNodes);
    await revealedRound(a);
    const outcomes = await Promise.all([
      run(a, { type: 'pay-all' }),
      run(b, { type: 'pay-all' }),
      run(a, { type: 'pay-all' }),
      run(b, { type: 'pay-all' }),
    ]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    for (const o of outcomes.filter((x) => !x.ok))
      expect(o.ok ? '' : o.rejection.code).toBe('prizes_already_paid');
    await paidOnce(store, a);
  });

  it.each([
    ['one node', false],
    ['two nodes', true],
  ])(
    'answers a pay-all retried with its idempotency key with the first payment, %s',
    async (_name, twoNodes) => {
      const { a, b, store } = await nodes(h, twoNodes);
      await revealedRound(a);
      const pay = { type: 'pay-all' } as const;
      // The same key at once on both nodes (and twice in one batch), then once more later.
      const outcomes = await Promise.all([
        run(a, pay, 'pay-1'),
        run(a, pay, 'pay-1'),
        run(b, pay, 'pay-1'),
      ]);
      outcomes.push(await run(b, pay, 'pay-1'), await run(a, pay, 'pay-1'));
      expect(outcomes[0].ok).toBe(true);
      for (const o of outcomes) expect(o).toEqual(outcomes[0]);
      await paidOnce(store, a);
    },
  );

  it('refuses alone a bet its wallet cannot pay inside a busy batch, and keeps the dice it sealed', async () => {
    // One turn brings the shake, the opening and the bets: one batch. A bet too big
    // for its wallet makes the batch run again command by command (see deferMoney).
    const play = async (lastStakeMinor: number) => {
      const store = await h.open();
      const prng = createPrng(21);
      let draws = 0;
      const random: RandomSource = { fill: (t) => (draws++, prng.fill(t)) };
      const service = new TableService({ store, random });
      await service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
      await openWallet(store, 'ana');
      await deposit(store, {
        playerId: 'ana',
        amountMinor: 50_000,
        cashierId: 'c',
        idempotencyKey: 'f',
      });
      await steps(service, { type: 'cover' }, { type: 'fasten-latches' });
      const outcomes = await Promise.all([
        run(service, { type: 'trigger-shaker' }),
        run(service, { type: 'open-betting' }),
        run(service, bet('x1', 'ana', 'small', 30_000)),
        run(service, bet('x2', 'ana', 'big', lastStakeMinor)),
        run(service, bet('x3', 'ana', 'odd', 10_000)),
      ]);
      const codes = outcomes.map((o) => (o.ok ? 'ok' : o.rejection.code));
      const shaken = outcomes[0].ok ? outcomes[0].events[0]!.event : undefined;
      const commitmentHex = shaken?.type === 'dice-shaken' ? shaken.commitmentHex : undefined;
      return { codes, draws, commitmentHex, wallet: await balance(store, walletAccount('ana').id) };
    };
    const fits = await play(10_000);
    const short = await play(25_000);
    expect(fits.codes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(short.codes).toEqual(['ok', 'ok', 'ok', 'insufficient_funds', 'ok']);
    expect(short.wallet).toBe(10_000);
    // The second attempt reused the first one's seal: no extra draw, the same commitment.
    expect(short.draws).toBe(fits.draws);
    expect(short.commitmentHex).toMatch(/^[0-9a-f]{64}$/);
    expect(short.commitmentHex).toBe(fits.commitmentHex);
  });
});
