import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { createUser, setDisabled } from './accounts.js';
import { cashierMove, playerBalances, walletBalanceMinor } from './cage.js';
import { bundledCalendar } from '../compliance/index.js';
import { CashChecks } from './cash-checks.js';
import { markedIdentity, People } from './people.js';
import { ServiceRefusal } from './refusal.js';
import { checkCredentials, sessionLive, startSession, tokenHash } from './sessions.js';

const PASSWORD = 'correct horse battery staple';
const IDLE_MS = 30 * 60 * 1000;

withStores('sessions and the cage as services', (h) => {
  it('signs in with the right password only, never a disabled user, and hides the hash', async () => {
    const store = await h.open();
    const user = await createUser(
      store,
      { username: 'Lei', password: PASSWORD, role: 'cashier', displayName: 'Lei' },
      'test',
    );
    const found = await checkCredentials(store, 'lei', PASSWORD);
    expect(found).toEqual(user);
    expect(found).not.toHaveProperty('passwordHash');
    expect(await checkCredentials(store, 'lei', 'wrong password here')).toBeUndefined();
    expect(await checkCredentials(store, 'nobody', PASSWORD)).toBeUndefined();

    const nowMs = Date.now();
    const token = await startSession(store, user.id, nowMs, IDLE_MS);
    expect(await sessionLive(store, tokenHash(token!), nowMs)).toBe(true);
    await setDisabled(store, user.id, true, 'test');
    expect(await sessionLive(store, tokenHash(token!), nowMs)).toBe(false);
    expect(await checkCredentials(store, 'lei', PASSWORD)).toBeUndefined();
    // A user disabled between the password check and the session gets no token.
    expect(await startSession(store, user.id, nowMs, IDLE_MS)).toBeUndefined();
  });

  it('refuses a weak password and a taken username with a ServiceRefusal naming the code', async () => {
    const store = await h.open();
    const make = (username: string, password: string) =>
      createUser(store, { username, password, role: 'croupier', displayName: username }, 'test');
    await expect(make('chan', 'short')).rejects.toMatchObject({
      name: 'ServiceRefusal',
      code: 'weak_password',
    });
    await make('chan', PASSWORD);
    await expect(make('CHAN', PASSWORD)).rejects.toBeInstanceOf(ServiceRefusal);
  });

  it("moves money at the cage for players only, and lists players' balances", async () => {
    const store = await h.open();
    const player = await createUser(
      store,
      { username: 'p1', password: PASSWORD, role: 'player', displayName: 'P' },
      'test',
    );
    const croupier = await createUser(
      store,
      { username: 'c1', password: PASSWORD, role: 'croupier', displayName: 'C' },
      'test',
    );
    const people = new People({ store, calendar: () => Promise.resolve(bundledCalendar()) });
    await people.recordIdentity(player.id, markedIdentity(player.id, 'P', 'simulated'), 'test');
    const checks = new CashChecks(people);
    const request = (playerId: string, key: string) => ({
      playerId,
      amountMinor: 500,
      cashierId: 'cashier',
      idempotencyKey: key,
      documentSighted: false,
    });
    expect(await cashierMove(store, checks, 'deposit', request(croupier.id, 'k1'))).toMatchObject({
      ok: false,
      rejection: { code: 'unknown_player' },
    });
    expect(await cashierMove(store, checks, 'deposit', request('nobody', 'k2'))).toMatchObject({
      ok: false,
      rejection: { code: 'unknown_player' },
    });
    expect(await cashierMove(store, checks, 'deposit', request(player.id, 'k3'))).toMatchObject({
      ok: true,
      balanceMinor: 500,
    });
    expect(await walletBalanceMinor(store, player.id)).toBe(500);
    expect(await walletBalanceMinor(store, croupier.id)).toBe(0);
    expect(await playerBalances(store)).toEqual([
      { id: player.id, username: 'p1', displayName: 'P', balanceMinor: 500 },
    ]);
  });
});
