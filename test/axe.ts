/**
 * The accessibility check of the browser suites: axe-core (pinned in
 * package.json) is injected into the page as it stands and run over the whole
 * document against WCAG 2.1 A and AA and axe's best practices. A violation of
 * serious or critical impact fails the test, listed with the rule, its help
 * page and the elements it found; minor and moderate ones are not counted.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** What the check reads of axe's answer (the file has no DOM types, so axe's own are not used). */
interface Violation {
  readonly id: string;
  readonly impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  readonly help: string;
  readonly helpUrl: string;
  readonly nodes: readonly {
    readonly target: readonly unknown[];
    readonly failureSummary?: string;
  }[];
}

const RUN = `axe.run(document, {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  resultTypes: ['violations'],
}).then((r) => r.violations.map((v) => ({
  id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
  nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
})))`;

/** One violation as a line a developer can act on: the rule, what it asks, the first elements. */
function explain(v: Violation): string {
  const where = v.nodes
    .slice(0, 5)
    .map(
      (n) =>
        `    ${n.target.join(' ')}${n.failureSummary ? `: ${n.failureSummary.split('\n').slice(1).join(' ').trim()}` : ''}`,
    )
    .join('\n');
  const more = v.nodes.length > 5 ? `\n    … and ${v.nodes.length - 5} more` : '';
  return `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${where}${more}`;
}

/**
 * Fails the test when axe finds a serious or critical violation on the page as
 * it shows now (`name` says which page and state, for the message). The
 * assertion is soft: the test goes on, so one run lists every page's findings.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<Violation[]>(RUN);
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect
    .soft(grave.length, `accessibility of ${name}:\n${grave.map(explain).join('\n')}\n`)
    .toBe(0);
}
