/**
 * One batch inside its transaction: applies commands one after another to the
 * table, posts their transfers (all at once at the end, or each as it goes
 * when a first attempt found a wallet short: see BatchOptions), and journals
 * all events at the end. Every command, round step or change of the table, is
 * judged by the round machine first (`transition`): the phase, the limits,
 * the liability cap and the between-rounds rule are its.
 */
import { type JournalEntry, type JournalInput, typedRecord } from '../../journal/index.js';
import { SAR_ACCOUNT_ID, type TransferInput, type Tx, walletAccount } from '../../ledger/index.js';
import { type RandomSource, type SealedRoll, sealRoll } from '../../dice/index.js';
import type { RollKeyring } from '../../dice/roll-key.js';
import {
  type Command,
  type MachineCommand,
  type RoundEvent,
  transition,
} from '../../table/index.js';
import { forfeitsOf, forfeitTransfer, type RoundMoney, transfersFor } from '../money.js';
import { RECENT_ROUNDS_MAX, type RoundHeader, toHeader } from '../round-snapshot.js';
import { storedHeader } from '../stored-header.js';
import { tableSnapshot } from './cache.js';
import { BatchKeys } from './idempotency.js';
import { applyHold, applyOpen, applySettingsChange, type TableDraft } from './settings-changes.js';
import {
  type CommandOutcome,
  type CommandRequest,
  type PublishedEvent,
  refused,
  type RoundRequest,
  type SettingsRequest,
  type TableSnapshot,
} from './types.js';

export interface BatchOptions {
  /**
   * Post the transfers of all the batch's commands in one call at the end
   * rather than one call a command: far fewer statements under load. When any
   * transfer fails, DeferredMoneyRefused rolls the transaction back and the
   * batch runs again without deferring, which refuses exactly the commands a
   * command-by-command run refuses.
   */
  readonly deferMoney: boolean;
  /** Seals drawn by trigger-shaker, by position in the batch, kept across attempts. */
  readonly seals: Map<number, SealedRoll>;
  /** Which of these players are barred from gaming (Lei 10/2012, art. 11); none when absent. */
  readonly barred: ((playerIds: readonly string[]) => Promise<ReadonlySet<string>>) | undefined;
  /** Instrução 1/2016: a bet or payout of this much or more is recorded in the register. */
  readonly largeCashThresholdMinor: number;
}

export class DeferredMoneyRefused extends Error {
  constructor() {
    super('a deferred transfer of the batch failed; the batch runs again command by command');
  }
}

/** A command's events, waiting for the journal, with what they move in and out of wallets. */
interface Pending {
  readonly outcomeIndex: number;
  readonly events: RoundEvent[];
  /** The wallet of the player whose bet this is, who is told its balance right after it. */
  readonly wallet: string | undefined;
  /** Each wallet's change by this command's transfers. */
  readonly walletDeltas: ReadonlyMap<string, number>;
  /** Entries journaled right after the events: a paid round's forfeits (Lei 10/2012, art. 11). */
  readonly after: readonly JournalInput[];
}

const WALLET_PREFIX = walletAccount('').id;

/** What each wallet gains (or loses) by a command's transfers. */
function walletDeltas(transfers: readonly TransferInput[]): Map<string, number> {
  const deltas = new Map<string, number>();
  for (const t of transfers) {
    if (t.creditAccountId.startsWith(WALLET_PREFIX))
      deltas.set(t.creditAccountId, (deltas.get(t.creditAccountId) ?? 0) + t.amountMinor);
    if (t.debitAccountId.startsWith(WALLET_PREFIX))
      deltas.set(t.debitAccountId, (deltas.get(t.debitAccountId) ?? 0) - t.amountMinor);
  }
  return deltas;
}

export class BatchRun {
  private readonly draft: TableDraft;
  /** Every entry the batch journaled, once committed. */
  journaled: readonly JournalEntry[] = [];
  readonly keys = new BatchKeys();
  private index = 0;
  private readonly pending: Pending[] = [];
  /** With deferMoney: every command's transfers, posted together by commit(). */
  private readonly deferred: TransferInput[] = [];
  private header: RoundHeader;

  constructor(
    private readonly tx: Tx,
    private readonly before: TableSnapshot,
    private readonly now: number,
    private readonly random: RandomSource,
    private readonly options: BatchOptions,
  ) {
    const { settings, config, state } = before;
    this.draft = {
      settings,
      config,
      state,
      settingsChanged: false,
      stateChanged: false,
      entries: [],
    };
    this.header = before.header;
  }

  async apply(request: CommandRequest): Promise<CommandOutcome> {
    const index = this.index++;
    const known = this.keys.claim(index, request);
    if (known !== null) return known;
    // Who may play (bet-admission.ts): after a retry's replay, which answers as the first did.
    const refusal = request.admitted === undefined ? undefined : await request.admitted;
    if (refusal !== undefined) return { ok: false, rejection: refusal };
    const { command } = request;
    if (command.type === 'hold-table' || command.type === 'release-hold')
      return applyHold(this.draft, command);
    if (command.type === 'set-open') return applyOpen(this.draft, command, this.now);
    if (isSettingsRequest(command)) {
      // The machine says whether the table may change now: between rounds only (Art. 8).
      const when = this.transition({ type: command.type });
      if (!when.ok) return { ok: false, rejection: when.rejection };
      return applySettingsChange(this.draft, command);
    }
    return this.step(this.prepare(command, index), index);
  }

