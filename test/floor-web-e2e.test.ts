/**
 * The supervisor's floor end to end, in headless Chromium against the real
 * `cussec serve --demo` (no preset supervisor password, so the one-time one
 * is printed and must be changed at first sign-in):
 *
 * - the supervisor signs in with the one-time password, is held on the
 *   password page until it is changed, then lands on the floor;
 * - creates a table from the floor, and the croupier plays a round on it from
 *   the console while the floor's card follows the phase live;
 * - the Art. 8 flow: a proposal for the earliest legal date shown, one for
 *   today refused with its article (in the page's language only, no server
 *   English), the inspector records the DICJ's authorization, a proposal is
 *   withdrawn;
 * - uploads a year of holidays (computed, then official: the warning goes);
 * - closes and opens a table for play; the croupier console's stakes, payout
 *   total, void confirmation and player names; the inspector's staff actions;
 * - disables the croupier mid-shift: the console signs out at once and sign-in
 *   is refused; enabled again, a reset password must be changed first;
 * - the floor, the croupier console and the password page in zh-Hant, pt and en at 1440×900 and
 *   390×844 (test-output/screenshots/floor-*.png).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DICT } from '../web/src/i18n/dict.js';
import { freePort, ServeProcess } from './serve-process.js';
import { buildWebIfStale } from './web-build.js';
import { DESKTOP, SHOTS, shoot } from './screenshots.js';

const ROOT = join(import.meta.dirname, '..');
const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const DEMO_PASSWORD = 'cussec-demo-1';
const SUPERVISOR_PASSWORD = 'the floor is mine 2026';
const WAIT_MS = 10_000;
const NEW_TABLE = 'T9';

const en = (key: keyof typeof DICT): string => DICT[key].en;

let server: ServeProcess | undefined;
let browser: Browser | undefined;
let base = '';
let oneTime = '';
/** What the pages answer to a confirmation (disable, close, void): yes unless a test says otherwise. */
let confirmAnswer = true;

async function open(name: string): Promise<Page> {
  const context = await browser!.newContext({
    viewport: DESKTOP,
    locale: 'en-US',
    timezoneId: 'Asia/Macau',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw new Error(`${name}: ${error.message}`);
  });
  // Disabling, closing and voiding ask for a confirmation: the answer is confirmAnswer.
  page.on('dialog', (dialog) => void (confirmAnswer ? dialog.accept() : dialog.dismiss()));
  return page;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${base}/#/`);
  await page.locator('#login-user').fill(username);
  await page.locator('#login-pass').fill(password);
  await page.locator('button[type=submit]').click();
}

async function changePassword(page: Page, current: string, next: string): Promise<void> {
  await page.locator('#pass-current').fill(current);
  await page.locator('#pass-new').fill(next);
  await page.locator('#pass-again').fill(next);
  await page.locator('[data-focus="change-password"]').click();
}

