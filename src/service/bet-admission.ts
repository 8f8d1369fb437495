/**
 * Who may place a bet, asked for every `place-bet` before it is queued
 * (TableService's `admission`): a player account (staff accounts never bet),
 * with an identity on record (Instrução 1/2016), 21 or older on the Macau
 * date, not excluded and not a casino worker off the days the law allows
 * (Lei 10/2012, arts. 2 and 6): People.eligibility, the one decision.
 *
 * A bet is on the hot path, so each player's answer is kept for the Macau
 * day it was given on (age and orders change by the day), until the
 * registers change: every node forgets its answers when the journal brings
 * an entry that changes them (`changed`, called by the floor for every
 * node's entries), and an answer is never older than ANSWER_TTL_MS, the
 * safety net for a notice missed.
 */
import { macauDate } from '../compliance/index.js';
import type { Store } from '../ledger/index.js';
import { largeCashThresholdOf, readFloorSettings } from './floor-settings.js';
import type { People } from './people.js';
import type { BetAdmission, ServiceRejection } from './table/types.js';

/** The journal entries after which an answer may be wrong. */
export const REGISTER_ENTRY_TYPES: ReadonlySet<string> = new Set([
  'identity-recorded',
  'exclusion-recorded',
  'exclusion-revocation-requested',
  'worker-cause-recorded',
  'user-created',
  'floor-settings-changed',
]);

const BARRED: ReadonlySet<string> = new Set(['excluded', 'under_age', 'casino_worker']);

export const ANSWER_TTL_MS = 60_000;
/** Answers kept at most; past it the oldest go (a table of 20,000 players fits). */
export const ANSWERS_MAX = 50_000;

interface Answer {
  readonly date: string;
  readonly atMs: number;
  readonly rejection: ServiceRejection | undefined;
}

export class PeopleAdmission implements BetAdmission {
  private readonly answers = new Map<string, Answer>();
  /** Bumped by `changed`: an answer read before it is not kept. */
  private generation = 0;
  private threshold: Promise<number> | undefined;

  constructor(
    private readonly people: People,
    private readonly store: Store,
  ) {}

  async admit(playerId: string, atMs: number): Promise<ServiceRejection | undefined> {
    const date = macauDate(atMs);
    const kept = this.answers.get(playerId);
    if (kept !== undefined && kept.date === date && atMs - kept.atMs < ANSWER_TTL_MS)
      return kept.rejection;
    const generation = this.generation;
    const rejection = await this.decide(playerId, atMs);
    if (generation === this.generation) {
      if (this.answers.size >= ANSWERS_MAX) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(playerId, { date, atMs, rejection });
    }
    return rejection;
  }

  private async decide(playerId: string, atMs: number): Promise<ServiceRejection | undefined> {
    const user = await this.store.getUser(playerId);
    if (user !== undefined && user.role !== 'player')
      return {
        code: 'staff_cannot_bet',
        message: 'a staff account never bets (Lei 10/2012, art. 2)',
        article: 'Lei 10/2012, art. 2',
      };
    const view = await this.people.eligibility(playerId, atMs);
    if (view.refusal === null) return undefined;
    return { code: view.refusal.code, message: view.refusal.message, article: view.refusal.law };
  }

  /**
   * Lei 10/2012, art. 11: the players barred from gaming now, whose net
   * winnings of the round being paid revert to the Macau SAR. Barred means
   * refused for what the person is (excluded, under age, a casino worker off
   * the days allowed); not a missing identity, which no bet of theirs got past.
   */
  async barred(playerIds: readonly string[], atMs: number): Promise<ReadonlySet<string>> {
    const answers = await Promise.all(playerIds.map((id) => this.admit(id, atMs)));
    return new Set(playerIds.filter((_, i) => BARRED.has(answers[i]?.code ?? '')));
  }

  /** The registers changed (an entry of REGISTER_ENTRY_TYPES, on any node): every answer goes. */
  changed(): void {
    this.generation++;
    this.answers.clear();
    this.threshold = undefined;
  }

  /** The floor's setting, or the law's figure; kept until the settings change. */
  largeCashThresholdMinor(): Promise<number> {
    this.threshold ??= readFloorSettings(this.store)
      .then((state) => largeCashThresholdOf(state.settings, this.store.currency))
      .catch((error: unknown) => {
        this.threshold = undefined;
        throw error;
      });
    return this.threshold;
  }
}
