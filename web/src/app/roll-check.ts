/**
 * The player's check of the electronic shaker's seal (Art. 2.1), kept per
 * round: the commitment seen while betting and the verdict once the dice and nonce are public.
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

export class RollCheck {
  private readonly seen = new Map<string, string>();
  private verdict: RollVerdict = { state: 'pending' };
  private checkedRound: number | null = null;

  /** A commitment the player was shown while betting (betting-opened or the view). */
  sawCommitment(roundNo: number, rollNo: number, hex: string | null): void {
    if (hex !== null && !this.seen.has(`${roundNo}/${rollNo}`))
      this.seen.set(`${roundNo}/${rollNo}`, hex.toLowerCase());
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

  private check(view: TableView, last: LastRound): RollVerdict {
    const nonce = last.nonceHex!;
    const commitment = last.commitmentHex!.toLowerCase();
    const base = { roundNo: last.roundNo, dice: last.dice };
    // The view names the roll revealed (after a void roll it is not the first).
    const roll = { tableId: view.id, roundNo: last.roundNo, rollNo: last.rollNo };
    const message = commitmentMessage(roll, last.dice, nonce);
    if (checkCommitment(roll, last.dice, nonce, commitment) !== 'match')
      return { ...base, state: 'mismatch', message };
    // The seal opens; it must also be the one shown before the bets.
    const seen = this.seen.get(`${last.roundNo}/${last.rollNo}`);
    return {
      ...base,
      state: seen === undefined || seen === commitment ? 'match' : 'changed',
      message,
    };
  }
}
