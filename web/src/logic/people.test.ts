import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_TYPES as SERVER_DOCUMENT_TYPES,
  effectiveUntil as serverEffectiveUntil,
  EXCLUSION_KINDS as SERVER_EXCLUSION_KINDS,
  isArt6Order,
  REVOCATION_DELAY_DAYS as SERVER_REVOCATION_DELAY_DAYS,
} from '../../../src/compliance/people/index.js';
import type { ExclusionOrder } from '../api/types.js';
import {
  canRequestRevocation,
  DOCUMENT_TYPES,
  effectiveUntil,
  EXCLUSION_KINDS,
  exclusionFileFormat,
  issuesByField,
  macauToday,
  matchingOrders,
  orderState,
  revocable,
  REVOCATION_DELAY_DAYS,
  revocationEffectiveOn,
} from './people.js';

const order = (over: Partial<ExclusionOrder> = {}): ExclusionOrder => ({
  id: 'EX-1',
  kind: 'self',
  dicjReference: 'DICJ/2026/0001',
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  fullName: 'Chan Tai Man',
  dateOfBirth: '1980-05-01',
  from: '2026-01-10',
  to: '2027-01-09',
  revocationRequestedOn: null,
  ...over,
});

describe('the law as the pages repeat it, against the server’s', () => {
  it('offers the documents and the order kinds the server takes, in its order', () => {
    expect(DOCUMENT_TYPES).toEqual(SERVER_DOCUMENT_TYPES);
    expect(EXCLUSION_KINDS).toEqual(SERVER_EXCLUSION_KINDS);
  });

  it('revokes only art. 6 orders, 30 days after the request (Lei 10/2012, art. 6)', () => {
    expect(REVOCATION_DELAY_DAYS).toBe(SERVER_REVOCATION_DELAY_DAYS);
    for (const kind of EXCLUSION_KINDS) expect(revocable(kind), kind).toBe(isArt6Order(kind));
    expect(revocationEffectiveOn('2026-03-01')).toBe('2026-03-31');
  });

  it.each([
    [null, 'self', '2027-01-09'],
    ['2026-03-01', 'self', '2026-03-30'],
    ['2027-01-01', 'third-party', '2027-01-09'],
    ['2026-03-01', 'court', '2027-01-09'],
  ] as const)('an order asked to be revoked on %s (%s) bars until %s', (asked, kind, until) => {
    const o = order({ kind, revocationRequestedOn: asked });
    expect(effectiveUntil(o)).toBe(until);
    expect(effectiveUntil(o)).toBe(serverEffectiveUntil(o));
  });
});

describe('the exclusion register', () => {
  it('says whether an order bars today, will, or no longer does', () => {
    expect(orderState(order(), '2026-01-09')).toBe('upcoming');
    expect(orderState(order(), '2026-01-10')).toBe('in-force');
    expect(orderState(order(), '2027-01-09')).toBe('in-force');
    expect(orderState(order(), '2027-01-10')).toBe('over');
    expect(orderState(order({ revocationRequestedOn: '2026-03-01' }), '2026-03-31')).toBe('over');
  });

  it('lets a revocation be asked once, of an art. 6 order still barring', () => {
    expect(canRequestRevocation(order(), '2026-06-01')).toBe(true);
    expect(canRequestRevocation(order({ kind: 'court' }), '2026-06-01')).toBe(false);
    expect(canRequestRevocation(order({ revocationRequestedOn: '2026-05-01' }), '2026-05-02')).toBe(
      false,
    );
    expect(canRequestRevocation(order(), '2027-01-10')).toBe(false);
  });

  it('finds an order by id, reference, name or document number however it is typed', () => {
    const list = [
      order(),
      order({ id: 'EX-2', dicjReference: 'TJB/88', documentNumber: 'C12345678', fullName: null }),
      order({ id: 'EX-3', fullName: 'João Sá', documentType: 'passport', documentNumber: 'P998' }),
    ];
    const ids = (words: string) => matchingOrders(list, words).map((o) => o.id);
    expect(ids('')).toEqual(['EX-1', 'EX-2', 'EX-3']);
    expect(ids('ex-2')).toEqual(['EX-2']);
    expect(ids('tjb/88')).toEqual(['EX-2']);
    expect(ids('joao')).toEqual(['EX-3']);
    expect(ids('chan man')).toEqual(['EX-1']);
    expect(ids('a1234563')).toEqual(['EX-1']);
    expect(ids('A 123456 (3)')).toEqual(['EX-1']);
    expect(ids('nobody')).toEqual([]);
  });

  it('reads a file’s format from its extension', () => {
    expect(exclusionFileFormat('dicj-2026-03.json')).toBe('json');
    expect(exclusionFileFormat('List.CSV')).toBe('csv');
    expect(exclusionFileFormat('orders.txt')).toBeNull();
    expect(exclusionFileFormat('json')).toBeNull();
  });
});

describe('a refusal’s issues by field', () => {
  it('puts each issue next to the field it names, the rest on the form', () => {
    const issues = [
      { path: 'documentNumber', code: 'document_check_digit', message: 'x' },
      { path: 'documentNumber', code: 'field_length', message: 'y' },
      { path: 'dateOfBirth', code: 'date_invalid', message: 'z' },
      { path: '(record)', code: 'field_invalid', message: 'w' },
      { path: 'kind', code: 'field_unknown', message: 'v' },
      'not an issue',
      { code: 'no path' },
    ];
    const { byField, other } = issuesByField(issues, [
      'fullName',
      'documentNumber',
      'dateOfBirth',
    ] as const);
    expect(byField.get('documentNumber')?.map((i) => i.code)).toEqual([
      'document_check_digit',
      'field_length',
    ]);
    expect(byField.get('dateOfBirth')?.map((i) => i.code)).toEqual(['date_invalid']);
    expect(byField.has('fullName')).toBe(false);
    expect(other.map((i) => i.path)).toEqual(['(record)', 'kind']);
  });
});

describe('the Macau date', () => {
  it('is UTC+8', () => {
    expect(macauToday(Date.UTC(2026, 2, 2, 15, 59))).toBe('2026-03-02');
    expect(macauToday(Date.UTC(2026, 2, 2, 16, 0))).toBe('2026-03-03');
  });
});
