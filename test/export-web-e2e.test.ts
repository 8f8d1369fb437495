/**
 * The inspector's export and its check, in headless Chromium against the real
 * `cussec serve --demo` over a database `cussec play` filled first:
 *
 * - the inspector opens the "Export and verify" tab and downloads the
 *   export; `node verifier/cussec-verify.mjs` passes the file downloaded;
 * - picks that file: the page's verifier (the same file, bundled) passes it
 *   and lists what it checked, and the page sends nothing while it checks
 *   (no upload);
 * - picks the file with one settlement forged one avo up (the chain hashed
 *   again over it): the page names the entry and the reason;
 * - the tab, a passed file and a failed one in zh-Hant, pt and en at 1440×900
 *   and 390×844 (test-output/screenshots/export-*.png).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/testing.js';
import { entryOfType, exportLines, reforge } from '../src/service/export/testing.js';
import { DICT } from '../web/src/i18n/dict.js';
import { DESKTOP, SHOTS, shoot } from './screenshots.js';
import { freePort, ServeProcess } from './serve-process.js';
import { buildWebIfStale } from './web-build.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const DEMO_PASSWORD = 'cussec-demo-1';
const WAIT_MS = 15_000;
const VERIFIER = join(import.meta.dirname, '..', 'verifier', 'cussec-verify.mjs');
const LANGS = ['zh-Hant', 'pt', 'en'] as const;

let dataDir = '';
let server: ServeProcess | undefined;
let browser: Browser | undefined;
let base = '';

if (!HAVE_CHROMIUM)
  process.stderr.write(
    `\nSKIPPED: test/export-web-e2e.test.ts — ${CHROMIUM} is not installed.\n\n`,
  );

const SUPERVISOR_PASSWORD = 'the floor is mine 2026';

async function inspectorPage(username = 'inspector', password = DEMO_PASSWORD): Promise<Page> {
  const context = await browser!.newContext({
    viewport: DESKTOP,
    locale: 'en-US',
    timezoneId: 'Asia/Macau',
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw new Error(`inspector: ${error.message}`);
  });
  await page.goto(`${base}/#/`);
  await page.locator('#login-user').fill(username);
  await page.locator('#login-pass').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/#\/(inspector|floor)/);
  return page;
}

async function inLanguages(
  page: Page,
  name: string,
  ready: (lang: (typeof LANGS)[number]) => Promise<void>,
) {
  for (const lang of LANGS) {
    await page.locator(`.lang-btn[lang="${lang}"]`).click();
    await ready(lang);
    await shoot(page, `${name}-${lang}`);
  }
}

describe.skipIf(!HAVE_CHROMIUM)("the inspector's export in Chromium", () => {
  let page: Page;
  let downloaded = '';

  beforeAll(async () => {
    buildWebIfStale();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'cussec-export-e2e-'));
    const played = await runCli([
      'play',
      '--db',
      join(dataDir, 'cussec.db'),
      '--rounds',
      '5',
      '--players',
      '3',
      '--seed',
      'export-e2e',
      '--table',
      'P1',
    ]);
    expect(played.code, played.stderr).toBe(0);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await ServeProcess.start(
      ['--data', dataDir, '--port', String(port), '--demo'],
      { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD },
      90_000,
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
    });
    page = await inspectorPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.running) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('downloads the export, which node verifier/cussec-verify.mjs passes', async () => {
    await page.locator('#tab-export').click();
    await page.getByRole('heading', { name: DICT['export.title'].en }).waitFor();
    await inLanguages(page, 'export-01-tab', (lang) =>
      page.getByRole('heading', { name: DICT['export.title'][lang] }).waitFor(),
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-focus="export-download"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cussec-export-floor-1-\d+\.ndjson$/);
    downloaded = join(dataDir, download.suggestedFilename());
    await download.saveAs(downloaded);
    // The page says what the file holds and the head to note, as its header does.
    const header = JSON.parse(readFileSync(downloaded, 'utf8').split('\n')[0]!) as {
      range: { toSeq: number };
      head: { hash: string };
    };
    await page
      .locator('.export-panel .verify-ok')
      .getByText(`entries 1 to ${header.range.toSeq}`)
      .waitFor();
    await page.locator(`.export-panel .hex[title="${header.head.hash}"]`).waitFor();
    const ran = await promisify(execFile)(process.execPath, [VERIFIER, downloaded]);
    expect(ran.stdout).toMatch(/^OK: every check holds\.$/m);
  });

  it('checks the file in the page, sending nothing, and lists what it checked', async () => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' || request.postData() !== null) sent.push(request.url());
    });
    await page.locator('#export-file').setInputFiles(downloaded);
    await page.locator('.export-verdict .verify-ok').waitFor();
    const summary = await page.locator('.export-summary').innerText();
    expect(summary).toContain('5 rounds settled (recomputed by Arts. 5–7)');
    expect(summary).toContain('Table P1 played 5 rounds under options marked simulation');
    expect(sent).toEqual([]);
    await inLanguages(page, 'export-02-passed', (lang) =>
      page.getByText(DICT['export.ok'][lang].replace('{file}', '')).first().waitFor(),
    );
  });

  it("gives a supervisor the check but not the download, which is the inspector's", async () => {
    const supervisor = await inspectorPage('supervisor', SUPERVISOR_PASSWORD);
    await supervisor.goto(`${base}/#/inspector`);
    await supervisor.locator('#tab-export').click();
    await supervisor.getByRole('heading', { name: DICT['export.verifyTitle'].en }).waitFor();
    expect(await supervisor.locator('[data-focus="export-download"]').count()).toBe(0);
    await supervisor.locator('#export-file').setInputFiles(downloaded);
    await supervisor.locator('.export-verdict .verify-ok').waitFor();
    await supervisor.context().close();
  });

  it('names the entry and the reason when a settlement was forged one avo up', async () => {
    const lines = exportLines(readFileSync(downloaded));
    const settled = entryOfType(lines, 'round-settled', 2);
    (settled['payload'] as { returnsMinor: number[] }).returnsMinor[0]! += 1;
    await page.locator('#export-file').setInputFiles({
      name: 'forged.ndjson',
      mimeType: 'application/x-ndjson',
      buffer: reforge(lines),
    });
    await page.locator('.export-verdict .verify-bad').waitFor();
    const shown = await page.locator('.export-verdict').innerText();
    expect(shown).toContain(
      DICT['export.failAt'].en
        .replace('{seq}', String(settled['seq']))
        .replace('{line}', String(lines.indexOf(settled) + 1)),
    );
    expect(shown).toContain(DICT['verifier.settlement_mismatch'].en);
    await inLanguages(page, 'export-03-failed', (lang) =>
      page.getByText(DICT['verifier.settlement_mismatch'][lang]).waitFor(),
    );
  });
});
