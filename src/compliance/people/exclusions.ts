/**
 * Exclusion orders: who the DICJ, a court or an administrative decision bars
 * from the casinos, and until when.
 *
 * - Lei 10/2012, art. 2: persons barred by a final court decision or a final
 *   administrative decision may not enter; the decision sets the period, so
 *   any `to` on or after `from` is accepted.
 * - Lei 10/2012, art. 6: at the person's own request ("self") or a relative's
 *   that the person confirms ("third-party"), the DICJ's director bars them for
 *   at most two years: `to` must be before `addYears(from, 2)` (from
 *   2026-01-10 the last day barred may be 2028-01-09). The person may ask to
 *   revoke it at any time; the revocation takes effect 30 days after the
 *   request, so with a request on day R they are still barred on R+29 and free
 *   on R+30. Court and administrative decisions are not revoked on request.
 *
 * Dates are Macau calendar dates, `from` and `to` both barred (inclusive).
 * An order's document number is normalized and checked as an identity's is,
 * so that it matches the number the cage records; an order whose number fails
 * the checks is refused with the field named, for the operator to query with
 * the DICJ, because it could never match a card.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../rules/errors.js';
import { addDays, type IsoDate } from '../iso-date.js';
import { addYears } from './age.js';
import { isoDateField, text } from './fields.js';
import {
  DOCUMENT_NUMBER_RAW_LENGTH_MAX,
  DOCUMENT_TYPES,
  type DocumentType,
  documentIssues,
  documentIssuesOfFailedRecord,
  FULL_NAME_LENGTH_MAX,
  normalizeDocumentNumber,
} from './identity.js';
import { type Issue, joinPath, schemaIssues, summarizeIssues } from './issue.js';

export const EXCLUSION_KINDS = ['self', 'third-party', 'court', 'administrative'] as const;
export type ExclusionKind = (typeof EXCLUSION_KINDS)[number];

export interface ExclusionOrder {
  readonly id: string;
  readonly kind: ExclusionKind;
  /** The DICJ's reference of the order or of the decision it notified; 1..100 characters. */
  readonly dicjReference: string;
  readonly documentType: DocumentType;
  /** Normalized (normalizeDocumentNumber). */
  readonly documentNumber: string;
  readonly fullName: string | null;
  readonly dateOfBirth: IsoDate | null;
  /** The first day barred. */
  readonly from: IsoDate;
  /** The last day barred (inclusive). */
  readonly to: IsoDate;
  /** Art. 6: the day the person asked to revoke the order, if they did. */
  readonly revocationRequestedOn: IsoDate | null;
}

/** Lei 10/2012, art. 6: an exclusion lasts at most two years. */
export const EXCLUSION_YEARS_MAX = 2;
/** Lei 10/2012, art. 6: a revocation takes effect 30 days after the request. */
export const REVOCATION_DELAY_DAYS = 30;
export const EXCLUSION_TEXT_LENGTH_MAX = 100;

/** Art. 6 orders, the ones limited to two years and revocable on request. */
export function isArt6Order(kind: ExclusionKind): boolean {
  return kind === 'self' || kind === 'third-party';
}

export interface ExclusionOrderError {
  readonly code: 'exclusion_order_invalid';
  readonly message: string;
  readonly issues: Issue[];
}

// Absent nullable fields read as null: a JSON file may leave out what it does not know.
export const exclusionOrderSchema = z.strictObject({
  id: text(EXCLUSION_TEXT_LENGTH_MAX),
  kind: z.enum(EXCLUSION_KINDS),
  dicjReference: text(EXCLUSION_TEXT_LENGTH_MAX),
  documentType: z.enum(DOCUMENT_TYPES),
  documentNumber: z.string().min(1).max(DOCUMENT_NUMBER_RAW_LENGTH_MAX),
  fullName: text(FULL_NAME_LENGTH_MAX).nullable().default(null),
  dateOfBirth: isoDateField.nullable().default(null),
  from: isoDateField,
  to: isoDateField,
  revocationRequestedOn: isoDateField.nullable().default(null),
});

type OrderDoc = z.infer<typeof exclusionOrderSchema>;

/** The checks that involve more than one field, on a record whose fields each passed. */
function periodIssues(doc: OrderDoc, prefix: string | undefined): Issue[] {
  const issues: Issue[] = [];
  const at = (key: string) => joinPath(prefix, key);
  // Lei 10/2012, arts. 2 and 6: a period runs forwards.
  if (doc.to < doc.from) {
    issues.push({
      path: at('to'),
      code: 'period_reversed',
      message: `${doc.to} is before from ${doc.from}`,
    });
  } else if (
    // Lei 10/2012, art. 6: at most two years.
    isArt6Order(doc.kind) &&
    doc.to >= addYears(doc.from, EXCLUSION_YEARS_MAX)
  ) {
    const last = addDays(addYears(doc.from, EXCLUSION_YEARS_MAX), -1);
    issues.push({
      path: at('to'),
      code: 'period_too_long',
      message: `a ${doc.kind} order lasts at most two years: from ${doc.from} the last day is ${last} (Lei 10/2012, art. 6)`,
    });
  }
  // Lei 10/2012, art. 6: only the DICJ's own exclusions are revoked on request.
  if (!isArt6Order(doc.kind) && doc.revocationRequestedOn !== null) {
    issues.push({
      path: at('revocationRequestedOn'),
      code: 'revocation_not_allowed',
      message: `a ${doc.kind} decision is not revoked on request (Lei 10/2012, arts. 2 and 6)`,
    });
  }
  return issues;
}

