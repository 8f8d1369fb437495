/**
 * Who may play (Lei 10/2012; Instrução 1/2016; Lei 8/2005) as the staff see
 * it, in headless Chromium against the real `cussec serve --demo`:
 *
 * - at the cage, a picked player's identity status and whether they may play
 *   show before an amount is typed; a corrected identity with a wrong Hong
 *   Kong check digit is refused with the problem beside the field, in the
 *   page's language, and saved once fixed;
 * - a deposit of MOP 500,000 or more asks the cashier to confirm the sighting
 *   of the document it names, and is sent with `documentSighted` only then; a
 *   move the page did not see as large is asked when the server says so;
 * - a self-excluded player's deposit is refused with the reason and the law
 *   in the page's language, and the status says until when;
 * - the supervisor finds the order in the register, requests its revocation
 *   after a question, loads a DICJ file (good, existing and bad rows named),
 *   reads the large-transaction register with its CSV, and creates a
 *   compliance officer from the accounts form;
 * - the compliance officer closes a flag and reports another, each with a
 *   reason, and downloads the GIF report; the inspector reads all of it and
 *   who read whose identity;
 * - the cage, the floor's registers, the compliance page and the inspector's
 *   tabs in zh-Hant, pt and en at both sizes (test-output/screenshots/people-*.png),
 *   each checked by axe (test/axe.ts).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../src/compliance/iso-date.js';
import { DICT } from '../web/src/i18n/dict.js';
import { formatMoney } from '../web/src/logic/money.js';
import { macauToday, revocationEffectiveOn } from '../web/src/logic/people.js';
import { DESKTOP, SHOTS, shoot } from './screenshots.js';
import { freePort, ServeProcess } from './serve-process.js';
import { buildWebIfStale } from './web-build.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const DEMO_PASSWORD = 'cussec-demo-1';
const SUPERVISOR_PASSWORD = 'the floor is mine 2026';
const COMPLIANCE_FIRST = 'first one of mak 2026';
const COMPLIANCE_PASSWORD = 'the queue is mine 2026';
const WAIT_MS = 10_000;
const LANGS = ['zh-Hant', 'pt', 'en'] as const;

type Key = keyof typeof DICT;
const en = (key: Key): string => DICT[key].en;

let server: ServeProcess | undefined;
let browser: Browser | undefined;
let base = '';
/** Each confirmation's question, and the answer the pages get: yes unless a test says otherwise. */
const asked: string[] = [];
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

