/**
 * One problem with one field of a document a person or the DICJ supplied.
 *
 * The identity and exclusion parsers refuse a record with every problem named,
 * as `parseHolidayYear` does, so that a cashier or a supervisor can correct it
 * in one pass: a path names the field (`documentNumber`, `orders.3.to`) and a
 * stable code names the kind of problem. zod's own codes are mapped to the few
 * below so that programs do not depend on the schema library's vocabulary.
 */
import type { z } from 'zod';

export interface Issue {
  /** The field, e.g. "documentNumber"; "(record)" when the whole record is wrong. */
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

/** The codes the schema stage produces; the domain checks add their own. */
export const FIELD_ISSUE_CODES = [
  'field_missing',
  'field_type',
  'field_length',
  'field_value',
  'field_unknown',
  'field_invalid',
] as const;

export const RECORD_PATH = '(record)';

/** `prefix.key`, or `key` alone when there is no prefix. */
export function joinPath(prefix: string | undefined, key: string): string {
  if (prefix === undefined || prefix === '') return key === '' ? RECORD_PATH : key;
  return key === '' ? prefix : `${prefix}.${key}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function codeOf(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      // A null is how a CSV writes an empty cell: for a required field it is "missing".
      return valueAt(input, issue.path) == null ? 'field_missing' : 'field_type';
    case 'too_small':
    case 'too_big':
      return 'field_length';
    case 'invalid_value':
      return 'field_value';
    case 'custom':
      return typeof issue.params?.code === 'string' ? issue.params.code : 'field_invalid';
    default:
      return 'field_invalid';
  }
}

/** The schema's issues as {@link Issue}s, one per unknown key, paths under `prefix`. */
export function schemaIssues(error: z.ZodError, input: unknown, prefix?: string): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: joinPath(prefix, at === '' ? key : `${at}.${key}`),
        code: 'field_unknown',
        message: `${key} is not a field of this record`,
      }));
    }
    return [{ path: joinPath(prefix, at), code: codeOf(issue, input), message: issue.message }];
  });
}

/** "documentNumber: ... (and 2 more)": the first issue, for a one-line message. */
export function summarizeIssues(issues: readonly Issue[]): string {
  const first = issues[0];
  if (first === undefined) return 'no issue';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${first.path}: ${first.message}${more}`;
}
