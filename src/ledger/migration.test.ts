import { describe, expect, it } from 'vitest';
import { StoreOpenError } from './errors.js';
import { type Migration, pendingMigrations } from './migration.js';

const m = (version: number): Migration => ({ version, name: `m${version}`, sql: '' });

describe('pendingMigrations', () => {
  it('lists the migrations not yet applied, oldest first', () => {
    expect(pendingMigrations([m(3), m(1), m(2)], new Set([1])).map((x) => x.version)).toEqual([
      2, 3,
    ]);
    expect(pendingMigrations([m(1), m(2)], new Set([1, 2]))).toEqual([]);
  });

  it('refuses a database whose schema is newer than this release knows', () => {
    expect(() => pendingMigrations([m(1), m(2)], new Set([1, 2, 3]))).toThrow(StoreOpenError);
    expect(() => pendingMigrations([m(1)], new Set([2]))).toThrow(
      'database schema is at version 2; this release knows up to 1',
    );
  });
});
