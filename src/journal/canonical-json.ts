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
import { hash } from 'node:crypto';

/** A value that survives JSON unchanged. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Nesting deeper than this is refused: payloads are small records, never recursive graphs. */
export const CANONICAL_DEPTH_MAX = 64;

export function canonicalJson(value: unknown): string {
  return write(value, 0);
}

/**
 * SHA-256 of a string's UTF-8 bytes, as 64 lowercase hex digits. One-shot
 * `hash` rather than a Hash object: it runs for every journal entry and
 * request, and costs a third as much.
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** The hash a command's idempotency record keeps: SHA-256 of the canonical JSON of the request. */
export function hashRequest(request: unknown): string {
  return sha256Hex(canonicalJson(request));
}

function fail(message: string): never {
  assert.fail(message);
}

/*
 * The writer appends to one string rather than joining arrays of parts, and
 * sorts an object's keys once per shape: the journal's big payloads are arrays
 * of objects that all have the same keys (a round's 10,000 bet results), so
 * each depth remembers the last key list it sorted, with the keys already
 * quoted. Its output is the plain recursive definition's, byte for byte
 * (canonical-json.test.ts checks it against that definition).
 */
interface SortedShape {
  /** Object.keys of the last object at this depth, in its own order. */
  readonly keys: readonly string[];
  /** The same keys sorted, and each written as JSON with its colon. */
  readonly sorted: readonly string[];
  readonly prefixes: readonly string[];
  /**
   * No key is an array index: an object built with these keys in sorted order
   * enumerates them in that order (index keys would come first, by number),
   * and no key is `__proto__`, which an assignment would not make a member.
   */
  readonly insertionOrdered: boolean;
}

const shapes: (SortedShape | undefined)[] = [];

function shapeOf(keys: readonly string[], depth: number): SortedShape {
  const last = shapes[depth];
  if (last !== undefined && sameKeys(last.keys, keys)) return last;
  // Default sort compares UTF-16 code units, which is the order RFC 8785 uses.
  const sorted = [...keys].sort();
  const shape = {
    keys,
    sorted,
    prefixes: sorted.map((k) => `${JSON.stringify(k)}:`),
    insertionOrdered: !keys.some((k) => /^[0-9]+$/.test(k) || k === '__proto__'),
  };
  shapes[depth] = shape;
  return shape;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function write(value: unknown, depth: number): string {
  if (depth > CANONICAL_DEPTH_MAX)
    fail(`canonicalJson: nesting deeper than ${CANONICAL_DEPTH_MAX}`);
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) fail(`canonicalJson: ${String(value)} has no JSON form`);
      // String(n) is JSON's form of a finite number, and String(-0) is "0" as JSON.stringify's.
      return String(value);
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value, depth);
      return writeObject(value, depth);
    default:
      return fail(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

function writeArray(items: readonly unknown[], depth: number): string {
  if (items.length === 0) return '[]';
  const flat = flatRecords(items, depth + 1);
  if (flat !== null) return JSON.stringify(flat);
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === undefined) fail(`canonicalJson: undefined at array index ${i}`);
    if (i > 0) out += ',';
    out += write(item, depth + 1);
  }
  return `${out}]`;
}

/**
 * The fast path for an array of flat records (objects whose members are all
 * strings, finite numbers, booleans or null): copies of them with their keys
 * in canonical order, which one JSON.stringify call writes exactly as write()
 * would — JSON.stringify writes members in enumeration order and scalars the
 * same way. Null when any item is something else: write() takes the array.
 */
function flatRecords(items: readonly unknown[], depth: number): object[] | null {
  // The members sit one level below the records; write() judges any depth near the limit.
  if (depth + 1 > CANONICAL_DEPTH_MAX) return null;
  const copies = new Array<object>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
    const proto: unknown = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== null) return null;
    const record = item as Record<string, unknown>;
    const shape = shapeOf(Object.keys(record), depth);
    if (!shape.insertionOrdered) return null;
    const copy: Record<string, unknown> = {};
    for (const key of shape.sorted) {
      const member = record[key];
      switch (typeof member) {
        case 'string':
        case 'boolean':
          break;
        case 'number':
          if (!Number.isFinite(member)) return null;
          break;
        case 'undefined':
          continue;
        case 'object':
          if (member === null) break;
          return null;
        default:
          return null;
      }
      copy[key] = member;
    }
    copies[i] = copy;
  }
  return copies;
}

function writeObject(object: object, depth: number): string {
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null)
    fail('canonicalJson: only plain objects have a canonical form');
  const record = object as Record<string, unknown>;
  const shape = shapeOf(Object.keys(record), depth);
  const { sorted, prefixes } = shape;
  let out = '{';
  let first = true;
  for (let i = 0; i < sorted.length; i++) {
    const member = record[sorted[i]!];
    if (member === undefined) continue;
    out += first ? prefixes[i]! : `,${prefixes[i]!}`;
    first = false;
    out += write(member, depth + 1);
  }
  return `${out}}`;
}
