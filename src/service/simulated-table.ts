/**
 * A headless table: a simulated croupier works the procedure of Arts. 2–4
 * through the TableService while seeded simulated players bet on every kind of
 * spot of Art. 5. It is the demo, the soak test and the load generator.
 *
 * It resumes: every step starts from the phase the database holds, so a run
 * killed at any moment is continued by the next one, mid-round included. Each
 * command carries an idempotency key made of (table, seed, round, roll, step),
 * and what a step sends is drawn from a generator seeded by the same, so a
 * step retried after a crash sends the very same command and gets the first
 * answer back. Exact replay across a kill is not promised (top-ups depend on
 * balances); correctness is.
 *
 * The dice come from the seed too (sealed as usual on an electronic table), so
 * a run is reproducible; a live table draws its roll from the CSPRNG instead.
 */
import type { RollKeyring } from '../dice/roll-key.js';
import { createPrng, cryptoRandomSource, type Prng, type RandomSource } from '../dice/index.js';
import type { Store } from '../ledger/index.js';
import { type SpotKind, spotById } from '../rules/index.js';
import { deposit, depositMade, hasWallet, openWallet, walletBalanceMinor } from './cage.js';
import { simulatedTableSettings, type TableSettings } from './table-settings.js';
import { macauDate } from '../compliance/index.js';
import { LonePlacement } from './command-router.js';
import { type CommandOutcome, TableService } from './table-service.js';
import type { Command, RoundState, Settlement } from '../table/index.js';

export interface PlayOptions {
  readonly store: Store;
  readonly tableId: string;
  /** Rounds to finish in this run; a round the last run left unfinished is the first of them. */
  readonly rounds: number;
  readonly players: number;
  readonly seed: string;
  /** For a table this run creates; an existing table keeps its own. */
  readonly shaker: 'lever' | 'electronic';
  readonly onStart?: (start: PlayStart) => void;
  readonly onRound?: (roundsDone: number) => void;
  /** The table's clock (default: the real one); a benchmark spreads rounds over days with it. */
  readonly clock?: () => number;
  /** The key that seals stored rolls; a run resumed later needs the same (default: this process's). */
  readonly rollKeys?: RollKeyring;
}

export interface PlayStart {
  readonly tableId: string;
  readonly shaker: 'lever' | 'electronic';
  readonly roundNo: number;
  readonly phase: RoundState['phase'];
}

export interface PlayReport {
  readonly tableId: string;
  readonly seed: string;
  readonly shaker: 'lever' | 'electronic';
  /** Where the table stood when this run began. */
  readonly resumedAt: { readonly roundNo: number; readonly phase: RoundState['phase'] };
  readonly firstRoundNo: number | null;
  readonly lastRoundNo: number | null;
  readonly rounds: number;
  readonly voidRolls: number;
  /** Bets settled in the rounds this run finished. */
  readonly bets: number;
  readonly withdrawals: number;
  /** Players' commands the table refused, by code (a wallet short of money, the liability cap…). */
  readonly refused: Readonly<Record<string, number>>;
  readonly handleMinor: number;
  readonly returnedMinor: number;
  /** (handle − returned) ÷ handle: what the house kept. */
  readonly hold: number;
  readonly deposits: number;
  readonly depositedMinor: number;
}

const CROUPIER_ID = 'play-croupier';
const CASHIER_ID = 'play-cashier';
/** A bet's stake is the table minimum times 1 to this. */
const STAKE_UNITS_MAX = 20;
const BETS_PER_PLAYER_MAX = 3;
const WITHDRAW_CHANCE = 0.05;
/** Art. 3.3: stacked or tilted dice now and then; a round voids at most VOID_ROLLS_MAX rolls. */
const VOID_CHANCE = 0.08;
const VOID_ROLLS_MAX = 2;
/** Wallets start with, and are topped up by, this many table minimums; below LOW they are topped up. */
const FUNDING_UNITS = 10_000;
const LOW_UNITS = 1_000;

/** The electronic shaker's randomness, switched to a generator seeded for each roll. */
class RollRandom implements RandomSource {
  current: RandomSource = cryptoRandomSource;
  fill(target: Uint8Array): void {
    this.current.fill(target);
  }
}

