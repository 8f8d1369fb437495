/**
 * The table's screens in Chromium against the real `cussec serve --demo`
 * (issue 24, items 11–16 and 19), in zh-Hant, pt and en at 1440×900 and
 * 390×844, every picture checked by axe-core (test/axe.ts):
 *
 * - the table chooser names each table in the page's language and shows its
 *   limits;
 * - the display board is a sign: no navigation or sign-out, the limits sign
 *   (限紅), a large countdown, roads with beads of at least 16 px, the whole
 *   sign on one 1440×900 screen, and no hot or cold number named before there
 *   are rounds enough (logic/hot-cold.ts);
 * - on a lever table the croupier's dice entry is on a 900 px screen without
 *   scrolling once the dome is lifted, and no text of the console is under 12 px;
 * - a player scrolled to the layout on a phone sees the dice, the total and
 *   the round's result for them at the reveal; on a desktop the winners stand
 *   out; chips on the totals leave their numbers in sight;
 * - Repeat works once a round, on an empty layout: a second press and a press
 *   after a void roll (Art. 3.4) place nothing, and the disabled button looks it;
 * - a screen reader hears betting open, no more bets, the dice, the total and
 *   the player's result in the page's language, and the live region empties
 *   after the last bet.
 *
 * Pictures go to test-output/screenshots/ (2x-*.png). Skipped without /usr/bin/chromium.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICT } from '../web/src/i18n/dict.js';
import { spotById } from '../src/rules/index.js';
import { formatMoney } from '../web/src/logic/money.js';
import { DESKTOP, SHOTS, shoot } from './screenshots.js';
import { freePort, ServeProcess } from './serve-process.js';
import { smallText } from './small-text.js';
import { buildWebIfStale } from './web-build.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const PASSWORD = 'cussec-demo-1';
const SUPERVISOR_PASSWORD = `e2e-${randomBytes(9).toString('hex')}`;
const WAIT_MS = 10_000;
const PHONE = { width: 390, height: 844 };
const T = 'T1';
/** A lever table made by the supervisor, with no name (so the server makes one up) and its own limits. */
const L = 'L1';
const T_LIMITS = { stakeMinorMin: 1_000, stakeMinorMax: 20_000 };
const L_LIMITS = { stakeMinorMin: 5_000, stakeMinorMax: 500_000 };
const BETTING_TIMER_MS = 120_000;
const ROUND = [
  'cover',
  'fasten-latches',
  'trigger-shaker',
  'open-betting',
  'ring-bell',
  'lift-dome',
  'reveal-dice',
  'pay-all',
] as const;

type Dice = readonly [number, number, number];
type Lang = 'zh-Hant' | 'pt' | 'en';
const LANGS: readonly Lang[] = ['zh-Hant', 'pt', 'en'];

/** A spot's name as the page prints it (src/rules' names; web/src/i18n is the page's, with DOM types). */
const spotNameById = (id: string, lang: Lang): string =>
  spotById(id)!.names[lang === 'zh-Hant' ? 'zh' : lang];

/** The page's own computed style of an element (this file has no DOM types). */
interface Styled {
  getComputedStyle(el: unknown): Readonly<Record<string, string>>;
}
const style = (locator: Locator, property: string): Promise<string> =>
  locator.evaluate(
    (el, name) => (globalThis as unknown as Styled).getComputedStyle(el)[name] ?? '',
    property,
  );

let server: ServeProcess | undefined;
let browser: Browser | undefined;
let base = '';
let dataDir = '';
let currency = '';
const pageErrors: string[] = [];
const tokens = new Map<string, string>();

if (!HAVE_CHROMIUM)
  process.stderr.write(`\nSKIPPED: test/table-web-e2e.test.ts — ${CHROMIUM} is not installed.\n\n`);

async function tokenOf(username: string): Promise<string> {
  const known = tokens.get(username);
  if (known !== undefined) return known;
  const answer = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password: username === 'supervisor' ? SUPERVISOR_PASSWORD : PASSWORD,
    }),
  });
  const { token } = (await answer.json()) as { token: string };
  tokens.set(username, token);
  return token;
}

