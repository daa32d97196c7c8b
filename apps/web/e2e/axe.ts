import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { AxeResults, default as AxeCore } from 'axe-core';
import { expect } from './fixtures';

/** The rules of WCAG 2.1 levels A and AA (issue 29). */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core's own build, the one @axe-core/playwright injects. */
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** One critical or serious violation of one rule on one page view. */
export interface SeriousViolation {
  rule: string;
  impact: 'critical' | 'serious';
  help: string;
  /** CSS selectors of the elements that break the rule (the first few). */
  targets: string[];
}

/**
 * axe's WCAG 2.1 A/AA run over the page. A page without frames gets axe once per document and
 * runs it in place (a walk by hash keeps the document: the scan then costs only the run); a page
 * with frames goes through AxeBuilder, which checks each frame.
 */
async function violationsOf(page: Page): Promise<AxeResults['violations']> {
  if (page.frames().length > 1) {
    const { violations } = await new AxeBuilder({ page })
      .withTags(wcagTags)
      .options({ resultTypes: ['violations'] })
      .analyze();
    return violations;
  }
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: typeof AxeCore };
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return results.violations;
  }, wcagTags);
}

/** The critical and serious WCAG 2.1 A/AA violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<SeriousViolation[]> {
  return (await violationsOf(page))
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({
      rule: v.id,
      impact: v.impact as 'critical' | 'serious',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((node) => node.target.map(String).join(' ')),
    }));
}

/** One line per violation: rule, impact, the elements. */
export function describeViolations(violations: readonly SeriousViolation[]): string {
  return violations
    .map((v) => `${v.rule} (${v.impact}): ${v.help}\n    ${v.targets.join('\n    ')}`)
    .join('\n');
}

/**
 * Fails (softly, so one walk reports every page view) on any critical or serious violation,
 * naming the page view (`label`), the rule, its impact and the elements; answers what it found.
 */
export async function expectNoSeriousViolations(
  page: Page,
  label: string,
): Promise<SeriousViolation[]> {
  const found = await seriousViolations(page);
  expect.soft(found, `${label}:\n${describeViolations(found)}`).toEqual([]);
  return found;
}
