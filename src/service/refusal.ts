/**
 * A request a service refuses, for a reason its caller can fix or must be
 * told: a code (snake_case) and a message. The edges answer it, each its own
 * way: the HTTP server with the status of its code (statusOf), the CLI as an
 * input error. Services know nothing of HTTP.
 */
import type { RejectionCode as ComplianceRejectionCode } from '../compliance/index.js';
import type {
  CREATE_USER_ERROR_CODES,
  RetryableErrorCode,
  TransferErrorCode,
} from '../ledger/index.js';
import type { RuleViolationCode } from '../rules/errors.js';
import type { RejectionCode as TableRejectionCode } from '../table/index.js';
import type { PeopleErrorCode } from './people.js';

/** The services' own codes: those that are no rule's (table, Art. 8) and no ledger's. */
export const SERVICE_ERROR_CODES = [
  'unknown_table',
  'unknown_player',
  'unknown_user',
  'unknown_session',
  'table_exists',
  'invalid_table_settings',
  'idempotency_key_conflict',
  'table_busy',
  'table_not_held',
  'dice_not_physical',
  'no_wallet',
  'weak_password',
  'wrong_password',
  'cannot_disable_self',
  'holiday_list_invalid',
  'audit_checkpoint_unknown',
  'audit_busy',
  'export_range_invalid',
  'export_busy',
  'journal_empty',
  'shutting_down',
] as const;

/**
 * Every code a service refuses with, one union: the rules' and the round machine's
 * (Arts. 2–6), the Art. 8 workflow's, the ledger's and the services' own. All
 * snake_case (src/error-codes.test.ts walks each list).
 */
export type ServiceErrorCode =
  | RuleViolationCode
  | TableRejectionCode
  | ComplianceRejectionCode
  | TransferErrorCode
  | RetryableErrorCode
  | (typeof CREATE_USER_ERROR_CODES)[number]
  | PeopleErrorCode
  | (typeof SERVICE_ERROR_CODES)[number];

export class ServiceRefusal extends Error {
  override readonly name = 'ServiceRefusal';

  constructor(
    readonly code: ServiceErrorCode,
    message: string,
  ) {
    super(message);
  }
}
