#!/usr/bin/env node
// @ts-check
/**
 * cussec-verify: checks an export of a Cussec floor (format "cussec-export",
 * version 1) without trusting Cussec.
 *
 *     node verifier/cussec-verify.mjs FILE [--json]
 *
 * Exit 0 when every check holds (a summary on stdout), 1 at the first check
 * that fails (one line on stderr: the seq, the line, a code and the reason),
 * 2 when it cannot run.
 *
 * This is a second implementation, written from the regulation (Despacho
 * Regulamentar Externo n.º 57/2004 and Lei n.º 10/2012) and from the format's
 * description, docs/export-format.md, which says what each check is. It
 * imports nothing of Cussec and nothing but Node's built-ins, and those only
 * to run as a command: the checks themselves (createVerifier) use no import at
 * all, and take SHA-256 from whoever runs them, so that the inspector's page
 * runs this same file in the browser on a file that is never uploaded.
 */

export const FORMAT = 'cussec-export';
export const FORMAT_VERSION = 1;

/** A line longer than this is refused rather than read into memory. */
const LINE_BYTES_MAX = 64 * 1024 * 1024;
const GENESIS_HASH = '0'.repeat(64);
const HEX64 = /^[0-9a-f]{64}$/;
const TYPE_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------
// Failures

/**
 * @typedef {'file_malformed' | 'format_unsupported' | 'file_digest_mismatch' | 'chain_broken'
 *   | 'hash_mismatch' | 'entry_malformed' | 'procedure_violated' | 'settlement_mismatch'
 *   | 'commitment_mismatch' | 'transfer_mismatch' | 'ledger_unbalanced' | 'forfeit_mismatch'
 *   | 'paytable_invalid' | 'options_unauthorized' | 'request_not_timely'
 *   | 'calendar_year_missing'} FailureCode
 */

/** Every code a failure may carry, in the order docs/export-format.md lists them. */
export const FAILURE_CODES = /** @type {const} */ ([
  'file_malformed',
  'format_unsupported',
  'file_digest_mismatch',
  'chain_broken',
  'hash_mismatch',
  'entry_malformed',
  'procedure_violated',
  'settlement_mismatch',
  'commitment_mismatch',
  'transfer_mismatch',
  'ledger_unbalanced',
  'forfeit_mismatch',
  'paytable_invalid',
  'options_unauthorized',
  'request_not_timely',
  'calendar_year_missing',
]);

class Failure extends Error {
  /**
   * @param {FailureCode} code
   * @param {string} message
   * @param {string | null} article
   */
  constructor(code, message, article) {
    super(message);
    this.code = code;
    this.article = article;
  }
}

/**
 * @param {FailureCode} code
 * @param {string} message
 * @param {string | null} [article] the article of the law the check enforces
 * @returns {never}
 */
function fail(code, message, article = null) {
  throw new Failure(code, message, article);
}

// ---------------------------------------------------------------------------
// Canonical JSON (RFC 8785): sorted members, no whitespace, ECMAScript's
// forms of strings and numbers.

/**
 * @param {unknown} value parsed JSON
 * @returns {string}
 */
export function canonical(value) {
  if (value === null || typeof value === 'boolean' || typeof value === 'string')
    return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail('file_malformed', 'a number JSON cannot carry');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const record = /** @type {Record<string, unknown>} */ (value);
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return fail('file_malformed', `a ${typeof value} has no JSON form`);
}

// ---------------------------------------------------------------------------
// Reading members: each rule names the members it reads; the others are ignored.

/** @typedef {Record<string, unknown>} Obj */

/**
 * @param {unknown} v
 * @returns {v is Obj}
 */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * @param {unknown} v
 * @param {string} where
 * @returns {Obj}
 */
function object(v, where) {
  if (!isObject(v)) fail('entry_malformed', `${where} is not an object`);
  return v;
}

/**
 * @param {Obj} o
 * @param {string} key
 * @param {string} where
 * @returns {string}
 */
function text(o, key, where) {
  const v = o[key];
  if (typeof v !== 'string') fail('entry_malformed', `${where}.${key} is not a string`);
  return v;
}

/**
 * @param {Obj} o
 * @param {string} key
 * @param {string} where
 * @returns {string | null}
 */
function textOrNull(o, key, where) {
  return o[key] === null ? null : text(o, key, where);
}

/**
 * A whole number from `min` to 2^53 − 1.
 * @param {Obj} o
 * @param {string} key
 * @param {string} where
 * @param {number} [min]
 * @returns {number}
 */
function whole(o, key, where, min = 0) {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    fail('entry_malformed', `${where}.${key} is not a whole number from ${min}`);
  return v;
}

/**
 * @param {Obj} o
 * @param {string} key
 * @param {string} where
 * @returns {boolean}
 */
function flag(o, key, where) {
  const v = o[key];
  if (typeof v !== 'boolean') fail('entry_malformed', `${where}.${key} is not true or false`);
  return v;
}

/**
 * @param {Obj} o
 * @param {string} key
 * @param {string} where
 * @returns {unknown[]}
 */
function list(o, key, where) {
  const v = o[key];
  if (!Array.isArray(v)) fail('entry_malformed', `${where}.${key} is not an array`);
  return v;
}

/**
 * @param {Obj} o
 * @param {string} key
 * @param {string} where
 * @returns {string}
 */
function isoDate(o, key, where) {
  const v = text(o, key, where);
  if (dayNumber(v) === null) fail('entry_malformed', `${where}.${key} is not a YYYY-MM-DD date`);
  return v;
}

/**
 * @param {Obj} o
 * @param {string} key
 * @param {string} where
 * @returns {[number, number, number]}
 */
function dice(o, key, where) {
  const v = list(o, key, where);
  if (v.length !== 3 || !v.every((d) => Number.isInteger(d) && Number(d) >= 1 && Number(d) <= 6))
    fail('entry_malformed', `${where}.${key} is not three faces from 1 to 6 (Art. 1.1)`, '1.1');
  return [Number(v[0]), Number(v[1]), Number(v[2])];
}

/**
 * A record of the file has exactly these members.
 * @param {Obj} record
 * @param {readonly string[]} keys
 */
function exactKeys(record, keys) {
  const extra = Object.keys(record).find((k) => !keys.includes(k));
  if (extra !== undefined)
    fail('file_malformed', `a ${String(record['record'])} record has no member "${extra}"`);
  const missing = keys.find((k) => !(k in record));
  if (missing !== undefined)
    fail('file_malformed', `a ${String(record['record'])} record lacks "${missing}"`);
}

/**
 * The member of a record of the file (not of a payload): a malformed file, not a malformed entry.
 * @template T
 * @param {() => T} read
 * @returns {T}
 */
function fileMember(read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof Failure && error.code === 'entry_malformed')
      fail('file_malformed', error.message);
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Dates of the Macau calendar (Art. 8's working days)

/**
 * Days since 1970-01-01 of a real YYYY-MM-DD date, or null.
 * @param {string} date
 * @returns {number | null}
 */
function dayNumber(date) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (m === null) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return null;
  return ms / DAY_MS;
}

/**
 * Art. 8 with the project's counting rule: the working days strictly after
 * `request` and strictly before `adoption`, counted up to three (no more is
 * needed). A working day is Monday to Friday and not in its year's holiday
 * list; every year from the request's to the adoption's must have a list.
 * @param {string} request
 * @param {string} adoption
 * @param {(year: number) => Set<string> | undefined} listOf
 * @returns {number}
 */
function workingDaysBetween(request, adoption, listOf) {
  const from = /** @type {number} */ (dayNumber(request));
  const to = /** @type {number} */ (dayNumber(adoption));
  for (let year = Number(request.slice(0, 4)); year <= Number(adoption.slice(0, 4)); year++) {
    if (listOf(year) === undefined)
      fail(
        'calendar_year_missing',
        `no holiday list of ${year} is in force: the working days from ${request} to ${adoption} cannot be counted`,
        '8',
      );
  }
  let count = 0;
  for (let day = from + 1; day < to && count < 3; day++) {
    const date = new Date(day * DAY_MS);
    const weekday = date.getUTCDay();
    const iso = date.toISOString().slice(0, 10);
    const holidays = /** @type {Set<string>} */ (listOf(date.getUTCFullYear()));
    if (weekday !== 0 && weekday !== 6 && !holidays.has(iso)) count++;
  }
  return count;
}

/**
 * A year's holiday list, as a set of its dates (both kinds are days off).
 * @param {unknown} value
 * @param {string} where
 * @returns {{ year: number, days: Set<string> }}
 */
function holidayList(value, where) {
  const list_ = object(value, where);
  const year = whole(list_, 'year', where, 1);
  const days = /** @type {Set<string>} */ (new Set());
  for (const [i, day] of list(list_, 'days', where).entries()) {
    const at = `${where}.days[${i}]`;
    const date = isoDate(object(day, at), 'date', at);
    const kind = text(object(day, at), 'kind', at);
    if (!date.startsWith(`${year}-`)) fail('entry_malformed', `${at}.date is not in ${year}`);
    if (kind !== 'holiday' && kind !== 'compensatory')
      fail('entry_malformed', `${at}.kind is neither holiday nor compensatory`);
    if (days.has(date)) fail('entry_malformed', `${at}.date ${date} is listed twice`);
    days.add(date);
  }
  return { year, days };
}

// ---------------------------------------------------------------------------
// The bets of Art. 5 and what they pay (Arts. 6 and 7)

/** @typedef {{ kind: string, n: number[] }} Spot */
/** @typedef {{ spots: Set<string>, odds516: number, odds615: number }} Paytable */

const FACE = '([1-6])';
const SPOT_PATTERNS = /** @type {const} */ ([
  ['small', /^small$/],
  ['big', /^big$/],
  ['even', /^even$/],
  ['odd', /^odd$/],
  ['any-triple', /^any-triple$/],
  ['single', new RegExp(`^single:${FACE}$`)],
  ['double', new RegExp(`^double:${FACE}$`)],
  ['triple', new RegExp(`^triple:${FACE}$`)],
  ['total', /^total:([4-9]|1[0-7])$/],
  ['two-dice', new RegExp(`^two-dice:${FACE}-${FACE}$`)],
  ['three-dice', new RegExp(`^three-dice:${FACE}-${FACE}-${FACE}$`)],
  ['double-single', new RegExp(`^double-single:${FACE}-${FACE}$`)],
  ['four-numbers', new RegExp(`^four-numbers:${FACE}-${FACE}-${FACE}-${FACE}$`)],
]);

