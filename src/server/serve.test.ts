/**
 * `cussec serve`'s trust settings (issue 13, items 7, 12 and 13): a demo never
 * reaches the network by accident, a weak first password is refused, the URL
 * printed is the one served, the roll key exists before the first table, and
 * the server speaks TLS itself when given a certificate.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/testing.js';
import { RollKeyError } from '../dice/roll-key.js';
import { serve, ServeRefused, type ServeOptions } from './serve.js';

const dir = mkdtempSync(join(tmpdir(), 'cussec-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  delete process.env['CUSSEC_SUPERVISOR_PASSWORD'];
});
let n = 0;

function options(overrides: Partial<ServeOptions> = {}): ServeOptions & { lines: string[] } {
  const lines: string[] = [];
  return {
    dataDir: join(dir, `d${++n}`),
    port: 0,
    host: '127.0.0.1',
    currency: 'MOP',
    tableId: 'T1',
    supervisor: 'supervisor',
    demo: false,
    demoOnNetwork: false,
    terminal: true,
    say: (line) => lines.push(line),
    lines,
    ...overrides,
  };
}

describe('cussec serve', () => {
  it('refuses --demo on a network address without --demo-on-network, and warns loudly with it', async () => {
    await expect(serve(options({ demo: true, host: '0.0.0.0' }))).rejects.toThrow(ServeRefused);
    const o = options({ demo: true, host: '0.0.0.0', demoOnNetwork: true });
    const app = await serve(o);
    try {
      expect(o.lines.join('\n')).toMatch(/WARNING: demo users with the PUBLISHED password/);
      expect(o.lines[0]).not.toContain(':0/');
    } finally {
      await app.shutdown();
      await app.ctx.store.close();
    }
  });

  it('refuses a weak CUSSEC_SUPERVISOR_PASSWORD with a clear message', async () => {
    process.env['CUSSEC_SUPERVISOR_PASSWORD'] = 'a';
    await expect(serve(options())).rejects.toThrow(
      /CUSSEC_SUPERVISOR_PASSWORD: a password needs at least 10 characters/,
    );
  });

  it('prints the URL it serves, with the port it bound, and makes a 0600 roll key beside SQLite data', async () => {
    const o = options();
    const app = await serve(o);
    try {
      const address = app.fastify.server.address() as { port: number };
      expect(o.lines[0]).toContain(`http://127.0.0.1:${address.port}/`);
      const keyFile = join(o.dataDir, 'roll-key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(keyFile, 'utf8')).toMatch(/^local-[0-9a-f]{8}:/);
    } finally {
      await app.shutdown();
      await app.ctx.store.close();
    }
  });

  it('a floor node (PostgreSQL) without the roll key refuses to start', async () => {
    delete process.env['CUSSEC_ROLL_KEY'];
    await expect(serve(options({ db: 'postgres://postgres@127.0.0.1:1/none' }))).rejects.toThrow(
      RollKeyError,
    );
  });

  it('a node that cannot open a sealed roll refuses to start, never saying it serves; with its key the roll is revealed', async () => {
    const o = options({ demo: true });
    const first = await serve(o);
    for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting', 'ring-bell'])
      expect(
        (await first.ctx.service.execute({ tableId: 'T1', command: { type } as never })).ok,
      ).toBe(true);
    await first.shutdown();
    await first.ctx.store.close();
    const keyFile = join(o.dataDir, 'roll-key');
    const key = readFileSync(keyFile);
    rmSync(keyFile);
    const lost = options({ demo: true, dataDir: o.dataDir });
    await expect(serve(lost)).rejects.toThrow(RollKeyError);
    expect(lost.lines.join('\n')).not.toContain('Cussec is serving');
    // No new key is left where the lost one belongs.
    expect(existsSync(keyFile)).toBe(false);
    // The key given back (docs/dice.md: keep a copy), the node starts and reveals the roll.
    writeFileSync(keyFile, key, { mode: 0o600 });
    const again = options({ demo: true, dataDir: o.dataDir });
    const app = await serve(again);
    try {
      for (const type of ['lift-dome', 'reveal-dice'])
        expect(
          (await app.ctx.service.execute({ tableId: 'T1', command: { type } as never })).ok,
        ).toBe(true);
    } finally {
      await app.shutdown();
      await app.ctx.store.close();
    }
  });

  it("has each table's fairness monitor loaded before it listens, so no first read after a restart restores it", async () => {
    const app = await serve(options({ demo: true }));
    try {
      // Loading a monitor keeps it (read model fairness/<table>): done at start, before any request.
      expect(await app.ctx.store.getReadModel('fairness/T1')).toBeDefined();
    } finally {
      await app.shutdown();
      await app.ctx.store.close();
    }
  });

  it('serves HTTPS itself with --tls-cert/--tls-key, with HSTS and a Secure cookie', async () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    process.env['CUSSEC_SUPERVISOR_PASSWORD'] = 'a strong enough password';
    const o = options({ tls: { cert: readFileSync(cert), key: readFileSync(key) } });
    const app = await serve(o);
    try {
      expect(o.lines[0]).toMatch(/^Cussec is serving https:\/\/127\.0\.0\.1:\d+\//);
      const port = (app.fastify.server.address() as { port: number }).port;
      const answer = await new Promise<{ status: number; headers: Record<string, unknown> }>(
        (resolve, reject) => {
          const body = JSON.stringify({
            username: 'supervisor',
            password: 'a strong enough password',
          });
          const req = request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/api/v1/session',
              rejectUnauthorized: false,
              headers: { 'content-type': 'application/json', 'content-length': body.length },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
            },
          );
          req.on('error', reject);
          req.end(body);
        },
      );
      expect(answer.status).toBe(200);
      expect(String(answer.headers['strict-transport-security'])).toContain('max-age=');
      expect(String(answer.headers['set-cookie'])).toContain('Secure');
    } finally {
      await app.shutdown();
      await app.ctx.store.close();
    }
  });
});

describe('a demonstration database is not a casino floor', () => {
  async function served(o: ServeOptions): Promise<void> {
    const app = await serve(o);
    await app.shutdown();
    await app.ctx.store.close();
  }

  it('refuses to serve a database first served with --demo without it: exit 2, naming its tables and demo users', async () => {
    const demo = options({ demo: true });
    await served(demo);
    const floor = options({ dataDir: demo.dataDir });
    await expect(serve(floor)).rejects.toThrow(ServeRefused);
    expect(floor.lines.join('\n')).not.toContain('Cussec is serving');
    const cli = await runCli(['serve', '--data', demo.dataDir, '--port', '0']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`${join(demo.dataDir, 'cussec.db')} is a demonstration database`);
    expect(cli.stderr).toContain('tables T1 (demonstration)');
    expect(cli.stderr).toContain(
      'demo users croupier, cashier, inspector, player1, player2 sign in with the published password',
    );
    expect(cli.stderr).toContain('cussec serve --data NEW-FOLDER');
    // It stays a demonstration: served with --demo again, it plays as before.
    await served(options({ demo: true, dataDir: demo.dataDir }));
  });

  it('refuses a database written by cussec play, and --demo on a casino floor', async () => {
    const played = options();
    mkdirSync(played.dataDir);
    const db = join(played.dataDir, 'cussec.db');
    const play = await runCli([
      'play',
      '--db',
      db,
      '--rounds',
      '1',
      '--players',
      '1',
      '--seed',
      'k',
    ]);
    expect(play.code, play.stderr).toBe(0);
    await expect(serve(played)).rejects.toThrow(/tables T1 \(simulation\)/);

    const floor = options();
    await served(floor);
    await expect(serve(options({ demo: true, dataDir: floor.dataDir }))).rejects.toThrow(
      /is a casino floor: --demo would add users with the published password/,
    );
    const playOnFloor = await runCli([
      'play',
      '--db',
      join(floor.dataDir, 'cussec.db'),
      '--rounds',
      '1',
      '--players',
      '1',
    ]);
    expect(playOnFloor.code).toBe(2);
    expect(playOnFloor.stderr).toMatch(/is a casino floor: cussec play writes simulated players/);
  });
});
