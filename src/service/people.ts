/**
 * Who may play, as the running system keeps it: the identity of each account,
 * its history and who read it, the exclusion orders and workers' causes, and
 * the one eligibility decision the cage, the table and account creation ask.
 * The law is src/compliance/people (pure); the rows are src/ledger/registers.ts;
 * this module joins them, journals every change in the same transaction as the
 * change, and refuses with a code, the law and its article.
 *
 * - Lei 8/2005: an identity is personal data. The journal holds the document's
 *   keyed digest, never its number; every read of an identity by staff other
 *   than the person is recorded (who, whose, when, why), and the inspector
 *   lists those reads.
 * - Lei 10/2012, art. 2 (age 21, casino workers, court and administrative
 *   decisions) and art. 6 (exclusion at the person's or a relative's request,
 *   at most two years, revoked 30 days after a request): `eligible`.
 */
import { randomBytes } from 'node:crypto';
import {
  addDays,
  diffIdentity,
  documentDigest,
  type DocumentType,
  eligible,
  type ExclusionOrder,
  type Identity,
  type Ineligibility,
  isBarredOn,
  lunarNewYearDays,
  macauDate,
  matchesByNameAndBirth,
  parseExclusionFile,
  parseExclusionOrder,
  parseIdentity,
  requestRevocation,
  REVOCATION_DELAY_DAYS,
  type WorkerCause,
  type WorkingDayCalendar,
} from '../compliance/index.js';
import type { ExclusionRow, IdentityRow, Role, Store, Tx } from '../ledger/index.js';
import type { Actor } from './accounts.js';
import { ServiceRefusal } from './refusal.js';

/** The codes this module refuses with, each with its HTTP status in src/server/http-error.ts. */
export const PEOPLE_ERROR_CODES = [
  'identity_invalid',
  'identity_missing',
  'under_age',
  'excluded',
  'casino_worker',
  'staff_cannot_bet',
  'exclusion_order_invalid',
  'exclusion_exists',
  'exclusion_unknown',
  'revocation_not_allowed',
  'revocation_already_requested',
  'exclusion_over',
  'worker_cause_invalid',
  'worker_cause_exists',
  'document_sighting_required',
  'flag_unknown',
  'flag_decided',
  'threshold_above_law',
] as const;
export type PeopleErrorCode = (typeof PEOPLE_ERROR_CODES)[number];

/** A refusal with the law it enforces: the code, a sentence, and e.g. "Lei 10/2012, art. 2". */
export class PeopleRefusal extends ServiceRefusal {
  constructor(
    code: PeopleErrorCode,
    message: string,
    readonly article?: string,
    readonly issues?: readonly unknown[],
  ) {
    super(code, message);
  }
}

/** "Lei 10/2012, art. 2": the law and article as docs and answers cite them. */
export function citation(refusal: Pick<Ineligibility, 'law' | 'article'>): string {
  return refusal.article === '' ? refusal.law : `${refusal.law}, art. ${refusal.article}`;
}

export function ineligibilityRefusal(refusal: Ineligibility): PeopleRefusal {
  return new PeopleRefusal(refusal.code, refusal.message, citation(refusal));
}

/** An identity as the roles that may see it read it (Lei 8/2005). */
export interface IdentityView extends Identity {
  readonly userId: string;
  readonly version: number;
  readonly updatedAtMs: number;
  readonly updatedBy: string;
}

/** What the cage sees before an amount is typed: is the identity there, may the person play. */
export interface EligibilityView {
  readonly userId: string;
  readonly identity: 'recorded' | 'missing';
  readonly kind: Identity['kind'] | null;
  readonly macauDate: string;
  readonly eligible: boolean;
  readonly refusal: {
    readonly code: Ineligibility['code'];
    readonly message: string;
    readonly law: string;
    readonly until: string | null;
  } | null;
  /** Orders that match the person's name and date of birth under another document. */
  readonly warnings: readonly { readonly orderId: string; readonly message: string }[];
}

/** Who reads an identity, and why (recorded for staff: Lei 8/2005). */
export interface Reader {
  readonly id: string;
  readonly role: Role;
}