/**
 * A spot id of Art. 5, or null: the numbers of combinations in increasing
 * order, a double and single of two different numbers.
 * @param {string} id
 * @returns {Spot | null}
 */
export function parseSpot(id) {
  for (const [kind, pattern] of SPOT_PATTERNS) {
    const m = pattern.exec(id);
    if (m === null) continue;
    const n = m.slice(1).map(Number);
    if (kind === 'double-single') return n[0] === n[1] ? null : { kind, n };
    for (let i = 1; i < n.length; i++)
      if (/** @type {number} */ (n[i - 1]) >= /** @type {number} */ (n[i])) return null;
    return { kind, n };
  }
  return null;
}

/**
 * Art. 6.6: what a total pays, N to 1.
 * @param {number} total
 * @param {Paytable} paytable
 */
function totalOdds(total, paytable) {
  if (total === 4 || total === 17) return 50;
  if (total === 5 || total === 16) return paytable.odds516;
  if (total === 6 || total === 15) return paytable.odds615;
  if (total === 7 || total === 14) return 12;
  if (total === 8 || total === 13) return 8;
  return 6;
}

/**
 * What a spot pays on the dice, N to 1, or 0 when it loses (Arts. 5, 6 and 7).
 * @param {Spot} spot
 * @param {readonly number[]} d the three dice
 * @param {Paytable} paytable
 * @returns {number}
 */
export function oddsOf(spot, d, paytable) {
  const t = d.reduce((a, b) => a + b, 0);
  const triple = d[0] === d[1] && d[1] === d[2];
  /** @param {number} face */
  const shows = (face) => d.filter((x) => x === face).length;
  const [a = 0, b = 0] = spot.n;
  switch (spot.kind) {
    case 'small': // Art. 5.1; Art. 7: it loses when the three faces are equal
      return t >= 4 && t <= 10 && !triple ? 1 : 0;
    case 'big': // Art. 5.2; Art. 7
      return t >= 11 && t <= 17 && !triple ? 1 : 0;
    case 'even': // Art. 5.7: Art. 7 names only Small and Big
      return t % 2 === 0 ? 1 : 0;
    case 'odd': // Art. 5.8
      return t % 2 === 1 ? 1 : 0;
    case 'single': // Arts. 5.3 and 6.3: once, twice or three times for one, two or three dice
      return shows(a);
    case 'triple': // Art. 5.4
      return shows(a) === 3 ? 150 : 0;
    case 'any-triple': // Art. 5.5
      return triple ? 24 : 0;
    case 'total': // Arts. 5.6 and 6.6
      return t === a ? totalOdds(t, paytable) : 0;
    case 'double-single': // Art. 5.9: two dice show the pair's number, the third the other
      return shows(a) === 2 && shows(b) === 1 ? 50 : 0;
    case 'three-dice': // Art. 5.10
      return spot.n.every((face) => shows(face) === 1) ? 30 : 0;
    case 'two-dice': // Art. 5.11
      return shows(a) >= 1 && shows(b) >= 1 ? 5 : 0;
    case 'double': // Art. 5.12
      return shows(a) >= 2 ? 8 : 0;
    case 'four-numbers': // Art. 5.13: three different faces, all among the four chosen
      return new Set(d).size === 3 && d.every((x) => spot.n.includes(x)) ? 7 : 0;
    default:
      return fail('entry_malformed', `no bet "${spot.kind}" in Art. 5`, '5');
  }
}

/**
 * A paytable as a table's settings or a proposal carry it (Arts. 5 and 6.6).
 * @param {unknown} value
 * @param {string} where
 * @returns {Paytable}
 */
function paytableOf(value, where) {
  const p = object(value, where);
  const ids = list(p, 'spots', where);
  if (ids.length === 0) fail('paytable_invalid', `${where} offers no spot`, '5');
  const spots = /** @type {Set<string>} */ (new Set());
  for (const id of ids) {
    if (typeof id !== 'string' || parseSpot(id) === null)
      fail('paytable_invalid', `${where} offers ${JSON.stringify(id)}, not a bet of Art. 5`, '5');
    if (spots.has(id)) fail('paytable_invalid', `${where} offers ${id} twice`, '5');
    spots.add(id);
  }
  const odds = object(p['totalOdds'], `${where}.totalOdds`);
  const keys = Object.keys(odds).sort().join(',');
  if (keys !== '5/16,6/15')
    fail('paytable_invalid', `${where}.totalOdds must name exactly 5/16 and 6/15`, '6.6');
  const odds516 = odds['5/16'];
  const odds615 = odds['6/15'];
  if (!Number.isInteger(odds516) || Number(odds516) < 18 || Number(odds516) > 30)
    fail(
      'paytable_invalid',
      `${where}: totals 5 and 16 pay 18 to 30, not ${JSON.stringify(odds516)}`,
      '6.6',
    );
  if (!Number.isInteger(odds615) || Number(odds615) < 14 || Number(odds615) > 18)
    fail(
      'paytable_invalid',
      `${where}: totals 6 and 15 pay 14 to 18, not ${JSON.stringify(odds615)}`,
      '6.6',
    );
  return { spots, odds516: Number(odds516), odds615: Number(odds615) };
}

/**
 * @param {Paytable} a
 * @param {Paytable} b
 */
const samePaytable = (a, b) =>
  a.odds516 === b.odds516 &&
  a.odds615 === b.odds615 &&
  a.spots.size === b.spots.size &&
  [...a.spots].every((s) => b.spots.has(s));

// ---------------------------------------------------------------------------
// State

/**
 * @typedef {{ betId: string, playerId: string, spot: string, stakeMinor: number, rollNo: number }} Bet
 * @typedef {{ shaker: string, displayBoard: boolean, paytable: Paytable, authorization: Obj | null }} Options
 * @typedef {{ requestDate: string, adoptionDate: string, options: string,
 *   authorization: { reference: string, date: string, inspectorId: string } | null, open: boolean }} Proposal
 * @typedef {{ proposalId: string, options: Obj, reference: string,
 *   authorization: { reference: string, date: string, inspectorId: string } }} Adoption
 * @typedef {{
 *   id: string, options: Options, phase: string, roundNo: number | null, rollNo: number,
 *   pulls: number, bets: Bet[], usedBetIds: Set<string>, deadlineMs: number | null,
 *   commitments: Map<number, string | null>, dice: number[] | null, returns: number[] | null,
 *   forfeited: Set<string>, proposals: Map<string, Proposal>, pending: Adoption | null,
 * }} Table
 * @typedef {{ id: string, debitAccountId: string, creditAccountId: string, amountMinor: number,
 *   kind: string, reference: string, createdAtMs: number }} Transfer
 * @typedef {{ seq: number, tableId: string | null, type: string, atMs: number, prevHash: string,
 *   hash: string, payload: Obj }} Entry
 */

/**
 * @typedef {object} Summary
 * @property {number} version
 * @property {string} currency
 * @property {{ fromSeq: number, toSeq: number }} range
 * @property {{ seq: number, hash: string }} anchor
 * @property {{ seq: number, hash: string }} last
 * @property {{ seq: number, hash: string }} head
 * @property {string | null} table
 * @property {'whole' | 'range'} ledger
 * @property {number} entries
 * @property {number} contextEntries
 * @property {Record<string, number>} byRule
 * @property {Record<string, number>} chainOnly
 * @property {number} rounds rounds settled
 * @property {number} roundsPaid
 * @property {number} betsPlaced
 * @property {number} betsWithdrawn
 * @property {number} betsSettled
 * @property {number} stakesMinor staked on the rounds settled
 * @property {number} returnsMinor returned by them
 * @property {number} reveals
 * @property {number} voidRolls
 * @property {number} readings
 * @property {number} transfers
 * @property {number} transfersMinor
 * @property {number | null} accounts null in a range export
 * @property {number} adoptions
 * @property {{ year: number, origin: string }[]} holidayYears
 * @property {number} forfeits
 * @property {number} forfeitedMinor
 * @property {{ tableId: string, mark: string, rounds: number }[]} marked
 */

/**
 * @typedef {{ ok: true, summary: Summary }
 *   | { ok: false, seq: number | null, line: number, code: FailureCode, article: string | null,
 *       message: string }} Verdict
 */

/**
 * @typedef {object} Hasher an incremental SHA-256
 * @property {(bytes: Uint8Array) => void} update
 * @property {() => string} hex the digest in lowercase hex, once
 */

/**
 * @typedef {object} Host what the checks need from where they run
 * @property {() => Hasher} sha256
 */

const ROUND_EVENTS = new Set([
  'dome-covered',
  'latches-fastened',
  'lever-pulled',
  'dice-shaken',
  'betting-opened',
  'bet-placed',
  'bet-withdrawn',
  'bell-rung',
  'dome-lifted',
  'roll-voided',
  'dice-read',
  'dice-revealed',
  'round-settled',
  'prizes-paid',
]);

const TABLE_RULES = new Set([
  ...ROUND_EVENTS,
  'table-created',
  'table-settings-changed',
  'house-options-proposed',
  'dicj-authorization-recorded',
  'house-options-withdrawn',
  'house-options-adopted',
  'winnings-forfeited',
]);

/** Accounts that may never go below zero, by the start of their id. */
const NEVER_NEGATIVE = /^(wallet:|in-play:|sar$)/;

/**
 * The kind an account's id says it is, or null for an id of no known form.
 * @param {string} id
 */
function kindOfAccount(id) {
  if (id === 'cage' || id === 'sar') return id;
  const m = /^(wallet|in-play|bankroll):./.exec(id);
  return m === null ? null : m[1];
}

// ---------------------------------------------------------------------------
// The verifier

