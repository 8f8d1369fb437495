/**
 * Canonical JSON: one byte string per value, so that a hash over it means the
 * same thing on every node and after every round trip through a database.
 *
 * Object keys are sorted by UTF-16 code units and there is no whitespace; numbers
 * and strings are written as `JSON.stringify` writes them (the shortest
 * round-trip form, which is also what RFC 8785 asks for). Object members whose
 * value is `undefined` are left out, as `JSON.stringify` does, so a payload
 * reads back from its stored JSON with the same canonical form. Anything JSON
 * cannot carry faithfully (NaN, Infinity, bigint, functions, class instances
 * such as Date, `undefined` inside an array) is a programming error and throws.
 */
import assert from 'node:assert/strict';
import { check } from './check.js';
import { createHash } from 'node:crypto';

/** A value that survives JSON unchanged. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Nesting deeper than this is refused: payloads are small records, never recursive graphs. */
export const CANONICAL_DEPTH_MAX = 64;

export function canonicalJson(value: unknown): string {
  return write(value, 0);
}

/** SHA-256 of a string's UTF-8 bytes, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash a command's idempotency record keeps: SHA-256 of the canonical JSON of the request. */
export function hashRequest(request: unknown): string {
  return sha256Hex(canonicalJson(request));
}

function write(value: unknown, depth: number): string {
  check(
    depth <= CANONICAL_DEPTH_MAX,
    () => `canonicalJson: nesting deeper than ${CANONICAL_DEPTH_MAX}`,
  );
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      check(Number.isFinite(value), () => `canonicalJson: ${String(value)} has no JSON form`);
      // JSON.stringify(-0) is "0" already; no special case needed.
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value, depth);
      return writeObject(value, depth);
    default:
      assert.fail(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

function writeArray(items: readonly unknown[], depth: number): string {
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) {
    check(items[i] !== undefined, () => `canonicalJson: undefined at array index ${i}`);
    parts[i] = write(items[i], depth + 1);
  }
  return `[${parts.join(',')}]`;
}

function writeObject(object: object, depth: number): string {
  const proto: unknown = Object.getPrototypeOf(object);
  check(
    proto === Object.prototype || proto === null,
    () => 'canonicalJson: only plain objects have a canonical form',
  );
  const record = object as Record<string, unknown>;
  // Default sort compares UTF-16 code units, which is the order RFC 8785 uses.
  const keys = Object.keys(record).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${write(member, depth + 1)}`);
  }
  return `{${parts.join(',')}}`;
}