type Call = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** The API as a user; `call` answers every status, the returned function only success. */
async function apiAs(username: string, password: string): Promise<Call> {
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
        'idempotency-key': `e2e-${randomUUID()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = answer.status === 204 ? null : await answer.json();
    expect(answer.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json;
  };
}

/** The last message of a tone in the strip at the bottom of the page. */
const lastToast = (page: Page, tone: 'ok' | 'error' | 'info') =>
  page.locator(`.toast-${tone} .toast-text`).last();

async function setLang(page: Page, lang: (typeof LANGS)[number]): Promise<void> {
  await page.locator(`.lang-btn[lang="${lang}"]`).click();
}

/** Dismisses the messages shown, so the next one is read alone (and a picture shows only it). */
async function closeToasts(page: Page): Promise<void> {
  await page.evaluate('document.querySelectorAll(".toast").forEach((t) => t.remove())');
}

describe.skipIf(!HAVE_CHROMIUM)('who may play, at the cage and in the registers', () => {
  let cashier: Page;
  let supervisor: Page;
  let compliance: Page;
  let cashierApi: Call;
  let inspectorApi: Call;
  let player1 = '';
  let player2 = '';
  let currency = '';
  const today = macauToday(Date.now());
  const orderTo = addDays(today, 365);
  /** Every deposit the cage page sent, as its body. */
  const deposits: { amountMinor: number; documentSighted?: boolean }[] = [];

  beforeAll(async () => {
    buildWebIfStale();
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await ServeProcess.start(
      [
        '--data',
        mkdtempSync(join(tmpdir(), 'cussec-people-e2e-')),
        '--port',
        String(port),
        '--demo',
      ],
      { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD },
      60_000,
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
    });
    cashierApi = await apiAs('cashier', DEMO_PASSWORD);
    inspectorApi = await apiAs('inspector', DEMO_PASSWORD);
    const players = (await cashierApi('GET', '/players')) as { id: string; username: string }[];
    player1 = players.find((p) => p.username === 'player1')!.id;
    player2 = players.find((p) => p.username === 'player2')!.id;
    currency = ((await cashierApi('GET', '/tables')) as { currency: string }[])[0]!.currency;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.running) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('shows whether a picked player may play before an amount is typed', async () => {
    cashier = await open('cashier');
    cashier.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/deposits'))
        deposits.push(request.postDataJSON() as (typeof deposits)[number]);
    });
    await signIn(cashier, 'cashier', DEMO_PASSWORD);
    await cashier.waitForURL(/#\/cage$/);
    await cashier.locator('tr[data-player="player1"] button').click();
    const status = cashier.locator('.elig[data-eligible]');
    await status.waitFor();
    expect(await status.getAttribute('data-eligible')).toBe('true');
    expect(await status.locator('.elig-identity').innerText()).toContain(en('identity.recorded'));
    expect(await status.locator('.elig-identity').innerText()).toContain(
      en('identity.demonstration'),
    );
    expect(await status.locator('.elig-verdict').innerText()).toBe(`May play today (${today}).`);
    // Lei 8/2005: nothing personal is read until the cashier asks to see it.
    expect(await cashier.locator('.identity-form').count()).toBe(0);
    expect(await cashier.locator('#cage-amount').inputValue()).toBe('');
  }, 60_000);

  it('puts the server’s problem beside the field of a corrected identity, in the page’s language, and saves it fixed', async () => {
    await cashier.locator('[data-focus="show-identity"]').click();
    const form = cashier.locator('.identity-form');
    await form.waitFor();
    expect(await cashier.locator('#identity-fullName').inputValue()).toBe('Player One');
    await cashier.locator('#identity-fullName').fill('CHAN Tai Man');
    await cashier.locator('#identity-documentType').selectOption('hk-id');
    await cashier.locator('#identity-documentNumber').fill('A123456(4)');
    await cashier.locator('#identity-issuingPlace').fill('Hong Kong');
    await cashier.locator('#identity-dateOfBirth').fill('1990-05-01');
    await cashier.locator('#identity-nationality').fill('Chinese');
    await cashier.locator('[data-focus="save-identity"]').click();
    const error = cashier.locator('.field[data-field="documentNumber"] .field-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(en('issue.document_check_digit'));
    expect(await cashier.locator('#identity-documentNumber').getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(
      await cashier.locator('#identity-documentNumber').getAttribute('aria-describedby'),
    ).toContain('identity-documentNumber-error');
    // Only that field is marked; what was typed stays.
    expect(await cashier.locator('.identity-form .field-error').count()).toBe(1);
    expect(await cashier.locator('#identity-fullName').inputValue()).toBe('CHAN Tai Man');
    expect(await lastToast(cashier, 'error').textContent()).toBe(en('err.identity_invalid'));
    for (const lang of LANGS) {
      await setLang(cashier, lang);
      expect(await error.textContent()).toBe(DICT['issue.document_check_digit'][lang]);
      // Sent again in this language: the refusal's sentence is in it too.
      await closeToasts(cashier);
      await cashier.locator('[data-focus="save-identity"]').click();
      await expect
        .poll(() => lastToast(cashier, 'error').textContent())
        .toBe(DICT['err.identity_invalid'][lang]);
      await shoot(cashier, `people-01-identity-error-${lang}`);
    }
    await cashier.locator('#identity-documentNumber').fill('A123456(3)');
    await cashier.locator('[data-focus="save-identity"]').click();
    await expect
      .poll(() => lastToast(cashier, 'ok').textContent())
      .toBe('Identity of Player One saved (version 2).');
    expect(await cashier.locator('.identity-form .field-error').count()).toBe(0);
    expect(await cashier.locator('.identity-version').textContent()).toMatch(
      /^Version 2, recorded .+ by Cashier Lei$/,
    );
    // A real identity now: no demonstration tag, and still free to play.
    await expect
      .poll(() => cashier.locator('.elig-identity').innerText())
      .not.toContain(en('identity.demonstration'));
    expect(await cashier.locator('.elig').getAttribute('data-eligible')).toBe('true');
  }, 120_000);

  it('asks to confirm the sighting of the named document from MOP 500,000, and deposits only then', async () => {
    const rows = cashier.locator('.cage-history tbody tr');
    const before = await rows.count();
    await cashier.locator('#cage-amount').fill('600000');
    await expect.poll(() => cashier.locator('.cage-large').isVisible()).toBe(true);
    expect(await cashier.locator('.cage-large').textContent()).toBe(en('cage.largeNow'));
    confirmAnswer = false;
    await cashier.locator('[data-focus="deposit"]').click();
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    const question = asked.at(-1)!;
    expect(question).toContain(`this amount reaches ${formatMoney(50_000_000, currency)}`);
    expect(question).toContain(
      `Deposit of ${formatMoney(60_000_000, currency)} for Player One: have you seen the player's Hong Kong ID card A123456(3), in the name of CHAN Tai Man?`,
    );
    // Declined: nothing is sent.
    expect(deposits).toEqual([]);
    expect(await rows.count()).toBe(before);
    confirmAnswer = true;
    await cashier.locator('[data-focus="deposit"]').click();
    await expect.poll(() => rows.count()).toBe(before + 1);
    expect(deposits).toEqual([{ amountMinor: 60_000_000, documentSighted: true }]);
    expect(await rows.first().locator('td').nth(2).textContent()).toBe(
      `+${formatMoney(60_000_000, currency)}`,
    );
    expect(await lastToast(cashier, 'ok').textContent()).toContain('Player One: Deposit of');
  }, 60_000);

  it('asks for the sighting when the server finds the day’s cash large where the page did not', async () => {
    await cashier.locator('tr[data-player="player2"] button').click();
    await cashier.locator('.elig[data-eligible="true"]').waitFor();
    await cashier.locator('.cage-history tbody tr').first().waitFor();
    // Another cashier's move the page has not read: MOP 450,000 of today already.
    await cashierApi('POST', `/players/${player2}/deposits`, { amountMinor: 45_000_000 });
    const questions = asked.length;
    deposits.length = 0;
    await cashier.locator('#cage-amount').fill('100000');
    await cashier.locator('[data-focus="deposit"]').click();
    await expect.poll(() => asked.length).toBe(questions + 1);
    expect(asked.at(-1)).toContain("with the player's other cash moves of today");
    expect(asked.at(-1)).toContain('Other document DEMO');
    await expect.poll(() => deposits.length).toBe(2);
    expect(deposits).toEqual([
      { amountMinor: 10_000_000 },
      { amountMinor: 10_000_000, documentSighted: true },
    ]);
    await expect.poll(() => lastToast(cashier, 'ok').textContent()).toContain('Player Two');
  }, 60_000);

  it('refuses a self-excluded player’s deposit with the reason and the law in the page’s language', async () => {
    await inspectorApi('POST', '/exclusions', {
      id: 'EX-E2E-1',
      kind: 'self',
      dicjReference: 'DICJ/AE/2026/0001',
      documentType: 'hk-id',
      documentNumber: 'a123456 3',
      fullName: 'CHAN Tai Man',
      dateOfBirth: '1990-05-01',
      from: today,
      to: orderTo,
      revocationRequestedOn: null,
    });
    await cashier.locator('tr[data-player="player1"] button').click();
    await cashier.locator('.elig[data-eligible]').waitFor();
    await cashier.locator('#cage-amount').fill('100');
    // The page's status was read before the order: the server refuses, and the page reads it again.
    await cashier.locator('[data-focus="deposit"]').click();
    const refusal = cashier.locator('.toast-error').last();
    await expect.poll(() => refusal.locator('.toast-text').textContent()).toBe(en('err.excluded'));
    expect(await refusal.locator('.art-badge').textContent()).toBe('Law 10/2012, art. 6');
    const status = cashier.locator('.elig[data-eligible="false"]');
    await status.waitFor();
    expect(await status.locator('.elig-verdict strong').textContent()).toBe(
      `Barred from the casinos until ${orderTo}, inclusive.`,
    );
    for (const lang of LANGS) {
      await setLang(cashier, lang);
      expect(await status.locator('.elig-verdict strong').textContent()).toBe(
        DICT['elig.excluded'][lang].replace('{until}', orderTo),
      );
      await closeToasts(cashier);
      const questions = asked.length;
      await cashier.locator('#cage-amount').fill('100');
      await cashier.locator('[data-focus="deposit"]').click();
      await expect
        .poll(() => cashier.locator('.toast-error .toast-text').last().textContent())
        .toBe(DICT['err.excluded'][lang]);
      // Known barred: no sighting is asked for money the server will not take.
      expect(asked.length).toBe(questions);
      await shoot(cashier, `people-02-cage-excluded-${lang}`);
    }
    expect(await status.locator('.art-badge').textContent()).toBe('Law 10/2012, art. 6');
    await setLang(cashier, 'zh-Hant');
    expect(await status.locator('.art-badge').textContent()).toBe('第10/2012號法律第6條');
    await setLang(cashier, 'en');
  }, 120_000);

  it('finds the order in the supervisor’s register and requests its revocation after a question', async () => {
    supervisor = await open('supervisor');
    await signIn(supervisor, 'supervisor', SUPERVISOR_PASSWORD);
    await supervisor.waitForURL(/#\/floor$/);
    const register = supervisor.locator('.excl-register');
    await register.locator('tr[data-order="EX-E2E-1"]').waitFor();
    await register.locator('.excl-find').fill('a 1234563');
    await expect.poll(() => register.locator('tr[data-order]').count()).toBe(1);
    await register.locator('.excl-find').fill('nobody at all');
    await expect.poll(() => register.locator('tr[data-order]').count()).toBe(0);
    await register.locator('.excl-find').fill('chan');
    const row = register.locator('tr[data-order="EX-E2E-1"]');
    expect(await row.locator('.order-state').innerText()).toContain(`In force until ${orderTo}`);
    confirmAnswer = false;
    await row.locator('[data-focus="revoke:EX-E2E-1"]').click();
    const effective = revocationEffectiveOn(today);
    await expect
      .poll(() => asked.at(-1))
      .toBe(
        `Record that the person asked today (${today}) to revoke order EX-E2E-1? It takes effect 30 days later, on ${effective} (Law 10/2012, art. 6).`,
      );
    expect(await row.locator('.order-state').innerText()).not.toContain('Revocation');
    confirmAnswer = true;
    await row.locator('[data-focus="revoke:EX-E2E-1"]').click();
    await expect
      .poll(() => row.locator('.order-state').innerText())
      .toContain(`Revocation asked on ${today}, effective ${effective}`);
    // Asked once: no second request is offered.
    expect(await row.locator('[data-focus="revoke:EX-E2E-1"]').count()).toBe(0);
    // Still barred for 30 days (Lei 10/2012, art. 6).
    const still = (await cashierApi('GET', `/players/${player1}/eligibility`)) as {
      refusal: { code: string; until: string } | null;
    };
    expect(still.refusal).toEqual(
      expect.objectContaining({ code: 'excluded', until: addDays(today, 29) }),
    );
  }, 60_000);

  it('refuses the barred player’s bet on the layout with the same reason and law', async () => {
    const supervisorApi = await apiAs('supervisor', SUPERVISOR_PASSWORD);
    // A slow machine never rings the bell mid-test.
    await supervisorApi('PATCH', '/tables/T1/limits', { bettingTimerMs: 120_000 });
    const croupierApi = await apiAs('croupier', DEMO_PASSWORD);
    for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'])
      await croupierApi('POST', '/tables/T1/commands', { type });
    const player = await open('player1');
    await signIn(player, 'player1', DEMO_PASSWORD);
    await player.waitForURL(/#\/table\/T1$/);
    await player.locator('.table-bar .phase-pill.phase-betting').waitFor();
    for (const lang of ['en', 'zh-Hant'] as const) {
      await setLang(player, lang);
      await closeToasts(player);
      await player.locator('.felt .spot[data-spot="small"]').click();
      const refusal = player.locator('.toast-error').last();
      await expect
        .poll(() => refusal.locator('.toast-text').textContent())
        .toBe(DICT['err.excluded'][lang]);
      expect(await refusal.locator('.art-badge').textContent()).toBe(
        lang === 'en' ? 'Law 10/2012, art. 6' : '第10/2012號法律第6條',
      );
    }
    // Nothing stands on the layout: the page took back what the server refused.
    expect(await player.locator('.bet-row').count()).toBe(0);
    await player.context().close();
  }, 60_000);

  it('loads a DICJ file by its extension, naming the recorded, existing and bad rows', async () => {
    const register = supervisor.locator('.excl-register');
    await register.locator('.excl-find').fill('');
    const header =
      'id,kind,dicjReference,documentType,documentNumber,fullName,dateOfBirth,from,to,revocationRequestedOn';
    const csv = [
      header,
      `EX-E2E-2,court,TJB/2026/77,mainland-permit,C12345678,Wong Siu Ming,1975-02-03,${today},${orderTo},`,
      `EX-E2E-1,self,DICJ/AE/2026/0001,hk-id,A123456(3),CHAN Tai Man,1990-05-01,${today},${orderTo},`,
      `EX-E2E-3,self,DICJ/AE/2026/0002,hk-id,B654321(0),Lei Ka Io,1988-08-08,${today},${orderTo},`,
    ].join('\n');
    await register.locator('.excl-more-bulk summary').click();
    await supervisor.locator('#exclusion-file').setInputFiles({
      name: 'not-a-list.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(csv),
    });
    await expect
      .poll(() => lastToast(supervisor, 'error').textContent())
      .toBe(en('excl.badExtension'));
    await supervisor.locator('#exclusion-file').setInputFiles({
      name: 'dicj-2026.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    const line = register.locator('.excl-loaded-line');
    await line.waitFor();
    expect(await line.textContent()).toBe(
      'dicj-2026.csv: recorded 1; already on record 1; rows with mistakes 1.',
    );
    expect(await register.locator('.excl-existing').textContent()).toBe(
      'Already on record: EX-E2E-1',
    );
    const bad = register.locator('.bad-rows tbody tr');
    expect(await bad.count()).toBe(1);
    expect(await bad.first().locator('td').allInnerTexts()).toEqual([
      '3',
      en('identity.documentNumber'),
      en('issue.document_check_digit'),
    ]);
    await register.locator('tr[data-order="EX-E2E-2"]').waitFor();
    expect(await register.locator('tr[data-order="EX-E2E-3"]').count()).toBe(0);
    // A court decision is not revoked on request (Lei 10/2012, art. 2): no button.
    expect(await register.locator('[data-focus="revoke:EX-E2E-2"]').count()).toBe(0);
  }, 60_000);

  it('enters an order by hand, every problem beside its field at once', async () => {
    const register = supervisor.locator('.excl-register');
    await register.locator('.excl-more-add summary').click();
    await register.locator('#order-id').fill('EX-E2E-4');
    await register.locator('#order-dicjReference').fill('DICJ/AE/2026/0003');
    await register.locator('#order-documentType').selectOption('macau-id');
    await register.locator('#order-documentNumber').fill('9234567(1)');
    await register.locator('#order-from').fill(today);
    await register.locator('#order-to').fill(addDays(today, 3 * 365));
    await register.locator('[data-focus="add-order"]').click();
    const numberError = register.locator('.field[data-field="documentNumber"] .field-error');
    const toError = register.locator('.field[data-field="to"] .field-error');
    await numberError.waitFor();
    expect(await numberError.textContent()).toBe(en('issue.document_format.macau-id'));
    // Art. 6: a self-exclusion lasts at most two years.
    expect(await toError.textContent()).toBe(en('issue.period_too_long'));
    expect(await register.locator('.excl-add .field-error').count()).toBe(2);
    await register.locator('#order-documentNumber').fill('1234567(8)');
    await register.locator('#order-to').fill(addDays(today, 100));
    await register.locator('[data-focus="add-order"]').click();
    await register.locator('tr[data-order="EX-E2E-4"]').waitFor();
    expect(await lastToast(supervisor, 'ok').textContent()).toBe('Order EX-E2E-4 recorded.');
    expect(await register.locator('.excl-add .field-error').count()).toBe(0);
    expect(await register.locator('#order-id').inputValue()).toBe('');
  }, 60_000);

  it('reads the large-transaction register for a range of dates, with its CSV', async () => {
    const large = supervisor.locator('.large-register');
    await large.locator('[data-focus="large-show"]').click();
    await expect.poll(() => large.locator('tr[data-large]').count()).toBe(2);
    const first = await large.locator('tr[data-large]').first().locator('td').allInnerTexts();
    expect(first.slice(1, 7)).toEqual([
      'CHAN Tai Man\n@player1',
      `${en('doc.hk-id')}\nA123456(3)`,
      formatMoney(60_000_000, currency),
      'Deposit',
      en('large.reason.single'),
      'Cashier Lei (@cashier)',
    ]);
    const href = await large.locator('[data-focus="large-csv"]').getAttribute('href');
    expect(href).toBe(`/api/v1/large-transactions?from=${today}&to=${today}&format=csv`);
    const csv = await supervisor.request.get(`${base}${href}`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect((await csv.text()).split('\n')[0]).toContain('time_macau');
    // A range that runs backwards is refused on the page, in its language.
    await large.locator('#large-from').fill(addDays(today, 1));
    await large.locator('[data-focus="large-show"]').click();
    await expect
      .poll(() => lastToast(supervisor, 'error').textContent())
      .toBe(en('large.badRange'));
    await large.locator('#large-from').fill(today);
    for (const lang of LANGS) {
      await setLang(supervisor, lang);
      await supervisor.locator('.registers').scrollIntoViewIfNeeded();
      await shoot(supervisor, `people-03-floor-registers-${lang}`);
    }
    await setLang(supervisor, 'en');
  }, 120_000);

  it('creates a compliance officer from the accounts form, who lands on the compliance page', async () => {
    await supervisor.locator('#new-username').fill('mak');
    await supervisor.locator('#new-display').fill('Compliance Mak');
    await supervisor.locator('#new-role').selectOption('compliance');
    await supervisor.locator('#new-password').fill(COMPLIANCE_FIRST);
    await supervisor.locator('[data-focus="create-user"]').click();
    const row = supervisor.locator('tr[data-user="mak"]');
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe(en('role.compliance'));
    // Two flags for the queue: deposits just under the threshold, twice more in 24 hours.
    for (const amountMinor of [42_000_000, 41_000_000])
      await cashierApi('POST', `/players/${player2}/deposits`, {
        amountMinor,
        documentSighted: true,
      });
    compliance = await open('compliance');
    await signIn(compliance, 'mak', COMPLIANCE_FIRST);
    await compliance.locator('#pass-current').fill(COMPLIANCE_FIRST);
    await compliance.locator('#pass-new').fill(COMPLIANCE_PASSWORD);
    await compliance.locator('#pass-again').fill(COMPLIANCE_PASSWORD);
    await compliance.locator('[data-focus="change-password"]').click();
    await compliance.waitForURL(/#\/compliance$/);
    expect(await compliance.locator('.nav-link').allInnerTexts()).toEqual([en('nav.compliance')]);
    expect(await compliance.locator('.user-name small').textContent()).toBe(en('role.compliance'));
  }, 60_000);

  it('closes a flag and reports another, each with a reason, and offers the GIF report', async () => {
    const queue = compliance.locator('.flag-queue');
    await expect.poll(() => queue.locator('li.flag-open').count()).toBeGreaterThanOrEqual(2);
    const open = queue.locator('li.flag-open');
    const first = open.first();
    const firstId = (await first.getAttribute('data-flag'))!;
    expect(await first.locator('.flag-rule').textContent()).toBe(en('flags.rule.structuring'));
    expect(await first.locator('.flag-player').textContent()).toBe('@player2');
    expect(await first.locator('.flag-detail').textContent()).toMatch(
      /^\d deposits within 24 hours, each between 80% of the threshold and the threshold, MOP [\d,]+ in all\.$/,
    );
    for (const lang of LANGS) {
      await setLang(compliance, lang);
      await shoot(compliance, `people-04-compliance-${lang}`);
    }
    await setLang(compliance, 'en');
    // No reason, no decision: the field says so.
    await first.locator(`[data-focus="closed:${firstId}"]`).click();
    await first.locator('.field-error').waitFor();
    expect(await first.locator('.field-error').textContent()).toBe(en('flags.needReason'));
    await first.locator('textarea').fill('Winnings of a known regular: no suspicion.');
    confirmAnswer = false;
    await first.locator(`[data-focus="closed:${firstId}"]`).click();
    await expect.poll(() => asked.at(-1)).toBe('Close "Structuring" of @player2?');
    expect(await queue.locator(`li[data-flag="${firstId}"]`).getAttribute('data-status')).toBe(
      'open',
    );
    confirmAnswer = true;
    await first.locator(`[data-focus="closed:${firstId}"]`).click();
    await expect
      .poll(() => lastToast(compliance, 'ok').textContent())
      .toBe(en('flags.done.closed'));
    await expect.poll(() => queue.locator(`li[data-flag="${firstId}"]`).count()).toBe(0);
    const second = queue.locator('li.flag-open').first();
    const secondId = (await second.getAttribute('data-flag'))!;
    await second.locator('textarea').fill('Split deposits: reported, GIF ref. 2026/118.');
    await second.locator(`[data-focus="reported:${secondId}"]`).click();
    await expect
      .poll(() => lastToast(compliance, 'ok').textContent())
      .toBe(en('flags.done.reported'));
    await compliance.locator('#flags-filter').selectOption('all');
    const closed = queue.locator(`li[data-flag="${firstId}"]`);
    await closed.waitFor();
    expect(await closed.getAttribute('data-status')).toBe('closed');
    expect(await closed.locator('.flag-decision').innerText()).toMatch(
      /^Closed by Compliance Mak on .+Winnings of a known regular: no suspicion\.$/s,
    );
    const gif = await closed.locator('.flag-gif').getAttribute('href');
    const report = await compliance.request.get(`${base}${gif}`);
    const json = (await report.json()) as { flag: { id: string; status: string }; person: unknown };
    expect(json.flag).toEqual(expect.objectContaining({ id: firstId, status: 'closed' }));
  }, 120_000);

  it('lets the inspector read the registers, the decisions and who read whose identity', async () => {
    const inspector = await open('inspector');
    await signIn(inspector, 'inspector', DEMO_PASSWORD);
    await inspector.waitForURL(/#\/inspector/);
    await inspector.locator('#tab-people').click();
    await inspector.locator('.excl-register tr[data-order="EX-E2E-1"]').waitFor();
    await expect.poll(() => inspector.locator('.large-register tr[data-large]').count()).toBe(4);
    const flags = inspector.locator('.flag-queue');
    await inspector.locator('#flags-filter').selectOption('all');
    await expect.poll(() => flags.locator('li.flag-closed, li.flag-reported').count()).toBe(2);
    // Read-only: the inspector decides nothing, and reads who decided by name.
    expect(await flags.locator('textarea').count()).toBe(0);
    expect(await flags.locator('li.flag-closed .flag-decision').innerText()).toContain(
      'Closed by Compliance Mak (@mak) on',
    );
    expect(
      await inspector.locator('.large-register tr[data-large] td:nth-child(7)').allInnerTexts(),
    ).toContain('Cashier Lei (@cashier)');
    for (const lang of LANGS) {
      await setLang(inspector, lang);
      await shoot(inspector, `people-05-inspector-registers-${lang}`);
    }
    await setLang(inspector, 'en');
    await inspector.locator('#tab-reads').click();
    const reads = inspector.locator('.identity-reads tr[data-read]');
    await expect.poll(() => reads.count()).toBeGreaterThan(0);
    const purposes = await inspector
      .locator('.identity-reads tbody td:nth-child(4)')
      .allInnerTexts();
    expect(purposes).toContain(en('reads.purpose.cage'));
    expect(purposes).toContain(en('reads.purpose.gif-report'));
    for (const lang of LANGS) {
      await setLang(inspector, lang);
      await shoot(inspector, `people-06-inspector-reads-${lang}`);
    }
    await inspector.context().close();
  }, 120_000);

  it('takes a house large-cash figure below the law’s, and refuses one above it', async () => {
    await supervisor.locator('#large-threshold').fill('600000');
    await supervisor.locator('[data-focus="save-settings"]').click();
    await expect
      .poll(() => lastToast(supervisor, 'error').textContent())
      .toBe(en('err.threshold_above_law'));
    await supervisor.locator('#large-threshold').fill('300000');
    await supervisor.locator('[data-focus="save-settings"]').click();
    await expect.poll(() => lastToast(supervisor, 'ok').textContent()).toBe(en('floor.saved'));
    await cashier.reload();
    await cashier.locator('tr[data-player="player1"] button').click();
    await expect
      .poll(() => cashier.locator('.cage-large + p, .cage-large ~ p').allInnerTexts())
      .toContain(
        `From ${formatMoney(30_000_000, currency)}, alone or with the day's other cash moves, the player's document must be sighted (DICJ Instruction 1/2016).`,
      );
    await supervisor.locator('#large-threshold').fill('');
    await supervisor.locator('[data-focus="save-settings"]').click();
    await expect.poll(() => supervisor.locator('#large-threshold').inputValue()).toBe('');
  }, 60_000);
});
