import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_TYPES,
  type DocumentType,
  diffIdentity,
  documentDigest,
  documentNumberProblem,
  hkIdCheckDigit,
  type Identity,
  normalizeDocumentNumber,
  parseIdentity,
} from './identity.js';

const person = () => ({
  fullName: '  Chan Tai Man ',
  documentType: 'hk-id',
  documentNumber: 'a123456 (3)',
  issuingPlace: 'Hong Kong',
  dateOfBirth: '1990-05-17',
  nationality: 'Chinese',
  kind: 'real',
});

function issuesOf(input: unknown) {
  const parsed = parseIdentity(input);
  if (parsed.ok) throw new Error('expected a refusal');
  expect(parsed.error.code).toBe('identity_invalid');
  return parsed.error.issues.map(({ path, code }) => ({ path, code }));
}

describe('normalizeDocumentNumber', () => {
  it.each<[DocumentType, string, string]>([
    ['hk-id', ' a123456 (3) ', 'A123456(3)'],
    ['hk-id', 'A1234563', 'A123456(3)'],
    ['hk-id', 'g123456a', 'G123456(A)'],
    ['hk-id', 'ab987654(3)', 'AB987654(3)'],
    ['hk-id', 'AB9876543', 'AB987654(3)'],
    // Full-width characters from a Chinese keyboard fold to ASCII.
    ['hk-id', 'Ａ１２３４５６（３）', 'A123456(3)'],
    ['macau-id', '1234567 8', '1234567(8)'],
    ['macau-id', '1234567(8)', '1234567(8)'],
    ['mainland-permit', ' c1234 5678 ', 'C12345678'],
    ['passport', 'e 1234 5678', 'E12345678'],
  ])('%s %j → %s', (type, raw, normalized) => {
    expect(normalizeDocumentNumber(type, raw)).toBe(normalized);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DOCUMENT_TYPES), fc.string({ maxLength: 20 }), (type, raw) => {
        const once = normalizeDocumentNumber(type, raw);
        expect(normalizeDocumentNumber(type, once)).toBe(once);
      }),
    );
  });
});

describe('Hong Kong identity card check digit', () => {
  // Values: space 36, A..Z 10..35; weights 9..2; check = (11 - sum mod 11) mod 11, 10 = A.
  it.each([
    // A123456: 36·9 + 10·8 + 1·7 + 2·6 + 3·5 + 4·4 + 5·3 + 6·2 = 324+80+77 = 481; 481 mod 11 = 8; 11-8 = 3.
    ['A', '123456', '3'],
    // G123456: 324 + 16·8 + 77 = 529; 529 mod 11 = 1; 11-1 = 10 → A.
    ['G', '123456', 'A'],
    // C668668: 324 + 12·8 + (42+36+40+24+18+16) = 596; 596 mod 11 = 2; 11-2 = 9.
    ['C', '668668', '9'],
    // AB987654: 10·9 + 11·8 + (63+48+35+24+15+8) = 371; 371 mod 11 = 8; 11-8 = 3.
    ['AB', '987654', '3'],
    // A000010: 324 + 80 + 1·3 = 407 = 37·11; remainder 0; (11-0) mod 11 = 0.
    ['A', '000010', '0'],
  ])('%s%s has check digit %s', (letters, digits, check) => {
    expect(hkIdCheckDigit(letters, digits)).toBe(check);
    expect(documentNumberProblem('hk-id', `${letters}${digits}(${check})`)).toBeNull();
  });

  it.each([
    ['A123456(4)', 'document_check_digit'],
    ['G123456(0)', 'document_check_digit'],
    ['C668668(8)', 'document_check_digit'],
    ['C668668(E)', 'document_format'], // E is never a check digit
    ['A12345(6)', 'document_format'],
    ['ABC123456(7)', 'document_format'],
    ['1123456(3)', 'document_format'],
  ])('refuses %s: %s', (number, code) => {
    expect(documentNumberProblem('hk-id', number)?.code).toBe(code);
  });
});