interface Tally {
  rounds: number;
  firstRoundNo: number | null;
  lastRoundNo: number | null;
  voidRolls: number;
  bets: number;
  withdrawals: number;
  refused: Record<string, number>;
  handleMinor: number;
  returnedMinor: number;
  deposits: number;
  depositedMinor: number;
}

type Snapshot = NonNullable<Awaited<ReturnType<TableService['snapshot']>>>;

/** Another node of the floor holds the table's lease: this run would not be fenced. */
export class TableLeaseHeld extends Error {
  override readonly name = 'TableLeaseHeld';
  constructor(readonly tableId: string) {
    super(`table ${tableId} is run by another node (it holds the table's lease)`);
  }
}

/**
 * Plays `rounds` rounds (continuing the table where it stands) and reports
 * what happened. The run holds the table's lease, as a node of the floor does,
 * and commits only under its epoch: it refuses a table another node holds
 * (TableLeaseHeld), and a lease lost mid-run fails it rather than letting two
 * processes write one table.
 */
export async function playTable(options: PlayOptions): Promise<PlayReport> {
  const placement = new LonePlacement(options.store);
  if (!(await placement.take(options.tableId))) throw new TableLeaseHeld(options.tableId);
  const random = new RollRandom();
  const service = new TableService({
    store: options.store,
    placement,
    random,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.rollKeys === undefined ? {} : { rollKeys: options.rollKeys }),
  });
  try {
    // Art. 8: a simulated table's options carry an authorization marked as a simulation.
    await service.createTable({
      ...simulatedTableSettings(options.tableId, macauDate(Date.now()), 'cussec play'),
      bettingTimerMs: null,
      shaker: options.shaker,
    });
    const first = (await service.snapshot(options.tableId))!;
    const resumedAt = { roundNo: first.state.roundNo, phase: first.state.phase };
    const shaker = first.settings.shaker;
    options.onStart?.({ tableId: options.tableId, shaker, ...resumedAt });
    const table = new SimulatedTable(service, options, first.settings, random);
    await table.fund();
    while (table.tally.rounds < options.rounds) await table.step();
    const t = table.tally;
    const hold = t.handleMinor === 0 ? 0 : (t.handleMinor - t.returnedMinor) / t.handleMinor;
    return { tableId: options.tableId, seed: options.seed, shaker, resumedAt, ...t, hold };
  } finally {
    await service.drainAll();
  }
}

interface PlannedBet {
  readonly betId: string;
  readonly playerId: string;
  readonly spot: string;
  readonly stakeMinor: number;
  readonly withdraw: boolean;
}

class SimulatedTable {
  readonly tally: Tally = {
    rounds: 0,
    firstRoundNo: null,
    lastRoundNo: null,
    voidRolls: 0,
    bets: 0,
    withdrawals: 0,
    refused: {},
    handleMinor: 0,
    returnedMinor: 0,
    deposits: 0,
    depositedMinor: 0,
  };
  private readonly players: readonly string[];
  private readonly spotsByKind: readonly (readonly string[])[];

  constructor(
    private readonly service: TableService,
    private readonly options: PlayOptions,
    private readonly settings: TableSettings,
    private readonly random: RollRandom,
  ) {
    this.players = Array.from({ length: options.players }, (_, i) => `p${i + 1}`);
    const byKind = new Map<SpotKind, string[]>();
    for (const id of settings.paytable.spots) {
      const kind = spotById(id)!.kind;
      byKind.set(kind, [...(byKind.get(kind) ?? []), id]);
    }
    this.spotsByKind = [...byKind.values()];
  }

  /** Opens every wallet and makes its first deposit, once per seed and player. */
  async fund(): Promise<void> {
    for (const playerId of this.players) {
      if (!(await hasWallet(this.options.store, playerId)))
        await openWallet(this.options.store, playerId);
      await this.deposit(playerId, `play:${this.options.seed}:${playerId}:initial`);
    }
  }

