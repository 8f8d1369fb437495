/** Who is signed in. The cookie is the session; this only caches `GET /me`. */
import { me as fetchMe } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import type { Me, Role } from '../api/types.js';

let current: Me | null = null;

export const session = (): Me | null => current;

/** The signed-in user, or null when the server answers 401 (no or expired session). */
export async function loadSession(): Promise<Me | null> {
  try {
    current = await fetchMe();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) current = null;
    else throw error;
  }
  return current;
}

export function clearSession(): void {
  current = null;
}

/** Where each role starts after signing in. */
export function homeRoute(role: Role, tableId: string | null): string {
  switch (role) {
    case 'player':
      return tableId === null ? '#/' : `#/table/${encodeURIComponent(tableId)}`;
    case 'croupier':
      return tableId === null ? '#/' : `#/croupier/${encodeURIComponent(tableId)}`;
    case 'cashier':
      return '#/cage';
    case 'inspector':
      return '#/inspector';
    case 'supervisor':
      return '#/floor';
    case 'compliance':
      return '#/compliance';
  }
}

/** Navigates, or re-routes when already there (no hashchange fires for the same hash). */
export function go(target: string): void {
  if (location.hash === target || (target === '#/' && location.hash === '')) {
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = target;
  }
}

/** The pages a role may open, for the navigation bar. */
export function navFor(
  role: Role,
): readonly ('table' | 'croupier' | 'board' | 'inspector' | 'cage' | 'floor' | 'compliance')[] {
  switch (role) {
    case 'player':
      return ['table', 'board'];
    case 'croupier':
      return ['croupier', 'board'];
    case 'supervisor':
      return ['floor', 'croupier', 'board', 'inspector', 'cage'];
    case 'cashier':
      return ['cage'];
    case 'inspector':
      return ['board', 'inspector', 'floor'];
    // Instrução 1/2016: the compliance officer reviews the cage's registers, not the tables.
    case 'compliance':
      return ['compliance'];
  }
}

const LAST_TABLE_KEY = 'cussec.table';

export function rememberTable(id: string): void {
  try {
    localStorage.setItem(LAST_TABLE_KEY, id);
  } catch {
    // Not remembered; the chooser asks again.
  }
}

export function lastTable(): string | null {
  try {
    return localStorage.getItem(LAST_TABLE_KEY);
  } catch {
    return null;
  }
}
