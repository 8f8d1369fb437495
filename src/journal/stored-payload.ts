/**
 * How a journal row keeps its entry's payload (the `payload_json` column), in
 * one of two forms told apart by their first character:
 *
 * - `{`: the payload's canonical JSON, as hashed. Every entry written before
 *   migration 9, and every entry type without a layout below.
 * - `[`: the compact form of a round event: a JSON array
 *   `[layout, atMsLag, ...values]`. The layout names the payload's members in
 *   order; its `type`, `tableId` and `atMs` are the row's own columns and are
 *   not written again (`atMs` is the row's at_ms less atMsLag: an event is
 *   timed by the table before its transaction is). A bet is written as its
 *   values in order, standing bets as an array of such.
 *
 * The compact form is decoded back into the very payload that was hashed, so
 * the hash (over the same canonical JSON, journal/entry.ts) recomputes. A
 * payload that does not fit its layout exactly (another member, one missing,
 * `undefined`, a table or type other than the row's) is kept as canonical
 * JSON: the compact form is an encoding, never a change of what is kept.
 *
 * A layout is never changed once released, like a migration: a round event
 * that gains a member gets a new layout number, and the old number still
 * reads the rows written with it.
 */
import { canonicalJson } from './canonical-json.js';

/** A member kept as a nested object's values in order, spliced into the row's array. */
interface Flat {
  readonly key: string;
  readonly flat: readonly string[];
}

/** A member that is an array of objects, each kept as the array of its values in order. */
interface Each {
  readonly key: string;
  readonly each: readonly string[];
}

type Field = string | Flat | Each;

interface Layout {
  readonly type: string;
  readonly fields: readonly Field[];
}

/** The members of every compact payload that are the row's own columns. */
const ROW_KEYS = ['type', 'tableId', 'atMs'] as const;
const BET = ['betId', 'playerId', 'spot', 'stakeMinor', 'rollNo'];
const bet: Flat = { key: 'bet', flat: BET };

/** The released layouts, by number (index 0 is none). Never edited: a change is a new number. */
const LAYOUTS: readonly (Layout | undefined)[] = [
  undefined,
  { type: 'dome-covered', fields: ['roundNo', 'rollNo', 'newRound', 'croupierId'] },
  { type: 'latches-fastened', fields: ['roundNo', 'rollNo', 'croupierId'] },
  { type: 'lever-pulled', fields: ['roundNo', 'rollNo', 'pullNo', 'croupierId'] },
  {
    type: 'dice-shaken',
    fields: ['roundNo', 'rollNo', 'method', 'commitmentHex', 'croupierId'],
  },
  {
    type: 'betting-opened',
    fields: [
      'roundNo',
      'rollNo',
      'commitmentHex',
      'deadlineMs',
      'displayBoardLit',
      { key: 'standingBets', each: BET },
      'croupierId',
    ],
  },
  { type: 'bet-placed', fields: ['roundNo', 'rollNo', bet, 'totalStakeMinor'] },
  { type: 'bet-withdrawn', fields: ['roundNo', 'rollNo', bet, 'totalStakeMinor'] },
  {
    type: 'bell-rung',
    fields: ['roundNo', 'rollNo', 'automatic', 'betCount', 'totalStakeMinor', 'croupierId'],
  },
  { type: 'dome-lifted', fields: ['roundNo', 'rollNo', 'croupierId'] },
  {
    type: 'roll-voided',
    fields: ['roundNo', 'rollNo', 'reason', 'croupierId', 'nextRollNo', 'voidedRoll'],
  },
  { type: 'dice-read', fields: ['roundNo', 'rollNo', 'dice', 'croupierId'] },
  {
    type: 'dice-revealed',
    fields: ['roundNo', 'rollNo', 'dice', 'nonceHex', 'commitmentHex', 'croupierId'],
  },
  {
    type: 'round-settled',
    fields: [
      'roundNo',
      'rollNo',
      'dice',
      'winningSpots',
      'returnsMinor',
      'totalStakeMinor',
      'totalReturnedMinor',
    ],
  },
  {
    type: 'prizes-paid',
    fields: ['roundNo', 'rollNo', 'payoutCount', 'totalReturnedMinor', 'croupierId'],
  },
];

/** The layout each type is written with now. */
const LAYOUT_OF_TYPE = new Map<string, number>(
  LAYOUTS.flatMap((layout, n) => (layout === undefined ? [] : [[layout.type, n] as const])),
);

/** The entry types written in the compact form. */
export const COMPACT_PAYLOAD_TYPES: readonly string[] = [...LAYOUT_OF_TYPE.keys()];

