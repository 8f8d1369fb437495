/**
 * Every code a program reads (a rejection, a refusal, an operating error) is
 * spelled one way, snake_case, from where it is made to the HTTP answer. Each
 * family's list is walked here, so a kebab-case code added to any of them fails.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  HOLIDAY_ISSUE_CODES,
  journaledHouseOptionsEvent,
  journaledRejectionCode,
  REJECTION_CODES,
} from './compliance/index.js';
import { REVEAL_FAILURE_CODES } from './dice/index.js';
import { CHAIN_FAILURES, JournalEntryInvalid, parseStoredEntry } from './journal/index.js';
import { sampleInput } from './journal/samples.js';
import {
  CREATE_SESSION_ERROR_CODES,
  CREATE_USER_ERROR_CODES,
  RETRYABLE_ERROR_CODES,
  SAVE_TABLE_ERROR_CODES,
  STORE_OPEN_ERROR_CODES,
  TRANSFER_ERROR_CODES,
} from './ledger/index.js';
import { RULE_VIOLATION_CODES } from './rules/index.js';
import { type ApiErrorCode, HTTP_ERROR_CODES, HttpError } from './server/http-error.js';
import { SERVICE_ERROR_CODES, type ServiceErrorCode, ServiceRefusal } from './service/refusal.js';
import type { ServiceRejection } from './service/table-service.js';
import { REJECTION_CODES as TABLE_REJECTION_CODES } from './table/index.js';

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;

const FAMILIES: Record<string, readonly string[]> = {
  'compliance rejections': REJECTION_CODES,
  'holiday list issues': HOLIDAY_ISSUE_CODES,
  'table rejections': TABLE_REJECTION_CODES,
  'transfer errors': TRANSFER_ERROR_CODES,
  'store open errors': STORE_OPEN_ERROR_CODES,
  'user creation errors': CREATE_USER_ERROR_CODES,
  'session creation errors': CREATE_SESSION_ERROR_CODES,
  'table save errors': SAVE_TABLE_ERROR_CODES,
  'retryable errors': RETRYABLE_ERROR_CODES,
  'reveal failures': REVEAL_FAILURE_CODES,
  'journal chain failures': CHAIN_FAILURES,
  'rule violations': RULE_VIOLATION_CODES,
  "services' own codes": SERVICE_ERROR_CODES,
  "the HTTP layer's codes": HTTP_ERROR_CODES,
};

describe('error codes', () => {
  it.each(Object.entries(FAMILIES))('spells every one of the %s in snake_case', (_, codes) => {
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.filter((code) => !SNAKE_CASE.test(code))).toEqual([]);
  });
});

describe("an error's code", () => {
  it('is typed as the union of the known codes wherever it is made, never a bare string', () => {
    expectTypeOf<HttpError['code']>().toEqualTypeOf<ApiErrorCode>();
    expectTypeOf<ServiceRefusal['code']>().toEqualTypeOf<ServiceErrorCode>();
    expectTypeOf<ServiceRejection['code']>().toEqualTypeOf<ServiceErrorCode>();
    expectTypeOf<string>().not.toExtend<ApiErrorCode>();
    // @ts-expect-error: a kebab-case code is no code.
    expect(new HttpError(409, 'table-mid-round', 'x').code).toBe('table-mid-round');
    // @ts-expect-error: nor is one nobody defined.
    expect(new ServiceRefusal('no_such_code', 'x').code).toBe('no_such_code');
  });
});

describe('a refusal read back from an old journal', () => {
  it('takes the snake_case spelling of a kebab-case code', () => {
    const old = {
      type: 'house-options-refused' as const,
      on: '2026-01-02',
      tableId: 'T1',
      command: 'adopt',
      proposalId: 'P1',
      code: 'table-mid-round',
      article: '8',
      message: 'adoption attempted during a round',
    };
    expect(journaledHouseOptionsEvent(old)).toMatchObject({ code: 'table_mid_round' });
    expect(journaledHouseOptionsEvent({ ...old, code: 'table_mid_round' })).toMatchObject({
      code: 'table_mid_round',
    });
  });

  it('refuses, where the entry leaves the store, a code that is no refusal in either spelling', () => {
    const stored = (code: string) => ({
      seq: 9,
      tableId: 'T1',
      type: 'house-options-refused',
      payloadJson: JSON.stringify({ ...sampleInput('T1', 'house-options-refused').payload, code }),
      atMs: 1,
      prevHash: '0'.repeat(64),
      hash: '1'.repeat(64),
    });
    expect(parseStoredEntry(stored('table-mid-round')).payload).toMatchObject({
      code: 'table-mid-round',
    });
    expect(() => parseStoredEntry(stored('no-such-code'))).toThrow(JournalEntryInvalid);
    expect(() => journaledRejectionCode('no-such-code')).toThrow(RangeError);
  });
});