const toIdentity = (row: IdentityRow): Identity => ({
  fullName: row.fullName,
  documentType: row.documentType as DocumentType,
  documentNumber: row.documentNumber,
  issuingPlace: row.issuingPlace,
  dateOfBirth: row.dateOfBirth,
  nationality: row.nationality,
  kind: row.kind,
});

const toView = (row: IdentityRow): IdentityView => ({
  ...toIdentity(row),
  userId: row.userId,
  version: row.version,
  updatedAtMs: row.updatedAtMs,
  updatedBy: row.updatedBy,
});

export const toOrder = (row: ExclusionRow): ExclusionOrder => ({
  id: row.id,
  kind: row.kind as ExclusionOrder['kind'],
  dicjReference: row.dicjReference,
  documentType: row.documentType as DocumentType,
  documentNumber: row.documentNumber,
  fullName: row.fullName,
  dateOfBirth: row.dateOfBirth,
  from: row.from,
  to: row.to,
  revocationRequestedOn: row.revocationRequestedOn,
});

export interface PeopleOptions {
  readonly store: Store;
  /** The working-day calendar: the Lunar New Year's first three days are read from it. */
  readonly calendar: () => Promise<WorkingDayCalendar>;
  readonly clock?: () => number;
}

export class People {
  readonly store: Store;
  private readonly clock: () => number;
  private key: Promise<Buffer> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: PeopleOptions) {
    this.store = options.store;
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Calls `listener` after this node changes the registers (an identity, an
   * order, a revocation, a cause), at once; the other nodes hear of it from
   * the journal (Floor's registersChanged).
   */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** The HMAC key of document digests, made once per database (Registers.documentDigestKey). */
  private digestKey(): Promise<Buffer> {
    this.key ??= this.store.registers
      .documentDigestKey(randomBytes(32).toString('hex'))
      .then((hex) => Buffer.from(hex, 'hex'))
      .catch((error: unknown) => {
        this.key = undefined;
        throw error;
      });
    return this.key;
  }

  /** The journal's stand-in for a document number (Lei 8/2005). */
  async digest(type: DocumentType, number: string): Promise<string> {
    return documentDigest(await this.digestKey(), type, number);
  }

  /**
   * Records or corrects a user's identity: version 1, or the next version
   * with the fields that changed, journaled (`identity-recorded`, the
   * document's digest and never its number) in the same transaction. Writing
   * the identity as it stands changes nothing.
   */
  async recordIdentity(userId: string, input: unknown, by: Actor): Promise<IdentityView> {
    const identity = parsedIdentity(input);
    const digest = await this.digest(identity.documentType, identity.documentNumber);
    for (;;) {
      const written = await this.store.transaction(async (tx) => {
        if ((await tx.getUser(userId)) === undefined)
          throw new ServiceRefusal('unknown_user', `there is no user "${userId}"`);
        return writeIdentity(tx, userId, identity, digest, by);
      });
      if (written !== undefined) {
        this.changed();
        return toView(written);
      }
      // Another correction won the version: read it again and write ours after it.
    }
  }

  /**
   * A user's identity, or undefined. A read by staff of someone else's is
   * recorded (Lei 8/2005) with its purpose, in its own short transaction.
   */
  async readIdentity(
    userId: string,
    reader: Reader,
    purpose: string,
  ): Promise<IdentityView | undefined> {
    const row = await this.store.registers.identity(userId);
    if (row !== undefined) await this.recordRead(userId, reader, purpose);
    return row === undefined ? undefined : toView(row);
  }

  /**
   * Marked identities (markedIdentity) for many accounts in one transaction:
   * the tests', the benches' and the demonstration's players. An account that
   * has an identity keeps it.
   */
  async recordMarked(
    users: readonly { readonly id: string; readonly displayName: string }[],
    kind: 'demonstration' | 'simulated',
    by: Actor,
  ): Promise<void> {
    const marked = users.map((u) => markedIdentity(u.id, u.displayName, kind));
    const digests = await Promise.all(
      marked.map((m) => this.digest(m.documentType, m.documentNumber)),
    );
    await this.store.transaction(async (tx) => {
      for (const [i, user] of users.entries())
        if ((await tx.registers.identity(user.id)) === undefined)
          await writeIdentity(tx, user.id, marked[i]!, digests[i]!, by);
    });
    this.changed();
  }

  /** Every version of a user's identity, oldest first (a read, recorded like one). */
  async identityHistory(userId: string, reader: Reader) {
    const changes = await this.store.registers.identityChanges(userId);
    if (changes.length > 0) await this.recordRead(userId, reader, 'history');
    return changes;
  }

  private async recordRead(subjectId: string, reader: Reader, purpose: string): Promise<void> {
    if (reader.id === subjectId) return;
    const atMs = this.clock();
    await this.store.transaction((tx) =>
      tx.registers.recordRead({ atMs, readerId: reader.id, subjectId, purpose }),
    );
  }

  /** The registers' facts about one person, as `eligible` takes them. */
  private async registersOf(identity: Identity, calendar: WorkingDayCalendar) {
    const { documentType: type, documentNumber: number } = identity;
    const [orders, causes, isWorker] = await Promise.all([
      this.store.registers.exclusionsByDocument(type, number),
      this.store.registers.workerCausesByDocument(type, number),
      this.store.registers.isStaffDocument(type, number),
    ]);
    return {
      exclusions: orders.map(toOrder),
      isWorker,
      workerCauses: causes.map((c): WorkerCause => ({
        id: c.id,
        kind: c.kind as WorkerCause['kind'],
        approvalReference: c.approvalReference,
        from: c.from,
        to: c.to,
      })),
      lunarNewYearDays: lunarNewYearDays(calendar),
    };
  }

  /**
   * Whether the user may play at `atMs` (the Macau date of it), and why not,
   * with the orders that match their name and birth under another document
   * (a warning for the cashier, never a refusal: the match is not the law's).
   */
  async eligibility(userId: string, atMs = this.clock()): Promise<EligibilityView> {
    const date = macauDate(atMs);
    const row = await this.store.registers.identity(userId);
    const identity = row === undefined ? undefined : toIdentity(row);
    const registers =
      identity === undefined
        ? { exclusions: [], isWorker: false, workerCauses: [], lunarNewYearDays: new Set<string>() }
        : await this.registersOf(identity, await this.options.calendar());
    const decision = eligible(identity, date, registers);
    const warnings = identity === undefined ? [] : await this.nameMatches(identity, date);
    return {
      userId,
      identity: identity === undefined ? 'missing' : 'recorded',
      kind: identity?.kind ?? null,
      macauDate: date,
      eligible: decision.ok,
      refusal: decision.ok
        ? null
        : {
            code: decision.error.code,
            message: decision.error.message,
            law: citation(decision.error),
            until: decision.error.until ?? null,
          },
      warnings,
    };
  }

  /**
   * Lei 10/2012, arts. 2 and 6: a new player account for this identity. The
   * identity is parsed (identity_invalid naming the field) and judged before
   * any account exists: a person under 21, excluded or a casino worker off the
   * days allowed opens none. Returns the parsed identity to record.
   */
  async admitNewPlayer(input: unknown, atMs = this.clock()): Promise<Identity> {
    const identity = parsedIdentity(input);
    const registers = await this.registersOf(identity, await this.options.calendar());
    const decision = eligible(identity, macauDate(atMs), registers);
    if (!decision.ok) throw ineligibilityRefusal(decision.error);
    return identity;
  }

  /** Throws the eligibility refusal, if any: the cage's deposits and account creation ask it. */
  async mustBeEligible(userId: string, atMs = this.clock()): Promise<void> {
    const view = await this.eligibility(userId, atMs);
    if (view.refusal !== null)
      throw new PeopleRefusal(view.refusal.code, view.refusal.message, view.refusal.law);
  }

  /** Lei 10/2012: an order barring today whose name and birth match, under another document. */
  private async nameMatches(identity: Identity, date: string) {
    const orders = await this.store.registers.exclusionsByBirth(identity.dateOfBirth);
    return orders
      .map(toOrder)
      .filter(
        (o) =>
          isBarredOn(o, date) &&
          !(
            o.documentType === identity.documentType && o.documentNumber === identity.documentNumber
          ) &&
          matchesByNameAndBirth(o, identity.fullName, identity.dateOfBirth),
      )
      .map((o) => ({
        orderId: o.id,
        // Lei 8/2005: the warning names the order, not the person (the eligibility answer is no identity read).
        message: `exclusion order ${o.id} (${o.dicjReference}) names a person of this name and date of birth under another document: check the person's documents`,
      }));
  }

  /**
   * Lei 10/2012, arts. 2 and 6: enters an order in the register, journaled
   * with the document's digest. An id already entered is `exclusion_exists`.
   */
  async recordExclusion(input: unknown, by: Actor): Promise<ExclusionOrder> {
    const parsed = parseExclusionOrder(input);
    if (!parsed.ok)
      throw new PeopleRefusal(
        'exclusion_order_invalid',
        parsed.error.message,
        'Lei 10/2012, art. 6',
        parsed.error.issues,
      );
    const [outcome] = await this.storeOrders([parsed.value], by);
    this.changed();
    if (outcome === 'exists')
      throw new PeopleRefusal(
        'exclusion_exists',
        `an order with id ${parsed.value.id} is on record`,
      );
    return parsed.value;
  }

  /**
   * A file of orders as the DICJ sends them (src/compliance/people/exclusion-files.ts):
   * the good rows are entered in one transaction, the bad ones named and left
   * out; an order already on record is counted, not entered again.
   */
  async loadExclusions(text: string, format: 'json' | 'csv', by: Actor) {
    const file = parseExclusionFile(text, format);
    const outcomes = file.orders.length === 0 ? [] : await this.storeOrders(file.orders, by);
    this.changed();
    return {
      recorded: outcomes.filter((o) => o === 'recorded').length,
      existing: file.orders.filter((_, i) => outcomes[i] === 'exists').map((o) => o.id),
      bad: file.bad,
    };
  }

  private async storeOrders(orders: readonly ExclusionOrder[], by: Actor) {
    const digests = await Promise.all(
      orders.map((o) => this.digest(o.documentType, o.documentNumber)),
    );
    return this.store.transaction(async (tx) => {
      const outcomes: ('recorded' | 'exists')[] = [];
      for (const [i, order] of orders.entries()) {
        const inserted = await tx.registers.insertExclusion({
          ...order,
          recordedBy: by,
          recordedAtMs: tx.nowMs,
        });
        outcomes.push(inserted ? 'recorded' : 'exists');
        if (!inserted) continue;
        await tx.appendJournal([
          {
            tableId: null,
            type: 'exclusion-recorded',
            payload: {
              orderId: order.id,
              kind: order.kind,
              dicjReference: order.dicjReference,
              documentType: order.documentType,
              documentDigest: digests[i]!,
              from: order.from,
              to: order.to,
              by,
            },
          },
        ]);
      }
      return outcomes;
    });
  }

  /** Lei 10/2012, art. 6: a request to revoke, effective 30 days after `requestedOn`. */
  async requestRevocation(
    orderId: string,
    requestedOn: string,
    by: Actor,
  ): Promise<ExclusionOrder> {
    const revoked = await this.store.transaction(async (tx) => {
      const row = await tx.registers.exclusion(orderId);
      if (row === undefined)
        throw new PeopleRefusal('exclusion_unknown', `there is no exclusion order "${orderId}"`);
      const revoked = requestRevocation(toOrder(row), requestedOn);
      if (!revoked.ok)
        throw new PeopleRefusal(
          revoked.error.code,
          revoked.error.message,
          `Lei 10/2012, art. ${revoked.error.article}`,
        );
      await tx.registers.requestRevocation(orderId, requestedOn);
      const effectiveOn = addDays(requestedOn, REVOCATION_DELAY_DAYS);
      await tx.appendJournal([
        {
          tableId: null,
          type: 'exclusion-revocation-requested',
          payload: { orderId, requestedOn, effectiveOn, by },
        },
      ]);
      return revoked.value;
    });
    this.changed();
    return revoked;
  }

  /** Orders in id order (the register's page). */
  async exclusions(query: { afterId?: string; limit?: number }): Promise<ExclusionOrder[]> {
    return (await this.store.registers.exclusions(query)).map(toOrder);
  }

  /**
   * Lei 10/2012, art. 2: a worker's legitimate cause to enter and play (a
   * training course, or an exceptional entry approved and reported to the
   * DICJ's inspectors), for the person of a document, from and to inclusive.
   */
  async recordWorkerCause(input: WorkerCauseInput, by: Actor): Promise<WorkerCause> {
    const digest = await this.digest(input.documentType, input.documentNumber);
    const recorded = await this.store.transaction(async (tx) => {
      const inserted = await tx.registers.insertWorkerCause({
        ...input,
        recordedBy: by,
        recordedAtMs: tx.nowMs,
      });
      if (!inserted) return false;
      await tx.appendJournal([
        {
          tableId: null,
          type: 'worker-cause-recorded',
          payload: {
            causeId: input.id,
            documentType: input.documentType,
            documentDigest: digest,
            kind: input.kind,
            approvalReference: input.approvalReference,
            from: input.from,
            to: input.to,
            by,
          },
        },
      ]);
      return true;
    });
    if (!recorded)
      throw new PeopleRefusal('worker_cause_exists', `a cause with id ${input.id} is on record`);
    this.changed();
    return input;
  }
}

/**
 * The identity of an account that is no real person's: `cussec serve --demo`'s
 * users (demonstration) and the tests' and benches' (simulated). Marked as
 * such, as their tables' authorizations are; its document is of type `other`
 * and made from the account's id, so no two accounts share one and none is a
 * real person's.
 */
export function markedIdentity(
  userId: string,
  displayName: string,
  kind: 'demonstration' | 'simulated',
): Identity {
  const tag = userId.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return {
    fullName: displayName,
    documentType: 'other',
    documentNumber: `${kind === 'demonstration' ? 'DEMO' : 'SIM'}${tag}`.slice(0, 30),
    issuingPlace: kind === 'demonstration' ? 'Demonstration' : 'Simulation',
    dateOfBirth: '1990-01-01',
    nationality: kind === 'demonstration' ? 'Demonstration' : 'Simulation',
    kind,
  };
}

/** The identity, or `identity_invalid` naming each bad field. */
export function parsedIdentity(input: unknown): Identity {
  const parsed = parseIdentity(input);
  if (!parsed.ok)
    throw new PeopleRefusal(
      'identity_invalid',
      parsed.error.message,
      undefined,
      parsed.error.issues,
    );
  return parsed.value;
}

/** A worker's cause as the routes pass it (validated there). */
export interface WorkerCauseInput extends WorkerCause {
  readonly documentType: DocumentType;
  readonly documentNumber: string;
}

/**
 * Writes the identity as the next version, with its journal entry; the row
 * as it stands when nothing changed; undefined when another writer took the
 * version meanwhile.
 */
async function writeIdentity(
  tx: Tx,
  userId: string,
  identity: Identity,
  digest: string,
  by: Actor,
): Promise<IdentityRow | undefined> {
  const before = await tx.registers.identity(userId);
  const fields = diffIdentity(before === undefined ? undefined : toIdentity(before), identity);
  if (before !== undefined && fields.length === 0) return before;
  const row: IdentityRow = {
    userId,
    ...identity,
    documentDigest: digest,
    version: (before?.version ?? 0) + 1,
    updatedAtMs: tx.nowMs,
    updatedBy: by,
  };
  if (!(await tx.registers.writeIdentity(row, fields))) return undefined;
  await tx.appendJournal([
    {
      tableId: null,
      type: 'identity-recorded',
      payload: {
        userId,
        version: row.version,
        documentType: identity.documentType,
        documentDigest: digest,
        fields,
        kind: identity.kind,
        by,
      },
    },
  ]);
  return row;
}
