/** Screenshots of the browser suites, at the desktop and phone sizes the web app is made for. */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible } from './axe.js';

export const SHOTS = join(import.meta.dirname, '..', 'test-output', 'screenshots');
export const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Lets a resize lay out and paint. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(
    'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))',
  );
}

/**
 * The page at desktop and phone sizes: `<name>-<size>.png` is the screen as it
 * shows, and when the page scrolls `<name>-<size>-full.png` is all of it. The
 * whole page is shot with the viewport stretched to its height rather than
 * with `fullPage`, so that docked bars (the chip rack) sit where they end up
 * instead of floating over the middle of the picture. At each size the page
 * must also pass the accessibility check (test/axe.ts).
 */
export async function shoot(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await painted(page);
    await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`) });
    // Nothing runs off the side of the screen (wide tables scroll inside their panels).
    const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
    expect(width, `${name} at ${size} is ${width} px wide`).toBeLessThanOrEqual(viewport.width);
    await expectAccessible(page, `${name} at ${size}`);
    const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
    if (height > viewport.height + 4) {
      await page.setViewportSize({ width: viewport.width, height: Math.min(height, 6_000) });
      await painted(page);
      await page.screenshot({ path: join(SHOTS, `${name}-${size}-full.png`) });
    }
  }
  await page.setViewportSize(DESKTOP);
  await painted(page);
}
