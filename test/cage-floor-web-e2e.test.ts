/**
 * The cage and the supervisor's floor as staff work them all shift, in headless
 * Chromium against the real `cussec serve --demo`:
 *
 * - the cage's search takes a name typed key by key, as a person types it;
 * - a deposit's message says the amount moved and the new balance; the history
 *   lists it with the cashier and the balance after; the receipt has the amount
 *   in figures and in words in the page's language;
 * - balances follow the wallets without a reload;
 * - above the threshold the supervisor set on the floor, the cage asks first;
 * - the floor's card follows the stakes while bets come in;
 * - the Art. 8 form offers every house option inside the law's ranges; a
 *   proposal shows what it changes, who proposed it and when, and no bare id;
 *   withdrawing asks first; a recorded authorization shows its reference, its
 *   date and the inspector's name;
 * - sessions name their device and address and mark this one, which has no
 *   End button;
 * - a message covers no control, and the same error three times is one message;
 * - the cage and the floor in zh-Hant, pt and en at both sizes
 *   (test-output/screenshots/cage-*.png, floor-settings-*.png).
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICT } from '../web/src/i18n/dict.js';
import { amountInWords } from '../web/src/logic/amount-words.js';
import { formatMoney } from '../web/src/logic/money.js';
import { DESKTOP, SHOTS, shoot } from './screenshots.js';
import { freePort, ServeProcess } from './serve-process.js';
import { buildWebIfStale } from './web-build.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const DEMO_PASSWORD = 'cussec-demo-1';
const SUPERVISOR_PASSWORD = 'the floor is mine 2026';
const WAIT_MS = 10_000;

const en = (key: keyof typeof DICT): string => DICT[key].en;

let server: ServeProcess | undefined;
let browser: Browser | undefined;
let base = '';
/** Each confirmation's question, and the answer the pages get: yes unless a test says otherwise. */
const asked: string[] = [];
let confirmAnswer = true;

async function open(name: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser!.newContext({
    viewport,
    locale: 'en-US',
    timezoneId: 'Asia/Macau',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw new Error(`${name}: ${error.message}`);
  });
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void (confirmAnswer ? dialog.accept() : dialog.dismiss());
  });
  return page;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${base}/#/`);
  await page.locator('#login-user').fill(username);
  await page.locator('#login-pass').fill(password);
  await page.locator('button[type=submit]').click();
}

