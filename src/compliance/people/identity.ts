/**
 * A player's identity, as the cage records it from an identity document.
 *
 * Instrução 1/2016 forbids anonymous transactions where customer due diligence
 * applies: without a credible identification the transaction is refused, so an
 * identity is checked here before anything else reads it. A document number is
 * stored in one normalized form (upper case, no spaces, the Hong Kong and Macau
 * check digit in brackets), so that the same card typed two ways is the same
 * number: an exclusion order (Lei 10/2012, art. 6) matches a player by it.
 *
 * The number is personal data (Lei 8/2005): the journal keeps only its keyed
 * digest ({@link documentDigest}), never the number itself.
 *
 * Document checks go as far as each format is public:
 * - Hong Kong identity card: one or two letters, six digits and a check digit
 *   (0-9 or A), verified by the published modulus-11 algorithm.
 * - Macau resident identity card (BIR): first digit 1, 5 or 7, six more digits
 *   and a check digit in brackets. Its check-digit algorithm is not public, so
 *   only the pattern is checked.
 * - Mainland exit-entry permit for Hong Kong and Macau: a letter and eight
 *   digits; the shape only is checked.
 * - Passport and other documents: 3 to 30 letters and digits.
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { err, ok, type Result } from '../../rules/errors.js';
import type { IsoDate } from '../iso-date.js';
import { type Issue, schemaIssues, summarizeIssues } from './issue.js';
import { isoDateField, text } from './fields.js';

export const DOCUMENT_TYPES = [
  'macau-id',
  'hk-id',
  'mainland-permit',
  'passport',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** real: a person at the cage; demonstration: --demo users; simulated: cussec play, benches and tests. */
export const IDENTITY_KINDS = ['real', 'demonstration', 'simulated'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

export interface Identity {
  /** 1..200 characters, trimmed. */
  readonly fullName: string;
  readonly documentType: DocumentType;
  /** In the form {@link normalizeDocumentNumber} returns. */
  readonly documentNumber: string;
  /** 1..100 characters. */
  readonly issuingPlace: string;
  /** A valid date; whether it is in the past is the caller's question, through `ageOn`. */
  readonly dateOfBirth: IsoDate;
  /** 1..100 characters. */
  readonly nationality: string;
  readonly kind: IdentityKind;
}

/** The fields of an {@link Identity}, in the order {@link diffIdentity} reports them. */
export const IDENTITY_FIELDS = [
  'fullName',
  'documentType',
  'documentNumber',
  'issuingPlace',
  'dateOfBirth',
  'nationality',
  'kind',
] as const satisfies readonly (keyof Identity)[];

export interface IdentityError {
  readonly code: 'identity_invalid';
  readonly message: string;
  readonly issues: Issue[];
}

export const FULL_NAME_LENGTH_MAX = 200;
export const PLACE_LENGTH_MAX = 100;
/** A raw number longer than this is not a document number, whatever its spaces. */
export const DOCUMENT_NUMBER_RAW_LENGTH_MAX = 64;

export const identitySchema = z.strictObject({
  fullName: text(FULL_NAME_LENGTH_MAX),
  documentType: z.enum(DOCUMENT_TYPES),
  documentNumber: z.string().min(1).max(DOCUMENT_NUMBER_RAW_LENGTH_MAX),
  issuingPlace: text(PLACE_LENGTH_MAX),
  dateOfBirth: isoDateField,
  nationality: text(PLACE_LENGTH_MAX),
  kind: z.enum(IDENTITY_KINDS),
});

// Without brackets the check digit is the last character; the prefix is matched
// loosely here so that a wrong shape is reported by documentNumberProblem.
const HK_UNBRACKETED = /^([A-Z]{1,2}[0-9]{6})([0-9A])$/;
const MACAU_UNBRACKETED = /^([0-9]{7})([0-9])$/;

/**
 * A document number in its one stored form: compatibility characters folded
 * (full-width letters, digits and brackets typed on a Chinese keyboard become
 * ASCII), spaces removed, upper case; a Hong Kong or Macau card's check digit
 * in brackets whether or not it was typed with them. Idempotent.
 */
export function normalizeDocumentNumber(type: DocumentType, raw: string): string {
  const compact = raw.normalize('NFKC').replace(/\s+/g, '').toUpperCase();
  const unbracketed =
    type === 'hk-id' ? HK_UNBRACKETED : type === 'macau-id' ? MACAU_UNBRACKETED : null;
  const match = unbracketed?.exec(compact);
  return match ? `${match[1]}(${match[2]})` : compact;
}

const HK_ID = /^([A-Z]{1,2})([0-9]{6})\(([0-9A])\)$/;
const MACAU_ID = /^[157][0-9]{6}\([0-9]\)$/;
const MAINLAND_PERMIT = /^[A-Z][0-9]{8}$/;
const OTHER_DOCUMENT = /^[A-Z0-9]{3,30}$/;

/**
 * The Hong Kong identity card's check digit for `letters` (one or two) and six
 * `digits`: a single letter is read as preceded by a space worth 36, letters
 * A..Z are 10..35, the eight values are weighted 9 down to 2, and the check is
 * (11 − sum mod 11) mod 11, with 10 written "A".
 */
export function hkIdCheckDigit(letters: string, digits: string): string {
  const padded = letters.length === 1 ? ` ${letters}${digits}` : `${letters}${digits}`;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const ch = padded[i]!;
    const value = ch === ' ' ? 36 : /[A-Z]/.test(ch) ? ch.charCodeAt(0) - 55 : Number(ch);
    sum += value * (9 - i);
  }
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'A' : String(check);
}

