import { describe, expect, it } from 'vitest';
import type { Role, User } from '../api/types.js';
import { matchingAccounts, orderedAccounts } from './accounts.js';

const user = (username: string, role: Role, displayName = username): User => ({
  id: `id-${username}`,
  username,
  role,
  displayName,
  createdAtMs: 0,
  disabled: false,
  mustChangePassword: false,
});

describe("the supervisor's account list", () => {
  const users = [
    user('zoe', 'player'),
    user('lei', 'cashier', 'Cashier Lei'),
    user('ana', 'player', 'João Ana'),
    user('boss', 'supervisor'),
    user('dicj', 'inspector'),
    user('chan', 'croupier', 'Croupier Chan'),
    user('amy', 'croupier'),
    user('mak', 'compliance', 'Compliance Mak'),
  ];

  it('puts staff first, by role (compliance after the cage, before the DICJ), then players, each by username', () => {
    expect(orderedAccounts(users).map((u) => u.username)).toEqual([
      'boss',
      'amy',
      'chan',
      'lei',
      'mak',
      'dicj',
      'ana',
      'zoe',
    ]);
  });

  it('orders the same whatever order the server sent', () => {
    const reversed = orderedAccounts([...users].reverse());
    expect(reversed).toEqual(orderedAccounts(users));
  });

  it('finds by username or display name, blind to case and accents, every word', () => {
    expect(matchingAccounts(users, 'CHAN').map((u) => u.username)).toEqual(['chan']);
    expect(matchingAccounts(users, 'joao').map((u) => u.username)).toEqual(['ana']);
    expect(matchingAccounts(users, 'croupier chan').map((u) => u.username)).toEqual(['chan']);
    expect(matchingAccounts(users, 'croupier zoe')).toEqual([]);
    expect(matchingAccounts(users, '  ')).toHaveLength(users.length);
  });
});
