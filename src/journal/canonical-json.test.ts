import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashRequest, sha256Hex } from './canonical-json.js';

describe('canonicalJson', () => {
  const cases: [string, unknown, string][] = [
    [
      'sorts keys at every depth',
      { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } },
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    ],
    [
      'sorts keys by UTF-16 code units',
      { é: 1, z: 2, Z: 3, '10': 4, '9': 5 },
      '{"10":4,"9":5,"Z":3,"z":2,"é":1}',
    ],
    [
      'writes numbers in shortest round-trip form',
      [1e21, 0.1, -0, 5e-7, 123],
      '[1e+21,0.1,0,5e-7,123]',
    ],
    ['escapes strings as JSON does', ['a"b\\c\n\u0001'], '["a\\"b\\\\c\\n\\u0001"]'],
    ['leaves out undefined members', { a: undefined, b: 1 }, '{"b":1}'],
    ['has no whitespace', { a: [true, false, 'x y'] }, '{"a":[true,false,"x y"]}'],
  ];
  for (const [name, value, expected] of cases) {
    it(name, () => expect(canonicalJson(value)).toBe(expected));
  }

  it('is stable through a JSON round trip', () => {
    const value = { z: [1, 2, { b: 'x', a: 0.30000000000000004 }], a: 'ü' };
    expect(canonicalJson(JSON.parse(canonicalJson(value)))).toBe(canonicalJson(value));
  });

  it('refuses what JSON cannot carry faithfully', () => {
    for (const bad of [NaN, Infinity, 1n, () => 1, new Date(0), [undefined], Symbol('s')]) {
      expect(() => canonicalJson(bad)).toThrow(/canonicalJson/);
    }
  });

  it('refuses absurd nesting', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/nesting/);
  });

  it('hashes requests independently of key order', () => {
    expect(hashRequest({ a: 1, b: 2 })).toBe(hashRequest({ b: 2, a: 1 }));
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

/** The plain recursive definition the fast writer must match byte for byte. */
function reference(value: unknown, depth = 0): string {
  if (depth > 64) throw new Error('canonicalJson: nesting');
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Error('canonicalJson: number');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        const items: unknown[] = value;
        if (items.includes(undefined)) throw new Error('canonicalJson: undefined');
        return `[${items.map((v) => reference(v, depth + 1)).join(',')}]`;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new Error('canonicalJson: class');
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .sort()
        .filter((k) => record[k] !== undefined)
        .map((k) => `${JSON.stringify(k)}:${reference(record[k], depth + 1)}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new Error(`canonicalJson: ${typeof value}`);
  }
}

function outcome(f: () => string): string {
  try {
    return f();
  } catch {
    return '<throws>';
  }
}

describe('canonicalJson against its plain definition', () => {
  const key = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom(
      '0',
      '1',
      '10',
      '9',
      '007',
      '4294967295',
      'a',
      'b',
      'é',
      'Z',
      '__proto__',
      '__proto__x',
    ),
  );
  const scalar = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.double(),
    fc.integer(),
    fc.constantFrom(-0, 2 ** 53 - 1, -(2 ** 53), 1e21, 5e-7, Number.MAX_VALUE, NaN, Infinity),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
  );
  // Arrays of records sharing keys take the writer's fast path; the rest take the slow one.
  const value = fc.letrec((tie) => ({
    any: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object'), tie('records')),
    array: fc.array(tie('any'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('any'), { maxKeys: 5 }),
    records: fc
      .tuple(fc.uniqueArray(key, { maxLength: 5 }), fc.integer({ min: 0, max: 6 }))
      .chain(([keys, n]) =>
        fc
          .array(fc.tuple(...keys.map(() => scalar)), { minLength: n, maxLength: n })
          .map((rows) => rows.map((row) => Object.fromEntries(keys.map((k, i) => [k, row[i]])))),
      ),
  }));

  it('writes the same bytes, and throws for the same values', () => {
    fc.assert(
      fc.property(value.any, (v) => {
        expect(outcome(() => canonicalJson(v))).toBe(outcome(() => reference(v)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes the same bytes for a round-settled payload of 10,000 results', () => {
    const results = Array.from({ length: 10_000 }, (_, i) => ({
      betId: `r1b${i}`,
      playerId: `p${i % 2_000}`,
      spot: i % 2 === 0 ? 'small' : 'triple-ü',
      stakeMinor: 1_000 * ((i % 20) + 1),
      winMinor: i % 3 === 0 ? 1_000 : 0,
      returnedMinor: i % 3 === 0 ? 2_000 : 0,
    }));
    const payload = { type: 'round-settled', settlement: { dice: [1, 2, 3], results } };
    expect(canonicalJson(payload)).toBe(reference(payload));
  });

  it('refuses nesting at the limit inside an array of records as before', () => {
    let deep: unknown = [{ a: 1 }];
    for (let i = 0; i < 62; i++) deep = [deep];
    expect(outcome(() => canonicalJson(deep))).toBe(outcome(() => reference(deep)));
    deep = [deep];
    expect(outcome(() => canonicalJson(deep))).toBe(outcome(() => reference(deep)));
  });
});
