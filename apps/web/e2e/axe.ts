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

/** What one scan covers. */
export interface ScanScope {
  /** CSS selectors of the parts scanned (the whole page when none). */
  include?: readonly string[];
  /**
   * Colour contrast checked too (the default). A scan of one area's markup may leave it to
   * a11y.e2e.ts, whose walk checks every page's colours, which come from the theme's tokens.
   */
  contrast?: boolean;
}

/**
 * axe's WCAG 2.1 A/AA run over the page (or the parts `include` names). A page without frames
 * gets axe once per document and runs it in place (a walk by hash keeps the document: the scan
 * then costs only the run); a page with frames goes through AxeBuilder, which checks each frame.
 */
async function violationsOf(
  page: Page,
  { include = [], contrast = true }: ScanScope,
): Promise<AxeResults['violations']> {
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page })
      .withTags(wcagTags)
      .options({ resultTypes: ['violations'] });
    for (const selector of include) builder.include(selector);
    if (!contrast) builder.disableRules(['color-contrast']);
    return (await builder.analyze()).violations;
  }
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ tags, include, contrast }) => {
      const { axe } = window as unknown as { axe: typeof AxeCore };
      const context = include.length > 0 ? { include: include.map((s) => [s]) } : document;
      const results = await axe.run(context, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
        ...(contrast ? {} : { rules: { 'color-contrast': { enabled: false } } }),
      });
      return results.violations;
    },
    { tags: wcagTags, include: [...include], contrast },
  );
}

/** The critical and serious WCAG 2.1 A/AA violations on the page (or its scope) as it is now. */
export async function seriousViolations(
  page: Page,
  scope: ScanScope = {},
): Promise<SeriousViolation[]> {
  return (await violationsOf(page, scope))
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
  scope: ScanScope = {},
): Promise<SeriousViolation[]> {
  const found = await seriousViolations(page, scope);
  expect.soft(found, `${label}:\n${describeViolations(found)}`).toEqual([]);
  return found;
}