  /** A deposit, unless this key's was made already. */
  private async deposit(playerId: string, key: string): Promise<void> {
    if (await depositMade(this.options.store, key)) return;
    const amountMinor = FUNDING_UNITS * this.settings.stakeMinorMin;
    const outcome = await deposit(this.options.store, {
      playerId,
      amountMinor,
      cashierId: CASHIER_ID,
      idempotencyKey: key,
    });
    if (!outcome.ok) throw new Error(`deposit for ${playerId}: ${outcome.rejection.message}`);
    this.tally.deposits++;
    this.tally.depositedMinor += amountMinor;
  }

  /** Between rounds the cage tops up wallets running low; keyed by round so keys stay unique. */
  private async topUp(roundNo: number): Promise<void> {
    const low = LOW_UNITS * this.settings.stakeMinorMin;
    for (const playerId of this.players) {
      // fund() opened every wallet.
      if ((await walletBalanceMinor(this.options.store, playerId)) < low) {
        const key = `play:${this.options.seed}:${playerId}:top-up:${this.options.tableId}:${roundNo}`;
        await this.deposit(playerId, key);
      }
    }
  }

  /** One step of the procedure, chosen by the phase the table is in now. */
  async step(): Promise<void> {
    const snap = (await this.service.snapshot(this.options.tableId))!;
    const { phase, roundNo, rollNo } = snap.state;
    const act = (step: string, command: CroupierCommand, round = roundNo, roll = rollNo) =>
      this.act(snap, step, command, round, roll);
    switch (phase) {
      case 'idle':
      case 'paid':
        await this.topUp(roundNo + 1);
        return void (await act('cover', { type: 'cover' }, roundNo + 1, 1));
      case 'voided':
        return void (await act('cover', { type: 'cover' }));
      case 'covered':
        return void (await act('fasten-latches', { type: 'fasten-latches' }));
      case 'latched':
      case 'shaking':
        return this.shake(snap, act);
      case 'shaken':
        return void (await act('open-betting', { type: 'open-betting' }));
      case 'betting':
        await this.bet(snap);
        return void (await act('ring-bell', { type: 'ring-bell' }));
      case 'closed':
        return void (await act('lift-dome', { type: 'lift-dome' }));
      case 'lifted':
        return this.resolve(snap, act);
      case 'revealed':
        if ((await act('pay-all', { type: 'pay-all' })).ok) this.roundPaid(snap.state);
        return;
    }
  }

  private async shake(snap: Snapshot, act: Act): Promise<void> {
    const { roundNo, rollNo, leverPulls } = snap.state;
    if (snap.settings.shaker === 'lever') {
      await act(`pull-lever-${leverPulls + 1}`, { type: 'pull-lever' });
      return;
    }
    // Art. 2.1: the roll is drawn and sealed now, before betting opens.
    this.random.current = this.prng(roundNo, rollNo, 'shaker');
    try {
      await act('trigger-shaker', { type: 'trigger-shaker' });
    } finally {
      this.random.current = cryptoRandomSource;
    }
  }

  /** The dice lie: stacked or tilted now and then (Art. 3.3), else read or revealed (Art. 3.2). */
  private async resolve(snap: Snapshot, act: Act): Promise<void> {
    const { roundNo, rollNo } = snap.state;
    const prng = this.prng(roundNo, rollNo, 'dice');
    if (rollNo <= VOID_ROLLS_MAX && prng.chance(VOID_CHANCE)) {
      const reason = prng.pick(['stacked', 'tilted'] as const);
      if ((await act('void-roll', { type: 'void-roll', reason })).ok) this.tally.voidRolls++;
      return;
    }
    if (snap.settings.shaker === 'lever') {
      await act('read-dice', { type: 'read-dice', dice: prng.dice(), croupierId: CROUPIER_ID });
    } else {
      await act('reveal-dice', { type: 'reveal-dice' });
    }
  }

  private roundPaid(state: RoundState): void {
    const settlement = state.settlement as Settlement;
    const t = this.tally;
    t.rounds++;
    t.firstRoundNo ??= state.roundNo;
    t.lastRoundNo = state.roundNo;
    t.bets += settlement.returnsMinor.length;
    t.handleMinor += settlement.totalStakeMinor;
    t.returnedMinor += settlement.totalReturnedMinor;
    this.options.onRound?.(t.rounds);
  }

