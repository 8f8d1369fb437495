/**
 * The player's page in Chromium against the real `cussec serve --demo` (issue
 * 14, "what players ran into"): errors in the player's language with the
 * table's limits in its currency; the phase and countdown in sight on a phone;
 * a dropped connection and closed betting marked on the layout itself; a cage
 * deposit shown at once; "Your bets" by spot; Repeat and Clear as one socket
 * message each; the `summary` feed applied event by event (no view refetch per
 * burst); U/C/R shortcuts and the layout as one tab stop; no text under 12 px;
 * the roads and hot/cold numbers on the page.
 *
 * Screenshots at 1440×900 and 390×844 in zh-Hant, pt and en go to
 * /tmp/shots-player/. Skipped when /usr/bin/chromium is missing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
  type WebSocketRoute,
} from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICT } from '../web/src/i18n/dict.js';
import { chipLabel, formatMoney } from '../web/src/logic/money.js';
import { expectAccessible } from './axe.js';
import { freePort, ServeProcess } from './serve-process.js';
import { smallText } from './small-text.js';
import { buildWebIfStale } from './web-build.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const PASSWORD = 'cussec-demo-1';
const SUPERVISOR_PASSWORD = `e2e-${randomBytes(9).toString('hex')}`;
const T = 'T1';
const WAIT_MS = 10_000;
const SHOTS = '/tmp/shots-player';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The limits the supervisor sets: chips 10, 20, 50, 100; three 100s on a spot are over the maximum. */
const MIN_MINOR = 1_000;
const MAX_MINOR = 20_000;

let server: ServeProcess | undefined;
let browser: Browser | undefined;
let base = '';
let dataDir = '';
const pageErrors: string[] = [];

interface Actor {
  readonly context: BrowserContext;
  readonly page: Page;
}

async function actor(name: string): Promise<Actor> {
  const context = await browser!.newContext({
    viewport: DESKTOP,
    locale: 'en-US',
    timezoneId: 'Asia/Macau',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${name}: ${error.message}`));
  return { context, page };
}

async function signIn(who: Actor, username: string, lands: RegExp): Promise<void> {
  await who.page.goto(`${base}/#/`);
  await who.page.locator('#login-user').fill(username);
  await who.page.locator('#login-pass').fill(PASSWORD);
  await who.page.locator('button[type=submit]').click();
  await who.page.waitForURL(lands);
}

async function api(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const answer = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as Record<string, unknown>;
}

async function tokenOf(username: string, password: string): Promise<string> {
  const answer = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await answer.json()) as { token: string }).token;
}

async function textIs(locator: Locator, text: string): Promise<void> {
  const start = Date.now();
  let last: string | null = null;
  while (Date.now() - start < WAIT_MS) {
    last = (await locator.first().textContent({ timeout: WAIT_MS }))?.trim() ?? null;
    if (last === text) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected "${text}", the page shows "${last}"`);
}

async function step(croupier: Actor, command: string, phase: string): Promise<void> {
  await croupier.page.locator(`button.step-btn[data-focus="step:${command}"]`).click();
  await croupier.page.locator(`.table-bar .phase-pill.phase-${phase}`).waitFor();
}

async function painted(page: Page): Promise<void> {
  await page.evaluate(
    'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))',
  );
}

/** The page at both sizes in one language; nothing runs off the side, and it passes test/axe.ts. */
async function shots(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await painted(page);
    await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`) });
    const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
    expect(width, `${name} at ${size}`).toBeLessThanOrEqual(viewport.width);
    await expectAccessible(page, `${name} at ${size}`);
  }
  await page.setViewportSize(DESKTOP);
  await painted(page);
}

