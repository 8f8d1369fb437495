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