  /**
   * The players' turn: every bet of this roll at once (so group commit takes
   * them in few transactions), then a few of them withdrawn (Art. 3.4 allows
   * only bets of this betting window).
   */
  private async bet(snap: Snapshot): Promise<void> {
    const { roundNo, rollNo } = snap.state;
    const planned = this.planBets(roundNo, rollNo, snap.settings);
    const placed = await Promise.all(
      planned.map((b) =>
        this.playerAct(roundNo, rollNo, `bet:${b.betId}`, {
          type: 'place-bet',
          betId: b.betId,
          playerId: b.playerId,
          spot: b.spot,
          stakeMinor: b.stakeMinor,
        }),
      ),
    );
    const withdrawn = await Promise.all(
      planned
        .filter((b, i) => b.withdraw && placed[i]!.ok)
        .map((b) =>
          this.playerAct(roundNo, rollNo, `withdraw:${b.betId}`, {
            type: 'withdraw-bet',
            betId: b.betId,
            playerId: b.playerId,
          }),
        ),
    );
    this.tally.withdrawals += withdrawn.filter((o) => o.ok).length;
  }

  /**
   * This roll's bets, drawn from a generator seeded by the roll: the same on a
   * retry. Each player's first bet goes round the kinds of Art. 5, so every
   * kind is played; the others pick a kind at random.
   */
  private planBets(roundNo: number, rollNo: number, settings: TableSettings): PlannedBet[] {
    const prng = this.prng(roundNo, rollNo, 'bets');
    const { stakeMinorMin, stakeMinorMax } = settings;
    const kinds = this.spotsByKind;
    const bets: PlannedBet[] = [];
    this.players.forEach((playerId, p) => {
      const count = prng.int(1, BETS_PER_PLAYER_MAX);
      for (let j = 0; j < count; j++) {
        const kind = j === 0 ? kinds[(p + roundNo + rollNo) % kinds.length]! : prng.pick(kinds);
        bets.push({
          betId: `${rollNo}.${playerId}.${j}`,
          playerId,
          spot: prng.pick(kind),
          stakeMinor: Math.min(stakeMinorMax, stakeMinorMin * prng.int(1, STAKE_UNITS_MAX)),
          withdraw: prng.chance(WITHDRAW_CHANCE),
        });
      }
    });
    return bets;
  }

  private prng(roundNo: number, rollNo: number, purpose: string): Prng {
    return createPrng(
      `${this.options.seed}/${this.options.tableId}/${roundNo}/${rollNo}/${purpose}`,
    );
  }

  private key(roundNo: number, rollNo: number, step: string): string {
    return `play:${this.options.tableId}:${this.options.seed}:${roundNo}:${rollNo}:${step}`;
  }

  private async playerAct(
    roundNo: number,
    rollNo: number,
    step: string,
    command: Command,
  ): Promise<CommandOutcome> {
    const outcome = await this.service.execute({
      tableId: this.options.tableId,
      command,
      idempotencyKey: this.key(roundNo, rollNo, step),
    });
    if (!outcome.ok) {
      const code = outcome.rejection.code;
      this.tally.refused[code] = (this.tally.refused[code] ?? 0) + 1;
    }
    return outcome;
  }

  /**
   * A croupier's step. A refusal is a bug unless the table moved meanwhile (a
   * betting timer, another croupier): then the next step reads where it is.
   */
  private async act(
    before: Snapshot,
    step: string,
    command: CroupierCommand,
    roundNo: number,
    rollNo: number,
  ): Promise<CommandOutcome> {
    const outcome = await this.service.execute({
      tableId: this.options.tableId,
      command: { ...command, croupierId: CROUPIER_ID },
      idempotencyKey: this.key(roundNo, rollNo, step),
    });
    if (outcome.ok) return outcome;
    const after = (await this.service.snapshot(this.options.tableId))!;
    if (after.version === before.version) {
      const { code, message } = outcome.rejection;
      throw new Error(
        `table ${this.options.tableId} refused ${command.type} (${code}): ${message}`,
      );
    }
    return outcome;
  }
}

type CroupierCommand =
  | Exclude<Command, { type: 'place-bet' | 'withdraw-bet' | 'tick' | 'trigger-shaker' }>
  | { readonly type: 'trigger-shaker' };

type Act = (step: string, command: CroupierCommand) => Promise<CommandOutcome>;