/** An element's sizes, as the page measures them (this file has no DOM types). */
interface Box {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

const ACTIVE_SPOT = 'document.activeElement?.dataset.spot';
const ACTIVE_FOCUS = 'document.activeElement?.dataset.focus';

describe.skipIf(!HAVE_CHROMIUM)("the player's page in Chromium (issue 14)", () => {
  let player: Actor;
  let croupier: Actor;
  let currency = '';
  let supervisorToken = '';
  /** Socket frames the player's page sent, and the URLs of its sockets. */
  const sent: Record<string, unknown>[] = [];
  const socketUrls: string[] = [];
  const routes: WebSocketRoute[] = [];
  let cut = false;
  /** The player page's GETs of the table view. */
  const viewFetches: string[] = [];

  beforeAll(async () => {
    buildWebIfStale();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'cussec-player-e2e-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await ServeProcess.start(
      ['--data', dataDir, '--port', String(port), '--demo'],
      { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD },
      60_000,
    );
    supervisorToken = await tokenOf('supervisor', SUPERVISOR_PASSWORD);
    // Two minutes of betting, so the bell never rings on its own on a slow machine.
    await api(supervisorToken, 'PATCH', `/tables/${T}/limits`, {
      bettingTimerMs: 120_000,
      stakeMinorMin: MIN_MINOR,
      stakeMinorMax: MAX_MINOR,
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    player = await actor('player');
    croupier = await actor('croupier');
    // The player's sockets go through a route that records what the page sends and can
    // cut the connection (a dropped network: the server is fine, the line is not).
    await player.page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
      socketUrls.push(ws.url());
      if (cut) {
        void ws.close({ code: 1012 });
        return;
      }
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        if (typeof message === 'string') sent.push(JSON.parse(message) as Record<string, unknown>);
        server.send(message);
      });
      routes.push(ws);
    });
    player.page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().endsWith(`/api/v1/tables/${T}`))
        viewFetches.push(request.url());
    });
    await signIn(player, 'player1', /#\/table\/T1$/);
    await signIn(croupier, 'croupier', /#\/croupier\/T1$/);
    await player.page.locator('.live-badge.live-live').waitFor();
    currency = String((await api(supervisorToken, 'GET', `/tables/${T}`))['currency']);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    if (server?.running) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  const money = (minor: number): string => formatMoney(minor, currency);
  const spot = (id: string): Locator => player.page.locator(`.felt .spot[data-spot="${id}"]`);
  const chip = (minor: number): Locator =>
    player.page.locator(`.chips [data-focus="chip:${minor}"]`);

  async function openBetting(): Promise<void> {
    await step(croupier, 'cover', 'covered');
    await step(croupier, 'fasten-latches', 'latched');
    await step(croupier, 'trigger-shaker', 'shaken');
    await step(croupier, 'open-betting', 'betting');
    await player.page.locator('.table-bar .phase-pill.phase-betting').waitFor();
  }

  async function finishRound(): Promise<void> {
    await step(croupier, 'ring-bell', 'closed');
    await step(croupier, 'lift-dome', 'lifted');
    await step(croupier, 'reveal-dice', 'revealed');
    await step(croupier, 'pay-all', 'paid');
    await player.page.locator('.table-bar .phase-pill.phase-paid').waitFor();
  }

  it('follows the summary feed and applies events: no view fetch per burst; bets by spot', async () => {
    expect(socketUrls.some((u) => u.includes('feed=summary'))).toBe(true);
    expect(socketUrls.some((u) => !u.includes('feed=summary'))).toBe(false);
    const fetchesBefore = viewFetches.length;
    await openBetting();
    await chip(10_000).click();
    await spot('small').click();
    await spot('small').click();
    await textIs(spot('small').locator('.stake'), chipLabel(20_000));
    await chip(5_000).click();
    for (const id of ['odd', 'total:9', 'single:3', 'double:2', 'two-dice:1-2']) {
      await spot(id).click();
      await textIs(spot(id).locator('.stake'), chipLabel(5_000));
    }
    // "Your bets": one line per spot, the two chips on Small as one line of their total.
    const rows = player.page.locator('.bet-list .bet-row');
    await expect.poll(() => rows.count()).toBe(6);
    const small = player.page.locator('.bet-row[data-spot="small"]');
    await textIs(small.locator('.bet-stake'), money(20_000));
    await textIs(small.locator('.bet-count'), '×2');
    // No inner scroll box: the list is as tall as its lines.
    const list = player.page.locator('.bet-list');
    expect(await list.evaluate((el: Box) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await finishRound();
    // One fetch at most for the new round (settings between rounds), none per event.
    expect(viewFetches.length - fetchesBefore).toBeLessThanOrEqual(1);
    // The result came from the events: dice and lit winners.
    await player.page.locator('.felt .spot.lit').first().waitFor();
  }, 90_000);

  it('Repeat and Clear send one socket message each, and U/C/R do the same', async () => {
    const mine = await api(await tokenOf('player1', PASSWORD), 'GET', '/me');
    const before = (mine['wallet'] as { balanceMinor: number }).balanceMinor;
    await openBetting();
    const posts: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => {
      if (r.method() !== 'GET' && r.url().includes('/bets')) posts.push(r.url());
    };
    player.page.on('request', onRequest);
    sent.length = 0;
    const repeatStart = Date.now();
    await player.page.locator('[data-focus="repeat"]').click();
    await textIs(spot('small').locator('.stake'), chipLabel(20_000));
    await textIs(player.page.locator('.wallet .balance'), money(before - 45_000));
    process.stderr.write(
      `Repeat of 6 bets, click to balance shown: ${Date.now() - repeatStart} ms\n`,
    );
    expect(sent.map((m) => m['type'])).toEqual(['place-bets']);
    expect((sent[0]!['bets'] as unknown[]).length).toBe(6);
    await player.page.locator('[data-focus="clear"]').click();
    await spot('small').locator('.stake').waitFor({ state: 'hidden' });
    await textIs(player.page.locator('.wallet .balance'), money(before));
    expect(sent.map((m) => m['type'])).toEqual(['place-bets', 'withdraw-bets']);
    expect((sent[1]!['betIds'] as unknown[]).length).toBe(6);

    // The same from the keyboard: R repeats, U takes back the last bet, C clears.
    await player.page.locator('.wallet').click();
    await player.page.keyboard.press('r');
    await textIs(player.page.locator('.wallet .balance'), money(before - 45_000));
    await player.page.keyboard.press('u');
    await textIs(player.page.locator('.wallet .balance'), money(before - 40_000));
    await player.page.keyboard.press('c');
    await textIs(player.page.locator('.wallet .balance'), money(before));
    expect(posts.filter((u) => u.endsWith('/bets'))).toEqual([]);
    player.page.off('request', onRequest);
    expect(
      await player.page.locator('[data-focus="repeat"]').getAttribute('aria-keyshortcuts'),
    ).toBe('R');
  }, 90_000);

  it("refuses in the player's language with the table's maximum in its currency", async () => {
    await player.page.locator('.lang-btn[lang="zh-Hant"]').click();
    await chip(10_000).click();
    for (let i = 0; i < 3; i++) await spot('big').click();
    const toast = player.page.locator('.toast-error').last();
    await toast.waitFor();
    const text = (await toast.locator('.toast-text').textContent())!.trim();
    expect(text).toBe(DICT['err.stake_above_max']['zh-Hant'].replace('{max}', money(MAX_MINOR)));
    // Nothing of the server's English: no player id, no stake in avos.
    expect(text).not.toMatch(/player|u-[0-9a-f]|30000|[A-Za-z]{4,}/);
    expect(await toast.locator('.art-badge').textContent()).toBe('第5條');
    // The countdown's screen-reader label is Chinese too.
    expect(await player.page.locator('.table-bar .countdown').getAttribute('aria-label')).toMatch(
      /^剩餘 \d+ 秒$/,
    );
    await player.page.locator('.lang-btn[lang="en"]').click();
  }, 60_000);

  it('the layout is one tab stop, arrows move inside it, Tab reaches the chips', async () => {
    const page = player.page;
    expect(await page.locator('.felt .spot[tabindex="0"]').count()).toBe(1);
    await spot('odd').focus();
    await page.keyboard.press('ArrowRight');
    const moved = await page.evaluate<string | undefined>(ACTIVE_SPOT);
    expect(moved).not.toBe('odd');
    expect(moved).toBeDefined();
    await page.keyboard.press('Tab');
    const next = await page.evaluate<string | undefined>(ACTIVE_FOCUS);
    expect(next).toMatch(/^chip:/);
    // Shift+Tab comes back to the spot last focused.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate<string | undefined>(ACTIVE_SPOT)).toBe(moved);
  }, 30_000);

  it('a cage deposit shows on the player page at once', async () => {
    const cashier = await tokenOf('cashier', PASSWORD);
    const me = await api(await tokenOf('player1', PASSWORD), 'GET', '/me');
    const id = (me['user'] as { id: string }).id;
    const before = (me['wallet'] as { balanceMinor: number }).balanceMinor;
    await api(cashier, 'POST', `/players/${id}/deposits`, { amountMinor: 70_000 });
    await textIs(player.page.locator('.wallet .balance'), money(before + 70_000));
  }, 30_000);

  it('closed betting locks the layout; a dropped connection dims it with a label', async () => {
    const page = player.page;
    const felt = page.locator('.felt');
    expect(await felt.getAttribute('class')).not.toMatch(/felt-closed|felt-offline/);
    await step(croupier, 'ring-bell', 'closed');
    await page.locator('.felt.felt-closed').waitFor();
    expect(await felt.getAttribute('data-state')).toBe(DICT['player.closed'].en);
    // A tap on the locked layout sends nothing.
    sent.length = 0;
    await spot('small').click({ force: true });
    await player.page.locator('.toast-error', { hasText: DICT['err.betting_closed'].en }).waitFor();
    expect(sent).toEqual([]);
    await shots(page, 'closed-en');
    cut = true;
    for (const route of routes.splice(0)) await route.close({ code: 1012 });
    await page.locator('.felt.felt-offline').waitFor();
    expect(await felt.getAttribute('data-state')).toBe(DICT['player.offline'].en);
    await shots(page, 'offline-en');
    cut = false;
    await page.locator('.live-badge.live-live').waitFor({ timeout: 20_000 });
    await page.locator('.felt.felt-closed').waitFor();
    await step(croupier, 'lift-dome', 'lifted');
    await step(croupier, 'reveal-dice', 'revealed');
    await step(croupier, 'pay-all', 'paid');
  }, 90_000);

  it('looks right in zh-Hant, pt and en, desktop and phone', async () => {
    const page = player.page;
    // Twelve results and more, so the strip is full and the roads have something to show.
    const croupierToken = await tokenOf('croupier', PASSWORD);
    const round = [
      'cover',
      'fasten-latches',
      'trigger-shaker',
      'open-betting',
      'ring-bell',
      'lift-dome',
      'reveal-dice',
      'pay-all',
    ];
    for (let r = 0; r < 12; r++)
      for (const type of round) await api(croupierToken, 'POST', `/tables/${T}/commands`, { type });
    await page.locator('.history-strip .hist').nth(11).waitFor();
    await openBetting();
    await chip(10_000).click();
    await spot('small').click();
    await chip(5_000).click();
    await spot('total:10').click();
    await textIs(spot('total:10').locator('.stake'), chipLabel(5_000));
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      await page.locator(`.lang-btn[lang="${lang}"]`).click();
      await page
        .locator('.table-bar .phase-pill', { hasText: DICT['phase.betting'][lang] })
        .waitFor();
      await shots(page, `betting-${lang}`);
      expect(await smallText(page), lang).toEqual([]);
      // The results strip shows whole columns at 1440×900.
      const strip = page.locator('.history-strip');
      const stripBox = (await strip.boundingBox())!;
      const lastBox = (await strip.locator('.hist').nth(11).boundingBox())!;
      expect(lastBox.x + lastBox.width, lang).toBeLessThanOrEqual(stripBox.x + stripBox.width + 1);
      expect(await strip.evaluate((el: Box) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      // The roads and the hot and cold numbers are on the page.
      await page.locator('.trends .board-roads .roadmap').first().waitFor();
      await page.locator('#trend-hot').click();
      await page.locator('.trends .board-hot .freq').first().waitFor();
      await page.locator('#trend-oddEven').click();
      await page.locator('.trends .board-roads .roadmap').first().waitFor();
      await page.locator('#trend-bigSmall').click();

      // Phone: scrolled into the layout, the phase, countdown and limits stay in sight.
      await page.setViewportSize(PHONE);
      await page.evaluate("document.querySelector('.felt').scrollIntoView({ block: 'end' })");
      expect(Number(await page.evaluate('window.scrollY')), lang).toBeGreaterThan(400);
      await painted(page);
      for (const part of ['.phase-pill', '.countdown', '.limits']) {
        const box = await page.locator(`.table-bar ${part}`).boundingBox();
        expect(box, `${lang} ${part}`).not.toBeNull();
        expect(box!.y, `${lang} ${part}`).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, `${lang} ${part}`).toBeLessThanOrEqual(PHONE.height);
      }
      await page.screenshot({ path: join(SHOTS, `betting-${lang}-phone-scrolled.png`) });
      expect(await smallText(page), `${lang} phone`).toEqual([]);
      await page.setViewportSize(DESKTOP);
    }
    await finishRound();
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      await page.locator(`.lang-btn[lang="${lang}"]`).click();
      await page.locator('.table-bar .phase-pill', { hasText: DICT['phase.paid'][lang] }).waitFor();
      await shots(page, `paid-${lang}`);
    }
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
