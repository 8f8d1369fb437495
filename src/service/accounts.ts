/**
 * Staff accounts' life cycle, shared by the API and the `cussec users` command:
 * create, change one's own password, reset someone's, disable and enable, and
 * revoke sessions. Every change is journaled (who did it to whom; the time is
 * the entry's) in the same transaction as the change itself.
 *
 * A password somebody else chose (a new account's, a reset one) must be changed
 * at the first sign-in; until then the server refuses everything else
 * (route.ts). Disabling a user deletes their sessions in the same transaction
 * and the caller ends their sockets; a disabled player's wallet and history
 * stay as they are.
 */
import { randomBytes } from 'node:crypto';
import type { Role, Session, Store, User } from '../ledger/index.js';
import { openWallet } from './cage.js';
import { hashPassword, passwordWeakness, verifyPassword } from './passwords.js';
import { ServiceRefusal } from './refusal.js';

export interface NewUser {
  readonly username: string;
  readonly password: string;
  readonly role: Role;
  readonly displayName: string;
  /** True for a password chosen by someone else than the user (the default). */
  readonly mustChangePassword?: boolean;
}

/** Users in one list, at most. */
const USERS_LISTED_MAX = 1_000;

/** Who acts: a user id, or a name for the command line ("cussec serve", "cli"). */
export type Actor = string;

function checkStrength(password: string, username: string): void {
  const weakness = passwordWeakness(password, username);
  if (weakness !== undefined) throw new ServiceRefusal('weak_password', weakness);
}

/** Creates a user (journaled) and, for a player, the wallet. */
export async function createUser(store: Store, input: NewUser, createdBy: Actor): Promise<User> {
  checkStrength(input.password, input.username);
  const passwordHash = await hashPassword(input.password);
  const id = `u-${randomBytes(5).toString('hex')}`;
  const created = await store.transaction(async (tx) => {
    const result = await tx.createUser({
      id,
      username: input.username,
      displayName: input.displayName,
      role: input.role,
      passwordHash,
      mustChangePassword: input.mustChangePassword ?? true,
    });
    if (result.status === 'created') {
      await tx.appendJournal([
        {
          tableId: null,
          type: 'user-created',
          payload: { id, username: input.username, role: input.role, createdBy },
        },
      ]);
    }
    return result;
  });
  if (created.status === 'failed') {
    throw new ServiceRefusal(created.code, `the username "${input.username}" is taken`);
  }
  if (input.role === 'player') await openWallet(store, id);
  return created.user;
}

/** Every user, in id order, up to `limit` (the supervisor's list). */
export function listUsers(store: Store, limit = USERS_LISTED_MAX): Promise<User[]> {
  return store.listUsers({ limit });
}

/** The user with this username, in any case; undefined when there is none. */
export async function userNamed(store: Store, username: string): Promise<User | undefined> {
  const user = await store.findUserByUsername(username);
  if (user === undefined) return undefined;
  const { passwordHash: _, ...withoutSecret } = user;
  return withoutSecret;
}

/** Whether some user holds the role (a first start makes a supervisor when none does). */
export async function roleHeld(store: Store, role: Role): Promise<boolean> {
  return (await store.countUsers(role)) > 0;
}

export async function userById(store: Store, userId: string): Promise<User> {
  const user = await store.getUser(userId);
  if (user === undefined) throw new ServiceRefusal('unknown_user', `there is no user "${userId}"`);
  return user;
}

/**
 * Sets a user's password and journals it. `mustChange` says whether it is
 * somebody else's choice; either way every session of the user ends.
 */
async function setPassword(
  store: Store,
  user: User,
  password: string,
  change: {
    readonly by: Actor;
    readonly mustChange: boolean;
    readonly type: 'password-reset' | 'password-changed';
  },
): Promise<void> {
  checkStrength(password, user.username);
  const passwordHash = await hashPassword(password);
  await store.transaction(async (tx) => {
    await tx.setUserPassword(user.id, passwordHash, change.mustChange);
    await tx.appendJournal([
      { tableId: null, type: change.type, payload: { userId: user.id, by: change.by } },
    ]);
  });
  await store.deleteUserSessions(user.id);
}

/** A supervisor sets a new password, which the user must change at the next sign-in. */
export async function resetPassword(
  store: Store,
  userId: string,
  password: string,
  by: Actor,
): Promise<User> {
  const user = await userById(store, userId);
  await setPassword(store, user, password, { by, mustChange: true, type: 'password-reset' });
  return userById(store, userId);
}

/** A user changes their own password, proving the current one first. */
export async function changeOwnPassword(
  store: Store,
  user: User,
  passwords: { readonly current: string; readonly next: string },
): Promise<void> {
  const found = await store.findUserByUsername(user.username);
  if (found === undefined || !(await verifyPassword(passwords.current, found.passwordHash)))
    throw new ServiceRefusal('wrong_password', 'the current password is wrong');
  if (passwords.current === passwords.next)
    throw new ServiceRefusal('weak_password', 'the new password must differ from the current one');
  await setPassword(store, user, passwords.next, {
    by: user.id,
    mustChange: false,
    type: 'password-changed',
  });
}

/** Disables or enables a user; disabling ends their sessions in the same transaction. */
export async function setDisabled(
  store: Store,
  userId: string,
  disabled: boolean,
  by: Actor,
): Promise<User> {
  if (disabled && userId === by)
    throw new ServiceRefusal(
      'cannot_disable_self',
      'a supervisor cannot disable their own account',
    );
  await userById(store, userId);
  await store.transaction(async (tx) => {
    await tx.setUserDisabled(userId, disabled);
    await tx.appendJournal([
      { tableId: null, type: disabled ? 'user-disabled' : 'user-enabled', payload: { userId, by } },
    ]);
  });
  return userById(store, userId);
}

/** A session as a supervisor sees it: its id is the token's SHA-256, which lets nobody sign in. */
export interface SessionInfo {
  readonly id: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  readonly lastSeenAtMs: number | null;
  readonly userAgent: string | null;
  readonly address: string | null;
}

const sessionInfo = (s: Session): SessionInfo => ({
  id: s.tokenHash,
  createdAtMs: s.createdAtMs,
  expiresAtMs: s.expiresAtMs,
  lastSeenAtMs: s.lastSeenAtMs,
  userAgent: s.userAgent,
  address: s.address,
});

export async function listSessions(
  store: Store,
  userId: string,
  nowMs: number,
): Promise<SessionInfo[]> {
  await userById(store, userId);
  return (await store.listUserSessions(userId, nowMs)).map(sessionInfo);
}

/** Ends one of a user's sessions (journaled); 404 when the user has no such live session. */
export async function revokeSession(
  store: Store,
  userId: string,
  sessionId: string,
  by: Actor,
  nowMs: number,
): Promise<void> {
  const sessions = await store.listUserSessions(userId, nowMs);
  if (!sessions.some((s) => s.tokenHash === sessionId))
    throw new ServiceRefusal('unknown_session', 'this user has no such live session');
  await store.deleteSession(sessionId);
  await store.transaction((tx) =>
    tx.appendJournal([{ tableId: null, type: 'session-revoked', payload: { userId, by } }]),
  );
}
