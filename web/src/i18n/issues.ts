/**
 * One problem of one field (an identity's, an order's, a row of a DICJ file),
 * as a sentence in the user's language, from the issue's code (the server's
 * English message is for logs). A document number in the wrong shape is told
 * the shape of its type of document when the form knows the type.
 */
import type { DocumentType, FieldIssue } from '../api/types.js';
import { DICT, type Key } from './dict.js';
import { type Lang, translate } from './i18n.js';

/** The codes an issue carries (src/compliance/people: issue.ts, identity.ts, exclusions.ts, exclusion-files.ts). */
export const ISSUE_CODES = [
  'field_missing',
  'field_type',
  'field_length',
  'field_value',
  'field_unknown',
  'field_invalid',
  'date_invalid',
  'document_format',
  'document_check_digit',
  'period_reversed',
  'period_too_long',
  'revocation_not_allowed',
  'row_fields',
  'id_duplicate',
  'exclusion_file_malformed',
  'exclusion_file_too_large',
] as const;

export function issueSentence(lang: Lang, issue: FieldIssue, documentType?: DocumentType): string {
  if (issue.code === 'document_format' && documentType !== undefined)
    return translate(lang, `issue.document_format.${documentType}`);
  const key = `issue.${issue.code}`;
  return translate(lang, key in DICT ? (key as Key) : 'issue.unknown');
}
