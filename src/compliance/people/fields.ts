/**
 * Schema pieces shared by the identity and exclusion-order parsers.
 */
import { z } from 'zod';
import { isIsoDate } from '../iso-date.js';

/** Trimmed text of 1..`max` characters; a blank one is refused. */
export function text(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .max(max, `must be at most ${max} characters`);
}

/** A `YYYY-MM-DD` date that exists; a bad one is issue code `date_invalid`. */
export const isoDateField = z.string().refine(isIsoDate, {
  message: 'not a YYYY-MM-DD date',
  params: { code: 'date_invalid' },
});
