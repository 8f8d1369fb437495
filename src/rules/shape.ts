/**
 * Checks of shape that every layer makes on parsed JSON, kept here, in the
 * lowest layer, so that the table, compliance, the service, the CLI and the
 * browser share one definition.
 */

/**
 * Ids of things (bets, players, croupiers, tables, house-options proposals)
 * are short non-empty strings, so journals and reports stay bounded. The API
 * takes fewer (64, `server/schemas.ts`); the ledger's keys, built from these
 * ids with prefixes, have their own bound (`LEDGER_KEY_LENGTH_MAX`).
 */
export const ID_LENGTH_MAX = 128;

/** A JSON object: not null, not an array. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
