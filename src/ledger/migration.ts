import { StoreOpenError } from './errors.js';

/** A numbered schema change for one engine; applied once, in order, and never edited after release. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The migrations still to apply, oldest first. A database newer than this
 * release (a version applied that it does not know) is refused rather than
 * served with a schema the code was not written for.
 */
export function pendingMigrations(
  migrations: readonly Migration[],
  applied: ReadonlySet<number>,
): Migration[] {
  const known = Math.max(0, ...migrations.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new StoreOpenError(
      'schema_too_new',
      `database schema is at version ${newest}; this release knows up to ${known}`,
    );
  }
  return [...migrations]
    .sort((a, b) => a.version - b.version)
    .filter((m) => !applied.has(m.version));
}
