/**
 * The player's check of the electronic shaker's seal (Art. 2.1), kept per
 * round: the commitment seen while betting, the roll number the reveal named,
 * and the verdict once the dice and nonce are public.
 */
import type { LastRound, TableView } from '../api/types.js';
import { checkCommitment, commitmentMessage } from '../logic/commitment.js';

export type RollVerdict =
  | { readonly state: 'lever' }
  | { readonly state: 'pending' }
  | {
      readonly state: 'match' | 'mismatch' | 'changed';
      readonly roundNo: number;
      readonly dice: readonly number[];
      readonly message: string;
    };

/** Roll numbers above this are not tried when the reveal's roll number is unknown. */
const ROLL_GUESS_MAX = 8;

export class RollCheck {
  private readonly seen = new Map<string, string>();
  private readonly revealedRoll = new Map<number, number>();
  private verdict: RollVerdict = { state: 'pending' };
  private checkedRound: number | null = null;

  /** A commitment the player was shown while betting (betting-opened or the view). */
  sawCommitment(roundNo: number, rollNo: number, hex: string | null): void {
    if (hex !== null && !this.seen.has(`${roundNo}/${rollNo}`))
      this.seen.set(`${roundNo}/${rollNo}`, hex.toLowerCase());
  }

  /** The dice-revealed event names the roll the seal belongs to (after void rolls it is not 1). */
  sawReveal(roundNo: number, rollNo: number): void {
    this.revealedRoll.set(roundNo, rollNo);
  }

  current(): RollVerdict {
    return this.verdict;
  }

  /** Checks the last round's seal once; calls `done` when the verdict changes. */
  update(view: TableView, done: () => void): void {
    if (view.shaker === 'lever') {
      this.verdict = { state: 'lever' };
      return;
    }
    const last = view.lastRound;
    if (last === null || !last.nonceHex || !last.commitmentHex) {
      // The view drops lastRound when the next round starts; the verdict stays on show.
      if (this.checkedRound === null) this.verdict = { state: 'pending' };
      return;
    }
    if (this.checkedRound === last.roundNo) return;
    this.checkedRound = last.roundNo;
    this.verdict = this.check(view, last);
    done();
  }

  private rollCandidates(view: TableView, last: LastRound): number[] {
    const known =
      last.rollNo ??
      this.revealedRoll.get(last.roundNo) ??
      (view.roundNo === last.roundNo ? view.rollNo : undefined);
    return known !== undefined ? [known] : Array.from({ length: ROLL_GUESS_MAX }, (_, i) => i + 1);
  }

  private check(view: TableView, last: LastRound): RollVerdict {
    const nonce = last.nonceHex!;
    const commitment = last.commitmentHex!.toLowerCase();
    const base = { roundNo: last.roundNo, dice: last.dice };
    let tried = { tableId: view.id, roundNo: last.roundNo, rollNo: 1 };
    for (const rollNo of this.rollCandidates(view, last)) {
      tried = { ...tried, rollNo };
      const seen = this.seen.get(`${last.roundNo}/${rollNo}`);
      const message = commitmentMessage(tried, last.dice, nonce);
      if (checkCommitment(tried, last.dice, nonce, commitment) === 'match') {
        // The seal opens; it must also be the one shown before the bets.
        return {
          ...base,
          state: seen === undefined || seen === commitment ? 'match' : 'changed',
          message,
        };
      }
    }
    return { ...base, state: 'mismatch', message: commitmentMessage(tried, last.dice, nonce) };
  }
}
