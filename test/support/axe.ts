/**
 * Runs axe-core inside a page and returns WCAG 2.2 A/AA violations in a readable form.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { addScriptFromPageOrigin } from "./browser.js";

const require = createRequire(import.meta.url);
let source: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's source, for a test that serves it from the site's origin (a page under a CSP that allows no inline script). */
export async function axeSource(): Promise<string> {
  source ??= await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  return source;
}

/**
 * Loads axe-core into the page, unless it is there: from the page's own origin, cached, in a
 * context with the tests' proxy (browser.ts addScriptFromPageOrigin); otherwise its source is
 * evaluated through the DevTools protocol (which no CSP refuses).
 */
export async function loadAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => "axe" in window)) return;
  if (await addScriptFromPageOrigin(page, "/__axe-core.js", axeSource)) return;
  await page.evaluate(await axeSource());
}

/** `scriptUrl`: load axe-core from this address (one the test serves axeSource() at) instead. */
export async function axeViolations(page: Page, options: { scriptUrl?: string } = {}): Promise<AxeViolation[]> {
  if (options.scriptUrl) await page.addScriptTag({ url: options.scriptUrl });
  else await loadAxe(page);
  return runAxe(page);
}

export function formatViolations(url: string, violations: AxeViolation[]): string {
  return violations.map((v) => `${url}: [${v.id}] ${v.help} → ${v.targets.slice(0, 3).join(", ")}`).join("\n");
}

/** Runs axe-core, already loaded in the page, for WCAG 2.2 AA and returns its violations. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    return axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
      // Only the violations are read: passes, incomplete and inapplicable are then summed up with
      // one node each instead of described node by node (the same violations, in about half the time).
      resultTypes: ["violations"],
    });
  });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")),
  }));
}
