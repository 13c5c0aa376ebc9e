/**
 * HTML_CodeSniffer's WCAG 2 AA rules (pa11y's engine, the `html_codesniffer` package) run inside a
 * page as it is now: its errors, as pa11y reports them by default (warnings and notices left out).
 * The script is put into the page from outside: a context whose pages send a CSP that allows no
 * inline script needs `bypassCSP`.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { addScriptFromPageOrigin } from "./browser.js";

const require = createRequire(import.meta.url);
let source: string | undefined;

/** HTML_CodeSniffer's source (test/support/checker-scripts.ts serves it by address). */
export async function htmlcsSource(): Promise<string> {
  source ??= await readFile(require.resolve("html_codesniffer/build/HTMLCS.js"), "utf8");
  return source;
}

/**
 * `scriptUrl`: load the checker from this address (test/support/checker-scripts.ts). Otherwise from
 * the page's own origin, cached, in a context with the tests' proxy (browser.ts
 * addScriptFromPageOrigin), or inline.
 */
export async function htmlcsErrors(page: Page, options: { scriptUrl?: string } = {}): Promise<string[]> {
  if (options.scriptUrl) await page.addScriptTag({ url: options.scriptUrl });
  else if (!(await addScriptFromPageOrigin(page, "/__htmlcs.js", htmlcsSource)))
    await page.addScriptTag({ content: await htmlcsSource() });
  // HTML_CodeSniffer 2.5.1 looks its autocomplete messages up as "InvalidAutoComplete_*" but
  // names them "InvalidAutocomplete_*": without the alias it throws instead of reporting them.
  await page.evaluate(() => {
    const words = (window as unknown as { translation: Record<string, Record<string, string>> }).translation.en!;
    for (const key of Object.keys(words))
      if (key.includes("InvalidAutocomplete_")) words[key.replace("Autocomplete", "AutoComplete")] ??= words[key]!;
  });
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const cs = (
          window as unknown as {
            HTMLCS: {
              process(standard: string, root: Document, done: () => void, failed: () => void, language: string): void;
              getMessages(): { type: number; code: string; msg: string; element: Element }[];
            };
          }
        ).HTMLCS;
        cs.process(
          "WCAG2AA",
          document,
          () =>
            resolve(
              cs
                .getMessages()
                // 1: error (2 warning, 3 notice), as pa11y reports by default.
                .filter((m) => m.type === 1)
                .map((m) => `${m.code}: ${m.msg} <${m.element?.outerHTML?.slice(0, 120) ?? ""}>`),
            ),
          () => resolve(["HTML_CodeSniffer failed to run"]),
          // Its messages in English (it has no dictionary for "en-au" or "ar-ae").
          "en",
        );
      }),
  );
}
