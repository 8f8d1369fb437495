/**
 * DICJ Instrução n.º 1/2016 at the cage: large cash, linked transactions and
 * suspicion (the rules and their figures: src/compliance/people/large-cash.ts
 * and suspicion.ts; docs/compliance.md, "Instrução 1/2016").
 *
 * All in the move's transaction, so that the facts commit with the money or
 * the move is refused and rolled back:
 * - a deposit needs a player who may play (People.eligibility, Lei 10/2012);
 * - a move that is large, alone or with the player's other cash of the gaming
 *   day, needs the identity on record and the cashier's word that the
 *   document was sighted; it gets its row in the register and its
 *   `large-transaction-recorded` entry (the document's digest only);
 * - the suspicion rules run over the player's 24 hours; each flag is a row of
 *   the compliance officer's queue and a `suspicion-flagged` entry.
 */
import {
  type CashClassification,
  classifyCash,
  type Move,
  SUSPICION_WINDOW_MS,
  suspicionsOf,
} from '../compliance/index.js';
import { type Tx, walletAccount } from '../ledger/index.js';
import { largeCashThresholdOf, readFloorSettings } from './floor-settings.js';
import { type People, PeopleRefusal } from './people.js';

export interface CashRequest {
  readonly playerId: string;
  readonly kind: 'deposit' | 'withdrawal';
  readonly amountMinor: number;
  readonly cashierId: string;
  /** The cashier saw the person's document (asked for on a large amount). */
  readonly documentSighted: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first instant of the gaming day (the Macau date) of `atMs`. */
const gamingDayStartMs = (atMs: number): number => {
  const offset = 8 * 60 * 60 * 1000;
  return Math.floor((atMs + offset) / DAY_MS) * DAY_MS - offset;
};

export class CashChecks {
  constructor(private readonly people: People) {}

  /**
   * In the move's transaction, after its transfer and entry: refuses (throws a
   * PeopleRefusal, which rolls the move back) a deposit by someone who may
   * not play, and a large move without the
   * identity and the sighting; records a large one in the register; raises the
   * suspicion rules' flags. Reading the day's cash here, after the move's own
   * transfer locked the wallet, sees every move that committed before it, so
   * two cashiers' moves at once cannot each miss the other.
   */
  async within(tx: Tx, request: CashRequest, transferId: string, entrySeq: number): Promise<void> {
    // Lei 10/2012, arts. 2 and 6: who may not play brings no money in; what they hold stays theirs.
    if (request.kind === 'deposit') await this.people.mustBeEligible(request.playerId, tx.nowMs);
    const threshold = largeCashThresholdOf(
      (await readFloorSettings(this.people.store)).settings,
      tx.currency,
    );
    const since = Math.min(gamingDayStartMs(tx.nowMs), tx.nowMs - SUSPICION_WINDOW_MS);
    const cash = (await tx.registers.cashSince(request.playerId, since)).filter(
      (m) => m.id !== transferId,
    );
    const move = { atMs: tx.nowMs, kind: request.kind, amountMinor: request.amountMinor };
    const day = classifyCash(move, cash, threshold);
    if (day.large) await this.recordLarge(tx, request, day, threshold, transferId, entrySeq);
    await this.flag(tx, request, move, cash, threshold, transferId, entrySeq);
  }

  private async recordLarge(
    tx: Tx,
    request: CashRequest,
    day: CashClassification,
    threshold: number,
    transferId: string,
    entrySeq: number,
  ): Promise<void> {
    const person = await tx.registers.identity(request.playerId);
    if (person === undefined)
      throw new PeopleRefusal(
        'identity_missing',
        `a ${request.kind} that brings the day's cash to ${day.dayTotalMinor} minor units needs the player's identity on record (Instrução 1/2016)`,
        'Instrução 1/2016',
      );
    if (!request.documentSighted)
      throw new PeopleRefusal(
        'document_sighting_required',
        `a ${request.kind} of ${day.reason === 'single' ? 'this amount' : "this amount with the day's other cash"} reaches the threshold of ${threshold} minor units: sight the player's document and confirm it (Instrução 1/2016)`,
        'Instrução 1/2016',
      );
    const reason = day.reason!;
    await tx.registers.insertLargeTransaction({
      id: transferId,
      atMs: tx.nowMs,
      playerId: request.playerId,
      documentType: person.documentType,
      documentNumber: person.documentNumber,
      amountMinor: request.amountMinor,
      kind: request.kind,
      reason,
      by: request.cashierId,
      tableId: null,
      sighted: true,
      journalSeq: entrySeq,
    });
    await tx.appendJournal([
      {
        tableId: null,
        type: 'large-transaction-recorded',
        payload: {
          id: transferId,
          playerId: request.playerId,
          documentDigest: person.documentDigest,
          amountMinor: request.amountMinor,
          kind: request.kind,
          reason,
          sighted: true,
          by: request.cashierId,
          tableId: null,
        },
      },
    ]);
  }

  /** The suspicion rules over the player's 24 hours; each flag raised once, with its entry. */
  private async flag(
    tx: Tx,
    request: CashRequest,
    move: Move,
    cash: readonly {
      id: string;
      kind: 'deposit' | 'withdrawal';
      amountMinor: number;
      atMs: number;
    }[],
    threshold: number,
    transferId: string,
    entrySeq: number,
  ): Promise<void> {
    const window = cash.filter((m) => m.atMs >= move.atMs - SUSPICION_WINDOW_MS);
    const history: Move[] = [...window];
    const first = window.find((m) => m.kind === 'deposit');
    if (request.kind === 'withdrawal' && first !== undefined) {
      const wallet = walletAccount(request.playerId).id;
      const stakedMinor = await tx.registers.stakedSince(wallet, first.id);
      if (stakedMinor > 0)
        history.push({ atMs: first.atMs, kind: 'stake', amountMinor: stakedMinor });
    }
    const raised = suspicionsOf(move, history, threshold);
    if (raised.length === 0) return;
    const seqs = [
      entrySeq,
      ...(await this.seqsOf(
        request.playerId,
        window.map((m) => m.id),
      )),
    ].sort((a, b) => a - b);
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
  }

  /** The journal seqs of the player's earlier cage moves by their transfer ids (committed, read by the index). */
  private async seqsOf(playerId: string, transferIds: readonly string[]): Promise<number[]> {
    if (transferIds.length === 0) return [];
    const wanted = new Set(transferIds);
    const entries = await this.people.store.readCageMoves({ playerId, limit: 1_000 });
    return entries.flatMap((e) =>
      (e.type === 'deposit' || e.type === 'withdrawal') && wanted.has(e.payload.transferId)
        ? [e.seq]
        : [],
    );
  }
}