async function api<R = Record<string, unknown>>(
  username: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<R> {
  const answer = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await tokenOf(username)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as R;
}

/** The croupier's steps through the API (the console is another test's). */
async function commands(table: string, ...types: string[]): Promise<void> {
  for (const type of types) await api('croupier', 'POST', `/tables/${table}/commands`, { type });
}

interface View {
  readonly phase: string;
  readonly roundNo: number;
  readonly history: readonly { roundNo: number }[];
  readonly lastRound: { dice: Dice; winningSpots: string[] } | null;
}

async function open(name: string): Promise<Page> {
  const context = await browser!.newContext({
    viewport: DESKTOP,
    locale: 'en-US',
    timezoneId: 'Asia/Macau',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${name}: ${error.message}`));
  page.on('dialog', (dialog) => void dialog.accept());
  return page;
}

async function signIn(page: Page, username: string): Promise<void> {
  await page.goto(`${base}/#/`);
  await page.locator('#login-user').fill(username);
  await page.locator('#login-pass').fill(PASSWORD);
  await page.locator('button[type=submit]').click();
  // Two tables: the chooser.
  await page.locator('.table-list').waitFor();
}

async function speak(page: Page, lang: Lang): Promise<void> {
  await page.locator(`.lang-btn[lang="${lang}"]`).click();
  await page.locator(`.lang-btn[lang="${lang}"][aria-pressed="true"]`).waitFor();
}

/** Waits until the locator's text is exactly `text` (trimmed). */
async function textIs(locator: Locator, text: string): Promise<void> {
  await expect.poll(async () => (await locator.first().textContent())?.trim()).toBe(text);
}

const money = (minor: number): string => formatMoney(minor, currency);
const say = (
  lang: Lang,
  key: keyof typeof DICT,
  params: Readonly<Record<string, string | number>> = {},
): string =>
  DICT[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));

/** What a screen reader should hear of the dice, built from the dictionary and the rules. */
function diceHeard(lang: Lang, dice: Dice): string {
  const total = dice[0] + dice[1] + dice[2];
  const triple = dice[0] === dice[1] && dice[1] === dice[2];
  return say(lang, 'say.dice', {
    dice: dice.join(', '),
    total,
    bigSmall: triple ? DICT['say.triple'][lang] : spotNameById(total <= 10 ? 'small' : 'big', lang),
    oddEven: spotNameById(total % 2 === 1 ? 'odd' : 'even', lang),
  });
}

/** Whether two boxes of the page overlap. */
const overlap = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(!HAVE_CHROMIUM)("the table's screens in Chromium (issue 24)", () => {
  beforeAll(async () => {
    buildWebIfStale();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'cussec-table-e2e-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await ServeProcess.start(
      ['--data', dataDir, '--port', String(port), '--demo'],
      { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD },
      60_000,
    );
    await api('supervisor', 'PATCH', `/tables/${T}/limits`, {
      bettingTimerMs: BETTING_TIMER_MS,
      ...T_LIMITS,
    });
    await api('supervisor', 'POST', '/tables', {
      tableId: L,
      shaker: 'lever',
      bettingTimerMs: null,
      ...L_LIMITS,
    });
    currency = String((await api('supervisor', 'GET', `/tables/${T}`))['currency']);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    if (server?.running) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it("the table chooser names each table in the page's language and shows its limits", async () => {
    const page = await open('chooser');
    await signIn(page, 'player1');
    const item = (id: string): Locator =>
      page.locator('.table-item', { has: page.locator(`a[href="#/table/${id}"]`) });
    for (const lang of LANGS) {
      await speak(page, lang);
      for (const [id, limits] of [
        [T, T_LIMITS],
        [L, L_LIMITS],
      ] as const) {
        await textIs(item(id).locator('.table-item-title'), say(lang, 'app.tableNamed', { id }));
        await textIs(
          item(id).locator('.table-item-limits'),
          say(lang, 'player.limits', {
            min: money(limits.stakeMinorMin),
            max: money(limits.stakeMinorMax),
          }),
        );
      }
      if (lang !== 'en')
        expect(await page.locator('.table-list').textContent()).not.toContain('Table');
      await shoot(page, `20-chooser-${lang}`);
    }
    await page.context().close();
  }, 60_000);

  it('the display board is a sign: limits, a large countdown, legible roads, no early hot or cold', async () => {
    // Three rounds: too few to name any number hot or cold (faces need 10, totals 40).
    for (let r = 0; r < 3; r++) await commands(T, ...ROUND);
    const page = await open('board');
    await signIn(page, 'croupier');
    await page.goto(`${base}/#/board/${T}`);
    await page.locator('.page-board .live-badge.live-live').waitFor();
    // A sign the public faces: no app navigation, no password link, no sign-out.
    expect(await page.locator('.topbar, nav, a[href="#/password"], .user').count()).toBe(0);
    await commands(T, 'cover', 'fasten-latches', 'trigger-shaker', 'open-betting');
    const countdown = page.locator('.sign-status .countdown');
    await countdown.waitFor();
    // Art. 2.2: the shaker lit the board before betting; it stays lit until the bell.
    await page.locator('.sign-status.sign-lit').waitFor();
    for (const lang of LANGS) {
      await speak(page, lang);
      await textIs(page.locator('.sign-limits-title'), DICT['board.limits'][lang]);
      await textIs(page.locator('.sign-limits dd').nth(0), money(T_LIMITS.stakeMinorMin));
      await textIs(page.locator('.sign-limits dd').nth(1), money(T_LIMITS.stakeMinorMax));
      const digits = page.locator('.sign-status .countdown-num');
      expect(Number(await digits.textContent())).toBeGreaterThan(60);
      expect(parseFloat(await style(digits, 'fontSize'))).toBeGreaterThanOrEqual(64);
      // Beads and rings of 16 px at least, their letters 12 px at least.
      for (const bead of ['.roadmap-bead .bead', '.roadmap-road .road-ring']) {
        const box = (await page.locator(bead).first().boundingBox())!;
        expect(Math.min(box.width, box.height), bead).toBeGreaterThanOrEqual(16);
      }
      expect(await smallText(page), lang).toEqual([]);
      // Nothing named hot or cold yet: the sign says after how many rounds it will be.
      await textIs(
        page.locator('.hc-wait'),
        say(lang, 'board.hotColdFrom', { faces: 10, totals: 40, n: 3 }),
      );
      expect(
        await page.locator('.hot-chip, .cold-chip, .freq .is-hot, .freq .is-cold').count(),
      ).toBe(0);
      await shoot(page, `21-board-betting-${lang}`);
      // The whole sign on one screen at 1440×900.
      expect(
        Number(await page.evaluate('document.documentElement.scrollHeight')),
      ).toBeLessThanOrEqual(DESKTOP.height);
    }
    await commands(T, 'ring-bell', 'lift-dome', 'reveal-dice', 'pay-all');
    // Forty rounds in all: the likeliest totals (10 and 11) are expected five times each.
    for (let r = 4; r < 40; r++) await commands(T, ...ROUND);
    await page.locator('.hot-chip').waitFor();
    await page.locator('.freq-faces .is-hot').waitFor();
    expect(await page.locator('.hc-wait').count()).toBe(0);
    const view = await api<View>('supervisor', 'GET', `/tables/${T}`);
    expect(view.history.length).toBe(40);
    for (const lang of LANGS) {
      await speak(page, lang);
      await page
        .locator('.sign-status .sign-phase', { hasText: DICT['phase.paid'][lang] })
        .waitFor();
      expect(
        Number(await page.evaluate('document.documentElement.scrollHeight')),
      ).toBeLessThanOrEqual(DESKTOP.height);
      await shoot(page, `22-board-${lang}`);
    }
    // A table whose house options have no display board (Arts. 2.2, 8) shows only that.
    await api('supervisor', 'POST', '/tables', { tableId: 'N1', displayBoard: false });
    await page.goto(`${base}/#/board/N1`);
    await textIs(page.locator('.sign-none'), DICT['board.none'].en);
    expect(await page.locator('.sign-status, .sign-limits, .roadmap').count()).toBe(0);
    await page.context().close();
  }, 180_000);

  it('on a lever table the croupier enters the dice without scrolling; no console text under 12 px; a win is a banner', async () => {
    const page = await open('croupier');
    await signIn(page, 'croupier');
    await page.locator(`.table-list a[href="#/croupier/${L}"]`).click();
    const step = async (command: string, phase: string): Promise<void> => {
      await page.locator(`button.step-btn[data-focus="step:${command}"]:not(:disabled)`).click();
      await page.locator(`.table-bar .phase-pill.phase-${phase}`).waitFor();
    };
    await step('cover', 'covered');
    await step('fasten-latches', 'latched');
    // Art. 2.1: the lever three times in a row; the step counts the pulls.
    const lever = page.locator('button.step-btn[data-focus="step:pull-lever"]');
    for (const n of [1, 2, 3]) {
      await lever.locator('.step-label', { hasText: `${n}/3` }).waitFor();
      await page.locator('button.step-btn[data-focus="step:pull-lever"]:not(:disabled)').click();
    }
    await page.locator('.table-bar .phase-pill.phase-shaken').waitFor();
    await step('open-betting', 'betting');
    // Player One bets on Small and watches; the dice the croupier reads below make it win.
    await api('player1', 'POST', `/tables/${L}/bets`, {
      betId: `b-${randomBytes(6).toString('hex')}`,
      spot: 'small',
      stakeMinor: L_LIMITS.stakeMinorMin,
    });
    const player = await open('player-lever');
    await signIn(player, 'player1');
    await player.goto(`${base}/#/table/${L}`);
    await player.locator('.felt .spot[data-spot="small"] .stake').waitFor();
    await step('ring-bell', 'closed');
    await step('lift-dome', 'lifted');
    const submit = page.locator('[data-focus="dice-submit"]');
    for (const lang of LANGS) {
      await speak(page, lang);
      await textIs(
        page.locator('button.step-btn[data-focus="step:read-dice"] .step-label'),
        DICT['croupier.cmd.read-dice'][lang],
      );
      // On a 900 px screen the dice entry and its button are in sight, the page unscrolled.
      expect(Number(await page.evaluate('window.scrollY'))).toBe(0);
      // So is the void roll (Art. 3.3), the other thing a lifted dome may call for.
      const voids = page.locator('[data-focus="void:tilted"]');
      expect(await voids.isDisabled()).toBe(false);
      for (const part of [page.locator('.dice-typed'), submit, voids]) {
        const box = (await part.boundingBox())!;
        expect(box.y + box.height, lang).toBeLessThanOrEqual(DESKTOP.height);
      }
      expect(await smallText(page), lang).toEqual([]);
      await shoot(page, `23-croupier-lever-${lang}`);
      await page.setViewportSize(PHONE);
      expect(await smallText(page), `${lang} phone`).toEqual([]);
      await page.setViewportSize(DESKTOP);
    }
    // Typed as the croupier reads them: 2, 2, 5, then Enter.
    await page.locator('.dice-typed').pressSequentially('225');
    await page.locator('.dice-typed').press('Enter');
    await page.locator('.table-bar .phase-pill.phase-revealed').waitFor();
    const view = await api<View>('supervisor', 'GET', `/tables/${L}`);
    expect(view.lastRound!.dice).toEqual([2, 2, 5]);
    // Total 9: Small wins even money (Art. 5.1). The player's rack is a gold banner that says so.
    const won = player.locator('.rack .round-result.round-result-won');
    await won.waitFor();
    for (const lang of LANGS) {
      await speak(player, lang);
      await textIs(
        won.locator('.round-net-line'),
        say(lang, 'result.won', { amount: money(L_LIMITS.stakeMinorMin) }),
      );
      await shoot(player, `28-player-win-${lang}`);
    }
    await step('pay-all', 'paid');
    await player.context().close();
    await page.context().close();
  }, 90_000);

  describe("the player's page", () => {
    let page: Page;
    const announcer = (): Locator => page.locator('.announcer');
    const spot = (id: string): Locator => page.locator(`.felt .spot[data-spot="${id}"]`);
    const balance = async (): Promise<number> =>
      (await api<{ wallet: { balanceMinor: number } }>('player1', 'GET', '/me')).wallet
        .balanceMinor;
    /** What the page's screen reader region says, waited for. */
    const heard = (text: string): Promise<void> => textIs(announcer(), text);
    const openBetting = async (lang: Lang): Promise<void> => {
      await commands(T, 'cover', 'fasten-latches', 'trigger-shaker', 'open-betting');
      await page.locator('.table-bar .phase-pill.phase-betting').waitFor();
      // Art. 2.1: betting opens, for the table's timer.
      await heard(say(lang, 'say.bettingOpenFor', { s: BETTING_TIMER_MS / 1000 }));
    };
    const bell = async (lang: Lang): Promise<void> => {
      await commands(T, 'ring-bell');
      await heard(`${DICT['say.noMoreBets'][lang]} (${say(lang, 'app.article', { a: '3.1' })})`);
    };
    /** The player's net result of the round, from the server's own settlement. */
    const net = async (): Promise<{ staked: number; returned: number }> => {
      const mine = await api<{ bets: { stakeMinor: number; returnedMinor?: number }[] }>(
        'player1',
        'GET',
        `/tables/${T}/my-bets`,
      );
      return {
        staked: mine.bets.reduce((sum, b) => sum + b.stakeMinor, 0),
        returned: mine.bets.reduce((sum, b) => sum + (b.returnedMinor ?? 0), 0),
      };
    };
    const netHeard = (lang: Lang, { staked, returned }: { staked: number; returned: number }) =>
      returned > staked
        ? say(lang, 'result.won', { amount: money(returned - staked) })
        : returned < staked
          ? say(lang, 'result.lost', { amount: money(staked - returned) })
          : DICT['result.even'][lang];

    beforeAll(async () => {
      page = await open('player');
      await signIn(page, 'player1');
      await page.goto(`${base}/#/table/${T}`);
      await page.locator('.live-badge.live-live').waitFor();
    }, 30_000);

    it('on a phone, chips leave the totals in sight and the result shows where the player looks', async () => {
      await speak(page, 'zh-Hant');
      await page.setViewportSize(PHONE);
      await openBetting('zh-Hant');
      await page.locator('.chips [data-focus="chip:10000"]').click();
      for (const id of ['total:11', 'total:12', 'total:4', 'total:17']) {
        await spot(id).click();
        await spot(id).locator('.stake').waitFor();
      }
      // The last bet is said, then the region empties: it is not left on the last bet.
      await heard(
        say('zh-Hant', 'player.betPlaced', {
          stake: money(10_000),
          name: spotNameById('total:17', 'zh-Hant'),
        }),
      );
      await expect.poll(() => announcer().textContent(), { timeout: 12_000 }).toBe('');
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        const numbers = await page.locator('.felt .spot-total .total-num').all();
        const boxes = await Promise.all(numbers.map((n) => n.boundingBox()));
        for (const id of ['total:11', 'total:12', 'total:4', 'total:17']) {
          const chip = (await spot(id).locator('.stake').boundingBox())!;
          for (const [i, box] of boxes.entries())
            expect(overlap(chip, box!), `${id}'s chip over a total's number (${i})`).toBe(false);
        }
      }
      await page.setViewportSize(PHONE);
      await page
        .locator('.zone-totals')
        .screenshot({ path: join(SHOTS, '24-totals-chips-phone.png') });
      await bell('zh-Hant');
      // Scrolled down the layout, as a player placing bets is.
      await page.evaluate("document.querySelector('.felt').scrollIntoView({ block: 'end' })");
      expect(Number(await page.evaluate('window.scrollY'))).toBeGreaterThan(400);
      await commands(T, 'lift-dome', 'reveal-dice');
      const view = await api<View>('supervisor', 'GET', `/tables/${T}`);
      const dice = view.lastRound!.dice;
      const result = page.locator('.rack .round-result');
      await result.locator('.round-net-line', { hasText: /\S/ }).waitFor();
      const figures = await net();
      await textIs(result.locator('.round-net-line'), netHeard('zh-Hant', figures));
      // In sight on the phone, scrolled as it is: the dice, the total and the player's result.
      const box = (await result.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      expect(await result.locator('[role=img]').getAttribute('aria-label')).toContain(
        dice.join(', '),
      );
      await textIs(
        result.locator('.round-total > span').first(),
        `${DICT['app.total']['zh-Hant']} ${dice[0] + dice[1] + dice[2]}`,
      );
      // A screen reader hears the dice, the total and the result, in the page's language.
      await heard(`${diceHeard('zh-Hant', dice)}. ${netHeard('zh-Hant', figures)}.`);
      await page.screenshot({ path: join(SHOTS, '25-player-result-zh-Hant-phone-scrolled.png') });
      // On a desktop the winners stand out: the spots that lost step back.
      await page.setViewportSize(DESKTOP);
      await page.locator('.felt.showing-result').waitFor();
      const loser = page.locator('.felt .spot:not(.lit)').first();
      expect(await style(loser, 'filter')).not.toBe('none');
      expect(await style(page.locator('.felt .spot.lit').first(), 'filter')).toBe('none');
      for (const lang of LANGS) {
        await speak(page, lang);
        await textIs(result.locator('.round-net-line'), netHeard(lang, figures));
        await shoot(page, `25-player-result-${lang}`);
      }
      await commands(T, 'pay-all');
    }, 90_000);

    it('Repeat places last round once, on an empty layout, and never on standing bets (Art. 3.4)', async () => {
      await speak(page, 'pt');
      await openBetting('pt');
      const repeat = page.locator('[data-focus="repeat"]');
      const before = await balance();
      await repeat.click();
      await textIs(spot('total:11').locator('.stake'), '100');
      await expect.poll(balance).toBe(before - 40_000);
      // Used: disabled, and it looks it (its gold is gone).
      expect(await repeat.isDisabled()).toBe(true);
      // (Polled: the rack is redrawn as events come, and a button just replaced has no style.)
      await expect.poll(() => style(repeat, 'borderStyle')).toBe('dashed');
      await expect.poll(() => style(repeat, 'backgroundImage')).toBe('none');
      // A second press (R) doubles nothing: it says why.
      await page.locator('.wallet').click();
      await page.keyboard.press('r');
      await page.locator('.toast', { hasText: DICT['player.repeatUsed'].pt }).first().waitFor();
      expect(await balance()).toBe(before - 40_000);
      await shoot(page, '26-player-repeat-used-pt');
      await bell('pt');
      await commands(T, 'lift-dome');
      await api('croupier', 'POST', `/tables/${T}/commands`, {
        type: 'void-roll',
        reason: 'stacked',
      });
      await heard(DICT['player.voidNotice'].pt);
      await openBetting('pt');
      // Art. 3.4: the bets stand for the new roll; Repeat would pile on them, so it is off.
      await page.locator('.bet-row .standing').first().waitFor();
      expect(await repeat.isDisabled()).toBe(true);
      await page.locator('.wallet').click();
      await page.keyboard.press('r');
      await page.locator('.toast', { hasText: DICT['player.repeatStands'].pt }).first().waitFor();
      expect(await balance()).toBe(before - 40_000);
      const mine = await api<{ bets: unknown[] }>('player1', 'GET', `/tables/${T}/my-bets`);
      expect(mine.bets).toHaveLength(4);
      await shoot(page, '27-player-repeat-void-pt');
      await bell('pt');
      await commands(T, 'lift-dome', 'reveal-dice');
      const view = await api<View>('supervisor', 'GET', `/tables/${T}`);
      await heard(`${diceHeard('pt', view.lastRound!.dice)}. ${netHeard('pt', await net())}.`);
      await commands(T, 'pay-all');
    }, 90_000);

    it('a screen reader hears a round without bets in English: betting, the bell, the dice', async () => {
      await speak(page, 'en');
      await openBetting('en');
      await bell('en');
      await commands(T, 'lift-dome', 'reveal-dice');
      const view = await api<View>('supervisor', 'GET', `/tables/${T}`);
      await heard(diceHeard('en', view.lastRound!.dice));
      await textIs(page.locator('.rack .round-net-line'), DICT['result.noBets'].en);
      await commands(T, 'pay-all');
      expect(pageErrors).toEqual([]);
    }, 60_000);
  });
});
