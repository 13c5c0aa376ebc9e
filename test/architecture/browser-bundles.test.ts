import { beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserBundle,
  browserBundles,
  declaredBrowserCode,
  importChain,
  isDeclared,
  SERVER_CATALOGUE,
} from "./browser-code.js";

/**
 * The boundary between browser and Node code: every project file the browser bundles (islands,
 * page scripts, the editor preview, the service worker) pull in is one its folder README marks as browser code, none
 * imports a Node built-in, and none is the server's error catalogue.
 */
describe("browser bundles", () => {
  let bundles: BrowserBundle[] = [];
  const declared = declaredBrowserCode();

  beforeAll(async () => {
    bundles = await browserBundles();
  }, 120_000);

  it("bundles the islands, the page scripts, the preview and the service worker", () => {
    expect(bundles.map((b) => b.name)).toEqual(["islands", "scripts", "preview", "service worker"]);
    const inputs = bundles.flatMap((b) => Object.keys(b.metafile.inputs));
    expect(inputs).toContain("src/client/islands/calculator.tsx");
    expect(inputs).toContain("src/preview-app/entry.ts");
    expect(inputs).toContain("src/zakat/calculate.ts");
  });

  it("pull in only code the folder READMEs mark as browser code", () => {
    const strays = bundles.flatMap((b) =>
      Object.keys(b.metafile.inputs)
        .filter((input) => /^(src|templates)\//.test(input) && !isDeclared(input, declared))
        .map((input) => `${b.name}: ${importChain(b.metafile, input).join(" → ")}`),
    );
    expect(strays, "mark the file `Runs in browsers:` in its folder README, or stop importing it").toEqual([]);
  });

  it("never pull in the server's error catalogue nor a Node built-in", () => {
    const found = bundles.flatMap((b) =>
      Object.entries(b.metafile.inputs)
        .filter(
          ([input, about]) =>
            input === SERVER_CATALOGUE ||
            input.startsWith("node:") ||
            about.imports.some((imp) => imp.path.startsWith("node:") && !imp.external),
        )
        .map(([input]) => `${b.name}: ${importChain(b.metafile, input).join(" → ")}`),
    );
    expect(found).toEqual([]);
  });

  it("names the chain that pulled a file in", () => {
    const metafile = {
      inputs: {
        "src/client/islands/a.tsx": {
          bytes: 1,
          imports: [{ path: "src/zakat/b.ts", kind: "import-statement" as const }],
        },
        "src/zakat/b.ts": { bytes: 1, imports: [{ path: SERVER_CATALOGUE, kind: "import-statement" as const }] },
        [SERVER_CATALOGUE]: { bytes: 1, imports: [] },
      },
      outputs: {},
    };
    expect(importChain(metafile, SERVER_CATALOGUE)).toEqual([
      "src/client/islands/a.tsx",
      "src/zakat/b.ts",
      SERVER_CATALOGUE,
    ]);
  });

  it("reads the README marks", () => {
    expect(isDeclared("src/zakat/calculate.ts", declared)).toBe(true);
    expect(isDeclared("src/core/coded-error.ts", declared)).toBe(true);
    expect(isDeclared(SERVER_CATALOGUE, declared)).toBe(false);
    expect(isDeclared("src/render/render-service.ts", declared)).toBe(false);
  });
});
