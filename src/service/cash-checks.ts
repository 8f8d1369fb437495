/**
 * DICJ Instrução n.º 1/2016 at the cage: large cash, linked transactions and
 * suspicion (the rules and their figures: src/compliance/people/large-cash.ts
 * and suspicion.ts; docs/compliance.md, "Instrução 1/2016").
 *
 * - Before a move: a deposit needs a player who may play (People.eligibility,
 *   Lei 10/2012), and any move that is large, alone or with the player's other
 *   cash moves of the gaming day, needs the identity on record and the
 *   cashier's word that the document was sighted; without both it is refused.
 * - With the move, in its transaction: a large move's row in the register and
 *   its `large-transaction-recorded` entry (the document's digest only).
 * - After it: the suspicion rules over the player's 24 hours; each flag is a
 *   row of the compliance officer's queue and a `suspicion-flagged` entry.
 */
import {
  classifyCash,
  type CashMove,
  DEFAULT_LARGE_CASH_THRESHOLD_MINOR,
  type Move,
  SUSPICION_WINDOW_MS,
  suspicionsOf,
} from '../compliance/index.js';
import type { JournalEntry } from '../journal/index.js';
import { type Currency, type Store, type Tx, walletAccount } from '../ledger/index.js';
import { PeopleRefusal, type People } from './people.js';

/** Cage moves of a player read back for the day and the 24 hours, at most. */
const CASH_HISTORY_MAX = 1_000;

export const largeCashThresholdMinor = (currency: Currency): number =>
  DEFAULT_LARGE_CASH_THRESHOLD_MINOR[currency];

export interface CashRequest {
  readonly playerId: string;
  readonly kind: 'deposit' | 'withdrawal';
  readonly amountMinor: number;
  readonly cashierId: string;
  /** The cashier saw the person's document (asked for on a large amount). */
  readonly documentSighted: boolean;
  readonly atMs: number;
}

/** A large move's facts, for its register row once the transfer is posted. */
export interface LargeCash {
  readonly reason: 'single' | 'linked';
  readonly documentType: string;
  readonly documentNumber: string;
  readonly documentDigest: string;
  readonly sighted: boolean;
}

const cashMoveOf = (entry: JournalEntry): (CashMove & { seq: number; transferId: string }) | [] =>
  entry.type === 'deposit' || entry.type === 'withdrawal'
    ? {
        seq: entry.seq,
        atMs: entry.atMs,
        kind: entry.type,
        amountMinor: entry.payload.amountMinor,
        transferId: entry.payload.transferId,
      }
    : [];

export class CashChecks {
  constructor(
    private readonly people: People,
    private readonly store: Store,
    readonly now: () => number = Date.now,
  ) {}

  private async history(playerId: string) {
    const entries = await this.store.readCageMoves({ playerId, limit: CASH_HISTORY_MAX });
    return entries.flatMap(cashMoveOf);
  }

  /**
   * Refuses a move the law refuses (throws a PeopleRefusal); otherwise the
   * large move's facts, or undefined for an ordinary one.
   */
  async before(request: CashRequest): Promise<LargeCash | undefined> {
    // Lei 10/2012, arts. 2 and 6: who may not play brings no money in; what they hold stays theirs.
    if (request.kind === 'deposit')
      await this.people.mustBeEligible(request.playerId, request.atMs);
    const threshold = largeCashThresholdMinor(this.store.currency);
    const earlier = await this.history(request.playerId);
    const cash = classifyCash(request, earlier, threshold);
    if (!cash.large) return undefined;
    const view = await this.store.registers.identity(request.playerId);
    if (view === undefined)
      throw new PeopleRefusal(
        'identity_missing',
        `a ${request.kind} that brings the day's cash to ${cash.dayTotalMinor} minor units needs the player's identity on record (Instrução 1/2016)`,
        'Instrução 1/2016',
      );
    if (!request.documentSighted)
      throw new PeopleRefusal(
        'document_sighting_required',
        `a ${request.kind} of ${cash.reason === 'single' ? 'this amount' : "this amount with the day's other cash"} reaches the threshold of ${threshold} minor units: sight the player's document and confirm it (Instrução 1/2016)`,
        'Instrução 1/2016',
      );
    return {
      reason: cash.reason!,
      documentType: view.documentType,
      documentNumber: view.documentNumber,
      documentDigest: view.documentDigest,
      sighted: true,
    };
  }

  /** The large move's row and entry, in the move's transaction (after its transfer and entry). */
  async record(
    tx: Tx,
    request: CashRequest,
    large: LargeCash,
    transferId: string,
    entrySeq: number,
  ): Promise<void> {
    await tx.registers.insertLargeTransaction({
      id: transferId,
      atMs: tx.nowMs,
      playerId: request.playerId,
      documentType: large.documentType,
      documentNumber: large.documentNumber,
      amountMinor: request.amountMinor,
      kind: request.kind,
      reason: large.reason,
      by: request.cashierId,
      tableId: null,
      sighted: large.sighted,
      journalSeq: entrySeq,
    });
    await tx.appendJournal([
      {
        tableId: null,
        type: 'large-transaction-recorded',
        payload: {
          id: transferId,
          playerId: request.playerId,
          documentDigest: large.documentDigest,
          amountMinor: request.amountMinor,
          kind: request.kind,
          reason: large.reason,
          sighted: large.sighted,
          by: request.cashierId,
          tableId: null,
        },
      },
    ]);
  }

  /**
   * The suspicion rules over the player's 24 hours after a move that
   * committed (`transferId`); each flag raised once (its id is the move's and
   * the rule's), with its entry. Returns the rules raised.
   */
  async after(request: CashRequest, transferId: string, entrySeq: number): Promise<string[]> {
    const since = request.atMs - SUSPICION_WINDOW_MS;
    const moves = (await this.history(request.playerId)).filter(
      (m) => m.atMs >= since && m.transferId !== transferId,
    );
    const history: Move[] = [...moves];
    const deposits = moves.filter((m) => m.kind === 'deposit');
    const first = deposits.at(-1);
    if (request.kind === 'withdrawal' && first !== undefined) {
      const wallet = walletAccount(request.playerId).id;
      const stakedMinor = await this.store.registers.stakedSince(wallet, first.transferId);
      if (stakedMinor > 0)
        history.push({ atMs: first.atMs, kind: 'stake', amountMinor: stakedMinor });
    }
    const threshold = largeCashThresholdMinor(this.store.currency);
    const raised = suspicionsOf(request, history, threshold);
    if (raised.length === 0) return [];
    const seqs = [...moves.map((m) => m.seq), entrySeq].sort((a, b) => a - b);
    await this.store.transaction(async (tx) => {
      for (const s of raised) {
        const flagId = `${s.rule}:${transferId}`;
        const inserted = await tx.registers.insertFlag({
          id: flagId,
          rule: s.rule,
          playerId: request.playerId,
          raisedAtMs: tx.nowMs,
          message: s.message,
          details: s.details,
          status: 'open',
          decidedBy: null,
          decidedAtMs: null,
          reason: null,
          journalSeqs: seqs,
        });
        if (!inserted) continue;
        await tx.appendJournal([
          {
            tableId: null,
            type: 'suspicion-flagged',
            payload: {
              flagId,
              rule: s.rule,
              playerId: request.playerId,
              details: s.details,
              journalSeqs: seqs,
            },
          },
        ]);
      }
    });
    return raised.map((s) => s.rule);
  }
}