  private transition(command: MachineCommand) {
    return transition(this.draft.config, this.draft.state, command, this.now);
  }

  /**
   * A round step: the machine's refusals come in its order (the round's own first,
   * Arts. 2.1 and 5: betting not open, a stake out of limits; then the liability
   * cap), then the step's transfers, posted now or with the batch.
   */
  private async step(command: Command, index: number): Promise<CommandOutcome> {
    const result = this.transition(command);
    if (!result.ok) return { ok: false, rejection: result.rejection };
    if (result.events.length === 0) return { ok: true, events: [] };
    const transfers = result.events.flatMap((e) => transfersFor(e, result.state, this.tx.currency));
    const after = [
      ...(await this.largeStakes(result.events, transfers)),
      ...(await this.forfeits(result.events, result.state, transfers)),
    ];
    const wallet =
      command.type === 'place-bet' || command.type === 'withdraw-bet'
        ? walletAccount(command.playerId).id
        : undefined;
    if (transfers.length > 0) {
      // A command's transfers are one event's: a bet's one, or a round's payouts, linked (Art. 4).
      if (this.options.deferMoney) {
        // A loop, not push(...transfers): a round's payouts can outnumber the arguments a call takes.
        for (const t of transfers) this.deferred.push(t);
      } else {
        const posted = await this.tx.postTransfers(transfers, {
          balancesOf: wallet === undefined ? [] : [wallet],
        });
        if (!posted.ok) return moneyRefusal(posted.results);
      }
    }
    this.draft.state = result.state;
    this.pending.push({
      outcomeIndex: index,
      events: [...result.events],
      wallet,
      walletDeltas: walletDeltas(transfers),
      after,
    });
    return { ok: true, events: [] };
  }

  /**
   * Instrução 1/2016: a bet, or a payout, of the threshold or more is
   * recorded as the cage records large cash: its row in the register (the
   * player's document) and a `large-transaction-recorded` entry after the
   * event (its digest), in the batch's transaction. Every bettor has an
   * identity: the admission refuses bets without one.
   */
  private async largeStakes(
    events: readonly RoundEvent[],
    transfers: readonly TransferInput[],
  ): Promise<JournalInput[]> {
    const threshold = this.options.largeCashThresholdMinor;
    const large: { id: string; playerId: string; amountMinor: number; kind: string }[] = [];
    for (const e of events)
      if (e.type === 'bet-placed' && e.bet.stakeMinor >= threshold)
        large.push({
          id: `bet:${e.tableId}:${e.roundNo}:${e.bet.betId}`,
          playerId: e.bet.playerId,
          amountMinor: e.bet.stakeMinor,
          kind: 'bet',
        });
    if (events.some((e) => e.type === 'prizes-paid'))
      for (const t of transfers)
        if (t.kind === 'payout' && t.amountMinor >= threshold)
          large.push({
            id: t.id,
            playerId: t.creditAccountId.slice(WALLET_PREFIX.length),
            amountMinor: t.amountMinor,
            kind: 'payout',
          });
    const entries: JournalInput[] = [];
    for (const l of large) {
      const person = await this.tx.registers.identity(l.playerId);
      await this.tx.registers.insertLargeTransaction({
        ...l,
        atMs: this.now,
        documentType: person?.documentType ?? '',
        documentNumber: person?.documentNumber ?? '',
        reason: 'single',
        by: null,
        tableId: this.draft.config.tableId,
        sighted: false,
        journalSeq: null,
      });
      entries.push({
        tableId: null,
        type: 'large-transaction-recorded',
        payload: {
          ...l,
          documentDigest: person?.documentDigest ?? '0'.repeat(64),
          reason: 'single',
          sighted: false,
          by: null,
          tableId: this.draft.config.tableId,
        },
      });
    }
    return entries;
  }

  /**
   * Lei 10/2012, art. 11: when a round is paid, the net winnings of each of
   * its players who is barred from gaming now (an exclusion begun while their
   * bets stood, say) revert to the Macau SAR: a transfer after the payouts
   * (added to `transfers`) and a `winnings-forfeited` entry after the event.
   */
  private async forfeits(
    events: readonly RoundEvent[],
    round: RoundMoney,
    transfers: TransferInput[],
  ): Promise<JournalInput[]> {
    const paid = events.find((e) => e.type === 'prizes-paid');
    if (paid === undefined || this.options.barred === undefined || round.bets.length === 0)
      return [];
    const barred = await this.options.barred([...new Set(round.bets.map((b) => b.playerId))]);
    const forfeits = forfeitsOf(paid.tableId, paid.roundNo, round, barred);
    if (forfeits.length === 0) return [];
    await this.tx.createAccounts([{ id: SAR_ACCOUNT_ID, kind: 'sar' }]);
    for (const forfeit of forfeits) transfers.push(forfeitTransfer(forfeit, this.tx.currency));
    return forfeits.map((payload) => ({
      tableId: payload.tableId,
      type: 'winnings-forfeited',
      payload,
    }));
  }

