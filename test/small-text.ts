/** The browser suites' check that no visible text of a page is set under 12 px. */
import type { Page } from 'playwright-core';

const SMALL_TEXT = `(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || el.closest('.sr-only,[hidden]')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 12) out.push(el.tagName.toLowerCase() + '.' + el.className + ': ' + size);
  }
  return [...new Set(out)];
})()`;

/** Visible text of the page set under 12 px, as "tag.class: size" (none is the goal). */
export const smallText = (page: Page): Promise<string[]> => page.evaluate<string[]>(SMALL_TEXT);