/**
 * Validates one order (parsed JSON, or a CSV row with empty cells as null).
 * Every problem is named, with paths under `path` ("orders.3.to").
 */
export function parseExclusionOrder(
  input: unknown,
  path?: string,
): Result<ExclusionOrder, ExclusionOrderError> {
  const parsed = exclusionOrderSchema.safeParse(input);
  if (!parsed.success) {
    const issues = schemaIssues(parsed.error, input, path);
    const paths = {
      type: joinPath(path, 'documentType'),
      number: joinPath(path, 'documentNumber'),
    };
    return refuse([...issues, ...documentIssuesOfFailedRecord(input, issues, paths)]);
  }
  const doc = parsed.data;
  const document = documentIssues(
    doc.documentType,
    doc.documentNumber,
    joinPath(path, 'documentNumber'),
  );
  const issues = [...document.issues, ...periodIssues(doc, path)];
  if (issues.length > 0) return refuse(issues);
  return ok({ ...doc, documentNumber: document.normalized });
}

function refuse(issues: Issue[]): Result<never, ExclusionOrderError> {
  return err({
    code: 'exclusion_order_invalid',
    message: `exclusion order refused: ${summarizeIssues(issues)}`,
    issues,
  });
}

/**
 * The last day the order bars: `to`, or the day before a revocation takes
 * effect (request day + 29) when that is earlier. A revocation date on a court
 * or administrative order is ignored: those are not revoked on request. May be
 * before `from` when the revocation took effect before the order began.
 */
export function effectiveUntil(order: ExclusionOrder): IsoDate {
  const requested = order.revocationRequestedOn;
  if (requested === null || !isArt6Order(order.kind)) return order.to;
  // Lei 10/2012, art. 6: the revocation takes effect 30 days after the request.
  const lastBarred = addDays(requested, REVOCATION_DELAY_DAYS - 1);
  return lastBarred < order.to ? lastBarred : order.to;
}

/** Lei 10/2012, arts. 2 and 6: whether the order bars its person on `date`. */
export function isBarredOn(order: ExclusionOrder, date: IsoDate): boolean {
  return order.from <= date && date <= effectiveUntil(order);
}

export type RevocationRefusalCode =
  'revocation_not_allowed' | 'revocation_already_requested' | 'exclusion_over';

export interface RevocationRefusal {
  readonly code: RevocationRefusalCode;
  readonly message: string;
  readonly article: '2' | '6';
}

/**
 * Lei 10/2012, art. 6: records a request on `requestedOn` to revoke the order.
 * Refused for a court or administrative decision, for an order whose
 * revocation was already asked (the first request already runs its 30 days),
 * and for an order no longer barring anyone after `requestedOn`.
 */
export function requestRevocation(
  order: ExclusionOrder,
  requestedOn: IsoDate,
): Result<ExclusionOrder, RevocationRefusal> {
  if (!isArt6Order(order.kind)) {
    return err({
      code: 'revocation_not_allowed',
      message: `order ${order.id} is a ${order.kind} decision, not revoked on request`,
      article: '2',
    });
  }
  if (order.revocationRequestedOn !== null) {
    return err({
      code: 'revocation_already_requested',
      message: `revocation of order ${order.id} was requested on ${order.revocationRequestedOn}`,
      article: '6',
    });
  }
  if (effectiveUntil(order) < requestedOn) {
    return err({
      code: 'exclusion_over',
      message: `order ${order.id} ended on ${effectiveUntil(order)}`,
      article: '6',
    });
  }
  return ok({ ...order, revocationRequestedOn: requestedOn });
}

/** Whether the order names this document (the number normalized before comparing). */
export function matchesDocument(
  order: ExclusionOrder,
  type: DocumentType,
  number: string,
): boolean {
  return (
    order.documentType === type && order.documentNumber === normalizeDocumentNumber(type, number)
  );
}

/**
 * A name as compared for a possible match: compatibility forms folded,
 * accents removed, case and runs of spaces ignored ("  José  CHAN " and
 * "jose chan" compare equal).
 */
export function comparableName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Whether the order's name and date of birth are the person's: a warning for
 * the cashier that the person may be barred under another document. False
 * when the order lacks either.
 */
export function matchesByNameAndBirth(
  order: ExclusionOrder,
  fullName: string,
  dateOfBirth: IsoDate,
): boolean {
  if (order.fullName === null || order.dateOfBirth === null) return false;
  return (
    order.dateOfBirth === dateOfBirth && comparableName(order.fullName) === comparableName(fullName)
  );
}
