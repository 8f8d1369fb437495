/**
 * Opening a store can meet two operating errors, reported by a thrown
 * StoreOpenError so that a misconfigured process stops before serving anyone:
 * - currency-mismatch: the database keeps another currency than the one asked for;
 * - schema-too-new: the database was migrated by a newer release than this one.
 */
export type StoreOpenErrorCode = 'currency-mismatch' | 'schema-too-new';

export class StoreOpenError extends Error {
  constructor(
    readonly code: StoreOpenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StoreOpenError';
  }
}