/**
 * Checks a file fed to it chunk by chunk (`write`), and gives its verdict at
 * the `end`. It stops at the first failure; later chunks are ignored.
 * @param {Host} host
 */
export function createVerifier(host) {
  const check = new Checker(host);
  /** @type {Uint8Array[]} */
  let partial = [];
  let partialBytes = 0;
  /** @type {Verdict | null} */
  let verdict = null;

  /** @param {() => void} step */
  const guarded = (step) => {
    if (verdict !== null) return;
    try {
      step();
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      verdict = {
        ok: false,
        seq: check.seqAtFault,
        line: check.lineNo,
        code: /** @type {FailureCode} */ (error.code),
        article: error.article,
        message: error.message,
      };
    }
  };

  return {
    /** @param {Uint8Array} chunk */
    write(chunk) {
      guarded(() => {
        let start = 0;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
          const piece = chunk.subarray(start, i);
          const line = partial.length === 0 ? piece : concat([...partial, piece]);
          partial = [];
          partialBytes = 0;
          check.line(line);
          start = i + 1;
        }
        if (start < chunk.length) {
          partial.push(chunk.slice(start));
          partialBytes += chunk.length - start;
          if (partialBytes > LINE_BYTES_MAX)
            fail('file_malformed', `a line longer than ${LINE_BYTES_MAX} bytes`);
        }
      });
      return verdict === null;
    },
    /** @returns {Verdict} */
    end() {
      guarded(() => {
        if (partialBytes > 0) {
          check.lineNo++;
          fail('file_malformed', 'the file does not end with a line feed');
        }
        check.finish();
      });
      return verdict ?? { ok: true, summary: check.summary() };
    },
  };
}

/** @param {Uint8Array[]} parts */
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const SECTIONS = ['header', 'holidays', 'context', 'entries', 'accounts', 'ended'];

class Checker {
  /** @param {Host} host */
  constructor(host) {
    this.host = host;
    this.digest = host.sha256();
    this.decoder = new TextDecoder('utf-8', { fatal: true });
    this.encoder = new TextEncoder();
    this.lineNo = 0;
    /** The entry the failure concerns, if any. */
    /** @type {number | null} */
    this.seqAtFault = null;
    this.section = 'header';
    /** @type {Obj} */
    this.header = {};
    /** @type {Map<number, Set<string>>} bundled holiday lists, by year */
    this.bundled = new Map();
    /** @type {Map<number, Set<string>>} lists loaded in the journal so far, by year */
    this.loaded = new Map();
    /** @type {Map<string, Table>} */
    this.tables = new Map();
    this.lastSeq = 0;
    this.lastHash = '';
    this.contextSeq = 0;
    /** The transfers the last entry implies, and how many came. */
    /** @type {{ seq: number, transfers: Transfer[], next: number }} */
    this.expected = { seq: 0, transfers: [], next: 0 };
    /** @type {Set<string>} */
    this.transferIds = new Set();
    /** @type {Map<string, number>} balances as the transfers add them up (whole exports) */
    this.balances = new Map();
    /** @type {string | null} */
    this.lastAccountId = null;
    /** @type {Map<string, number>} */
    this.accountRecords = new Map();
    this.stats = {
      entries: 0,
      contextEntries: 0,
      /** @type {Record<string, number>} */
      byRule: {},
      /** @type {Record<string, number>} */
      chainOnly: {},
      rounds: 0,
      roundsPaid: 0,
      betsPlaced: 0,
      betsWithdrawn: 0,
      betsSettled: 0,
      stakesMinor: 0,
      returnsMinor: 0,
      reveals: 0,
      voidRolls: 0,
      readings: 0,
      transfers: 0,
      transfersMinor: 0,
      adoptions: 0,
      forfeits: 0,
      forfeitedMinor: 0,
    };
    /** @type {Map<number, string>} */
    this.holidayYears = new Map();
    /** @type {Map<string, { mark: string, rounds: number }>} */
    this.marked = new Map();
    /** Whether the entry under its rules is from the context: the summary counts the range only. */
    this.inContext = false;
  }

  /**
   * Adds to a count of the summary, for an entry of the range.
   * @param {'adoptions' | 'forfeits' | 'forfeitedMinor' | 'betsPlaced' | 'betsWithdrawn' | 'voidRolls'
   *   | 'readings' | 'reveals' | 'rounds' | 'betsSettled' | 'stakesMinor' | 'returnsMinor' | 'roundsPaid'} key
   * @param {number} n
   */
  count(key, n) {
    if (!this.inContext) this.stats[key] += n;
  }

  // ----- lines and records

