/**
 * The supervisor's account list: staff before players, each role in the order
 * a floor is run (supervisors, croupiers, cashiers, compliance officers,
 * inspectors, players), and within a role by username, so a row stays where
 * it was after a redraw. The find boxes (here and at the cage) keep the accounts whose username or display name holds the words.
 */
import type { Role, User } from '../api/types.js';

const ROLE_ORDER: readonly Role[] = [
  'supervisor',
  'croupier',
  'cashier',
  'compliance',
  'inspector',
  'player',
];

export function orderedAccounts(users: readonly User[]): User[] {
  return [...users].sort(
    (a, b) =>
      ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role) ||
      (a.username < b.username ? -1 : a.username > b.username ? 1 : 0),
  );
}

/** Case- and accent-blind: "joao" finds "João". */
const fold = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');

/** Used by the floor's accounts and the cage's players alike. */
export function matchingAccounts<T extends Pick<User, 'username' | 'displayName'>>(
  users: readonly T[],
  words: string,
): T[] {
  const wanted = fold(words).split(/\s+/).filter(Boolean);
  if (wanted.length === 0) return [...users];
  return users.filter((u) => {
    const text = fold(`${u.username} ${u.displayName}`);
    return wanted.every((w) => text.includes(w));
  });
}