describe('other documents (shape only)', () => {
  it.each<[DocumentType, string, boolean]>([
    ['macau-id', '1234567(8)', true],
    ['macau-id', '5234567(0)', true],
    ['macau-id', '7000000(1)', true],
    ['macau-id', '2234567(8)', false], // first digit 1, 5 or 7
    ['macau-id', '123456(7)', false],
    ['macau-id', '1234567(A)', false],
    ['mainland-permit', 'C12345678', true],
    ['mainland-permit', 'W87654321', true],
    ['mainland-permit', 'C1234567', false],
    ['mainland-permit', '112345678', false],
    ['passport', 'E12', true],
    ['passport', 'E1', false],
    ['passport', 'A'.repeat(30), true],
    ['passport', 'A'.repeat(31), false],
    ['other', 'X-1', false],
  ])('%s %s: %s', (type, number, valid) => {
    const problem = documentNumberProblem(type, number);
    expect(problem === null).toBe(valid);
    if (!valid) expect(problem?.code).toBe('document_format');
  });
});

describe('parseIdentity', () => {
  it('accepts an identity, trimmed and with its number normalized', () => {
    const parsed = parseIdentity(person());
    expect(parsed).toEqual({
      ok: true,
      value: { ...person(), fullName: 'Chan Tai Man', documentNumber: 'A123456(3)' },
    });
  });

  it.each([
    ['a missing name', { fullName: undefined }, 'fullName', 'field_missing'],
    ['a blank name', { fullName: '   ' }, 'fullName', 'field_length'],
    ['a name of 201 characters', { fullName: 'x'.repeat(201) }, 'fullName', 'field_length'],
    [
      'an unknown document type',
      { documentType: 'driving-licence' },
      'documentType',
      'field_value',
    ],
    ['a date that does not exist', { dateOfBirth: '1990-02-30' }, 'dateOfBirth', 'date_invalid'],
    ['a number for a name', { fullName: 42 }, 'fullName', 'field_type'],
    ['an unknown kind', { kind: 'robot' }, 'kind', 'field_value'],
    [
      'a bad check digit',
      { documentNumber: 'A123456(4)' },
      'documentNumber',
      'document_check_digit',
    ],
    ['a bad shape', { documentNumber: 'A12(3)' }, 'documentNumber', 'document_format'],
    ['an unknown field', { passportPhoto: 'x' }, 'passportPhoto', 'field_unknown'],
  ])('refuses %s, naming the field', (_, change, path, code) => {
    expect(issuesOf({ ...person(), ...change })).toEqual([{ path, code }]);
  });

  it('names every problem at once, the document check included', () => {
    const issues = issuesOf({ ...person(), nationality: '', documentNumber: 'A123456(4)' });
    expect(issues).toEqual([
      { path: 'nationality', code: 'field_length' },
      { path: 'documentNumber', code: 'document_check_digit' },
    ]);
  });

  it('refuses what is not an object', () => {
    expect(issuesOf(null)).toEqual([{ path: '(record)', code: 'field_missing' }]);
    expect(issuesOf('A123456(3)')).toEqual([{ path: '(record)', code: 'field_type' }]);
  });
});

describe('documentDigest', () => {
  const key = Buffer.alloc(32, 7);

  it('is the HMAC-SHA256 of type:number, in hex', () => {
    const expected = createHmac('sha256', key).update('hk-id:A123456(3)').digest('hex');
    expect(documentDigest(key, 'hk-id', 'A123456(3)')).toBe(expected);
    expect(documentDigest(key, 'hk-id', 'A123456(3)')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives one digest for two spellings of one card, and others for other keys and types', () => {
    const digest = documentDigest(key, 'hk-id', 'A123456(3)');
    expect(documentDigest(new Uint8Array(key), 'hk-id', 'a1234563')).toBe(digest);
    expect(documentDigest(Buffer.alloc(32, 8), 'hk-id', 'A123456(3)')).not.toBe(digest);
    expect(documentDigest(key, 'passport', 'A123456(3)')).not.toBe(digest);
  });

  it('refuses a key shorter than 16 bytes', () => {
    expect(() => documentDigest(Buffer.alloc(15), 'passport', 'E123')).toThrow(RangeError);
  });
});

describe('diffIdentity', () => {
  const before = parseIdentity(person());
  if (!before.ok) throw new Error('fixture');
  const base: Identity = before.value;

  it('names the fields that changed', () => {
    const after = { ...base, fullName: 'Chan Tai-man', nationality: 'British' };
    expect(diffIdentity(base, after)).toEqual(['fullName', 'nationality']);
    expect(diffIdentity(base, { ...base })).toEqual([]);
  });

  it('names every field of a first identity', () => {
    expect(diffIdentity(undefined, base)).toEqual([
      'fullName',
      'documentType',
      'documentNumber',
      'issuingPlace',
      'dateOfBirth',
      'nationality',
      'kind',
    ]);
  });
});
