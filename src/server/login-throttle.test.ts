import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../ledger/index.js';
import { buildApp } from './app.js';
import { LoginThrottle, type ThrottlePolicy } from './login-throttle.js';
import { seedUsers, TEST_PASSWORD } from './testing.js';

const SMALL: ThrottlePolicy = {
  freeFailures: 3,
  firstLockMs: 1_000,
  lockMsMax: 8_000,
  forgetAfterMs: 60_000,
};

describe('LoginThrottle', () => {
  // Failures of one username from one address, at 1 ms apart, and the wait each leaves.
  it.each([
    { failures: 1, waitMs: 0 },
    { failures: 2, waitMs: 0 },
    { failures: 3, waitMs: 1_000 },
    { failures: 4, waitMs: 2_000 },
    { failures: 5, waitMs: 4_000 },
    { failures: 6, waitMs: 8_000 },
    { failures: 9, waitMs: 8_000 },
  ])('after $failures failures it makes the next wait $waitMs ms', ({ failures, waitMs }) => {
    const throttle = new LoginThrottle({
      username: SMALL,
      address: { ...SMALL, freeFailures: 99 },
    });
    let now = 0;
    for (let i = 0; i < failures; i++) throttle.failed('alice', '10.0.0.1', ++now);
    expect(throttle.waitMs('alice', '10.0.0.1', now)).toBe(waitMs);
    // Another username from the same address is not held back by alice's failures.
    expect(throttle.waitMs('bob', '10.0.0.1', now)).toBe(0);
    expect(throttle.waitMs('alice', '10.0.0.1', now + waitMs)).toBe(0);
  });

  it('holds back an address that tries many usernames, whatever the username', () => {
    const throttle = new LoginThrottle({ username: SMALL, address: SMALL });
    for (let i = 0; i < 3; i++) throttle.failed(`user${i}`, '10.0.0.9', 100);
    expect(throttle.waitMs('someone-else', '10.0.0.9', 100)).toBe(1_000);
    expect(throttle.waitMs('someone-else', '10.0.0.10', 100)).toBe(0);
  });

  it("an attacker's failures do not lock the user out from another address", () => {
    const throttle = new LoginThrottle({
      username: SMALL,
      address: { ...SMALL, freeFailures: 99 },
    });
    for (let i = 0; i < 9; i++) throttle.failed('supervisor', '203.0.113.66', i);
    expect(throttle.waitMs('supervisor', '203.0.113.66', 9)).toBeGreaterThan(0);
    expect(throttle.waitMs('supervisor', '10.1.2.3', 9)).toBe(0);
  });

  it("forgets failures a while after the last one, and a success clears the username's", () => {
    const throttle = new LoginThrottle({
      username: SMALL,
      address: { ...SMALL, freeFailures: 99 },
    });
    throttle.failed('alice', 'a', 0);
    throttle.failed('alice', 'a', 1);
    throttle.failed('alice', 'a', 60_002);
    expect(throttle.waitMs('alice', 'a', 60_002)).toBe(0);
    throttle.failed('alice', 'a', 60_003);
    throttle.failed('alice', 'a', 60_004);
    expect(throttle.waitMs('alice', 'a', 60_004)).toBe(1_000);
    throttle.succeeded('alice', 'a');
    expect(throttle.waitMs('alice', 'a', 60_004)).toBe(0);
  });
});

describe('POST /api/v1/session under repeated failures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-throttle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses with 429 and Retry-After before checking the password, then lets the right one in', async () => {
    let now = 1_000_000;
    const store = await openSqliteStore({ path: join(dir, 'throttle.sqlite'), currency: 'MOP' });
    const app = await buildApp({ store, clock: () => now, logger: false });
    try {
      const [player] = await seedUsers(store, 'player', 1);
      const login = (username: string, password: string) =>
        app.fastify.inject({
          method: 'POST',
          url: '/api/v1/session',
          payload: { username, password },
        });
      for (let i = 0; i < 5; i++) {
        const wrong = await login(player!.username, `wrong ${i}`);
        expect(wrong.statusCode).toBe(401);
        expect(wrong.json()).toMatchObject({ error: { code: 'invalid_credentials' } });
      }
      const locked = await login(player!.username, TEST_PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ error: { code: 'too_many_attempts' } });
      expect(locked.headers['retry-after']).toBe('30');
      expect(locked.headers['set-cookie']).toBeUndefined();
      // Case does not dodge it: the username is the same user whatever its case.
      expect((await login(player!.username.toUpperCase(), TEST_PASSWORD)).statusCode).toBe(429);
      // An unknown username is throttled the same way: the answers tell nothing.
      for (let i = 0; i < 5; i++) await login('nobody', 'guess');
      const ghost = await login('nobody', 'guess');
      expect(ghost.statusCode).toBe(429);
      expect(ghost.headers['retry-after']).toBe('30');
      now += 30_000;
      const right = await login(player!.username, TEST_PASSWORD);
      expect(right.statusCode).toBe(200);
      // The success cleared the failures: one more wrong password is not locked out.
      expect((await login(player!.username, 'wrong again')).statusCode).toBe(401);
      expect((await login(player!.username, TEST_PASSWORD)).statusCode).toBe(200);
    } finally {
      await app.shutdown();
      await store.close();
    }
  });
});
