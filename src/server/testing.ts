/**
 * Test helpers for the server: one user per role made straight in the store
 * (one scrypt hash shared by all, so a suite does not spend seconds hashing),
 * sessions made without the login round trip, and a funded player.
 */
import { randomBytes } from 'node:crypto';
import { ROLES, type Role, type Store, type User } from '../ledger/index.js';
import { bundledCalendar } from '../compliance/index.js';
import { deposit, openWallet } from '../service/cage.js';
import { People } from '../service/people.js';
import { newToken, SESSION_TTL_MS, tokenHash } from '../service/sessions.js';
import { hashPassword } from '../service/passwords.js';

export const TEST_PASSWORD = 'correct horse battery';

let sharedHash: Promise<string> | undefined;

/** The scrypt hash of TEST_PASSWORD, computed once per process. */
export function testPasswordHash(): Promise<string> {
  return (sharedHash ??= hashPassword(TEST_PASSWORD));
}

/** Creates users of `role` named `${prefix}1…n` (players get a wallet and `fundMinor`). */
export async function seedUsers(
  store: Store,
  role: Role,
  count: number,
  options: { prefix?: string; fundMinor?: number } = {},
): Promise<User[]> {
  const passwordHash = await testPasswordHash();
  const prefix = options.prefix ?? role;
  const users = await store.transaction(async (tx) => {
    const made: User[] = [];
    for (let i = 1; i <= count; i++) {
      const result = await tx.createUser({
        id: `u-${randomBytes(6).toString('hex')}`,
        username: `${prefix}${i}`,
        displayName: `${prefix} ${i}`,
        role,
        passwordHash,
      });
      if (result.status !== 'created') throw new Error(`seedUsers: ${result.code}`);
      made.push(result.user);
    }
    return made;
  });
  // Instrução 1/2016: nobody plays without an identity; the tests' are marked as simulated.
  const people = new People({
    store,
    calendar: () => Promise.resolve(bundledCalendar()),
  });
  await people.recordMarked(users, 'simulated', 'test');
  if (role === 'player') {
    for (const user of users) {
      await openWallet(store, user.id);
      if (options.fundMinor !== undefined && options.fundMinor > 0) {
        const funded = await deposit(store, {
          playerId: user.id,
          amountMinor: options.fundMinor,
          cashierId: 'test',
          idempotencyKey: `fund-${user.id}`,
        });
        if (!funded.ok) throw new Error(`seedUsers: ${funded.rejection.code}`);
      }
    }
  }
  return users;
}

/** One user of every role: `player` is funded with 1,000,000 minor units. */
export async function seedRoles(store: Store): Promise<Record<Role, User>> {
  const out = {} as Record<Role, User>;
  for (const role of ROLES) {
    const [user] = await seedUsers(store, role, 1, {
      prefix: `${role}-`,
      ...(role === 'player' ? { fundMinor: 1_000_000 } : {}),
    });
    out[role] = user!;
  }
  return out;
}

/** A live session for `user` (or one that expired `expiredMs` ago), as its bearer token. */
export async function sessionToken(
  store: Store,
  user: User,
  nowMs: number,
  options: { expired?: boolean } = {},
): Promise<string> {
  const token = newToken();
  const created = await store.createSession({
    tokenHash: tokenHash(token),
    userId: user.id,
    createdAtMs: options.expired ? nowMs - SESSION_TTL_MS - 1_000 : nowMs,
    expiresAtMs: options.expired ? nowMs - 1_000 : nowMs + SESSION_TTL_MS,
  });
  if (created.status !== 'created') throw new Error(`sessionToken: ${created.code}`);
  return token;
}

/** A token of the right shape that no session has. */
export const forgedToken = (): string => newToken();
