/**
 * docs/configuration.md and README.md show the settings tables generated from the declaration
 * (src/cli/options-doc.ts), so the docs cannot drift from the code. With UPDATE_OPTIONS_DOCS=1
 * the test rewrites the tables instead of failing.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { flagName, OPTIONS, type OptionSpec } from "../../src/core/options.js";
import { generatedTables, withGeneratedTables } from "../../src/cli/options-doc.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";

const FILES = {
  "docs/configuration.md": ["content", "site", "accounts", "payments", "watch", "webhook", "api"],
  "README.md": ["readme"],
};

describe("the settings tables in the docs", () => {
  it.each(Object.entries(FILES))("%s shows the generated tables", async (file, names) => {
    const path = join(PROJECT_ROOT, file);
    const text = await readFile(path, "utf8");
    for (const name of names)
      expect(text, `${file} has the marker of the ${name} table`).toContain(`<!-- options:${name} -->`);
    const expected = withGeneratedTables(text, generatedTables());
    if (process.env.UPDATE_OPTIONS_DOCS && expected !== text) await writeFile(path, expected);
    else expect(text, `run UPDATE_OPTIONS_DOCS=1 npx vitest run test/cli/options-docs.test.ts`).toBe(expected);
  });

  it("docs/configuration.md names every declared flag and variable, and no other", async () => {
    const text = await readFile(join(PROJECT_ROOT, "docs/configuration.md"), "utf8");
    const settings = text.slice(0, text.indexOf("## Tests"));
    // The first two columns of every table row: the variables and the flag.
    const named = new Set(
      settings
        .split("\n")
        .filter((line) => line.startsWith("| "))
        .flatMap(
          (line) =>
            line
              .split(" | ")
              .slice(0, 2)
              .join(" ")
              .match(/`[^`]+`/g) ?? [],
        )
        .map((name) => name.slice(1, -1)),
    );
    const declared = new Set(
      (OPTIONS as readonly OptionSpec[]).flatMap((s) =>
        [flagName(s), ...(s.env ?? [])].filter((n): n is string => Boolean(n)),
      ),
    );
    expect([...named].sort()).toEqual([...declared].sort());
  });
});