/** What a row keeps of an entry beside its payload. */
export interface PayloadRow {
  readonly type: string;
  readonly tableId: string | null;
  readonly atMs: number;
}

type Plain = Readonly<Record<string, unknown>>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The values of `keys` in order, if `value` is an object with exactly those members, none undefined. */
function valuesOf(value: unknown, keys: readonly string[]): unknown[] | undefined {
  if (!isPlain(value) || Object.keys(value).length !== keys.length) return undefined;
  const out = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const v = value[keys[i]!];
    if (v === undefined || !Object.hasOwn(value, keys[i]!)) return undefined;
    out[i] = v;
  }
  return out;
}

/**
 * The text a row keeps for an entry's payload: the compact form where the
 * entry's type has a layout and the payload fits it exactly, else
 * `payloadJson`, the payload's canonical JSON.
 */
export function storedPayload(row: PayloadRow, payload: unknown, payloadJson: string): string {
  const n = LAYOUT_OF_TYPE.get(row.type);
  if (n === undefined || !isPlain(payload)) return payloadJson;
  const layout = LAYOUTS[n]!;
  const { type, tableId, atMs } = payload;
  if (type !== row.type || tableId !== row.tableId || typeof atMs !== 'number') return payloadJson;
  if (!ROW_KEYS.every((key) => Object.hasOwn(payload, key))) return payloadJson;
  const lag = row.atMs - atMs;
  if (!Number.isSafeInteger(atMs) || !Number.isSafeInteger(lag)) return payloadJson;
  const out: unknown[] = [n, lag];
  let members = ROW_KEYS.length;
  for (const field of layout.fields) {
    if (typeof field === 'string') {
      const v = payload[field];
      if (v === undefined || !Object.hasOwn(payload, field)) return payloadJson;
      out.push(v);
    } else if ('flat' in field) {
      const values = valuesOf(payload[field.key], field.flat);
      if (values === undefined) return payloadJson;
      out.push(...values);
    } else {
      const list = payload[field.key];
      if (!Array.isArray(list)) return payloadJson;
      const rows: unknown[][] = [];
      for (const item of list as unknown[]) {
        const values = valuesOf(item, field.each);
        if (values === undefined) return payloadJson;
        rows.push(values);
      }
      out.push(rows);
    }
    members++;
  }
  if (Object.keys(payload).length !== members) return payloadJson;
  return canonicalJson(out);
}

/** A stored payload that is neither JSON nor a compact form this release knows. */
export class StoredPayloadInvalid extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'StoredPayloadInvalid';
  }
}

function objectOf(values: readonly unknown[], keys: readonly string[]): Record<string, unknown> {
  if (values.length !== keys.length)
    throw new StoredPayloadInvalid(`${keys.length} values expected, ${values.length} found`);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i];
  return out;
}

/**
 * The payload a row keeps, whichever its form: the payload that was hashed.
 * Throws StoredPayloadInvalid when the text is not JSON or not a compact form
 * of the row's type.
 */
export function readStoredPayload(row: PayloadRow, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StoredPayloadInvalid('payload is not JSON');
  }
  if (!Array.isArray(value) || text.charCodeAt(0) !== 0x5b) return value;
  const [n, lag] = value as unknown[];
  const layout = typeof n === 'number' ? LAYOUTS[n] : undefined;
  if (layout === undefined || layout.type !== row.type)
    throw new StoredPayloadInvalid(`payload is not a compact ${row.type}`);
  if (typeof lag !== 'number' || !Number.isSafeInteger(lag))
    throw new StoredPayloadInvalid('payload has no time lag');
  const payload: Record<string, unknown> = {
    type: row.type,
    tableId: row.tableId,
    atMs: row.atMs - lag,
  };
  let i = 2;
  for (const field of layout.fields) {
    if (typeof field === 'string') {
      if (i >= value.length) throw new StoredPayloadInvalid('payload is short');
      payload[field] = value[i++];
    } else if ('flat' in field) {
      if (i + field.flat.length > value.length) throw new StoredPayloadInvalid('payload is short');
      payload[field.key] = objectOf(value.slice(i, i + field.flat.length), field.flat);
      i += field.flat.length;
    } else {
      const list: unknown = value[i++];
      if (!Array.isArray(list)) throw new StoredPayloadInvalid(`${field.key} is not an array`);
      payload[field.key] = list.map((item: unknown) => {
        if (!Array.isArray(item)) throw new StoredPayloadInvalid(`${field.key} holds a non-array`);
        return objectOf(item, field.each);
      });
    }
  }
  if (i !== value.length) throw new StoredPayloadInvalid('payload is long');
  return payload;
}
