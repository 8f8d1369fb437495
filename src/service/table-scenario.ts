/**
 * A seeded table played through the TableService with a fixed clock: rounds
 * with bets, withdrawals, refusals (the liability cap, limits, money, keys),
 * a void roll, changes between rounds and a hold. Its digest covers the
 * table's journal entries (type, time, payload) and every answer's code, so a
 * test can tell that a change of the service left what it writes unchanged.
 */
import { canonicalJson, sha256Hex } from '../journal/index.js';
import type { Store } from '../ledger/index.js';
import { createPrng } from '../dice/index.js';
import { DEFAULT_PAYTABLE } from '../rules/index.js';
import { deposit, openWallet } from './cage.js';
import { simulatedTableSettings } from './table-settings.js';
import { type CommandOutcome, type CommandRequest, TableService } from './table-service.js';

const T = 'G1';
const START_MS = 1_767_225_600_000;

type Command = CommandRequest['command'];

export async function playScenario(store: Store, seed = 'golden'): Promise<string> {
  let now = START_MS;
  const service = new TableService({
    store,
    clock: () => (now += 1_000),
    random: createPrng(seed),
  });
  const answers: unknown[] = [];
  const note = (outcome: CommandOutcome): void => {
    answers.push(
      outcome.ok
        ? { events: outcome.events.map((e) => e.event.type), balanceMinor: outcome.balanceMinor }
        : outcome.rejection.code,
    );
  };
  const run = async (command: Command, idempotencyKey?: string): Promise<void> =>
    note(
      await service.execute({
        tableId: T,
        command,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      }),
    );
  const bet = (betId: string, playerId: string, spot: string, stakeMinor: number): Command => ({
    type: 'place-bet',
    betId,
    playerId,
    spot,
    stakeMinor,
  });
  const steps = async (...types: string[]): Promise<void> => {
    for (const type of types) await run({ type } as Command);
  };

  await service.createTable(
    { ...simulatedTableSettings(T), bettingTimerMs: null, liabilityMinorMax: 200_000 },
    'sup-1',
  );
  for (const [player, amountMinor] of [
    ['alice', 1_000_000],
    ['bob', 1_000_000],
    ['dave', 1_500],
  ] as const) {
    await openWallet(store, player);
    await deposit(store, { playerId: player, amountMinor, cashierId: 'c', idempotencyKey: player });
  }

  // Round 1: bets, a withdrawal, the cap, limits mid-round, keys replayed and in conflict.
  await steps('cover', 'fasten-latches', 'trigger-shaker');
  await run(bet('early', 'alice', 'small', 5_000));
  note(await service.changeLimits(T, { stakeMinorMin: 2_000 }, 'sup-1'));
  await steps('open-betting');
  await run(bet('a1', 'alice', 'small', 5_000), 'k-a1');
  await run(bet('a1', 'alice', 'small', 5_000), 'k-a1');
  await run(bet('a9', 'alice', 'big', 5_000), 'k-a1');
  await run(bet('b1', 'bob', 'triple:1', 1_000));
  await run(bet('b2', 'bob', 'triple:1', 1_000));
  await run(bet('b3', 'bob', 'total:4', Number.MAX_SAFE_INTEGER));
  await run(bet('a2', 'alice', 'big', 3_000));
  await run({ type: 'withdraw-bet', betId: 'a2', playerId: 'alice' });
  await run(bet('d1', 'dave', 'odd', 1_000));
  await run(bet('d2', 'dave', 'even', 1_000));
  note(await service.recordBetweenRounds(T, []));
  await steps('ring-bell', 'lift-dome', 'reveal-dice', 'pay-all');

  // Between rounds: limits (one invalid), house options (Art. 8), a record, a hold.
  note(await service.changeLimits(T, { stakeMinorMin: 2_000_000 }, 'sup-1'));
  note(
    await service.changeLimits(T, { stakeMinorMin: 2_000, liabilityMinorMax: 9_000_000 }, 'sup-1'),
  );
  note(
    await service.changeHouseOptions(T, {
      options: { shaker: 'electronic', displayBoard: false, paytable: DEFAULT_PAYTABLE },
      authorization: {
        mark: 'dicj',
        reference: 'DICJ-1',
        authorizedOn: '2026-01-01',
        recordedBy: 'insp-1',
        proposalId: 'P1',
      },
      changedBy: 'sup-1',
      entries: [
        {
          tableId: T,
          type: 'house-options-adopted',
          payload: {
            type: 'house-options-adopted',
            tableId: T,
            on: '2026-01-02',
            proposalId: 'P1',
            version: 2,
            options: {
              shaker: 'electronic',
              layoutCount: 1,
              displayBoard: false,
              announceAloud: false,
              paytable: DEFAULT_PAYTABLE,
            },
            adoptedBy: 'sup-1',
            authorizationReference: 'DICJ-1',
            supersededProposalIds: [],
          },
        },
      ],
    }),
  );
  note(await service.hold(T, { reason: 'alert', article: '1.1', sinceMs: now }, []));
  await steps('cover');
  note(
    await service.recordBetweenRounds(
      T,
      [
        {
          tableId: T,
          type: 'dice-changed',
          payload: {
            type: 'dice-changed',
            tableId: T,
            diceSetId: 'set-2',
            changedBy: 'sup-1',
            on: '2026-01-02',
            reason: null,
          },
        },
      ],
      {
        tableId: T,
        type: 'table-hold-released',
        payload: {
          type: 'table-hold-released',
          tableId: T,
          on: '2026-01-02',
          how: 'dice-changed',
          by: 'sup-1',
          note: null,
        },
      },
    ),
  );
  note(await service.release(T, []));

  // Round 2: a void roll, bets standing after it, bets of one commit, one a wallet cannot pay.
  await steps('cover', 'fasten-latches', 'trigger-shaker', 'open-betting');
  await run(bet('a3', 'alice', 'triple:2', 2_000));
  await steps('ring-bell', 'lift-dome');
  await run({ type: 'void-roll', reason: 'tilted' });
  await steps('cover', 'fasten-latches', 'trigger-shaker', 'open-betting');
  await run({ type: 'withdraw-bet', betId: 'a3', playerId: 'alice' });
  const batch = await Promise.all([
    service.execute({ tableId: T, command: bet('b4', 'bob', 'big', 4_000) }),
    service.execute({ tableId: T, command: bet('d3', 'dave', 'small', 9_000) }),
    service.execute({ tableId: T, command: bet('a4', 'alice', 'double:3', 2_000) }),
  ]);
  batch.forEach(note);
  await steps('ring-bell', 'lift-dome', 'reveal-dice', 'pay-all', 'pay-all');

  const journal = await store.readJournal({ fromSeq: 1, limit: 10_000 });
  // createTable's transaction takes the wall clock: its time is left out.
  const entries = journal
    .filter((e) => e.tableId === T)
    .map((e) => [e.type, e.type === 'table-created' ? null : e.atMs, e.payload]);
  return sha256Hex(canonicalJson({ entries, answers }));
}
