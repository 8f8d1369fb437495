/**
 * `cussec users list|disable|enable|reset-password --db PATH|URL`: staff
 * accounts from the command line, for when nobody can sign in (the last
 * supervisor locked out) or a script manages accounts. The same functions as
 * the API (src/service/accounts.ts): journaled, a disabled user's sessions end,
 * a reset password must be changed at the next sign-in. A running server sees
 * the change at its next request; its open sockets close at their next check.
 */
import type { Command } from 'commander';
import type { Store, User } from '../../ledger/index.js';
import { listUsers, resetPassword, setDisabled, userNamed } from '../../service/accounts.js';
import { InputError } from '../errors.js';
import type { Io } from '../io.js';
import { withExistingStore } from '../store.js';

interface DbOptions {
  readonly db: string;
}

/** Who the journal names for changes made here. */
const CLI_ACTOR = 'cussec users';
/** `users list` prints this many users at most. */
const USERS_LISTED_MAX = 10_000;

export function registerUsers(program: Command, io: Io): void {
  const users = program
    .command('users')
    .description('list, disable, enable staff accounts, reset passwords');
  users
    .command('list')
    .description('every user: id, username, role, and whether disabled or due a password change')
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .action((options: DbOptions) =>
      withExistingStore(options.db, async (store) => {
        for (const u of await listUsers(store, USERS_LISTED_MAX)) io.stdout.write(`${line(u)}\n`);
      }),
    );
  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    users
      .command(`${name} <username>`)
      .description(disabled ? 'refuse sign-in and end every session' : 'allow sign-in again')
      .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
      .action((username: string, options: DbOptions) =>
        withExistingStore(options.db, async (store) => {
          const user = await byName(store, username);
          io.stdout.write(`${line(await setDisabled(store, user.id, disabled, CLI_ACTOR))}\n`);
        }),
      );
  }
  users
    .command('reset-password <username>')
    .description('set a password (from CUSSEC_NEW_PASSWORD) that must be changed at next sign-in')
    .requiredOption('--db <path|url>', 'a SQLite file or a postgres:// URL')
    .action((username: string, options: DbOptions) =>
      withExistingStore(options.db, async (store) => {
        // From the environment, not an argument: arguments show in `ps` and shell history.
        const password = process.env['CUSSEC_NEW_PASSWORD'];
        if (password === undefined || password === '')
          throw new InputError('set CUSSEC_NEW_PASSWORD to the new password');
        const user = await byName(store, username);
        io.stdout.write(`${line(await resetPassword(store, user.id, password, CLI_ACTOR))}\n`);
      }),
    );
}

function line(u: User): string {
  const flags = [u.disabled ? 'disabled' : '', u.mustChangePassword ? 'must-change-password' : '']
    .filter((f) => f !== '')
    .join(',');
  return [u.id, u.username, u.role, flags].join('\t').trimEnd();
}

async function byName(store: Store, username: string): Promise<User> {
  const user = await userNamed(store, username);
  if (user === undefined) throw new InputError(`there is no user "${username}"`);
  return user;
}
