/**
 * The web app end to end, in headless Chromium (Debian's `chromium`, driven by
 * playwright-core) against the real `cussec serve --demo` on a free port:
 *
 * - a player signs in through the form and bets with chips on Small (two quick
 *   taps: two chips), Odd, a total and a single while the croupier runs the
 *   round from the console
 *   (cover, latches, shaker, open, bell, dome, reveal, pay); the winning spots
 *   light on the player's layout (the `lit` class LayoutBoard sets), the dice
 *   show, the sealed roll checks out, and the balance is before − stakes +
 *   what settle() of src/rules returns on the revealed dice;
 * - a void roll (Arts. 3.3, 3.4): the bet stands, withdrawing it is refused
 *   with the message shown (and by the server too), a bet of the new roll can
 *   be withdrawn, the round then settles the standing bet;
 * - the display board and the inspector's four tabs load live data;
 * - the cashier deposits to player1 in the cage and the balance shows, there
 *   and on the player's page.
 *
 * Every page is saved at desktop (1440×900) and phone (390×844) sizes in
 * test-output/screenshots/ (git-ignored). The app is built first when
 * dist/web is missing or older than web/. Skipped, with a message, when
 * /usr/bin/chromium is not installed (CI installs it). A supervisor (through
 * the API) gives the table a 2-minute betting timer, so that a slow machine
 * never hears the bell ring on its own in the middle of a test.
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
} from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compilePaytable, type Dice, type Paytable, settle, spotById } from '../src/rules/index.js';
import { DICT } from '../web/src/i18n/dict.js';
import { chipLabel, formatMoney } from '../web/src/logic/money.js';
import { freePort, ServeProcess } from './serve-process.js';
import { buildWebIfStale } from './web-build.js';
import { DESKTOP, SHOTS, shoot } from './screenshots.js';

const ROOT = join(import.meta.dirname, '..');
const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const PASSWORD = 'cussec-demo-1';
/** The first supervisor's password (`cussec serve` takes it from CUSSEC_SUPERVISOR_PASSWORD). */
const SUPERVISOR_PASSWORD = `e2e-${randomBytes(9).toString('hex')}`;
/**
 * The demo table's 30 s betting timer would ring the bell on a slow machine while
 * the suite is still betting and taking pictures; a supervisor sets 2 minutes.
 */
const BETTING_TIMER_MS = 120_000;
const T = 'T1';
/** How long a state may take to show in the browser (live events, then a view fetch). */
const WAIT_MS = 10_000;

if (!HAVE_CHROMIUM) {
  process.stderr.write(
    `\nSKIPPED: the browser end-to-end suite (test/web-e2e.test.ts) — ${CHROMIUM} is not installed ` +
      `(apt-get install chromium fonts-noto-cjk; CI installs it).\n\n`,
  );
}

const en = (key: keyof typeof DICT): string => DICT[key].en;

/** `cussec serve --demo` from source, with its output kept for the failure message. */
const startServer = (dataDir: string, port: number): Promise<ServeProcess> =>
  ServeProcess.start(
    ['--data', dataDir, '--port', String(port), '--demo'],
    { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD },
    30_000,
  );

