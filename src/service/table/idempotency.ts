/**
 * Idempotency keys (docs/service.md, "Idempotency"): a retried command gets
 * the first answer, recorded in the same transaction as its effects. A batch
 * looks up all its keys in one statement before its first command and records
 * them in one after its last.
 */
import { hashRequest, isRoundEventEntry, type JournalEntry } from '../../journal/index.js';
import type { CommandLookup, Store, Tx } from '../../ledger/index.js';
import { type CommandOutcome, type CommandRequest, type PublishedEvent, refused } from './types.js';

/**
 * What an idempotency record keeps of an answer. An accepted command's events
 * are in the journal already (a reveal's round-settled holds a return for each
 * bet of the round): the record keeps their seqs and a replay reads them back.
 * Refusals are small and kept whole, and so are records written before this
 * form, which hold the whole answer.
 */
type StoredOutcome =
  | CommandOutcome
  | { readonly ok: true; readonly eventSeqs: readonly number[]; readonly balanceMinor?: number };

function storedOutcome(outcome: CommandOutcome): StoredOutcome {
  if (!outcome.ok) return outcome;
  const eventSeqs = outcome.events.map((e) => e.seq);
  const { balanceMinor } = outcome;
  return balanceMinor === undefined
    ? { ok: true, eventSeqs }
    : { ok: true, eventSeqs, balanceMinor };
}

/** A replayed command whose record names its events by seq (see StoredOutcome). */
export interface Replay {
  readonly index: number;
  readonly eventSeqs: readonly number[];
  readonly balanceMinor?: number;
}

const conflict = (): CommandOutcome =>
  refused('idempotency_key_conflict', 'this idempotency key was used for another request');

/** The keys of one batch's commands, by position in the batch. */
export class BatchKeys {
  /** By position in the batch: a keyed command's request hash and what its key holds. */
  private readonly lookups = new Map<number, { hash: string; found: CommandLookup }>();
  /** Idempotency keys first seen in this batch, in order. */
  private readonly keys = new Map<string, { index: number; hash: string }>();
  /** Commands of this batch that repeat an earlier one's key: they get its answer. */
  private readonly repeats: { index: number; of: number }[] = [];
  /** Replayed commands whose record names their events by seq, filled in after the commit. */
  readonly replays: Replay[] = [];

  /** Each keyed command's request hash, and what its key holds already: one lookup a batch. */
  async lookUp(tx: Tx, requests: readonly CommandRequest[]): Promise<void> {
    const keyed = requests.flatMap((request, index) =>
      request.idempotencyKey === undefined
        ? []
        : [
            {
              index,
              key: {
                key: request.idempotencyKey,
                requestHash: hashRequest({ tableId: request.tableId, command: request.command }),
              },
            },
          ],
    );
    const found = await tx.findCommands(keyed.map((k) => k.key));
    keyed.forEach((k, i) =>
      this.lookups.set(k.index, { hash: k.key.requestHash, found: found[i]! }),
    );
  }

  /**
   * The answer the command's key already holds (a replay, a conflict, or the
   * answer of an earlier command of this batch, filled in by `record`), or
   * null when the command is new and runs.
   */
  claim(index: number, request: CommandRequest): CommandOutcome | null {
    const lookup = this.lookups.get(index);
    if (request.idempotencyKey === undefined || lookup === undefined) return null;
    const { hash, found } = lookup;
    if (found.status === 'replay') return this.replay(index, found.response as StoredOutcome);
    if (found.status === 'conflict') return conflict();
    const earlier = this.keys.get(request.idempotencyKey);
    if (earlier !== undefined) {
      if (earlier.hash !== hash) return conflict();
      this.repeats.push({ index, of: earlier.index });
      return { ok: true, events: [] };
    }
    this.keys.set(request.idempotencyKey, { index, hash });
    return null;
  }

  /** Gives repeats their first command's answer and records every new key's answer. */
  async record(tx: Tx, outcomes: CommandOutcome[]): Promise<void> {
    for (const r of this.repeats) outcomes[r.index] = outcomes[r.of]!;
    await tx.putCommands(
      [...this.keys].map(([key, k]) => ({
        key,
        requestHash: k.hash,
        response: storedOutcome(outcomes[k.index]!),
      })),
    );
  }

  /** The recorded answer; one recorded by seqs is filled in after the commit (rebuildReplays). */
  private replay(index: number, stored: StoredOutcome): CommandOutcome {
    if (!('eventSeqs' in stored)) return stored;
    this.replays.push({ index, ...stored });
    return { ok: true, events: [] };
  }
}

/**
 * Turns each replayed record of seqs back into the answer it was: the events
 * are the journal's entries at those seqs, which never change once written.
 */
export async function rebuildReplays(
  store: Store,
  outcomes: CommandOutcome[],
  replays: readonly Replay[],
): Promise<void> {
  for (const { index, eventSeqs, balanceMinor } of replays) {
    const events: PublishedEvent[] = [];
    if (eventSeqs.length > 0) {
      const fromSeq = Math.min(...eventSeqs);
      const limit = Math.max(...eventSeqs) - fromSeq + 1;
      const bySeq = new Map<number, JournalEntry>(
        (await store.readJournal({ fromSeq, limit })).map((e) => [e.seq, e]),
      );
      for (const seq of eventSeqs) {
        const entry = bySeq.get(seq);
        if (entry === undefined || !isRoundEventEntry(entry))
          throw new Error(`replay: journal entry ${seq} is missing or not a round event`);
        events.push({ seq, event: entry.payload });
      }
    }
    outcomes[index] =
      balanceMinor === undefined ? { ok: true, events } : { ok: true, events, balanceMinor };
  }
}
