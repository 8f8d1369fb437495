import { describe, expect, it } from 'vitest';
import {
  comparableName,
  effectiveUntil,
  type ExclusionOrder,
  isBarredOn,
  matchesByNameAndBirth,
  matchesDocument,
  parseExclusionOrder,
  requestRevocation,
} from './exclusions.js';

const orderInput = (change: Record<string, unknown> = {}) => ({
  id: 'EX-1',
  kind: 'self',
  dicjReference: 'DICJ/2026/0001',
  documentType: 'macau-id',
  documentNumber: '1234567 8',
  fullName: 'José Chan',
  dateOfBirth: '1980-04-02',
  from: '2026-01-10',
  to: '2028-01-09',
  revocationRequestedOn: null,
  ...change,
});

function order(change: Record<string, unknown> = {}): ExclusionOrder {
  const parsed = parseExclusionOrder(orderInput(change));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function issuesOf(input: unknown, path?: string) {
  const parsed = parseExclusionOrder(input, path);
  if (parsed.ok) throw new Error('expected a refusal');
  expect(parsed.error.code).toBe('exclusion_order_invalid');
  return parsed.error.issues.map(({ path: at, code }) => ({ path: at, code }));
}

describe('parseExclusionOrder', () => {
  it('accepts an order and normalizes its document number', () => {
    expect(order().documentNumber).toBe('1234567(8)');
  });

  it('reads absent nullable fields as null', () => {
    const { fullName: _, dateOfBirth: __, revocationRequestedOn: ___, ...rest } = orderInput();
    const parsed = parseExclusionOrder(rest);
    expect(parsed.ok && [parsed.value.fullName, parsed.value.dateOfBirth]).toEqual([null, null]);
  });

  // Lei 10/2012, art. 6: at most two years; from 2026-01-10 the last day barred is 2028-01-09.
  it.each([
    ['self', '2028-01-09', []],
    ['self', '2028-01-10', [{ path: 'to', code: 'period_too_long' }]],
    ['third-party', '2028-01-09', []],
    ['third-party', '2028-01-10', [{ path: 'to', code: 'period_too_long' }]],
    ['court', '2036-01-10', []],
    ['administrative', '2031-06-30', []],
    ['self', '2026-01-10', []],
    ['self', '2026-01-09', [{ path: 'to', code: 'period_reversed' }]],
    ['court', '2026-01-09', [{ path: 'to', code: 'period_reversed' }]],
  ])('a %s order to %s: %j', (kind, to, issues) => {
    const parsed = parseExclusionOrder(orderInput({ kind, to }));
    expect(parsed.ok ? [] : parsed.error.issues.map(({ path, code }) => ({ path, code }))).toEqual(
      issues,
    );
  });

  it('counts two years from 29 February to 28 February (Civil Code rule of age.ts)', () => {
    expect(parseExclusionOrder(orderInput({ from: '2024-02-29', to: '2026-02-28' })).ok).toBe(true);
    expect(issuesOf(orderInput({ from: '2024-02-29', to: '2026-03-01' }))).toEqual([
      { path: 'to', code: 'period_too_long' },
    ]);
  });

  it('refuses a revocation request on a court or administrative decision', () => {
    for (const kind of ['court', 'administrative']) {
      expect(issuesOf(orderInput({ kind, revocationRequestedOn: '2026-03-01' }))).toEqual([
        { path: 'revocationRequestedOn', code: 'revocation_not_allowed' },
      ]);
    }
  });

  it('names every field at fault, under the given path', () => {
    const input = orderInput({
      kind: 'voluntary',
      dicjReference: '',
      documentNumber: '2234567(8)',
      from: '2026-02-30',
      note: 'x',
    });
    expect(issuesOf(input, 'orders.3')).toEqual([
      { path: 'orders.3.kind', code: 'field_value' },
      { path: 'orders.3.dicjReference', code: 'field_length' },
      { path: 'orders.3.from', code: 'date_invalid' },
      { path: 'orders.3.note', code: 'field_unknown' },
      { path: 'orders.3.documentNumber', code: 'document_format' },
    ]);
  });

  it('refuses a Hong Kong card whose check digit is wrong', () => {
    const input = orderInput({ documentType: 'hk-id', documentNumber: 'A123456(4)' });
    expect(issuesOf(input)).toEqual([{ path: 'documentNumber', code: 'document_check_digit' }]);
  });
});

describe('isBarredOn and effectiveUntil', () => {
  const plain = order({ from: '2026-03-01', to: '2026-12-31' });

  it.each([
    ['2026-02-28', false], // before from
    ['2026-03-01', true], // from
    ['2026-12-31', true], // to
    ['2027-01-01', false], // to + 1
  ])('an order from 2026-03-01 to 2026-12-31, on %s: %s', (date, barred) => {
    expect(isBarredOn(plain, date)).toBe(barred);
    expect(effectiveUntil(plain)).toBe('2026-12-31');
  });

  // Art. 6: a revocation requested on R takes effect on R+30: barred on R+29, free on R+30.
  it.each([
    ['2026-05-01', true], // R
    ['2026-05-30', true], // R+29
    ['2026-05-31', false], // R+30
  ])('revocation requested on 2026-05-01, on %s: barred %s', (date, barred) => {
    const revoked = order({
      from: '2026-03-01',
      to: '2026-12-31',
      revocationRequestedOn: '2026-05-01',
    });
    expect(effectiveUntil(revoked)).toBe('2026-05-30');
    expect(isBarredOn(revoked, date)).toBe(barred);
  });

  it('keeps the end date when it comes before the revocation takes effect', () => {
    const late = order({
      from: '2026-03-01',
      to: '2026-05-10',
      revocationRequestedOn: '2026-05-01',
    });
    expect(effectiveUntil(late)).toBe('2026-05-10');
  });

  it('ignores a revocation date on a court decision built by hand', () => {
    const court: ExclusionOrder = { ...plain, kind: 'court', revocationRequestedOn: '2026-05-01' };
    expect(effectiveUntil(court)).toBe('2026-12-31');
    expect(isBarredOn(court, '2026-06-15')).toBe(true);
  });
});

describe('requestRevocation', () => {
  const self = order({ from: '2026-03-01', to: '2026-12-31' });

  it('records the request on an art. 6 order', () => {
    const revoked = requestRevocation(self, '2026-05-01');
    expect(revoked.ok && effectiveUntil(revoked.value)).toBe('2026-05-30');
  });

  it.each([
    ['a court decision', { ...self, kind: 'court' as const }, 'revocation_not_allowed'],
    [
      'an administrative decision',
      { ...self, kind: 'administrative' as const },
      'revocation_not_allowed',
    ],
    [
      'a second request',
      { ...self, revocationRequestedOn: '2026-04-01' },
      'revocation_already_requested',
    ],
    ['an order that has ended', { ...self, to: '2026-04-30' }, 'exclusion_over'],
  ])('refuses %s', (_, target, code) => {
    const refused = requestRevocation(target, '2026-05-01');
    expect(refused.ok ? null : refused.error.code).toBe(code);
  });
});

describe('matching', () => {
  const target = order();

  it('matches the document whatever its spelling', () => {
    expect(matchesDocument(target, 'macau-id', '1234567(8)')).toBe(true);
    expect(matchesDocument(target, 'macau-id', ' 12345678 ')).toBe(true);
    expect(matchesDocument(target, 'macau-id', '1234567(9)')).toBe(false);
    expect(matchesDocument(target, 'passport', '1234567(8)')).toBe(false);
  });

  it('matches name and birth ignoring case, accents and spaces', () => {
    expect(comparableName('  JOSÉ   chan ')).toBe('jose chan');
    expect(matchesByNameAndBirth(target, 'jose  CHAN', '1980-04-02')).toBe(true);
    expect(matchesByNameAndBirth(target, 'Jose\u0301 Chan', '1980-04-02')).toBe(true);
    expect(matchesByNameAndBirth(target, 'José Chan', '1980-04-03')).toBe(false);
    expect(matchesByNameAndBirth(target, 'José Chen', '1980-04-02')).toBe(false);
  });

  it('does not match by name when the order lacks the name or the date of birth', () => {
    expect(matchesByNameAndBirth({ ...target, fullName: null }, 'José Chan', '1980-04-02')).toBe(
      false,
    );
    expect(matchesByNameAndBirth({ ...target, dateOfBirth: null }, 'José Chan', '1980-04-02')).toBe(
      false,
    );
  });
});