  /** The electronic shaker draws and seals the roll now, before betting opens (Art. 2.1). */
  private prepare(command: RoundRequest, index: number): Command {
    if (command.type !== 'trigger-shaker' || 'sealedRoll' in command) return command;
    const { config, state } = this.draft;
    const ref = { tableId: config.tableId, roundNo: state.roundNo, rollNo: state.rollNo };
    let sealedRoll = this.options.seals.get(index);
    if (sealedRoll === undefined) {
      sealedRoll = sealRoll(ref, this.random);
      this.options.seals.set(index, sealedRoll);
    }
    return { ...command, sealedRoll };
  }

  /** Journals the batch's events, fills in their seqs, and records idempotent answers. */
  async commit(outcomes: CommandOutcome[]): Promise<PublishedEvent[]> {
    const wallets = this.pending.flatMap((p) => (p.wallet === undefined ? [] : [p.wallet]));
    // The bets' wallets: their balances come back with the posting (balancesAfter).
    if (
      this.deferred.length > 0 &&
      !(await this.tx.postTransfers(this.deferred, { balancesOf: wallets })).ok
    )
      throw new DeferredMoneyRefused();
    const inputs: JournalInput[] = this.pending.flatMap((p) => [
      ...p.events.map((event) => ({ tableId: event.tableId, ...typedRecord(event) })),
      ...p.after,
    ]);
    // Read before the journal's append, which on PostgreSQL holds the chain's head until commit.
    const balances = await this.balancesAfter(wallets);
    const extra = this.draft.entries;
    const all = [...extra, ...inputs];
    this.journaled = all.length > 0 ? await this.tx.appendJournal(all) : [];
    const entries = this.journaled.slice(extra.length);
    const published: PublishedEvent[] = [];
    let at = 0;
    this.pending.forEach((p, i) => {
      const events = p.events.map((event) => ({ seq: entries[at++]!.seq, event }));
      at += p.after.length;
      const balanceMinor = balances[i];
      outcomes[p.outcomeIndex] =
        balanceMinor === undefined ? { ok: true, events } : { ok: true, events, balanceMinor };
      published.push(...events);
      this.trackRounds(events);
    });
    await this.keys.record(this.tx, outcomes);
    return published;
  }

  /**
   * For each pending bet, its player's balance right after it in ledger order:
   * the balance once all the batch's transfers are posted, less what the
   * batch's later commands moved in or out of that wallet.
   */
  private async balancesAfter(wallets: readonly string[]): Promise<(number | undefined)[]> {
    const running = await this.tx.balances(wallets);
    const balances: (number | undefined)[] = [];
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const p = this.pending[i]!;
      balances[i] = p.wallet === undefined ? undefined : running.get(p.wallet);
      for (const [wallet, delta] of p.walletDeltas) {
        const balance = running.get(wallet);
        if (balance !== undefined) running.set(wallet, balance - delta);
      }
    }
    return balances;
  }

  private trackRounds(events: readonly PublishedEvent[]): void {
    for (const { seq, event } of events) {
      if (event.type !== 'dome-covered' || !event.newRound) continue;
      const recent = [...this.header.recentRoundSeqs, { roundNo: event.roundNo, seq }].slice(
        -RECENT_ROUNDS_MAX,
      );
      this.header = { ...this.header, roundJournalSeq: seq, recentRoundSeqs: recent };
    }
  }

  /** Saves the header when anything changed and returns what the cache should hold. */
  async save(version: number, rollKeys: RollKeyring): Promise<TableSnapshot> {
    const { settings, config, state, settingsChanged, stateChanged } = this.draft;
    if (this.pending.length === 0 && !settingsChanged && !stateChanged) return this.before;
    const header = toHeader(state, this.header.roundJournalSeq, this.header.recentRoundSeqs);
    const saved = await this.tx.saveTable(
      config.tableId,
      version,
      // Art. 2.1: the database holds the roll only sealed, until the reveal.
      storedHeader(header, rollKeys),
      settingsChanged ? settings : undefined,
    );
    if (!saved.ok) throw new Error(`table ${config.tableId}: ${saved.code}`);
    return tableSnapshot(saved.version, settings, config, state, header);
  }
}

function isSettingsRequest(command: CommandRequest['command']): command is SettingsRequest {
  return (
    command.type === 'change-limits' ||
    command.type === 'change-house-options' ||
    command.type === 'record-between-rounds'
  );
}

function moneyRefusal(results: readonly { status: string; code?: string }[]): CommandOutcome {
  const failed = results.find((r) => r.status === 'failed' && r.code !== 'linked_event_failed');
  if (failed?.code === 'insufficient_funds') {
    return refused('insufficient_funds', 'the wallet does not hold enough for this bet');
  }
  if (failed?.code === 'account_not_found') {
    return refused(
      'no_wallet',
      'this player has no wallet yet: the cage opens it with a first deposit',
    );
  }
  throw new Error(`ledger refused a round transfer: ${JSON.stringify(failed)}`);
}