export type DocumentProblemCode = 'document_format' | 'document_check_digit';

const FORMATS: Record<DocumentType, { pattern: RegExp; shape: string }> = {
  'hk-id': {
    pattern: HK_ID,
    shape: 'one or two letters, six digits and a check digit 0-9 or A, e.g. A123456(3)',
  },
  'macau-id': {
    pattern: MACAU_ID,
    shape: 'a first digit 1, 5 or 7, six digits and a check digit, e.g. 1234567(8)',
  },
  'mainland-permit': {
    pattern: MAINLAND_PERMIT,
    shape: 'a letter and eight digits, e.g. C12345678',
  },
  passport: { pattern: OTHER_DOCUMENT, shape: '3 to 30 letters and digits' },
  other: { pattern: OTHER_DOCUMENT, shape: '3 to 30 letters and digits' },
};

/** What is wrong with a normalized document number, or null when it passes the checks above. */
export function documentNumberProblem(
  type: DocumentType,
  normalized: string,
): { readonly code: DocumentProblemCode; readonly message: string } | null {
  const format = FORMATS[type];
  if (!format.pattern.test(normalized)) {
    return { code: 'document_format', message: `a ${type} number is ${format.shape}` };
  }
  const hk = type === 'hk-id' ? HK_ID.exec(normalized) : null;
  if (hk && hkIdCheckDigit(hk[1]!, hk[2]!) !== hk[3]) {
    return {
      code: 'document_check_digit',
      message: `${normalized}: the check digit does not match the letters and digits`,
    };
  }
  return null;
}

/** The normalized number and its problem, if any, as an issue at `path`. */
export function documentIssues(
  type: DocumentType,
  raw: string,
  path: string,
): { normalized: string; issues: Issue[] } {
  const normalized = normalizeDocumentNumber(type, raw);
  const problem = documentNumberProblem(type, normalized);
  return { normalized, issues: problem === null ? [] : [{ path, ...problem }] };
}

/**
 * The document check of a record that failed its schema elsewhere, so that a
 * mistyped number is reported with the other problems rather than after they
 * are fixed: it runs when the type and number fields themselves passed.
 */
export function documentIssuesOfFailedRecord(
  input: unknown,
  schemaProblems: readonly Issue[],
  paths: { readonly type: string; readonly number: string },
): Issue[] {
  if (schemaProblems.some((i) => i.path === paths.type || i.path === paths.number)) return [];
  if (typeof input !== 'object' || input === null) return [];
  const { documentType, documentNumber } = input as Record<string, unknown>;
  const type = DOCUMENT_TYPES.find((t) => t === documentType);
  if (type === undefined || typeof documentNumber !== 'string') return [];
  return documentIssues(type, documentNumber, paths.number).issues;
}

/**
 * Validates an identity as the cage enters it, and returns it with the name
 * and places trimmed and the document number normalized. Instrução 1/2016:
 * an identity that does not pass is no identification, so the caller refuses
 * the transaction.
 */
export function parseIdentity(input: unknown): Result<Identity, IdentityError> {
  const parsed = identitySchema.safeParse(input);
  if (!parsed.success) {
    const issues = schemaIssues(parsed.error, input);
    const paths = { type: 'documentType', number: 'documentNumber' };
    return refuse([...issues, ...documentIssuesOfFailedRecord(input, issues, paths)]);
  }
  const { documentType, documentNumber } = parsed.data;
  const document = documentIssues(documentType, documentNumber, 'documentNumber');
  if (document.issues.length > 0) return refuse(document.issues);
  return ok({ ...parsed.data, documentNumber: document.normalized });
}

function refuse(issues: Issue[]): Result<never, IdentityError> {
  return err({
    code: 'identity_invalid',
    message: `identity refused: ${summarizeIssues(issues)}`,
    issues,
  });
}

/** Shorter keys would make the digest of a low-entropy number easy to brute-force. */
export const DIGEST_KEY_BYTES_MIN = 16;

/**
 * HMAC-SHA256 of `type:number`, hex. Lei 8/2005: the journal records this,
 * never the number; with the key an operator can still find a person's
 * records by their document. The number is normalized again (a no-op for a
 * normalized one), so two spellings of one card give one digest.
 */
export function documentDigest(
  key: Uint8Array | Buffer,
  type: DocumentType,
  normalizedNumber: string,
): string {
  if (key.length < DIGEST_KEY_BYTES_MIN) {
    throw new RangeError(
      `documentDigest: key of ${key.length} bytes, need ${DIGEST_KEY_BYTES_MIN}`,
    );
  }
  const number = normalizeDocumentNumber(type, normalizedNumber);
  return createHmac('sha256', key).update(`${type}:${number}`).digest('hex');
}

/** The fields that differ between two identities; every field when there was none before. */
export function diffIdentity(before: Identity | undefined, after: Identity): string[] {
  return IDENTITY_FIELDS.filter((field) => before === undefined || before[field] !== after[field]);
}
