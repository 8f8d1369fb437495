/** The supervisor's user management. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { openWallet } from '../../service/cage.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { hashPassword, passwordProblem } from '../passwords.js';
import { registerRoute } from '../route.js';
import { createUserBody } from '../schemas.js';
import type { Role, Store, User } from '../../ledger/index.js';

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/users',
    summary: 'Every user',
    tag: 'users',
    roles: ['supervisor'],
    handler: () => ctx.store.listUsers({ limit: 1_000 }),
  });

  registerRoute(app, ctx, {
    method: 'POST',
    url: '/api/v1/users',
    summary: 'Create a user with a role (a player gets a wallet)',
    tag: 'users',
    roles: ['supervisor'],
    body: createUserBody,
    successStatus: 201,
    handler: async ({ body, user }) =>
      createUser(ctx.store, { ...body, displayName: body.displayName ?? body.username }, user.id),
  });
}

export interface NewUser {
  readonly username: string;
  readonly password: string;
  readonly role: Role;
  readonly displayName: string;
}

/** Creates a user (journaled) and, for a player, the wallet. */
export async function createUser(store: Store, input: NewUser, createdBy: string): Promise<User> {
  const weak = passwordProblem(input.password);
  if (weak !== undefined) throw new HttpError(400, 'weak_password', weak);
  const passwordHash = await hashPassword(input.password);
  const id = `u-${randomBytes(5).toString('hex')}`;
  const created = await store.transaction(async (tx) => {
    const result = await tx.createUser({
      id,
      username: input.username,
      displayName: input.displayName,
      role: input.role,
      passwordHash,
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
    throw new HttpError(
      409,
      created.code.replaceAll('-', '_'),
      `the username "${input.username}" is taken`,
    );
  }
  if (input.role === 'player') await openWallet(store, id);
  return created.user;
}
