/**
 * Which module each page template comes from (src/bundle/template-modules.ts), read from the entry's
 * source: what lets a page template's edit render again only its own pages' bodies. Anything the
 * reader does not follow must give no answer (every page module then counts), never a wrong one.
 */
import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { templateModulesOf } from "../../src/bundle/template-modules.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";

const ENTRY = "templates/entry.tsx";

describe("template modules read from the entry", () => {
  it("names the module of every template of the project's entry", async () => {
    const source = await readFile(join(PROJECT_ROOT, ENTRY), "utf8");
    const imports = [...source.matchAll(/from "\.\/(pages\/[\w-]+)\.js"/g)].map((m) => `templates/${m[1]}.tsx`);
    const modules = templateModulesOf(ENTRY, source, [...imports, "templates/components/layout.tsx"]);
    expect(modules.get("ramadan-calendars")).toBe("templates/pages/static-pages.tsx");
    expect(modules.get("404")).toBe("templates/pages/static-pages.tsx");
    expect(modules.get("partner")).toBe("templates/pages/collections.tsx");
    expect(modules.get("home")).toBe("templates/pages/home.tsx");
    expect(modules.get("thank-you")).toBe("templates/pages/giving.tsx");
    // Every template of the table has its module.
    const table = /export const TEMPLATES[^=]*=\s*\{([^}]*)\}/.exec(source)![1]!;
    const names = table
      .split(",")
      .map((entry) => entry.trim().split(":")[0]!.replaceAll('"', "").trim())
      .filter(Boolean);
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => !modules.has(name))).toEqual([]);
  });

  it("follows renamed imports, quoted names and multi-line imports", () => {
    const source = [
      'import { a as first, b } from "./pages/one.js";',
      "import {",
      "  c,",
      "  d,",
      '} from "./pages/two.js";',
      'export const TEMPLATES: Record<string, T> = { first, "b-name": b, cName: c, d };',
    ].join("\n");
    const modules = templateModulesOf(ENTRY, source, ["templates/pages/one.tsx", "templates/pages/two.ts"]);
    expect(Object.fromEntries(modules)).toEqual({
      first: "templates/pages/one.tsx",
      "b-name": "templates/pages/one.tsx",
      cName: "templates/pages/two.ts",
      d: "templates/pages/two.ts",
    });
  });

  it("gives no answer for what it does not follow", () => {
    const imports = ["templates/pages/one.tsx"];
    // A template made here, not imported: not known.
    expect(
      templateModulesOf(
        ENTRY,
        'import { a } from "./pages/one.js";\nconst made = wrap(a);\nexport const TEMPLATES = { a, made };',
        imports,
      ).has("made"),
    ).toBe(false);
    // A spread or a call in the table: nothing is known.
    expect(
      templateModulesOf(ENTRY, 'import { a } from "./pages/one.js";\nexport const TEMPLATES = { a, ...more };', imports)
        .size,
    ).toBe(0);
    expect(
      templateModulesOf(ENTRY, 'import { a } from "./pages/one.js";\nexport const TEMPLATES = { a: pick(a) };', imports)
        .size,
    ).toBe(0);
    // An import of a file the bundle did not resolve, a namespace import, a type-only import: not known.
    expect(
      templateModulesOf(ENTRY, 'import { a } from "./pages/gone.js";\nexport const TEMPLATES = { a };', imports).size,
    ).toBe(0);
    expect(
      templateModulesOf(
        ENTRY,
        'import * as pages from "./pages/one.js";\nexport const TEMPLATES = { a: pages.a };',
        imports,
      ).size,
    ).toBe(0);
    expect(
      templateModulesOf(ENTRY, 'import type { a } from "./pages/one.js";\nexport const TEMPLATES = { a };', imports)
        .size,
    ).toBe(0);
    // No table at all.
    expect(templateModulesOf(ENTRY, 'import { a } from "./pages/one.js";', imports).size).toBe(0);
  });
});