/** A call of the API as a user (the other side of what the page shows). */
async function apiAs(
  username: string,
  password: string,
): Promise<(method: string, path: string, body?: unknown) => Promise<unknown>> {
  const session = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const { token } = (await session.json()) as { token: string };
  return async (method, path, body) => {
    const answer = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = answer.status === 204 ? null : await answer.json();
    expect(answer.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json;
  };
}

/**
 * What of the top bar and of `selector` (the controls just used) a message is
 * over, read in the page at one instant.
 */
async function coveredByMessages(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const strip = document.querySelector('.toasts');
    if (strip === null || strip.childElementCount === 0) return [];
    const s = strip.getBoundingClientRect();
    const covered = [];
    for (const el of document.querySelectorAll('.topbar, ${selector}')) {
      const b = el.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) continue;
      if (b.x < s.x + s.width && s.x < b.x + b.width && b.y < s.y + s.height && s.y < b.y + b.height)
        covered.push(el.getAttribute('data-focus') || el.className || el.tagName);
    }
    return covered;
  })()`);
}

describe.skipIf(!HAVE_CHROMIUM)('the cage and the floor in Chromium', () => {
  let cashier: Page;
  let supervisor: Page;
  let cashierApi: Awaited<ReturnType<typeof apiAs>>;
  let supervisorApi: Awaited<ReturnType<typeof apiAs>>;
  let playerId = '';
  let currency = '';

  beforeAll(async () => {
    buildWebIfStale();
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await ServeProcess.start(
      ['--data', mkdtempSync(join(tmpdir(), 'cussec-cage-e2e-')), '--port', String(port), '--demo'],
      { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD },
      60_000,
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
    });
    cashierApi = await apiAs('cashier', DEMO_PASSWORD);
    supervisorApi = await apiAs('supervisor', SUPERVISOR_PASSWORD);
    const players = (await cashierApi('GET', '/players')) as { id: string; username: string }[];
    playerId = players.find((p) => p.username === 'player1')!.id;
    currency = ((await cashierApi('GET', '/tables')) as { currency: string }[])[0]!.currency;
    // A slow machine never rings the bell mid-test.
    await supervisorApi('PATCH', '/tables/T1/limits', { bettingTimerMs: 120_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.running) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('finds a player by a name typed key by key, as a person types it', async () => {
    cashier = await open('cashier');
    await signIn(cashier, 'cashier', DEMO_PASSWORD);
    await cashier.waitForURL(/#\/cage$/);
    await cashier.locator('tr[data-player="player2"]').waitFor();
    const search = cashier.locator('input.search');
    await search.click();
    await cashier.keyboard.type('player1', { delay: 60 });
    // Not "1reyalp": the box keeps its text and cursor while the list follows it.
    expect(await search.inputValue()).toBe('player1');
    await expect.poll(() => cashier.locator('tr[data-player]').count()).toBe(1);
    await search.press('Backspace');
    await search.pressSequentially('2', { delay: 60 });
    expect(await search.inputValue()).toBe('player2');
    await expect
      .poll(() => cashier.locator('tr[data-player]').getAttribute('data-player'))
      .toBe('player2');
    await search.fill('');
  }, 60_000);

  it('says the amount moved and the balance, lists it, and prints a receipt in words', async () => {
    await cashier.locator('tr[data-player="player1"] button').click();
    const before = Number(
      ((await cashierApi('GET', '/players')) as { id: string; balanceMinor: number }[]).find(
        (p) => p.id === playerId,
      )!.balanceMinor,
    );
    await cashier.locator('#cage-amount').fill('500');
    await cashier.locator('[data-focus="deposit"]').click();
    const after = formatMoney(before + 50_000, currency);
    await expect
      .poll(() => cashier.locator('.toast-ok .toast-text').last().textContent())
      .toBe(`Player One: Deposit of ${formatMoney(50_000, currency)}; balance ${after}.`);
    const row = cashier.locator('.cage-history tbody tr').first();
    expect(await row.locator('td').allInnerTexts()).toEqual([
      expect.any(String) as string,
      'Deposit',
      `+${formatMoney(50_000, currency)}`,
      'Cashier Lei',
      after,
      'Receipt',
    ]);
    // The receipt of the move just made shows at once, in words in the page's language.
    const words = cashier.locator('.receipt .receipt-words dd');
    expect(await words.textContent()).toBe(amountInWords(50_000, currency, 'en'));
    expect(await words.textContent()).toBe('five hundred patacas');
    await cashier.locator('.lang-btn[lang="zh-Hant"]').click();
    expect(await words.textContent()).toBe('澳門幣伍佰元正');
    await cashier.locator('.lang-btn[lang="pt"]').click();
    expect(await words.textContent()).toBe('quinhentas patacas');
    await cashier.locator('.lang-btn[lang="en"]').click();
    // Printed, the receipt is all there is on the page.
    await cashier.emulateMedia({ media: 'print' });
    expect(await cashier.locator('.receipt').isVisible()).toBe(true);
    expect(
      await cashier.evaluate(
        'getComputedStyle(document.querySelector(".topbar .brand")).visibility',
      ),
    ).toBe('hidden');
    await cashier.emulateMedia({ media: 'screen' });
  }, 60_000);

  it('follows the balances without a reload', async () => {
    const cell = cashier.locator('tr[data-player="player2"] .player-balance');
    const shown = await cell.textContent();
    const players = (await cashierApi('GET', '/players')) as { id: string; username: string }[];
    const player2 = players.find((p) => p.username === 'player2')!.id;
    await cashierApi('POST', `/players/${player2}/deposits`, { amountMinor: 12_300 });
    await expect.poll(() => cell.textContent(), { timeout: 8_000 }).not.toBe(shown);
  }, 30_000);

  it('asks before moving more than the threshold the supervisor set on the floor', async () => {
    supervisor = await open('supervisor');
    await signIn(supervisor, 'supervisor', SUPERVISOR_PASSWORD);
    await supervisor.waitForURL(/#\/floor$/);
    await supervisor.locator('#cage-threshold').fill('1000');
    await supervisor.locator('[data-focus="save-settings"]').click();
    await supervisor
      .locator('.settings-by')
      .getByText(/Set by Supervisor/)
      .waitFor();
    await cashier.reload();
    await cashier.locator('tr[data-player="player1"] button').click();
    await cashier.locator('.cage-history tbody tr').first().waitFor();
    const rows = await cashier.locator('.cage-history tbody tr').count();
    confirmAnswer = false;
    await cashier.locator('#cage-amount').fill('2000');
    await cashier.locator('[data-focus="deposit"]').click();
    await expect
      .poll(() => asked.at(-1))
      .toBe(`Confirm the Deposit of ${formatMoney(200_000, currency)} for Player One?`);
    expect(await cashier.locator('.cage-history tbody tr').count()).toBe(rows);
    confirmAnswer = true;
    await cashier.locator('[data-focus="deposit"]').click();
    await expect.poll(() => cashier.locator('.cage-history tbody tr').count()).toBe(rows + 1);
    // Under the threshold nothing is asked.
    const questions = asked.length;
    await cashier.locator('#cage-amount').fill('10');
    await cashier.locator('[data-focus="deposit"]').click();
    await expect.poll(() => cashier.locator('.cage-history tbody tr').count()).toBe(rows + 2);
    expect(asked.length).toBe(questions);
  }, 60_000);

  it('shows the same error three times as one message that covers no control', async () => {
    for (const viewport of [DESKTOP, { width: 390, height: 844 }]) {
      await cashier.setViewportSize(viewport);
      for (const toast of await cashier.locator('.toast-close').all()) await toast.click();
      await cashier.locator('#cage-amount').fill('');
      for (let i = 0; i < 3; i++) await cashier.locator('[data-focus="deposit"]').click();
      const errors = cashier.locator('.toast-error');
      await expect.poll(() => errors.count()).toBe(1);
      expect(await errors.locator('.toast-text').textContent()).toBe(en('cage.badAmount'));
      expect(await errors.locator('.toast-count').textContent()).toBe('×3');
      expect(await coveredByMessages(cashier, '#cage-amount, [data-focus=deposit]')).toEqual([]);
    }
    await cashier.setViewportSize(DESKTOP);
  }, 60_000);

  it("follows the table's players and stakes on the floor while bets come in", async () => {
    const croupier = await apiAs('croupier', DEMO_PASSWORD);
    for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'])
      await croupier('POST', '/tables/T1/commands', { type });
    const card = supervisor.locator('.floor-card[data-table="T1"]');
    await card.locator('.phase-pill.phase-betting').waitFor();
    const player = await apiAs('player2', DEMO_PASSWORD);
    await player('POST', '/tables/T1/bets', { betId: 'e2e-b1', spot: 'small', stakeMinor: 50_000 });
    const stat = (label: string) =>
      card.locator('.floor-stat', { hasText: label }).locator('.floor-stat-value');
    // Still betting: the card moves with the stakes, not at the next phase.
    await expect.poll(() => stat(en('floor.players')).textContent(), { timeout: 5_000 }).toBe('1');
    expect(await stat(en('floor.stakes')).textContent()).toBe(formatMoney(50_000, currency));
    expect(await card.locator('.phase-pill.phase-betting').count()).toBe(1);
  }, 60_000);

  it('offers every house option in its legal range, shows a proposal in words, and asks before withdrawing', async () => {
    await supervisor.locator('#options-table').selectOption('T1');
    const form = supervisor.locator('.propose-form');
    const odds516 = form.locator('#adopt-516-T1');
    expect([await odds516.getAttribute('min'), await odds516.getAttribute('max')]).toEqual([
      '18',
      '30',
    ]);
    const odds615 = form.locator('#adopt-615-T1');
    expect([await odds615.getAttribute('min'), await odds615.getAttribute('max')]).toEqual([
      '14',
      '18',
    ]);
    expect(await form.locator('.bet-kinds input[type=checkbox]').count()).toBe(13);
    expect(await form.locator('#adopt-layouts-T1').inputValue()).toBe('1');
    await odds516.fill('24');
    await form.locator('input[data-kind="four-numbers"]').uncheck();
    await form.locator('#adopt-layouts-T1').fill('2');
    await form.locator('[data-focus="propose"]').click();
    const proposal = supervisor.locator('.proposal-pending').first();
    await proposal.waitFor();
    const changes = await proposal.locator('.proposal-changes li').allInnerTexts();
    expect(changes).toEqual([
      'Layouts: 1 → 2',
      '5/16: 18:1 → 24:1 (Art. 6.6)',
      `− ${en('bet.four-numbers')}`,
    ]);
    expect(await proposal.locator('.proposal-by').textContent()).toMatch(
      /^Proposed by Supervisor on \d{4}-\d{2}-\d{2}$/,
    );
    // No bare ids: nothing like p-66e2… or u-f9fcea47b0 anywhere in the panel.
    const panelText = await supervisor.locator('.floor-options').innerText();
    expect(panelText).not.toMatch(/\b[pu]-[0-9a-f]{6,}/);
    await shoot(supervisor, 'floor-options-en');
    confirmAnswer = false;
    await proposal.locator('button.btn-red').click();
    await expect.poll(() => asked.at(-1)).toMatch(/^Withdraw the proposal for \d{4}-\d{2}-\d{2}\?/);
    expect(await supervisor.locator('.proposal-pending').count()).toBe(1);
    confirmAnswer = true;
    await proposal.locator('button.btn-red').click();
    await supervisor.locator('.proposal-withdrawn').first().waitFor();
    await supervisor.locator('.toast-ok').waitFor();
    expect(await coveredByMessages(supervisor, '.proposal-withdrawn')).toEqual([]);
  }, 60_000);

  it("shows the DICJ's authorization with its date and the inspector's name, not undefined", async () => {
    const form = supervisor.locator('.propose-form');
    await form.locator('#adopt-615-T1').fill('16');
    await form.locator('[data-focus="propose"]').click();
    await supervisor.locator('.proposal-pending').first().waitFor();
    const inspector = await open('inspector');
    await signIn(inspector, 'inspector', DEMO_PASSWORD);
    await inspector.waitForURL(/#\/inspector/);
    await inspector.goto(`${base}/#/floor`);
    await inspector.locator('#options-table').selectOption('T1');
    const pending = inspector.locator('.proposal-pending').first();
    await pending.locator('button[type=submit]').waitFor();
    const date = pending.locator('input[type=date]');
    await expect.poll(() => date.inputValue()).not.toBe('');
    const today = await date.inputValue();
    await pending.locator('input').first().fill('DICJ/2026/0457');
    await pending.locator('button[type=submit]').click();
    const line = inspector.locator('.proposal-authorized .proposal-authorization');
    await line.waitFor();
    expect(await line.textContent()).toBe(
      `DICJ authorization DICJ/2026/0457 (${today}), recorded by DICJ Inspector`,
    );
    await inspector.context().close();
  }, 60_000);

  it("names each session's device and address, and the supervisor's own has no End", async () => {
    const row = supervisor.locator('tr[data-user="supervisor"]');
    await row.getByRole('button', { name: en('floor.sessions') }).click();
    const own = row.locator('.session-current');
    await own.waitFor();
    expect(await own.innerText()).toContain('Chrome');
    expect(await own.innerText()).toContain('from 127.0.0.1');
    expect(await own.locator('.tag-info').textContent()).toBe(en('floor.thisSession'));
    expect(await own.locator('button').count()).toBe(0);
    // The API session of this suite is another: it can be ended, after a question.
    const other = row.locator('.session:not(.session-current)').first();
    await other.locator('button').click();
    await expect.poll(() => asked.at(-1)).toMatch(/^End Supervisor's session on /);
    await expect.poll(() => row.locator('.session').count()).toBe(1);
    await supervisor.locator('.toast-ok').waitFor();
    expect(await coveredByMessages(supervisor, 'tr[data-user="supervisor"] button')).toEqual([]);
  }, 60_000);

  it('shows the cage and the floor in zh-Hant, pt and en', async () => {
    await cashier.locator('.cage-history [data-focus^="receipt:"]').first().click();
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      for (const page of [cashier, supervisor])
        await page.locator(`.lang-btn[lang="${lang}"]`).click();
      await shoot(cashier, `cage-${lang}`);
      await supervisor.locator('.floor-settings').scrollIntoViewIfNeeded();
      await shoot(supervisor, `floor-settings-${lang}`);
    }
  }, 120_000);
});
