/**
 * The commands of the house-options workflow, validated with zod: they arrive
 * as JSON from the supervisor's and the inspector's consoles.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../rules/errors.js';
import { ID_LENGTH_MAX } from '../rules/shape.js';
import { isIsoDate } from './iso-date.js';
import type { Rejection } from './rejections.js';

export const REFERENCE_LENGTH_MAX = 200;
export const REASON_LENGTH_MAX = 500;

// Ids go into the journal and into CSV files: no control characters, no blank ones.
const id = z
  .string()
  .min(1)
  .max(ID_LENGTH_MAX)
  .regex(/^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u, 'no control characters or edge spaces');
const isoDate = z.string().refine(isIsoDate, 'must be a YYYY-MM-DD date');

const proposeSchema = z.strictObject({
  type: z.literal('propose'),
  proposalId: id,
  tableId: id,
  /** Validated by parseHouseOptionsChoice, which names the article of each option. */
  options: z.unknown(),
  adoptionDate: isoDate,
  proposedBy: id,
});

const recordAuthorizationSchema = z.strictObject({
  type: z.literal('record-authorization'),
  proposalId: id,
  reference: z.string().max(REFERENCE_LENGTH_MAX).regex(/\S/, 'must not be blank'),
  authorizationDate: isoDate,
  inspectorId: id,
});

const adoptSchema = z.strictObject({
  type: z.literal('adopt'),
  proposalId: id,
  adoptedBy: id,
});

const withdrawSchema = z.strictObject({
  type: z.literal('withdraw'),
  proposalId: id,
  withdrawnBy: id,
  reason: z.string().max(REASON_LENGTH_MAX).optional(),
});

const commandSchema = z.discriminatedUnion('type', [
  proposeSchema,
  recordAuthorizationSchema,
  adoptSchema,
  withdrawSchema,
]);

/** A supervisor proposes new options for a table; the request date is the day of the proposal. */
export type ProposeCommand = z.infer<typeof proposeSchema>;
/** An inspector records the DICJ's authorization of a proposal (Art. 8). */
export type RecordAuthorizationCommand = z.infer<typeof recordAuthorizationSchema>;
/** The options of an authorized proposal take effect, between rounds. */
export type AdoptCommand = z.infer<typeof adoptSchema>;
export type WithdrawCommand = z.infer<typeof withdrawSchema>;
export type HouseOptionsCommand = z.infer<typeof commandSchema>;

/** Validates a command (parsed JSON); refuses with `command_invalid` naming the first problem. */
export function parseHouseOptionsCommand(json: unknown): Result<HouseOptionsCommand, Rejection> {
  const parsed = commandSchema.safeParse(json);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String).join('.') || '(command)';
  return err({ code: 'command_invalid', message: `${path}: ${issue.message}`, article: '8' });
}