  /** @param {Uint8Array} bytes one line, without its line feed */
  line(bytes) {
    this.lineNo++;
    this.seqAtFault = null;
    if (this.section === 'ended') fail('file_malformed', 'a line after the end record');
    const record = this.parse(bytes);
    if (record['record'] === 'end') return this.end(record);
    this.digest.update(bytes);
    this.digest.update(new Uint8Array([10]));
    switch (record['record']) {
      case 'header':
        return this.onHeader(record);
      case 'holidays':
        return this.onHolidays(record);
      case 'context':
      case 'entry':
        return this.onEntry(record);
      case 'transfer':
        return this.onTransfer(record);
      case 'account':
        return this.onAccount(record);
      default:
        return fail('file_malformed', `no record "${String(record['record'])}" in version 1`);
    }
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {Obj}
   */
  parse(bytes) {
    let textLine = '';
    try {
      textLine = this.decoder.decode(bytes);
    } catch {
      fail('file_malformed', 'the line is not UTF-8');
    }
    if (textLine === '') fail('file_malformed', 'a blank line');
    /** @type {unknown} */
    let value;
    try {
      value = JSON.parse(textLine);
    } catch {
      fail('file_malformed', 'the line is not JSON');
    }
    if (canonical(value) !== textLine)
      fail('file_malformed', 'the line is not in canonical form (RFC 8785)');
    if (!isObject(value) || typeof value['record'] !== 'string')
      fail('file_malformed', 'the line is not a record');
    if (this.lineNo === 1 && value['record'] !== 'header')
      fail('file_malformed', 'the file does not start with its header');
    return value;
  }

  /**
   * Records come in the order of the sections.
   * @param {string} section
   */
  enter(section) {
    const at = SECTIONS.indexOf(this.section);
    const to = SECTIONS.indexOf(section);
    if (to < at) fail('file_malformed', `a ${section} record after the ${this.section} records`);
    this.section = section;
  }

  /** @param {Obj} h */
  onHeader(h) {
    if (this.lineNo !== 1) fail('file_malformed', 'a second header');
    if (h['format'] !== FORMAT) fail('format_unsupported', `not a ${FORMAT} file`);
    if (h['version'] !== FORMAT_VERSION)
      fail(
        'format_unsupported',
        `format version ${String(h['version'])}: this verifier reads version ${FORMAT_VERSION} only`,
      );
    exactKeys(h, [
      'record',
      'format',
      'version',
      'currency',
      'range',
      'anchor',
      'head',
      'table',
      'ledger',
      'exportedAtMs',
      'generator',
    ]);
    fileMember(() => this.readHeader(h));
    this.header = h;
    this.section = 'holidays';
  }

  /** @param {Obj} h */
  readHeader(h) {
    if (h['currency'] !== 'MOP' && h['currency'] !== 'HKD')
      fail('file_malformed', 'the currency is neither MOP nor HKD');
    const range = object(h['range'], 'range');
    const from = whole(range, 'fromSeq', 'range', 1);
    const to = whole(range, 'toSeq', 'range', from);
    const anchor = object(h['anchor'], 'anchor');
    const head = object(h['head'], 'head');
    exactKeys({ record: 'range', ...range }, ['record', 'fromSeq', 'toSeq']);
    exactKeys({ record: 'anchor', ...anchor }, ['record', 'seq', 'hash']);
    exactKeys({ record: 'head', ...head }, ['record', 'seq', 'hash']);
    if (whole(anchor, 'seq', 'anchor') !== from - 1)
      fail('file_malformed', 'the anchor is not the entry before the range');
    const anchorHash = text(anchor, 'hash', 'anchor');
    if (!HEX64.test(anchorHash) || (from === 1 && anchorHash !== GENESIS_HASH))
      fail('file_malformed', 'the anchor hash is not a hash (the genesis hash at seq 0)');
    const headSeq = whole(head, 'seq', 'head', to);
    if (!HEX64.test(text(head, 'hash', 'head'))) fail('file_malformed', 'the head hash');
    const table = h['table'];
    if (table !== null && (typeof table !== 'string' || table === ''))
      fail('file_malformed', 'the table is neither null nor a table id');
    const whole_ = from === 1 && to === headSeq && table === null;
    if (h['ledger'] !== (whole_ ? 'whole' : 'range'))
      fail('file_malformed', `the ledger must be "${whole_ ? 'whole' : 'range'}" for this range`);
    whole(h, 'exportedAtMs', 'header');
    text(h, 'generator', 'header');
    this.lastSeq = from - 1;
    this.lastHash = anchorHash;
  }

  /** @param {Obj} r */
  onHolidays(r) {
    this.enter('holidays');
    exactKeys(r, ['record', 'list']);
    const { year, days } = fileMember(() => holidayList(r['list'], 'holidays.list'));
    if ([...this.bundled.keys()].some((y) => y >= year))
      fail('file_malformed', `the holiday list of ${year} is not in year order`);
    this.bundled.set(year, days);
  }

  /** @param {Obj} r */
  onEntry(r) {
    const isContext = r['record'] === 'context';
    this.enter(isContext ? 'context' : 'entries');
    exactKeys(r, ['record', 'seq', 'tableId', 'type', 'atMs', 'prevHash', 'hash', 'payload']);
    const e = fileMember(() => entryOf(r));
    this.seqAtFault = e.seq;
    this.closeExpected();
    if (isContext) {
      if (e.seq <= this.contextSeq || e.seq >= Number(this.range().fromSeq))
        fail('file_malformed', 'a context entry out of order or not before the range');
      this.contextSeq = e.seq;
    } else {
      if (e.seq !== this.lastSeq + 1)
        fail('chain_broken', `entry ${e.seq} where entry ${this.lastSeq + 1} should be`);
      if (e.prevHash !== this.lastHash)
        fail('chain_broken', `entry ${e.seq} does not name the hash of the entry before it`);
    }
    const hashed = canonical([e.seq, e.prevHash, e.tableId, e.type, e.atMs, r['payload']]);
    if (this.sha256Hex(hashed) !== e.hash)
      fail('hash_mismatch', `entry ${e.seq} does not hash to its recorded hash`);
    if (!isObject(r['payload']))
      fail('entry_malformed', `entry ${e.seq}'s payload is not an object`);
    if (!isContext) {
      this.lastSeq = e.seq;
      this.lastHash = e.hash;
      if (e.seq > Number(this.range().toSeq)) fail('file_malformed', 'an entry after the range');
    }
    this.applyRule(e, isContext);
  }

  /** @param {Obj} r */
  onTransfer(r) {
    if (this.section !== 'entries') fail('file_malformed', 'a transfer outside the entries');
    exactKeys(r, [
      'record',
      'id',
      'debitAccountId',
      'creditAccountId',
      'amountMinor',
      'kind',
      'reference',
      'createdAtMs',
    ]);
    const t = fileMember(() => transferOf(r));
    const { seq, transfers, next } = this.expected;
    this.seqAtFault = seq === 0 ? null : seq;
    const want = transfers[next];
    if (want === undefined)
      fail(
        'transfer_mismatch',
        seq === 0 || this.lastSeq === Number(this.range().toSeq)
          ? `transfer ${t.id} is implied by no journal entry`
          : `transfer ${t.id} is not one that entry ${seq} implies`,
      );
    for (const key of /** @type {const} */ ([
      'id',
      'debitAccountId',
      'creditAccountId',
      'amountMinor',
      'kind',
      'reference',
      'createdAtMs',
    ])) {
      if (t[key] !== want[key])
        fail(
          'transfer_mismatch',
          `transfer ${t.id}: ${key} is ${JSON.stringify(t[key])}, entry ${seq} implies ${JSON.stringify(want[key])}`,
        );
    }
    if (this.transferIds.has(t.id)) fail('transfer_mismatch', `transfer ${t.id} twice`);
    this.transferIds.add(t.id);
    this.expected.next++;
    this.stats.transfers++;
    this.stats.transfersMinor += t.amountMinor;
    if (this.header['ledger'] === 'whole') this.move(t);
  }

  /** @param {Transfer} t moves a whole export's balances, which some accounts never let below zero */
  move(t) {
    const debit = (this.balances.get(t.debitAccountId) ?? 0) - t.amountMinor;
    this.balances.set(t.debitAccountId, debit);
    this.balances.set(
      t.creditAccountId,
      (this.balances.get(t.creditAccountId) ?? 0) + t.amountMinor,
    );
    if (debit < 0 && NEVER_NEGATIVE.test(t.debitAccountId))
      fail('ledger_unbalanced', `transfer ${t.id} takes ${t.debitAccountId} below zero (${debit})`);
  }

  /** @param {Obj} r */
  onAccount(r) {
    if (this.header['ledger'] !== 'whole') fail('file_malformed', 'accounts in a range export');
    if (this.section === 'entries') this.closeExpected();
    this.enter('accounts');
    this.seqAtFault = null;
    exactKeys(r, ['record', 'id', 'kind', 'balanceMinor']);
    const { id, kind, balanceMinor } = fileMember(() => ({
      id: text(r, 'id', 'account'),
      kind: text(r, 'kind', 'account'),
      balanceMinor: whole(r, 'balanceMinor', 'account', Number.MIN_SAFE_INTEGER),
    }));
    if (this.lastAccountId !== null && !(this.lastAccountId < id))
      fail('file_malformed', `account ${id} is out of order or listed twice`);
    this.lastAccountId = id;
    const known = kindOfAccount(id);
    if (known !== null && known !== kind)
      fail('ledger_unbalanced', `account ${id} is of kind ${kind}, its id says ${known}`);
    const added = this.balances.get(id) ?? 0;
    if (balanceMinor !== added)
      fail(
        'ledger_unbalanced',
        `account ${id} holds ${balanceMinor}, its transfers add up to ${added}`,
      );
    this.accountRecords.set(id, balanceMinor);
  }

  /** @param {Obj} r */
  end(r) {
    exactKeys(r, ['record', 'lines', 'sha256']);
    if (r['lines'] !== this.lineNo - 1)
      fail(
        'file_digest_mismatch',
        `the end record counts ${String(r['lines'])} lines, the file has ${this.lineNo - 1}`,
      );
    if (r['sha256'] !== this.digest.hex())
      fail('file_digest_mismatch', 'the file does not hash to the digest of its end record');
    if (this.section === 'entries') this.closeExpected();
    this.seqAtFault = null;
    if (this.lastSeq !== Number(this.range().toSeq))
      fail(
        'chain_broken',
        `the range ends at entry ${String(this.range().toSeq)}, the file at ${this.lastSeq}`,
      );
    const head = object(this.header['head'], 'head');
    if (head['seq'] === this.lastSeq && head['hash'] !== this.lastHash)
      fail('chain_broken', 'the last entry is not the head the header names');
    if (this.header['ledger'] === 'whole') this.checkAccounts();
    this.section = 'ended';
  }

  finish() {
    if (this.section !== 'ended') fail('file_malformed', 'the file has no end record');
  }

  checkAccounts() {
    let sum = 0;
    for (const [id, balance] of this.balances) {
      if (!this.accountRecords.has(id))
        fail('ledger_unbalanced', `account ${id} moves money but has no account record`);
      sum += balance;
    }
    if (sum !== 0) fail('ledger_unbalanced', `the balances add up to ${sum}, not 0`);
  }

  /** Every transfer the last entry implied came. */
  closeExpected() {
    const { seq, transfers, next } = this.expected;
    const missing = transfers[next];
    if (missing !== undefined) {
      this.seqAtFault = seq;
      fail('transfer_mismatch', `entry ${seq} implies transfer ${missing.id}, which is not there`);
    }
    this.expected = { seq: 0, transfers: [], next: 0 };
  }

  range() {
    return /** @type {Obj} */ (this.header['range']);
  }

  /** @param {string} s */
  sha256Hex(s) {
    const h = this.host.sha256();
    h.update(this.encoder.encode(s));
    return h.hex();
  }

  // ----- rules

  /**
   * @param {Entry} e
   * @param {boolean} isContext
   */
  applyRule(e, isContext) {
    const scope = this.header['table'];
    const tableId = ruleTable(e);
    const ours = tableId !== null && (scope === null || tableId === scope);
    const floorRule =
      e.type === 'holiday-year-loaded' ||
      (scope === null && (e.type === 'deposit' || e.type === 'withdrawal'));
    const byRule = tableId === null ? floorRule : ours && TABLE_RULES.has(e.type);
    if (isContext) this.stats.contextEntries++;
    else {
      this.stats.entries++;
      const counts = byRule ? this.stats.byRule : this.stats.chainOnly;
      counts[e.type] = (counts[e.type] ?? 0) + 1;
    }
    if (!byRule) return;
    this.inContext = isContext;
    const transfers = this.rule(e, isContext);
    if (!isContext) this.expected = { seq: e.seq, transfers, next: 0 };
  }

  /**
   * @param {Entry} e
   * @param {boolean} isContext
   * @returns {Transfer[]}
   */
  rule(e, isContext) {
    const p = e.payload;
    switch (e.type) {
      case 'holiday-year-loaded': {
        const { year, days } = holidayList(p['list'], 'payload.list');
        this.loaded.set(year, days);
        return [];
      }
      case 'deposit':
      case 'withdrawal':
        return [cageTransfer(e)];
      case 'table-created':
        return this.tableCreated(e, isContext);
      case 'table-settings-changed':
        return this.settingsChanged(e, isContext);
      case 'house-options-proposed':
        return this.proposed(e);
      case 'dicj-authorization-recorded':
        return this.authorized(e);
      case 'house-options-withdrawn':
        return this.withdrawn(e);
      case 'house-options-adopted':
        return this.adopted(e, isContext);
      case 'winnings-forfeited':
        return this.forfeited(e);
      default:
        return this.roundEvent(e);
    }
  }

  /**
   * @param {Entry} e
   * @returns {Table}
   */
  table(e) {
    const id = ruleTable(e);
    const t = id === null ? undefined : this.tables.get(id);
    if (t === undefined)
      fail('procedure_violated', `table ${String(id)} was never created before entry ${e.seq}`);
    return t;
  }

  /**
   * The settings a table-created or table-settings-changed carries.
   * @param {Entry} e
   * @returns {Options}
   */
  settingsOf(e) {
    const s = object(e.payload['settings'], 'payload.settings');
    if (text(s, 'tableId', 'settings') !== e.tableId)
      fail('entry_malformed', `the settings of entry ${e.seq} are another table's`);
    const shaker = text(s, 'shaker', 'settings');
    if (shaker !== 'lever' && shaker !== 'electronic')
      fail('entry_malformed', 'settings.shaker is neither lever nor electronic', '1.2');
    const authorization = s['authorization'] ?? null;
    if (authorization !== null) {
      const a = object(authorization, 'settings.authorization');
      const mark = text(a, 'mark', 'settings.authorization');
      if (!['dicj', 'demonstration', 'simulation'].includes(mark))
        fail('entry_malformed', `settings.authorization.mark "${mark}"`, '8');
    }
    return {
      shaker,
      displayBoard: flag(s, 'displayBoard', 'settings'),
      paytable: paytableOf(s['paytable'], 'settings.paytable'),
      authorization: /** @type {Obj | null} */ (authorization),
    };
  }

  /**
   * @param {Entry} e
   * @param {boolean} isContext in the context, the table's rounds before its last are not in the file
   */
  tableCreated(e, isContext) {
    const id = /** @type {string} */ (e.tableId);
    if (this.tables.has(id)) fail('procedure_violated', `table ${id} is created twice`);
    const options = this.settingsOf(e);
    if (options.authorization !== null && options.authorization['mark'] === 'dicj')
      fail(
        'options_unauthorized',
        `table ${id} is created with a DICJ authorization no journal entry records`,
        '8',
      );
    this.tables.set(
      id,
      isContext ? newTable(id, options, 'unknown', null) : newTable(id, options, 'idle', 0),
    );
    return [];
  }

  /**
   * @param {Entry} e
   * @param {boolean} isContext
   */
  settingsChanged(e, isContext) {
    const options = this.settingsOf(e);
    const id = /** @type {string} */ (e.tableId);
    const table = this.tables.get(id);
    if (table === undefined) {
      // The context's settings of a table created before it: in force, its round unknown.
      if (!isContext) this.table(e);
      this.tables.set(id, newTable(id, options, 'unknown', null));
      return [];
    }
    if (!isContext) this.checkOptionsChange(e, table, options);
    // In the context a change is taken as it came; one of the authorization took up the adoption.
    else if (canonical(table.options.authorization) !== canonical(options.authorization))
      table.pending = null;
    table.options = options;
    return [];
  }

  /**
   * Art. 8: a change of house options is an authorized adoption taking effect, between rounds.
   * @param {Entry} e
   * @param {Table} table
   * @param {Options} next
   */
  checkOptionsChange(e, table, next) {
    const now = table.options;
    const sameOptions =
      now.shaker === next.shaker &&
      now.displayBoard === next.displayBoard &&
      samePaytable(now.paytable, next.paytable);
    if (sameOptions && canonical(now.authorization) === canonical(next.authorization)) return;
    const adoption = table.pending;
    if (adoption === null)
      fail(
        'options_unauthorized',
        `table ${table.id}'s house options change (${describeChange(now, next)}) with no adoption of an authorized proposal`,
        '8',
      );
    const o = adoption.options;
    if (
      o['shaker'] !== next.shaker ||
      o['displayBoard'] !== next.displayBoard ||
      !samePaytable(paytableOf(o['paytable'], 'adopted paytable'), next.paytable)
    )
      fail(
        'options_unauthorized',
        `table ${table.id}'s new options are not those proposal ${adoption.proposalId} was authorized for`,
        '8',
      );
    const want = {
      mark: 'dicj',
      reference: adoption.reference,
      authorizedOn: adoption.authorization.date,
      recordedBy: adoption.authorization.inspectorId,
      proposalId: adoption.proposalId,
    };
    if (canonical(next.authorization) !== canonical(want))
      fail(
        'options_unauthorized',
        `table ${table.id}'s new options do not carry the authorization recorded for proposal ${adoption.proposalId}`,
        '8',
      );
    if (!['idle', 'paid', 'unknown'].includes(table.phase))
      fail('options_unauthorized', `table ${table.id}'s options change mid-round`, '8');
    table.pending = null;
  }

  /** @param {Entry} e */
  proposed(e) {
    const table = this.table(e);
    const p = e.payload;
    const id = text(p, 'proposalId', 'payload');
    if (table.proposals.has(id)) fail('procedure_violated', `proposal ${id} is made twice`, '8');
    const options = object(p['options'], 'payload.options');
    paytableOf(options['paytable'], 'payload.options.paytable');
    table.proposals.set(id, {
      requestDate: isoDate(p, 'requestDate', 'payload'),
      adoptionDate: isoDate(p, 'adoptionDate', 'payload'),
      options: canonical(options),
      authorization: null,
      open: true,
    });
    return [];
  }

  /**
   * @param {Table} table
   * @param {string} id
   * @param {string} what
   * @returns {Proposal}
   */
  openProposal(table, id, what) {
    const proposal = table.proposals.get(id);
    if (proposal === undefined)
      fail('options_unauthorized', `${what} proposal ${id}, never made`, '8');
    if (!proposal.open)
      fail('options_unauthorized', `${what} proposal ${id}, which is closed`, '8');
    return proposal;
  }

  /** @param {Entry} e */
  authorized(e) {
    const p = e.payload;
    const id = text(p, 'proposalId', 'payload');
    const proposal = this.openProposal(this.table(e), id, 'an authorization of');
    if (proposal.authorization !== null)
      fail('options_unauthorized', `proposal ${id} is authorized twice`, '8');
    const date = isoDate(p, 'authorizationDate', 'payload');
    // Art. 8: "prévia autorização", given after the request and recorded once it exists.
    if (date < proposal.requestDate || date > isoDate(p, 'on', 'payload'))
      fail(
        'options_unauthorized',
        `proposal ${id}'s authorization is dated ${date}, before its request (${proposal.requestDate}) or after it was recorded`,
        '8',
      );
    proposal.authorization = {
      reference: text(p, 'reference', 'payload'),
      date,
      inspectorId: text(p, 'inspectorId', 'payload'),
    };
    return [];
  }

  /** @param {Entry} e */
  withdrawn(e) {
    const id = text(e.payload, 'proposalId', 'payload');
    this.openProposal(this.table(e), id, 'a withdrawal of').open = false;
    return [];
  }

  /**
   * Art. 8: adopted on or after a recorded authorization, requested three working days ahead.
   * @param {Entry} e
   * @param {boolean} isContext
   */
  adopted(e, isContext) {
    const table = this.table(e);
    const p = e.payload;
    const id = text(p, 'proposalId', 'payload');
    const options = object(p['options'], 'payload.options');
    const reference = text(p, 'authorizationReference', 'payload');
    const proposal = isContext
      ? table.proposals.get(id)
      : this.openProposal(table, id, 'an adoption of');
    const authorization = proposal?.authorization;
    if (proposal === undefined || authorization == null) {
      if (isContext) return [];
      return fail(
        'options_unauthorized',
        `proposal ${id} is adopted with no authorization recorded`,
        '8',
      );
    }
    if (!isContext) this.checkAdoption(e, proposal, authorization, canonical(options), reference);
    proposal.open = false;
    for (const other of list(p, 'supersededProposalIds', 'payload')) {
      const superseded = table.proposals.get(String(other));
      if (superseded !== undefined) superseded.open = false;
    }
    table.pending = { proposalId: id, options, reference, authorization };
    return [];
  }

  /**
   * @param {Entry} e
   * @param {Proposal} proposal
   * @param {{ reference: string, date: string }} authorization
   * @param {string} options
   * @param {string} reference
   */
  checkAdoption(e, proposal, authorization, options, reference) {
    const id = text(e.payload, 'proposalId', 'payload');
    const on = isoDate(e.payload, 'on', 'payload');
    if (options !== proposal.options)
      fail(
        'options_unauthorized',
        `proposal ${id} is adopted with other options than proposed`,
        '8',
      );
    if (reference !== authorization.reference)
      fail(
        'options_unauthorized',
        `proposal ${id} is adopted under ${reference}, recorded as ${authorization.reference}`,
        '8',
      );
    if (on < authorization.date || on < proposal.adoptionDate)
      fail(
        'options_unauthorized',
        `proposal ${id} is adopted on ${on}, before its authorization (${authorization.date}) or its date (${proposal.adoptionDate})`,
        '8',
      );
    const days = workingDaysBetween(proposal.requestDate, proposal.adoptionDate, (year) =>
      this.holidaysOf(year),
    );
    if (days < 3)
      fail(
        'request_not_timely',
        `proposal ${id} was requested on ${proposal.requestDate} for ${proposal.adoptionDate}: ${days} working day(s) between them, Art. 8 asks for three`,
        '8',
      );
    this.count('adoptions', 1);
  }

  /**
   * A year's holiday list in force now: the last loaded in the journal, else the bundled one.
   * @param {number} year
   */
  holidaysOf(year) {
    const loaded = this.loaded.get(year);
    const list_ = loaded ?? this.bundled.get(year);
    if (list_ !== undefined && !this.holidayYears.has(year))
      this.holidayYears.set(year, loaded === undefined ? 'bundled' : 'loaded');
    return list_;
  }

  /**
   * Lei 10/2012, art. 11: a barred player's net winnings of the round go to the Macau SAR.
   * @param {Entry} e
   * @returns {Transfer[]}
   */
  forfeited(e) {
    const p = e.payload;
    const table = this.table(e);
    const roundNo = whole(p, 'roundNo', 'payload', 1);
    const playerId = text(p, 'playerId', 'payload');
    if (text(p, 'tableId', 'payload') !== table.id)
      fail('entry_malformed', `the forfeit of entry ${e.seq} names another table than its entry`);
    if (table.phase !== 'paid' || table.roundNo !== roundNo || table.returns === null)
      fail(
        'forfeit_mismatch',
        `round ${roundNo} of table ${table.id} is not the round just paid`,
        '11',
      );
    if (table.forfeited.has(playerId))
      fail('forfeit_mismatch', `player ${playerId} forfeits round ${roundNo} twice`, '11');
    let stakes = 0;
    let returns = 0;
    table.bets.forEach((bet, i) => {
      if (bet.playerId !== playerId) return;
      stakes += bet.stakeMinor;
      returns += /** @type {number} */ (table.returns?.[i]);
    });
    const forfeit = returns - stakes;
    const id = `forfeit:${table.id}:${roundNo}:${playerId}`;
    for (const [key, want] of /** @type {const} */ ([
      ['stakesMinor', stakes],
      ['returnsMinor', returns],
      ['forfeitedMinor', forfeit],
    ])) {
      if (p[key] !== want)
        fail(
          'forfeit_mismatch',
          `player ${playerId}'s ${key} in round ${roundNo} is ${want}, not ${String(p[key])}`,
          '11',
        );
    }
    if (forfeit <= 0)
      fail(
        'forfeit_mismatch',
        `player ${playerId} won nothing net in round ${roundNo}: nothing to forfeit`,
        '11',
      );
    if (p['transferId'] !== id)
      fail('forfeit_mismatch', `the forfeit's transfer is not ${id}`, '11');
    table.forfeited.add(playerId);
    this.count('forfeits', 1);
    this.count('forfeitedMinor', forfeit);
    const reference = `round:${table.id}:${roundNo}`;
    return [transfer(e, id, `wallet:${playerId}`, 'sar', forfeit, 'art11-forfeit', reference)];
  }

  // ----- the round (Arts. 2–4)

  /**
   * @param {Entry} e
   * @returns {Transfer[]}
   */
  roundEvent(e) {
    const table = this.table(e);
    const p = e.payload;
    if (p['type'] !== e.type || p['tableId'] !== e.tableId)
      fail('entry_malformed', `entry ${e.seq}'s payload names another type or table`);
    const roundNo = whole(p, 'roundNo', 'payload');
    const rollNo = whole(p, 'rollNo', 'payload');
    whole(p, 'atMs', 'payload');
    if (e.type === 'dome-covered') return this.covered(table, p, roundNo, rollNo);
    if (roundNo !== table.roundNo || rollNo !== table.rollNo)
      fail(
        'procedure_violated',
        `${e.type} names round ${roundNo} roll ${rollNo}; table ${table.id} is at round ${table.roundNo} roll ${table.rollNo}`,
      );
    switch (e.type) {
      case 'latches-fastened':
        return this.step(table, e.type, ['covered'], 'latched', '2.1');
      case 'lever-pulled':
        return this.pulled(table, p);
      case 'dice-shaken':
        return this.shaken(table, p);
      case 'betting-opened':
        return this.bettingOpened(table, p);
      case 'bet-placed':
        return this.betPlaced(e, table, p);
      case 'bet-withdrawn':
        return this.betWithdrawn(e, table, p);
      case 'bell-rung':
        this.step(table, e.type, ['betting'], 'closed', '3.1');
        this.checkTotals(table, p, whole(p, 'betCount', 'payload'));
        return [];
      case 'dome-lifted':
        return this.step(table, e.type, ['closed'], 'lifted', '3.2');
      case 'roll-voided':
        return this.voided(table, p);
      case 'dice-read':
      case 'dice-revealed':
        return this.diceKnown(e, table, p);
      case 'round-settled':
        return this.settled(table, p);
      default:
        return this.paid(e, table, p);
    }
  }

  /**
   * @param {Table} table
   * @param {string} type
   * @param {string[]} from
   * @param {string} to
   * @param {string} article
   * @returns {Transfer[]}
   */
  step(table, type, from, to, article) {
    if (!from.includes(table.phase))
      fail('procedure_violated', `${type} at table ${table.id} while ${table.phase}`, article);
    table.phase = to;
    return [];
  }

  /**
   * Arts. 2.1, 3.3 and 4: a new round once every prize of the last is paid; the same round after a void roll.
   * @param {Table} table
   * @param {Obj} p
   * @param {number} roundNo
   * @param {number} rollNo
   */
  covered(table, p, roundNo, rollNo) {
    if (flag(p, 'newRound', 'payload')) {
      if (!['idle', 'paid', 'unknown'].includes(table.phase))
        fail(
          'procedure_violated',
          `table ${table.id} starts round ${roundNo} before round ${table.roundNo} is paid`,
          '4',
        );
      if ((table.roundNo !== null && roundNo !== table.roundNo + 1) || rollNo !== 1)
        fail(
          'procedure_violated',
          `table ${table.id} starts round ${roundNo} roll ${rollNo} after round ${table.roundNo}`,
          '2.1',
        );
      Object.assign(table, {
        roundNo,
        bets: [],
        usedBetIds: new Set(),
        commitments: new Map(),
        returns: null,
        forfeited: new Set(),
      });
    } else {
      if (table.phase !== 'voided')
        fail('procedure_violated', `table ${table.id} repeats a roll that was not voided`, '3.3');
      if (roundNo !== table.roundNo || rollNo !== table.rollNo + 1)
        fail(
          'procedure_violated',
          `table ${table.id} repeats round ${table.roundNo} as round ${roundNo} roll ${rollNo}`,
          '3.3',
        );
    }
    Object.assign(table, { rollNo, phase: 'covered', pulls: 0, dice: null, deadlineMs: null });
    return [];
  }

  /**
   * @param {Table} table
   * @param {Obj} p
   */
  pulled(table, p) {
    const pullNo = whole(p, 'pullNo', 'payload', 1);
    if (table.options.shaker !== 'lever')
      fail(
        'procedure_violated',
        `a lever is pulled at table ${table.id}, whose shaker is electronic`,
        '2.1',
      );
    if (
      pullNo !== table.pulls + 1 ||
      pullNo > 3 ||
      !(table.phase === 'latched' || table.phase === 'pulled')
    )
      fail('procedure_violated', `lever pull ${pullNo} at table ${table.id} out of turn`, '2.1');
    table.pulls = pullNo;
    table.phase = 'pulled';
    return [];
  }

  /**
   * @param {Table} table
   * @param {Obj} p
   */
  shaken(table, p) {
    const method = text(p, 'method', 'payload');
    if (method !== table.options.shaker)
      fail(
        'options_unauthorized',
        `table ${table.id} shakes by ${method}; its authorized shaker is ${table.options.shaker}`,
        '8',
      );
    const commitment = textOrNull(p, 'commitmentHex', 'payload');
    if (method === 'lever') {
      if (table.phase !== 'pulled' || table.pulls !== 3 || commitment !== null)
        fail(
          'procedure_violated',
          `table ${table.id} is shaken without three pulls of the lever in a row`,
          '2.1',
        );
    } else if (
      table.phase !== 'latched' ||
      commitment === null ||
      !HEX64.test(commitment.toLowerCase())
    ) {
      fail(
        'procedure_violated',
        `table ${table.id}'s electronic shake is not sealed by a commitment`,
        '2.1',
      );
    }
    table.commitments.set(table.rollNo, commitment === null ? null : commitment.toLowerCase());
    table.phase = 'shaken';
    return [];
  }

  /**
   * @param {Table} table
   * @param {Obj} p
   */
  bettingOpened(table, p) {
    this.step(table, 'betting-opened', ['shaken'], 'betting', '2.1');
    const authorization = table.options.authorization;
    if (authorization === null)
      fail(
        'options_unauthorized',
        `betting opens at table ${table.id}, whose house options carry no authorization`,
        '8',
      );
    const mark = String(authorization['mark']);
    if (mark !== 'dicj') {
      const seen = this.marked.get(table.id) ?? { mark, rounds: 0 };
      if (table.rollNo === 1 && !this.inContext) seen.rounds++;
      this.marked.set(table.id, seen);
    }
    const commitment = textOrNull(p, 'commitmentHex', 'payload');
    if ((commitment?.toLowerCase() ?? null) !== table.commitments.get(table.rollNo))
      fail(
        'commitment_mismatch',
        `betting opens at table ${table.id} with another commitment than the shake's`,
        '2.1',
      );
    if (flag(p, 'displayBoardLit', 'payload') !== table.options.displayBoard)
      fail(
        'options_unauthorized',
        `the display board of table ${table.id} is not as authorized`,
        '2.2',
      );
    const standing = list(p, 'standingBets', 'payload').map((b, i) =>
      betOf(b, `standingBets[${i}]`),
    );
    if (canonical(standing) !== canonical(table.bets))
      fail(
        'procedure_violated',
        `betting reopens at table ${table.id} without the bets that stand`,
        '3.4',
      );
    const deadline = p['deadlineMs'];
    table.deadlineMs = deadline === null ? null : whole(p, 'deadlineMs', 'payload');
    return [];
  }

  /**
   * @param {Entry} e
   * @param {Table} table
   * @param {Obj} p
   * @returns {Transfer[]}
   */
  betPlaced(e, table, p) {
    const bet = this.betInWindow(table, p, 'placed');
    if (table.usedBetIds.has(bet.betId))
      fail('procedure_violated', `bet ${bet.betId} is placed twice in round ${table.roundNo}`, '5');
    if (parseSpot(bet.spot) === null)
      fail('procedure_violated', `bet ${bet.betId} is on ${bet.spot}, not a bet of Art. 5`, '5');
    if (!table.options.paytable.spots.has(bet.spot))
      fail(
        'options_unauthorized',
        `bet ${bet.betId} is on ${bet.spot}, which the layout does not offer`,
        '8',
      );
    if (bet.stakeMinor < 1) fail('procedure_violated', `bet ${bet.betId} stakes nothing`, '5');
    table.usedBetIds.add(bet.betId);
    table.bets.push(bet);
    this.checkTotals(table, p, null);
    this.count('betsPlaced', 1);
    const ref = `round:${table.id}:${table.roundNo}`;
    return [
      transfer(
        e,
        `bet:${table.id}:${table.roundNo}:${bet.betId}`,
        `wallet:${bet.playerId}`,
        `in-play:${table.id}`,
        bet.stakeMinor,
        'bet',
        ref,
      ),
    ];
  }

  /**
   * @param {Entry} e
   * @param {Table} table
   * @param {Obj} p
   * @returns {Transfer[]}
   */
  betWithdrawn(e, table, p) {
    const bet = this.betInWindow(table, p, 'withdrawn');
    const at = table.bets.findIndex((b) => b.betId === bet.betId);
    if (at === -1 || canonical(table.bets[at]) !== canonical(bet))
      fail(
        'procedure_violated',
        `bet ${bet.betId} is withdrawn but does not stand as recorded`,
        '3.4',
      );
    table.bets.splice(at, 1);
    this.checkTotals(table, p, null);
    this.count('betsWithdrawn', 1);
    const ref = `round:${table.id}:${table.roundNo}`;
    return [
      transfer(
        e,
        `withdraw:${table.id}:${table.roundNo}:${bet.betId}`,
        `in-play:${table.id}`,
        `wallet:${bet.playerId}`,
        bet.stakeMinor,
        'bet-withdrawn',
        ref,
      ),
    ];
  }

  /**
   * A bet placed or withdrawn while betting is open on this roll (Arts. 3.1 and 3.4).
   * @param {Table} table
   * @param {Obj} p
   * @param {string} what
   * @returns {Bet}
   */
  betInWindow(table, p, what) {
    const bet = betOf(p['bet'], 'bet');
    if (table.phase !== 'betting')
      fail(
        'procedure_violated',
        `bet ${bet.betId} is ${what} at table ${table.id} while ${table.phase}`,
        '3.1',
      );
    if (table.deadlineMs !== null && whole(p, 'atMs', 'payload') >= table.deadlineMs)
      fail('procedure_violated', `bet ${bet.betId} is ${what} after betting closed`, '3.1');
    if (bet.rollNo !== table.rollNo)
      fail(
        'procedure_violated',
        `bet ${bet.betId} of roll ${bet.rollNo} is ${what} on roll ${table.rollNo}`,
        '3.4',
      );
    return bet;
  }

  /**
   * The round's standing stakes, and their count where the event gives it.
   * @param {Table} table
   * @param {Obj} p
   * @param {number | null} count
   */
  checkTotals(table, p, count) {
    const total = table.bets.reduce((n, b) => n + b.stakeMinor, 0);
    if (
      whole(p, 'totalStakeMinor', 'payload') !== total ||
      (count !== null && count !== table.bets.length)
    )
      fail(
        'procedure_violated',
        `table ${table.id}'s standing bets are ${table.bets.length} staking ${total}, not as recorded`,
      );
  }

  /**
   * Art. 3.3: a void roll; on an electronic table its seal is opened and checked.
   * @param {Table} table
   * @param {Obj} p
   */
  voided(table, p) {
    this.step(table, 'roll-voided', ['lifted'], 'voided', '3.3');
    const reason = text(p, 'reason', 'payload');
    if (reason !== 'stacked' && reason !== 'tilted')
      fail(
        'procedure_violated',
        `a roll voided for "${reason}": only dice stacked or tilted void one`,
        '3.3',
      );
    if (whole(p, 'nextRollNo', 'payload') !== table.rollNo + 1)
      fail('procedure_violated', `the roll after a void is not the next one`, '3.3');
    const seal = p['voidedRoll'];
    if (table.options.shaker === 'electronic') {
      const opened = object(seal, 'payload.voidedRoll');
      this.checkSeal(table, opened, 'voided roll');
      this.count('voidRolls', 1);
    } else if (seal !== null) fail('entry_malformed', 'a lever roll has no seal to open');
    return [];
  }

  /**
   * Art. 2.1: the seal opened is the commitment published before betting.
   * @param {Table} table
   * @param {Obj} seal
   * @param {string} what
   */
  checkSeal(table, seal, what) {
    const d = dice(seal, 'dice', 'payload');
    const nonce = text(seal, 'nonceHex', 'payload').toLowerCase();
    const commitment = text(seal, 'commitmentHex', 'payload').toLowerCase();
    if (!HEX64.test(nonce)) fail('entry_malformed', 'the nonce is not 64 hex digits');
    if (commitment !== table.commitments.get(table.rollNo))
      fail(
        'commitment_mismatch',
        `the ${what} names a commitment betting did not open with`,
        '2.1',
      );
    const message = `cussec/roll/v1\n${table.id}\n${table.roundNo}\n${table.rollNo}\n${d.join(',')}\n${nonce}`;
    if (this.sha256Hex(message) !== commitment)
      fail(
        'commitment_mismatch',
        `round ${table.roundNo} roll ${table.rollNo} of table ${table.id}: the ${what}'s dice and nonce do not open its commitment`,
        '2.1',
      );
    return d;
  }

  /**
   * Art. 3.2: the dice read by the croupier (lever) or revealed from the seal (electronic).
   * @param {Entry} e
   * @param {Table} table
   * @param {Obj} p
   */
  diceKnown(e, table, p) {
    const lever = e.type === 'dice-read';
    if ((table.options.shaker === 'lever') !== lever)
      fail(
        'procedure_violated',
        `${e.type} at table ${table.id}, whose shaker is ${table.options.shaker}`,
        '3.2',
      );
    this.step(table, e.type, ['lifted'], 'read', '3.2');
    if (lever) {
      table.dice = dice(p, 'dice', 'payload');
      this.count('readings', 1);
    } else {
      table.dice = this.checkSeal(table, p, 'reveal');
      this.count('reveals', 1);
    }
    return [];
  }

  /**
   * Arts. 5–7: every standing bet's return recomputed under the paytable in force.
   * @param {Table} table
   * @param {Obj} p
   */
  settled(table, p) {
    this.step(table, 'round-settled', ['read'], 'settled', '3.2');
    const d = dice(p, 'dice', 'payload');
    const read = /** @type {number[]} */ (table.dice);
    if (d.join(',') !== read.join(','))
      fail(
        'settlement_mismatch',
        `round ${table.roundNo} settles dice ${d.join(',')}, the roll showed ${read.join(',')}`,
        '3.2',
      );
    const recorded = list(p, 'returnsMinor', 'payload');
    if (recorded.length !== table.bets.length)
      fail(
        'settlement_mismatch',
        `round ${table.roundNo} records ${recorded.length} returns for ${table.bets.length} standing bets`,
        '6',
      );
    const paytable = table.options.paytable;
    let stakes = 0;
    let returns = 0;
    table.bets.forEach((bet, i) => {
      const odds = oddsOf(/** @type {Spot} */ (parseSpot(bet.spot)), d, paytable);
      const want = odds === 0 ? 0 : bet.stakeMinor * (odds + 1);
      if (recorded[i] !== want)
        fail(
          'settlement_mismatch',
          `round ${table.roundNo} of table ${table.id}: bet ${bet.betId} (${bet.stakeMinor} on ${bet.spot}, dice ${d.join(',')}) returned ${String(recorded[i])}, Arts. 5–7 give ${want}`,
          '6',
        );
      stakes += bet.stakeMinor;
      returns += want;
    });
    if (
      whole(p, 'totalStakeMinor', 'payload') !== stakes ||
      whole(p, 'totalReturnedMinor', 'payload') !== returns
    )
      fail(
        'settlement_mismatch',
        `round ${table.roundNo}'s totals are not the sums of its bets`,
        '6',
      );
    const winning = [...paytable.spots].filter(
      (s) => oddsOf(/** @type {Spot} */ (parseSpot(s)), d, paytable) > 0,
    );
    const lit = list(p, 'winningSpots', 'payload');
    if (canonical([...lit].sort()) !== canonical(winning.sort()))
      fail(
        'settlement_mismatch',
        `round ${table.roundNo}'s winning spots are not those the dice win`,
        '3.2',
      );
    table.returns = /** @type {number[]} */ (recorded);
    this.count('rounds', 1);
    this.count('betsSettled', table.bets.length);
    this.count('stakesMinor', stakes);
    this.count('returnsMinor', returns);
    return [];
  }

  /**
   * Art. 4: every prize of the round paid: the stakes to the bankroll, each return to its wallet.
   * @param {Entry} e
   * @param {Table} table
   * @param {Obj} p
   * @returns {Transfer[]}
   */
  paid(e, table, p) {
    this.step(table, 'prizes-paid', ['settled'], 'paid', '4');
    const returns = /** @type {number[]} */ (table.returns);
    const total = returns.reduce((a, b) => a + b, 0);
    const payouts = returns.filter((r) => r > 0).length;
    if (
      whole(p, 'payoutCount', 'payload') !== payouts ||
      whole(p, 'totalReturnedMinor', 'payload') !== total
    )
      fail(
        'settlement_mismatch',
        `round ${table.roundNo} pays ${String(p['payoutCount'])} prizes, its settlement ${payouts}`,
        '4',
      );
    this.count('roundsPaid', 1);
    const t = table.id;
    const r = table.roundNo;
    const ref = `round:${t}:${r}`;
    const stakes = table.bets.reduce((n, b) => n + b.stakeMinor, 0);
    /** @type {Transfer[]} */
    const out =
      stakes > 0
        ? [
            transfer(
              e,
              `stakes:${t}:${r}`,
              `in-play:${t}`,
              `bankroll:${t}`,
              stakes,
              'stakes-collected',
              ref,
            ),
          ]
        : [];
    table.bets.forEach((bet, i) => {
      const back = /** @type {number} */ (returns[i]);
      if (back > 0)
        out.push(
          transfer(
            e,
            `payout:${t}:${r}:${bet.betId}`,
            `bankroll:${t}`,
            `wallet:${bet.playerId}`,
            back,
            'payout',
            ref,
          ),
        );
    });
    return out;
  }

  /** @returns {Summary} */
  summary() {
    const h = this.header;
    const range = /** @type {{ fromSeq: number, toSeq: number }} */ (h['range']);
    return {
      version: FORMAT_VERSION,
      currency: String(h['currency']),
      range: { fromSeq: range.fromSeq, toSeq: range.toSeq },
      anchor: /** @type {Summary['anchor']} */ (h['anchor']),
      last: { seq: this.lastSeq, hash: this.lastHash },
      head: /** @type {Summary['head']} */ (h['head']),
      table: /** @type {string | null} */ (h['table']),
      ledger: /** @type {'whole' | 'range'} */ (h['ledger']),
      ...this.stats,
      byRule: sortedCounts(this.stats.byRule),
      chainOnly: sortedCounts(this.stats.chainOnly),
      accounts: h['ledger'] === 'whole' ? this.accountRecords.size : null,
      holidayYears: [...this.holidayYears]
        .sort((a, b) => a[0] - b[0])
        .map(([year, origin]) => ({ year, origin })),
      marked: [...this.marked].map(([tableId, m]) => ({ tableId, ...m })),
    };
  }
}

/**
 * @param {string} id
 * @param {Options} options
 * @param {string} phase
 * @param {number | null} roundNo
 * @returns {Table}
 */
function newTable(id, options, phase, roundNo) {
  return {
    id,
    options,
    phase,
    roundNo,
    rollNo: 0,
    pulls: 0,
    bets: [],
    usedBetIds: new Set(),
    deadlineMs: null,
    commitments: new Map(),
    dice: null,
    returns: null,
    forfeited: new Set(),
    proposals: new Map(),
    pending: null,
  };
}

/**
 * The table an entry is about: its own, or for a forfeit journaled as the
 * floor's (tableId null), the table its payload names.
 * @param {Entry} e
 * @returns {string | null}
 */
function ruleTable(e) {
  const named = e.payload['tableId'];
  if (e.type === 'winnings-forfeited' && e.tableId === null && typeof named === 'string')
    return named;
  return e.tableId;
}

/**
 * @param {Options} a
 * @param {Options} b
 */
function describeChange(a, b) {
  const parts = [];
  if (a.paytable.odds516 !== b.paytable.odds516)
    parts.push(`5/16 ${a.paytable.odds516} → ${b.paytable.odds516}`);
  if (a.paytable.odds615 !== b.paytable.odds615)
    parts.push(`6/15 ${a.paytable.odds615} → ${b.paytable.odds615}`);
  if (a.shaker !== b.shaker) parts.push(`shaker ${a.shaker} → ${b.shaker}`);
  if (a.displayBoard !== b.displayBoard) parts.push('display board');
  if (
    !samePaytable(
      { ...a.paytable, odds516: 0, odds615: 0 },
      { ...b.paytable, odds516: 0, odds615: 0 },
    )
  )
    parts.push('spots offered');
  return parts.length === 0 ? 'authorization' : parts.join(', ');
}

/** @param {Record<string, number>} counts */
const sortedCounts = (counts) =>
  Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * @param {unknown} value
 * @param {string} where
 * @returns {Bet}
 */
function betOf(value, where) {
  const b = object(value, where);
  return {
    betId: text(b, 'betId', where),
    playerId: text(b, 'playerId', where),
    spot: text(b, 'spot', where),
    stakeMinor: whole(b, 'stakeMinor', where),
    rollNo: whole(b, 'rollNo', where),
  };
}

/**
 * @param {Obj} r
 * @returns {Entry}
 */
function entryOf(r) {
  const tableId = r['tableId'];
  if (tableId !== null && (typeof tableId !== 'string' || tableId === ''))
    fail('file_malformed', 'an entry table is neither null nor a table id');
  const type = text(r, 'type', 'entry');
  if (!TYPE_PATTERN.test(type)) fail('file_malformed', `entry type "${type}"`);
  // A prevHash that is not a hash fails the chain (after a gap, the exporter has none to name).
  const prevHash = text(r, 'prevHash', 'entry');
  const hash = text(r, 'hash', 'entry');
  if (!HEX64.test(hash)) fail('file_malformed', 'a hash is not 64 lowercase hex digits');
  return {
    seq: whole(r, 'seq', 'entry', 1),
    tableId: /** @type {string | null} */ (tableId),
    type,
    atMs: whole(r, 'atMs', 'entry'),
    prevHash,
    hash,
    payload: isObject(r['payload']) ? r['payload'] : {},
  };
}

/**
 * @param {Obj} r
 * @returns {Transfer}
 */
function transferOf(r) {
  return {
    id: text(r, 'id', 'transfer'),
    debitAccountId: text(r, 'debitAccountId', 'transfer'),
    creditAccountId: text(r, 'creditAccountId', 'transfer'),
    amountMinor: whole(r, 'amountMinor', 'transfer', 1),
    kind: text(r, 'kind', 'transfer'),
    reference: text(r, 'reference', 'transfer'),
    createdAtMs: whole(r, 'createdAtMs', 'transfer'),
  };
}

/**
 * @param {Entry} e the entry that implies it
 * @param {string} id
 * @param {string} debitAccountId
 * @param {string} creditAccountId
 * @param {number} amountMinor
 * @param {string} kind
 * @param {string} reference
 * @returns {Transfer}
 */
function transfer(e, id, debitAccountId, creditAccountId, amountMinor, kind, reference) {
  return { id, debitAccountId, creditAccountId, amountMinor, kind, reference, createdAtMs: e.atMs };
}

/**
 * A cage movement: a deposit from the cage into a wallet, or a withdrawal back.
 * @param {Entry} e
 */
function cageTransfer(e) {
  const p = e.payload;
  const player = text(p, 'playerId', 'payload');
  const wallet = `wallet:${player}`;
  const [debit, credit] = e.type === 'deposit' ? ['cage', wallet] : [wallet, 'cage'];
  const amount = whole(p, 'amountMinor', 'payload', 1);
  return transfer(
    e,
    text(p, 'transferId', 'payload'),
    debit,
    credit,
    amount,
    e.type,
    `player:${player}`,
  );
}

// ---------------------------------------------------------------------------
// What a person reads

/**
 * The summary of a verdict, in lines of text.
 * @param {Verdict} verdict
 * @returns {string}
 */
export function describe(verdict) {
  if (!verdict.ok) {
    const where =
      verdict.seq === null ? `line ${verdict.line}` : `seq ${verdict.seq} (line ${verdict.line})`;
    const article = verdict.article === null ? '' : ` (Art. ${verdict.article})`;
    return `FAIL ${where}: [${verdict.code}] ${verdict.message}${article}\n`;
  }
  const s = verdict.summary;
  /** @param {Record<string, number>} counts */
  const byType = (counts) =>
    Object.entries(counts)
      .map(([type, n]) => `${type} ${n}`)
      .join(', ') || 'none';
  /** @param {Record<string, number>} counts */
  const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
  const lines = [
    `cussec-verify: export version ${s.version}, ${s.currency}, journal entries ${s.range.fromSeq}–${s.range.toSeq}` +
      (s.table === null ? '' : `, table ${s.table}`) +
      (s.ledger === 'whole' ? ' (the whole journal and ledger)' : ''),
    `chain: ${s.entries} entries from anchor ${s.anchor.seq}:${s.anchor.hash} to ${s.last.seq}:${s.last.hash}` +
      (s.last.seq === s.head.seq ? ' (the head)' : `; the head was ${s.head.seq}`),
    `checked by rule: ${sum(s.byRule)} (${byType(s.byRule)})`,
    `checked by chain only: ${sum(s.chainOnly)} (${byType(s.chainOnly)})`,
    `context: ${s.contextEntries} entries from before the range, each hash recomputed`,
    `rounds: ${s.rounds} settled (Arts. 5–7 recomputed), ${s.roundsPaid} paid; bets: ${s.betsPlaced} placed, ${s.betsWithdrawn} withdrawn, ${s.betsSettled} settled; staked ${s.stakesMinor}, returned ${s.returnsMinor} (minor units)`,
    `commitments: ${s.reveals} reveals and ${s.voidRolls} void rolls opened their seals (Art. 2.1); ${s.readings} lever rolls read`,
    `ledger: ${s.transfers} transfers match their entries (${s.transfersMinor} minor units)` +
      (s.accounts === null
        ? ''
        : `; ${s.accounts} accounts hold what their transfers add up to, in sum 0`),
    `Art. 8: ${s.adoptions} adoptions of house options authorized and timely` +
      (s.holidayYears.length === 0
        ? ''
        : `; holiday lists ${s.holidayYears.map((y) => `${y.year} (${y.origin})`).join(', ')}`),
    `Lei 10/2012 art. 11: ${s.forfeits} forfeits (${s.forfeitedMinor} minor units)`,
    ...s.marked.map(
      (m) =>
        `NOTE: table ${m.tableId} played ${m.rounds} rounds under options marked ${m.mark}: not a DICJ authorization (Art. 8)`,
    ),
    'OK: every check holds.',
  ];
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------
// The command line (Node only)

/**
 * Node's built-ins, imported when the command runs: the checks above need
 * none, and a browser that loads this file never asks for them.
 */
const nodeFs = () => /** @type {Promise<typeof import('node:fs')>} */ (nodeModule('fs'));
const nodeCrypto = () =>
  /** @type {Promise<typeof import('node:crypto')>} */ (nodeModule('crypto'));
const nodeUrl = () => /** @type {Promise<typeof import('node:url')>} */ (nodeModule('url'));

/**
 * @param {string} name
 * @returns {Promise<unknown>}
 */
function nodeModule(name) {
  return import(/* @vite-ignore */ `node:${name}`);
}

/**
 * @param {string[]} args
 * @param {{ write(text: string): unknown }} stdout
 * @param {{ write(text: string): unknown }} stderr
 * @returns {Promise<number>} the exit code
 */
export async function main(args, stdout, stderr) {
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  const file = files[0];
  if (files.length !== 1 || file === undefined || file.startsWith('-')) {
    stderr.write('usage: node cussec-verify.mjs FILE [--json]\n');
    return 2;
  }
  const [{ createReadStream }, { createHash }] = await Promise.all([nodeFs(), nodeCrypto()]);
  /** @type {Host} */
  const host = {
    sha256: () => {
      const h = createHash('sha256');
      return { update: (bytes) => void h.update(bytes), hex: () => h.digest('hex') };
    },
  };
  const verifier = createVerifier(host);
  const stream = createReadStream(file);
  try {
    const chunks = /** @type {AsyncIterable<Buffer>} */ (stream);
    for await (const chunk of chunks) if (!verifier.write(chunk)) break;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    stderr.write(`cussec-verify: cannot read ${file}: ${why}\n`);
    return 2;
  } finally {
    stream.destroy();
  }
  const verdict = verifier.end();
  if (json) stdout.write(`${JSON.stringify(verdict)}\n`);
  else if (verdict.ok) stdout.write(describe(verdict));
  if (!verdict.ok) stderr.write(describe(verdict));
  return verdict.ok ? 0 : 1;
}

/** Runs `main` when this file is the program Node was started with (never in a browser). */
async function runIfMain() {
  /** @type {NodeJS.Process | undefined} */
  const proc = globalThis.process;
  const program = proc?.argv[1];
  if (proc?.versions?.node === undefined || program === undefined) return;
  const [{ pathToFileURL }, { realpathSync }] = await Promise.all([nodeUrl(), nodeFs()]);
  /** @type {string | null} */
  let started = null;
  try {
    started = pathToFileURL(realpathSync(program)).href;
  } catch {
    // Not a file (node -e, a REPL): not this one either.
  }
  if (started !== import.meta.url) return;
  proc.exitCode = await main(proc.argv.slice(2), proc.stdout, proc.stderr);
}

void runIfMain();
