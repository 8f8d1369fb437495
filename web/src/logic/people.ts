/**
 * Who may play, as the pages show it (Lei 10/2012, arts. 2 and 6): the lists
 * of document types and order kinds for the forms, the period an order bars,
 * the register's search, and a refusal's `issues` sorted by the field they
 * name. Pure. The law itself is the server's (src/compliance/people); the few
 * figures repeated here are checked against it in people.test.ts, because that
 * module also computes document digests with node:crypto and is not bundled.
 */
import { addDays, type IsoDate, macauDate } from '../../../src/compliance/iso-date.js';
import type { DocumentType, ExclusionKind, ExclusionOrder, FieldIssue } from '../api/types.js';

// Records, so that a type the server adds and the pages miss does not compile.
const DOCUMENTS: Readonly<Record<DocumentType, null>> = {
  'macau-id': null,
  'hk-id': null,
  'mainland-permit': null,
  passport: null,
  other: null,
};
const KINDS: Readonly<Record<ExclusionKind, null>> = {
  self: null,
  'third-party': null,
  court: null,
  administrative: null,
};

/** The documents an identity or an order may name, in the forms' order. */
export const DOCUMENT_TYPES = Object.keys(DOCUMENTS) as readonly DocumentType[];
export const EXCLUSION_KINDS = Object.keys(KINDS) as readonly ExclusionKind[];

/** Lei 10/2012, art. 6: a revocation takes effect 30 days after the request. */
export const REVOCATION_DELAY_DAYS = 30;

/** Lei 10/2012, art. 6: the person's own or a relative's order is revoked on request; a court's or an administration's is not (art. 2). */
export const revocable = (kind: ExclusionKind): boolean =>
  kind === 'self' || kind === 'third-party';

/** The last day the order bars: `to`, or the day before its revocation takes effect if earlier. */
export function effectiveUntil(order: ExclusionOrder): IsoDate {
  const asked = order.revocationRequestedOn;
  if (asked === null || !revocable(order.kind)) return order.to;
  const lastBarred = addDays(asked, REVOCATION_DELAY_DAYS - 1);
  return lastBarred < order.to ? lastBarred : order.to;
}

/** The day a revocation asked on `requestedOn` frees the person. */
export const revocationEffectiveOn = (requestedOn: IsoDate): IsoDate =>
  addDays(requestedOn, REVOCATION_DELAY_DAYS);

export type OrderState = 'upcoming' | 'in-force' | 'over';

/** Whether the order bars its person on `today` (a Macau date), will, or no longer does. */
export function orderState(order: ExclusionOrder, today: IsoDate): OrderState {
  if (today < order.from) return 'upcoming';
  return today <= effectiveUntil(order) ? 'in-force' : 'over';
}

/** Whether a revocation may be asked on `today`: an art. 6 order not yet asked and not over. */
export const canRequestRevocation = (order: ExclusionOrder, today: IsoDate): boolean =>
  revocable(order.kind) && order.revocationRequestedOn === null && effectiveUntil(order) >= today;

/** Today's date in Macau (UTC+8), as the server's registers and eligibility count days. */
export const macauToday = (nowMs: number): IsoDate => macauDate(nowMs);

const fold = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');
/** A document number as letters and digits only: "A123456(3)", "a 123456 3" and "A1234563" are one. */
const compact = (text: string): string =>
  text
    .normalize('NFKC')
    .replace(/[^0-9A-Za-z]/g, '')
    .toUpperCase();

/**
 * The orders whose id, DICJ reference, document number or name hold every
 * word typed (blind to case and accents; a number however it is spaced or
 * bracketed).
 */
export function matchingOrders(orders: readonly ExclusionOrder[], words: string): ExclusionOrder[] {
  const wanted = fold(words).split(/\s+/).filter(Boolean);
  if (wanted.length === 0) return [...orders];
  return orders.filter((o) => {
    const text = fold(`${o.id} ${o.dicjReference} ${o.documentNumber} ${o.fullName ?? ''}`);
    const number = compact(o.documentNumber);
    return wanted.every(
      (w) => text.includes(w) || (compact(w) !== '' && number.includes(compact(w))),
    );
  });
}

/** The format of an exclusion file, by its name's extension; null for anything else. */
export function exclusionFileFormat(fileName: string): 'json' | 'csv' | null {
  const ext = /\.([^.]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  return ext === 'json' ? 'json' : ext === 'csv' ? 'csv' : null;
}

/** The issues of a refusal that are issues (a path, a code and a message), the rest left out. */
export function fieldIssues(issues: readonly unknown[]): FieldIssue[] {
  return issues.flatMap((i): FieldIssue[] => {
    if (typeof i !== 'object' || i === null) return [];
    const { path, code, message } = i as Record<string, unknown>;
    return typeof path === 'string' && typeof code === 'string'
      ? [{ path, code, message: typeof message === 'string' ? message : '' }]
      : [];
  });
}

/**
 * A form's issues by the field they name, for the sentence next to each
 * field; `other` holds those of no field of the form (the record as a whole,
 * or a field the form does not show), for the form's own line.
 */
export function issuesByField<F extends string>(
  issues: readonly unknown[],
  fields: readonly F[],
): {
  readonly byField: ReadonlyMap<F, readonly FieldIssue[]>;
  readonly other: readonly FieldIssue[];
} {
  const byField = new Map<F, FieldIssue[]>();
  const other: FieldIssue[] = [];
  for (const issue of fieldIssues(issues)) {
    const field = fields.find((f) => f === issue.path);
    if (field === undefined) other.push(issue);
    else byField.set(field, [...(byField.get(field) ?? []), issue]);
  }
  return { byField, other };
}