/** A player's bet straight through the API (the player's page is another suite's). */
async function bet(player: string, spot: string, stakeMinor: number): Promise<void> {
  const session = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: player, password: DEMO_PASSWORD }),
  });
  const { token } = (await session.json()) as { token: string };
  const placed = await fetch(`${base}/api/v1/tables/${NEW_TABLE}/bets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ betId: crypto.randomUUID(), spot, stakeMinor }),
  });
  expect(placed.status, `${player} on ${spot}`).toBe(201);
}

/** Whether two boxes of the page overlap. */
const overlap = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function step(croupier: Page, command: string, phase: string): Promise<void> {
  await croupier.locator(`button.step-btn[data-focus="step:${command}"]`).click();
  await croupier.locator(`.table-bar .phase-pill.phase-${phase}`).waitFor();
}

describe.skipIf(!HAVE_CHROMIUM)("the supervisor's floor in Chromium", () => {
  let supervisor: Page;

  beforeAll(async () => {
    buildWebIfStale();
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await ServeProcess.start(
      [
        '--data',
        mkdtempSync(join(tmpdir(), 'cussec-floor-e2e-')),
        '--port',
        String(port),
        '--demo',
      ],
      { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: undefined },
      60_000,
    );
    // Not a terminal: the one-time password is in a file only its owner can read.
    const line = await server.line((l) => l.includes('one-time password'));
    oneTime = readFileSync(/one-time password in (\S+)/.exec(line)![1]!, 'utf8').trim();
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
    supervisor = await open('supervisor');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.running) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('holds the supervisor on the password page until the one-time password is changed', async () => {
    await signIn(supervisor, 'supervisor', oneTime);
    await supervisor.locator('.notice-required').waitFor();
    await shoot(supervisor, 'floor-00-password-en');
    // Elsewhere is refused until then: the page stays.
    await supervisor.goto(`${base}/#/floor`);
    await supervisor.locator('#pass-current').waitFor();
    await changePassword(supervisor, oneTime, 'short');
    await supervisor.locator('.toast-error').first().waitFor();
    const refused = (await supervisor.locator('.toast-error .toast-text').last().textContent())!;
    expect(refused).toBe(en('err.weak_password'));
    await changePassword(supervisor, oneTime, SUPERVISOR_PASSWORD);
    await supervisor.waitForURL(/#\/floor$/);
    await supervisor.locator('.floor-card[data-table="T1"]').waitFor();
  });

  it('creates a table, closes and opens it, and follows a round played on it live', async () => {
    await supervisor.locator('#new-table-id').fill(NEW_TABLE);
    await supervisor.locator('#new-table-name').fill('Table Nine');
    await supervisor.locator('#new-table-timer').fill('');
    await supervisor.locator('[data-focus="create-table"]').click();
    const card = supervisor.locator(`.floor-card[data-table="${NEW_TABLE}"]`);
    await card.waitFor();
    // One node, not a floor (no node URL): it runs the table, with no other node to tell apart.
    expect(await card.locator('.floor-lease').textContent()).toBe('Run by this node');
    const croupier = await open('croupier');
    await signIn(croupier, 'croupier', DEMO_PASSWORD);
    // Two tables now: the chooser.
    await croupier.locator(`.table-list a[href="#/croupier/${NEW_TABLE}"]`).click();
    await croupier.locator('.table-bar .phase-pill').waitFor();
    await supervisor.locator(`[data-focus="close:${NEW_TABLE}"]`).click();
    await card.locator('.tag-warn').getByText(en('floor.closed')).waitFor();
    // Closed for play, the open console hears of it at once: it says so, cannot cover (the step
    // is disabled), and the server refuses (Art. 2).
    await croupier.locator('.notice-closed').waitFor();
    expect(await croupier.locator('.notice-closed').textContent()).toBe(en('err.table_closed'));
    expect(await croupier.locator('button.step-btn[data-focus="step:cover"]').isDisabled()).toBe(
      true,
    );
    const refused = await croupier.evaluate(async (id) => {
      const answer = await fetch(`/api/v1/tables/${id}/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({ type: 'cover' }),
      });
      return { status: answer.status, body: (await answer.json()) as object };
    }, NEW_TABLE);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'table_closed', article: '2' } });
    await supervisor.locator(`[data-focus="open:${NEW_TABLE}"]`).click();
    await supervisor.locator(`[data-focus="close:${NEW_TABLE}"]`).waitFor();
    await croupier.locator('.notice-closed').waitFor({ state: 'detached' });
    await step(croupier, 'cover', 'covered');
    await step(croupier, 'fasten-latches', 'latched');
    await step(croupier, 'trigger-shaker', 'shaken');
    await step(croupier, 'open-betting', 'betting');
    await card.locator('.phase-pill.phase-betting').waitFor();
    await bet('player1', 'total:9', 9_050);
    await bet('player2', 'total:10', 253_000);
    await bet('player1', 'small', 5_000);
    await step(croupier, 'ring-bell', 'closed');

    // The stakes are amounts (12 px or more) at the spot's foot, never over its number.
    for (const [spot, text] of [
      ['total:9', '90.50'],
      ['total:10', '2,530'],
    ] as const) {
      const stake = croupier.locator(`.spot[data-spot="${spot}"] .stake`);
      await expect.poll(() => stake.textContent()).toBe(text);
      const size = Number(
        await stake.evaluate((el) => {
          // The suite's types have no DOM: the page's getComputedStyle, typed here.
          const view = globalThis as unknown as {
            getComputedStyle(e: unknown): { fontSize: string };
          };
          return parseFloat(view.getComputedStyle(el).fontSize);
        }),
      );
      expect(size).toBeGreaterThanOrEqual(12);
      const number = croupier.locator(`.spot[data-spot="${spot}"] .total-num`);
      expect(overlap((await stake.boundingBox())!, (await number.boundingBox())!), spot).toBe(
        false,
      );
    }
    expect(await croupier.locator('.felt-caption').textContent()).toBe('Stakes in MOP');
    expect(await croupier.locator('.event-log').textContent()).toContain('Total 9 MOP 90.50');

    await step(croupier, 'lift-dome', 'lifted');
    // A void roll asks first: declined, nothing happens.
    confirmAnswer = false;
    await croupier.locator('[data-focus="void:tilted"]').click();
    confirmAnswer = true;
    expect(await croupier.locator('.table-bar .phase-pill.phase-lifted').count()).toBe(1);
    await step(croupier, 'reveal-dice', 'revealed');
    // Art. 4: what "Pay all" will pay, in the table's currency, before it is pressed.
    expect(await croupier.locator('.notice-pay .pay-total').textContent()).toMatch(
      /^To pay: MOP [\d,.]+ · winning bets: \d+$/,
    );
    await shoot(croupier, 'floor-02-croupier-revealed-en');
    await step(croupier, 'pay-all', 'paid');
    await card.locator('.phase-pill.phase-paid').waitFor();
    await croupier.context().close();

    // The supervisor's console names the players who bet, never by id.
    await supervisor.goto(`${base}/#/croupier/${NEW_TABLE}`);
    const log = supervisor.locator('.event-log');
    await expect.poll(() => log.textContent()).toContain('Total 9 MOP 90.50 · Player One');
    expect(await log.textContent()).not.toMatch(/\(u-/);
    await supervisor.goto(`${base}/#/floor`);
    await card.waitFor();
    // The floor's report for the day: every table, and the floor's totals.
    const links = supervisor.locator('.floor-reports a');
    expect(await links.allTextContents()).toEqual(['HTML', 'CSV', 'JSON']);
    const report = await supervisor.evaluate(
      async (href) => {
        const answer = await fetch(href, { credentials: 'same-origin' });
        return { status: answer.status, text: await answer.text() };
      },
      (await links.first().getAttribute('href'))!,
    );
    expect(report.status).toBe(200);
    expect(report.text).toContain('Table Nine (T9)');
    expect(report.text).toContain('<tfoot><tr><td>The floor</td>');
  }, 120_000);

  it('runs the Art. 8 flow: earliest date, a refusal with its article, authorization, withdrawal', async () => {
    await supervisor.locator('#options-table').selectOption(NEW_TABLE);
    const earliest = supervisor.locator('.floor-earliest');
    await earliest.waitFor();
    const date = await supervisor.locator(`#adopt-${NEW_TABLE}`).inputValue();
    expect(await earliest.textContent()).toContain(date);
    await supervisor.locator('[data-focus="propose"]').click();
    await supervisor.locator('.proposal-pending').first().waitFor();
    // Proposed for today: too late under Art. 8, refused in the page's language only.
    const today = await supervisor.evaluate(() =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Macau' }).format(new Date()),
    );
    await supervisor.locator(`#adopt-${NEW_TABLE}`).fill(today);
    await supervisor.locator('[data-focus="propose"]').click();
    // The refusal's own message (an earlier error may still be showing beside it).
    const toast = supervisor.locator('.toast-error', { hasText: en('err.request_not_timely') });
    await toast.waitFor();
    expect(await toast.locator('.toast-text').textContent()).toBe(en('err.request_not_timely'));
    expect(await toast.locator('.art-badge').textContent()).toBe('Art. 8');
    await supervisor.locator(`#adopt-${NEW_TABLE}`).fill(date);
    await supervisor.locator('[data-focus="propose"]').click();
    await expect.poll(() => supervisor.locator('.proposal-pending').count()).toBe(2);

    const inspector = await open('inspector');
    await signIn(inspector, 'inspector', DEMO_PASSWORD);
    await inspector.waitForURL(/#\/inspector/);
    await inspector.goto(`${base}/#/floor`);
    await inspector.locator('#options-table').selectOption(NEW_TABLE);
    // The floor redraws its panels as the tables' events come (a live page): on a slow
    // machine the button may be redrawn under the click, so the step is retried whole.
    await vi.waitFor(
      async () => {
        const pending = inspector.locator('.proposal-pending').first();
        await pending.locator('input').first().fill('DICJ/2026/0042');
        await pending.locator('button[type=submit]').click({ timeout: 2_000 });
      },
      { timeout: 30_000, interval: 100 },
    );
    await inspector.locator('.proposal-authorized').waitFor();
    await inspector.context().close();

    await supervisor.locator('#options-table').selectOption('T1');
    await supervisor.locator('#options-table').selectOption(NEW_TABLE);
    await supervisor.locator('.proposal-authorized').waitFor();
    await supervisor.locator('.proposal-pending button.btn-red').click();
    await supervisor.locator('.proposal-withdrawn').waitFor();
  }, 90_000);

  it('uploads a year of holidays, and the warning goes once next year is official', async () => {
    await supervisor
      .locator('#holiday-file')
      .setInputFiles(join(ROOT, 'src', 'compliance', 'holidays', '2027.json'));
    await expect
      .poll(() => supervisor.locator('.toast-ok .toast-text').last().textContent())
      .toBe('Year 2027 loaded.');
    // 2027's bundled list is computed only: the floor says so while next year is 2027.
    const nextYear = Number(new Date().toISOString().slice(0, 4)) + 1;
    if (nextYear !== 2027) return;
    await supervisor.locator('.floor-warning').waitFor();
    const official = join(mkdtempSync(join(tmpdir(), 'cussec-holidays-')), '2027.json');
    const list = JSON.parse(
      readFileSync(join(ROOT, 'src', 'compliance', 'holidays', '2027.json'), 'utf8'),
    ) as Record<string, unknown>;
    writeFileSync(
      official,
      JSON.stringify({ ...list, official: true, source: 'Boletim Oficial (test copy)' }),
    );
    await supervisor.locator('#holiday-file').setInputFiles(official);
    await supervisor.locator('.floor-warning').waitFor({ state: 'detached' });
  });

  it('lists staff before players, each by username, and finds an account by name', async () => {
    await supervisor.reload();
    const rows = supervisor.locator('.floor-users tr[data-user]');
    await rows.first().waitFor();
    const order: (string | null)[] = [];
    for (const row of await rows.all()) order.push(await row.getAttribute('data-user'));
    expect(order).toEqual(['supervisor', 'croupier', 'cashier', 'inspector', 'player1', 'player2']);
    await supervisor.locator('[data-focus="find-user"]').fill('CHAN');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-user')).toBe('croupier');
    await supervisor.locator('[data-focus="find-user"]').fill('nobody at all');
    await expect.poll(() => rows.count()).toBe(0);
    await supervisor.locator('.floor-users td.muted').waitFor();
    await supervisor.locator('[data-focus="find-user"]').fill('');
    await expect.poll(() => rows.count()).toBe(6);
  });

  it('disables the croupier mid-shift (the console signs out), then a reset forces a change', async () => {
    const croupier = await open('croupier-2');
    await signIn(croupier, 'croupier', DEMO_PASSWORD);
    await croupier.locator('.table-list a[href="#/croupier/T1"]').click();
    await croupier.locator('.table-bar .phase-pill').waitFor();
    await supervisor.reload();
    await supervisor.locator('[data-focus="disable:croupier"]').click();
    await supervisor.locator('tr[data-user="croupier"].user-disabled').waitFor();
    // The server closed the console's socket: the page is back at sign-in.
    await croupier.locator('#login-user').waitFor();
    await croupier.locator('#login-user').fill('croupier');
    await croupier.locator('#login-pass').fill(DEMO_PASSWORD);
    await croupier.locator('button[type=submit]').click();
    await expect
      .poll(() => croupier.locator('.toast-error .toast-text').last().textContent())
      .toBe(en('err.invalid_credentials'));

    await supervisor.locator('[data-focus="enable:croupier"]').click();
    // The list is redrawn once enabled: fill the new row's field, not the old one's.
    await supervisor.locator('[data-focus="disable:croupier"]').waitFor();
    await supervisor.locator('[data-focus="reset-pass:croupier"]').fill('given by the boss 1');
    await supervisor.locator('[data-focus="reset:croupier"]').click();
    await supervisor.locator('tr[data-user="croupier"] .tag-info').waitFor();
    await signIn(croupier, 'croupier', 'given by the boss 1');
    await croupier.locator('.notice-required').waitFor();
    await changePassword(croupier, 'given by the boss 1', 'my own console key');
    await croupier.locator('.table-list a[href="#/croupier/T1"]').waitFor();
    await croupier.context().close();

    // The inspector sees who did it, to whom and when, newest first.
    const inspector = await open('inspector-staff');
    await signIn(inspector, 'inspector', DEMO_PASSWORD);
    await inspector.locator('#tab-staff').click();
    const rows = inspector.locator('table.staff-actions tbody tr');
    await rows.first().waitFor();
    const row = (type: string) => inspector.locator(`table.staff-actions tr[data-type="${type}"]`);
    expect(await row('user-disabled').first().locator('.staff-by').textContent()).toBe(
      'Supervisor (supervisor)',
    );
    expect(await row('user-disabled').first().textContent()).toContain('(croupier)');
    expect(await row('password-reset').count()).toBe(1);
    expect(await row('table-closed').first().textContent()).toContain(NEW_TABLE);
    expect(await row('table-opened').count()).toBe(1);
    expect(await row('table-created').first().locator('.staff-by').textContent()).toBe(
      'Supervisor (supervisor)',
    );
    await shoot(inspector, 'floor-05-staff-actions-en');
    await inspector.context().close();
  }, 90_000);

  it('shows the floor, the croupier console and the password page in zh-Hant, pt and en', async () => {
    await supervisor.goto(`${base}/#/floor`);
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      await supervisor.locator(`.lang-btn[lang="${lang}"]`).click();
      await supervisor.locator('.table-name').getByText(DICT['floor.title'][lang]).waitFor();
      await shoot(supervisor, `floor-01-floor-${lang}`);
    }
    await supervisor.goto(`${base}/#/croupier/${NEW_TABLE}`);
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      await supervisor.locator(`.lang-btn[lang="${lang}"]`).click();
      await supervisor
        .locator('.felt-caption')
        .getByText(DICT['croupier.stakesIn'][lang].replace('{currency}', 'MOP'))
        .waitFor();
      await shoot(supervisor, `floor-03-croupier-${lang}`);
    }
    await supervisor.goto(`${base}/#/password`);
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      await supervisor.locator(`.lang-btn[lang="${lang}"]`).click();
      await supervisor.getByRole('heading', { name: DICT['password.title'][lang] }).waitFor();
      await shoot(supervisor, `floor-04-password-${lang}`);
    }
  }, 120_000);
});
