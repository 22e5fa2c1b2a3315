import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Axe from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once per test file. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts a screen may not have. */
const BLOCKING = new Set(['serious', 'critical']);

export type Violation = {
  rule: string;
  impact: string;
  help: string;
  /** Each failing element: its CSS path and what axe says is wrong with it. */
  nodes: { target: string; summary: string }[];
};

/**
 * Runs axe-core over the page as it is now and answers its serious and critical violations. The
 * source is injected once per document through the DevTools protocol (the app's CSP forbids inline
 * scripts, and a client-side navigation keeps the document, so it stays).
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE_SOURCE}\n;0`);
  return page.evaluate(
    async (blocking) => {
      const axe = (window as unknown as { axe: typeof Axe }).axe;
      const results = await axe.run(document, { resultTypes: ['violations'] });
      return results.violations
        .filter((violation) => blocking.includes(violation.impact ?? ''))
        .map((violation) => ({
          rule: violation.id,
          impact: violation.impact ?? '',
          help: violation.help,
          nodes: violation.nodes.map((node) => ({
            target: node.target.map(String).join(' '),
            summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
          })),
        }));
    },
    [...BLOCKING],
  );
}

/** A failure message that names the screen, each rule and each element (the first few per rule). */
export function describeViolations(screen: string, violations: Violation[], perRule = 5): string {
  if (violations.length === 0) return `${screen}: no serious or critical violation`;
  const lines = [`${screen}: ${violations.length} serious or critical axe rule(s) fail`];
  for (const violation of violations) {
    lines.push(`  ${violation.rule} (${violation.impact}, ${violation.nodes.length} element(s)): ${violation.help}`);
    for (const node of violation.nodes.slice(0, perRule)) lines.push(`    ${node.target} — ${node.summary}`);
    if (violation.nodes.length > perRule) lines.push(`    … and ${violation.nodes.length - perRule} more`);
  }
  return lines.join('\n');
}