/** As the supervisor, through the API: the table's betting timer (between rounds only). */
async function setBettingTimer(ms: number): Promise<void> {
  const login = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'supervisor', password: SUPERVISOR_PASSWORD }),
  });
  if (!login.ok) throw new Error(`supervisor login: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const patch = await fetch(`${base}/api/v1/tables/${T}/limits`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ bettingTimerMs: ms }),
  });
  if (!patch.ok) throw new Error(`set the betting timer: ${patch.status} ${await patch.text()}`);
}

async function stopServer(server: ServeProcess | undefined): Promise<void> {
  if (server === undefined || !server.running) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await server.exited;
  clearTimeout(timer);
}

let dataDir = '';
let base = '';
let server: ServeProcess | undefined;
let browser: Browser | undefined;
/** Uncaught exceptions in any page: a test fails on any. */
const pageErrors: string[] = [];
/** What the pages logged as errors (a 401 before signing in is expected), for a failure's report. */
const consoleErrors: string[] = [];
/** Every page opened, for a failure's screenshots. */
const pages = new Map<string, Page>();

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
  page.on('pageerror', (error) => pageErrors.push(`${name} ${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${name}: ${message.text()}`);
  });
  pages.set(name, page);
  return { context, page };
}

/** Signs in through the form and waits for the role's page. */
async function signIn(who: Actor, username: string, lands: RegExp): Promise<void> {
  const { page } = who;
  await page.goto(`${base}/#/`);
  await page.locator('#login-user').fill(username);
  await page.locator('#login-pass').fill(PASSWORD);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(lands);
}

/** Waits until the locator's text is exactly `text` (trimmed). */
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

/** The croupier clicks a step of the procedure (once the view enables it) and the phase follows. */
async function step(croupier: Actor, command: string, phase: string): Promise<void> {
  await croupier.page.locator(`button.step-btn[data-focus="step:${command}"]`).click();
  await croupier.page.locator(`.table-bar .phase-pill.phase-${phase}`).waitFor();
}

interface ViewJson {
  readonly phase: string;
  readonly roundNo: number;
  readonly rollNo: number;
  readonly currency: string;
  readonly paytable: Paytable;
  readonly lastRound: { roundNo: number; dice: Dice; winningSpots: string[] } | null;
  readonly history: { roundNo: number; dice: Dice; total: number }[];
}

async function getJson<T>(who: Actor, path: string): Promise<T> {
  const answer = await who.context.request.get(`${base}/api/v1${path}`);
  if (!answer.ok()) throw new Error(`GET ${path}: ${answer.status()} ${await answer.text()}`);
  return (await answer.json()) as T;
}

const balanceOf = async (who: Actor): Promise<number> =>
  (await getJson<{ wallet: { balanceMinor: number } }>(who, '/me')).wallet.balanceMinor;

/** The spots lit on a layout, by id. */
async function litSpots(scope: Locator): Promise<string[]> {
  const ids: string[] = [];
  for (const spot of await scope.locator('.spot.lit').all())
    ids.push((await spot.getAttribute('data-spot')) ?? '?');
  return ids.sort();
}

/** The player picks a chip and bets it on a spot; the stake shows on the spot. */
async function bet(player: Actor, chipMinor: number, spot: string, stakeAfter: number) {
  const chip = player.page.locator(`.chips [data-focus="chip:${chipMinor}"]`);
  await chip.click();
  expect(await chip.getAttribute('aria-checked')).toBe('true');
  await player.page.locator(`.spot[data-spot="${spot}"]`).click();
  await textIs(player.page.locator(`.spot[data-spot="${spot}"] .stake`), chipLabel(stakeAfter));
}

describe.skipIf(!HAVE_CHROMIUM)('the web app in Chromium against cussec serve', () => {
  let player: Actor;
  let croupier: Actor;
  let currency = '';

  beforeAll(async () => {
    buildWebIfStale();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'cussec-web-e2e-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServer(dataDir, port);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    });
    await setBettingTimer(BETTING_TIMER_MS);
    player = await actor('player');
    croupier = await actor('croupier');
  }, 90_000);

  // A failure leaves a picture of every open page and the server's last words.
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(async () => {
      const slug = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
      for (const [name, page] of pages) {
        if (page.isClosed()) continue;
        await page
          .screenshot({ path: join(ROOT, 'test-output', `FAILED-${slug}-${name}.png`) })
          .catch(() => undefined);
      }
      process.stderr.write(
        `\n--- ${task.name}: failed ---\npage errors: ${pageErrors.join('\n') || 'none'}\n` +
          `console errors: ${consoleErrors.slice(-20).join('\n') || 'none'}\n` +
          `server output (last 40 lines):\n${server?.lines.slice(-40).join('\n') ?? ''}\n`,
      );
    });
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await stopServer(server);
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('a player signs in and bets, the croupier runs the round, the winners light and the balance is right', async () => {
    // The sign-in page, as anyone first sees it.
    await player.page.goto(`${base}/#/`);
    await player.page.locator('#login-user').waitFor();
    await shoot(player.page, '01-login');

    await signIn(player, 'player1', /#\/table\/T1$/);
    await signIn(croupier, 'croupier', /#\/croupier\/T1$/);
    await player.page.locator('.spot[data-spot="small"]').waitFor();
    await player.page.locator('.live-badge.live-live').waitFor();
    await croupier.page.locator('.live-badge.live-live').waitFor();
    currency = (await getJson<ViewJson>(player, `/tables/${T}`)).currency;
    const before = await balanceOf(player);
    await textIs(player.page.locator('.wallet .balance'), formatMoney(before, currency));

    await step(croupier, 'cover', 'covered');
    await step(croupier, 'fasten-latches', 'latched');
    await step(croupier, 'trigger-shaker', 'shaken');
    await step(croupier, 'open-betting', 'betting');
    await player.page.locator('.table-bar .phase-pill.phase-betting').waitFor();
    // Art. 2.1: the sealed roll's commitment is on show before any bet.
    await player.page.locator('.seal .hex').waitFor();

    const bets: { spot: string; stakeMinor: number }[] = [
      { spot: 'small', stakeMinor: 10_000 },
      { spot: 'small', stakeMinor: 10_000 },
      { spot: 'odd', stakeMinor: 10_000 },
      { spot: 'total:9', stakeMinor: 5_000 },
      { spot: 'single:3', stakeMinor: 10_000 },
    ];
    // Two quick taps on Small are two chips (the second does not wait for the first's answer).
    await player.page.locator('.chips [data-focus="chip:10000"]').click();
    await player.page.locator('.spot[data-spot="small"]').click();
    await player.page.locator('.spot[data-spot="small"]').click();
    await textIs(player.page.locator('.spot[data-spot="small"] .stake'), chipLabel(20_000));
    const onSpot = new Map<string, number>([['small', 20_000]]);
    for (const b of bets.slice(2)) {
      onSpot.set(b.spot, (onSpot.get(b.spot) ?? 0) + b.stakeMinor);
      await bet(player, b.stakeMinor, b.spot, onSpot.get(b.spot)!);
    }
    const staked = bets.reduce((s, b) => s + b.stakeMinor, 0);
    await textIs(player.page.locator('.wallet .balance'), formatMoney(before - staked, currency));
    await textIs(player.page.locator('.wallet .at-stake'), formatMoney(staked, currency));
    expect(await balanceOf(player)).toBe(before - staked);
    // The croupier's console shows the table's stakes.
    await croupier.page
      .locator('.stake-bars li')
      .nth(onSpot.size - 1)
      .waitFor();
    await shoot(player.page, '02-player-betting');
    // At 1440×900 the whole layout and the docked chip rack fit on the screen (the side
    // panels may scroll with the page; the layout and the rack stay put).
    for (const part of ['.felt', '.rack']) {
      const box = (await player.page.locator(`.page-player ${part}`).boundingBox())!;
      expect(box.y + box.height, part).toBeLessThanOrEqual(DESKTOP.height);
    }
    await shoot(croupier.page, '03-croupier-betting');

    await step(croupier, 'ring-bell', 'closed');
    await step(croupier, 'lift-dome', 'lifted');
    await step(croupier, 'reveal-dice', 'revealed');
    await step(croupier, 'pay-all', 'paid');

    const view = await getJson<ViewJson>(player, `/tables/${T}`);
    expect(view.phase).toBe('paid');
    const last = view.lastRound!;
    expect(last.roundNo).toBe(view.roundNo);
    const returned = settle(compilePaytable(view.paytable), last.dice, bets).reduce(
      (s, b) => s + b.returnedMinor,
      0,
    );

    // Art. 3.2: the dice and the winning combinations, lit on the player's layout.
    const dice = player.page.locator('.panel-result .big-dice');
    await dice.waitFor();
    expect(await dice.getAttribute('aria-label')).toContain(last.dice.join(', '));
    const layout = player.page.locator('.felt .layout');
    await layout.locator('.spot.lit').first().waitFor();
    expect(await litSpots(layout)).toEqual([...last.winningSpots].sort());
    for (const spot of onSpot.keys()) {
      const won = last.winningSpots.includes(spot);
      expect(await layout.locator(`.spot[data-spot="${spot}"]`).getAttribute('class')).toMatch(
        won ? /\blit\b/ : /^(?!.*\blit\b)/,
      );
      if (won) await layout.locator(`.spot[data-spot="${spot}"] .win`).waitFor();
    }
    // The sealed roll was the one shown before the bets (Art. 2.1).
    await player.page.locator('.verify-ok', { hasText: last.dice.join('-') }).waitFor();
    await textIs(
      player.page.locator('.wallet .balance'),
      formatMoney(before - staked + returned, currency),
    );
    expect(await balanceOf(player)).toBe(before - staked + returned);
    // The croupier's layout lights the same spots.
    expect(await litSpots(croupier.page.locator('.felt-console .layout'))).toEqual(
      [...last.winningSpots].sort(),
    );
    await shoot(player.page, '04-player-result');
    await shoot(croupier.page, '05-croupier-paid');
    // The same in Traditional Chinese (Noto CJK), then back to English.
    const pill = player.page.locator('.table-bar .phase-pill');
    await player.page.locator('.lang-btn[lang="zh-Hant"]').click();
    await pill.filter({ hasText: DICT['phase.paid']['zh-Hant'] }).waitFor();
    await shoot(player.page, '04-player-result-zh');
    await player.page.locator('.lang-btn[lang="en"]').click();
    await pill.filter({ hasText: en('phase.paid') }).waitFor();
  }, 60_000);

  it('a void roll: the bets stand and withdrawing one is refused, a new bet can be withdrawn', async () => {
    const before = await balanceOf(player);
    await step(croupier, 'cover', 'covered');
    await step(croupier, 'fasten-latches', 'latched');
    await step(croupier, 'trigger-shaker', 'shaken');
    await step(croupier, 'open-betting', 'betting');
    await player.page.locator('.table-bar .phase-pill.phase-betting').waitFor();
    await bet(player, 10_000, 'big', 10_000);
    await textIs(player.page.locator('.wallet .balance'), formatMoney(before - 10_000, currency));

    await step(croupier, 'ring-bell', 'closed');
    await step(croupier, 'lift-dome', 'lifted');
    // A void roll asks the croupier first (it cannot be taken back): confirmed.
    croupier.page.once('dialog', (dialog) => void dialog.accept());
    await croupier.page.locator('[data-focus="void:stacked"]').click();
    await croupier.page.locator('.table-bar .phase-pill.phase-voided').waitFor();
    // Art. 3.3, 3.4: the player is told the roll is void and the bet stands.
    await player.page.locator('.notice-void').waitFor();
    await player.page.locator('.bet-row .standing').waitFor();
    await shoot(player.page, '06-player-void');
    await shoot(croupier.page, '07-croupier-void');

    await step(croupier, 'cover', 'covered');
    await step(croupier, 'fasten-latches', 'latched');
    await step(croupier, 'trigger-shaker', 'shaken');
    await step(croupier, 'open-betting', 'betting');
    await player.page.locator('.table-bar .phase-pill.phase-betting').waitFor();
    await player.page.locator('.table-bar .round-no', { hasText: 'Roll 2' }).waitFor();

    // Withdrawing the standing bet (Backspace on its spot) is refused with the message.
    await expect(player.page.locator('[data-focus="undo"]').isDisabled()).resolves.toBe(true);
    await player.page.locator('.spot[data-spot="big"]').focus();
    await player.page.keyboard.press('Backspace');
    const refusal = player.page.locator('.toast-error', {
      hasText: en('err.bet_stands_after_void'),
    });
    await refusal.waitFor();
    expect(await refusal.locator('.art-badge').textContent()).toBe('Art. 3.4');
    await shoot(player.page, '08-player-withdraw-refused');
    // The server refuses it too.
    const mine = await getJson<{ bets: { betId: string; spot: string; rollNo: number }[] }>(
      player,
      `/tables/${T}/my-bets`,
    );
    const standing = mine.bets.find((b) => b.spot === 'big')!;
    expect(standing.rollNo).toBe(1);
    const refused = await player.context.request.delete(
      `${base}/api/v1/tables/${T}/bets/${standing.betId}`,
    );
    expect(refused.status()).toBeGreaterThanOrEqual(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'bet_stands_after_void',
    );

    // A bet of this roll can be withdrawn (Undo).
    await bet(player, 5_000, 'even', 5_000);
    await textIs(player.page.locator('.wallet .balance'), formatMoney(before - 15_000, currency));
    await player.page.locator('[data-focus="undo"]').click();
    await player.page.locator('.spot[data-spot="even"] .stake').waitFor({ state: 'hidden' });
    await textIs(player.page.locator('.wallet .balance'), formatMoney(before - 10_000, currency));

    await step(croupier, 'ring-bell', 'closed');
    await step(croupier, 'lift-dome', 'lifted');
    await step(croupier, 'reveal-dice', 'revealed');
    await step(croupier, 'pay-all', 'paid');
    const view = await getJson<ViewJson>(player, `/tables/${T}`);
    const last = view.lastRound!;
    const returned = settle(compilePaytable(view.paytable), last.dice, [
      { spot: 'big', stakeMinor: 10_000 },
    ])[0]!.returnedMinor;
    // The seal of roll 2 checks out too.
    await player.page.locator('h3.sub', { hasText: `Round ${view.roundNo}` }).waitFor();
    await player.page.locator('.verify-ok', { hasText: last.dice.join('-') }).waitFor();
    await textIs(
      player.page.locator('.wallet .balance'),
      formatMoney(before - 10_000 + returned, currency),
    );
    expect(await balanceOf(player)).toBe(before - 10_000 + returned);
    expect(await litSpots(player.page.locator('.felt .layout'))).toEqual(
      [...last.winningSpots].sort(),
    );
  }, 60_000);

  it('the display board and the inspector pages show the live table', async () => {
    const inspector = await actor('inspector');
    await signIn(inspector, 'inspector', /#\/inspector$/);
    const { page } = inspector;
    const view = await getJson<ViewJson>(inspector, `/tables/${T}`);
    const last = view.lastRound!;

    // Journal: entries, and the hash chain verifies.
    await page.locator('.tab-body table tbody tr').first().waitFor();
    await page.locator('[data-focus="verify"]').click();
    await page.locator('.tab-body .toolbar > :nth-child(2)').waitFor();
    await shoot(page, '10-inspector-journal');
    const tabs = ['recall', 'paytable', 'fairness'] as const;
    for (const [i, tab] of tabs.entries()) {
      await page.locator(`#tab-${tab}`).click();
      await page.locator(`#tab-${tab}[aria-selected="true"]`).waitFor();
      if (tab === 'recall') {
        // The last round's dice, its void roll (Art. 3.3) and the seal's check.
        await page.locator('.recall-head strong', { hasText: last.dice.join('-') }).waitFor();
        await page.locator('.recall-voids li').first().waitFor();
        expect(await page.locator('.recall .verify-bad').count()).toBe(0);
      }
      if (tab === 'paytable') await page.locator('.tab-body .data tbody tr').first().waitFor();
      if (tab === 'fairness') await page.locator('.tab-body .spans .data').first().waitFor();
      await shoot(page, `1${i + 1}-inspector-${tab}`);
    }

    // The display board: the last result and its winners lit (Art. 3.2).
    await page.goto(`${base}/#/board/${T}`);
    await page.locator('.live-badge.live-live').waitFor();
    const boardDice = page.locator('.board-grid [role=img]').first();
    await boardDice.waitFor();
    expect(await boardDice.getAttribute('aria-label')).toContain(last.dice.join(', '));
    const felt = page.locator('.felt-board .layout');
    await felt.locator('.spot.lit').first().waitFor();
    // The board's mini layout has the core spots only: those of them that won are lit.
    const onBoard = new Set<string>();
    for (const spot of await felt.locator('.spot').all())
      onBoard.add((await spot.getAttribute('data-spot')) ?? '?');
    expect(await litSpots(felt)).toEqual(last.winningSpots.filter((s) => onBoard.has(s)).sort());
    await shoot(page, '09-board');
    await inspector.context.close();
  }, 60_000);

  it('the cashier deposits to player1 in the cage and the balance shows', async () => {
    const cashier = await actor('cashier');
    await signIn(cashier, 'cashier', /#\/cage$/);
    const { page } = cashier;
    const before = await balanceOf(player);
    await page.getByRole('button', { name: 'Player One' }).click();
    await textIs(page.locator('.cage-balance strong'), formatMoney(before, currency));
    await page.locator('#cage-amount').fill('500');
    await page.locator('[data-focus="deposit"]').click();
    await textIs(page.locator('.cage-balance strong'), formatMoney(before + 50_000, currency));
    await page.locator('.toast-ok').waitFor();
    expect(await balanceOf(player)).toBe(before + 50_000);
    await shoot(page, '15-cage');
    // The player's page shows it once reloaded.
    await player.page.reload();
    await textIs(player.page.locator('.wallet .balance'), formatMoney(before + 50_000, currency));
    await cashier.context.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('spot ids the test bets on exist', () => {
    for (const id of ['small', 'odd', 'total:9', 'single:3', 'big', 'even'])
      expect(spotById(id)).toBeDefined();
  });
});
